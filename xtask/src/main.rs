//! The project's own tasks, in Rust rather than a pile of shell scripts.
//!
//! - `cargo xtask test`: installs what is missing on a fresh machine, then runs every check and
//!   every test (format, lints, the wasm build of the core, unit, property, CLI, end-to-end and
//!   browser tests) and closes with one `N passed, N failed` line. CI runs it.
//! - `cargo xtask test --quick`: the contributor's loop, minutes on a warm build: the unit,
//!   property, CLI and end-to-end Rust tests that need no browser, no fuzzing, no network and
//!   no root (nothing is installed), with the same closing line.
//! - `cargo xtask demo`: installs what is missing, starts `refsearch` on the Octave manual, runs
//!   the eval with figures off and on, prints both summaries and the comparison, then serves
//!   the browser app through `figeval serve` with both runs pushed and prints their `/c/` link.
//! - `cargo xtask setup`: only the installation step.
//! - `cargo xtask paths`: only the check that no tracked file refers outside the repository
//!   (contract §11), which `test` runs first.
//! - `cargo xtask circles`: only the check that no module of any crate uses, through a chain,
//!   a module that uses it back (`circles.rs`), nor one on a layer above its own in the order
//!   ARCHITECTURE.md states (`layers.rs`), which `test` runs right after `paths`.
//! - `cargo xtask api`: only the check that the core's public API is what
//!   `crates/figeval/public-api.txt` lists (`api.rs`, from rustdoc's JSON on nightly), which
//!   `test` runs after the lints; `cargo xtask api --write` rewrites the listing.
//! - `cargo xtask ranx`: only the check of `figeval export` against ranx (PyPI, in a venv under
//!   the target folder), which `test` runs after the cargo tests; needs `target/debug/figeval`.
//! - `cargo xtask servers`: only the making of the LangServe and Hayhooks test servers' venv
//!   and of the Octave manual's page cache (both under the target folder), which `test` does
//!   before the cargo tests; prints the two variables that `tests/connectors.rs` reads.
//! - `cargo xtask fuzz`: only the fuzz targets, each for 30 s from its seed corpus, as many at a
//!   time as the machine has cores (up to 4), which `test` runs last; needs nightly and
//!   cargo-fuzz (`cargo xtask setup`).
//! - `cargo xtask bundle`: only the browser app's budgets (`bundle.rs`): the main module
//!   (`figeval-web`) does not depend on the document crate (`cargo tree`, which `test` checks
//!   right after `circles`); what a `#report=` link fetches (the `.wasm` and `.js` at the top of
//!   `dist/`, gzip -9) is at most 220,000 bytes, and each module loaded on demand (`dist/work`,
//!   `doc`, `runs`, `connect`) within its own budget (which `test` checks after its
//!   `trunk build`); needs a `dist/` from `trunk build --release --offline`.
//!
//! SIGINT (Ctrl-C) or SIGTERM stops every child the task started before it exits.

use std::process::ExitCode;

mod api;
mod bundle;
mod circles;
mod demo;
mod layers;
mod paths;
mod ranx;
mod servers;
mod setup;
mod sh;
mod test;
mod venv;

fn main() -> ExitCode {
    // Ctrl-C or SIGTERM stops every child (refsearch, builds, runs) before the task exits.
    if let Err(e) = sh::stop_children_on_signals() {
        eprintln!("xtask: {e}");
        return ExitCode::FAILURE;
    }
    // Read as OS strings: a path given to the demo (`--out`, `--bins`) need not be UTF-8, and
    // `std::env::args` would panic on one that is not.
    let raw: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let args: Vec<String> = raw
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup::all(),
        Some("test") => test::run(&args[1..]),
        Some("paths") => paths::check_repository(),
        Some("circles") => layers::check_repository(),
        Some("api") => api::run(&args[1..]),
        Some("ranx") => ranx::check(),
        Some("servers") => servers::print_env(),
        Some("fuzz") => test::fuzz_briefly(),
        Some("bundle") => bundle::main_module_without_document()
            .and_then(|()| bundle::within_budgets(&sh::root().join("dist"))),
        Some("demo") => demo::run(&raw[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <setup|test [--quick]|paths|circles|api [--write]|ranx|servers|fuzz|bundle|demo [--no-serve] [--listen ADDR] [--web-port PORT] [--out DIR] [--bins DIR]>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}
