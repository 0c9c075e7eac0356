//! `cargo xtask test`: every check and every test, with one closing count.

use crate::bundle::{self, main_module_without_document};
use crate::servers::Servers;
use crate::sh::{self, cmd, exec, run_lines};
use crate::{api, layers, paths, ranx, setup};

/// Pass and fail counts gathered from the test runners' own summary lines.
#[derive(Default)]
struct Tally {
    passed: u64,
    failed: u64,
    skipped: u64,
    /// The test binary cargo runs now (its `Running …` line), to name a failure by.
    running: String,
    /// Every failed test by name, as cargo (`test NAME ... FAILED`, with its binary) or node's
    /// TAP reporter (`not ok N - NAME`) printed it: the run's last lines name them, so a long
    /// log's tail says what failed.
    failures: Vec<String>,
}

impl Tally {
    /// Reads `test result: ok. 12 passed; 0 failed; …` (cargo) and `# pass 3` / `# fail 0`
    /// (node's test runner), and remembers the name of each failed test.
    fn read(&mut self, line: &str) {
        if let Some(binary) = line.trim_start().strip_prefix("Running ") {
            self.running = binary.split(" (").next().unwrap_or(binary).to_string();
        } else if let Some(name) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.strip_suffix(" ... FAILED"))
        {
            self.failures.push(format!("{}: {name}", self.running));
        } else if let Some(rest) = line.strip_prefix("not ok ") {
            let name = rest.split_once(" - ").map_or(rest, |(_, name)| name);
            self.failures.push(format!("browser: {name}"));
        }
        let num = |s: &str| {
            s.trim()
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|n| n.parse::<u64>().ok())
        };
        if let Some(rest) = line.strip_prefix("test result: ") {
            for part in rest.split(';') {
                let part = part
                    .trim()
                    .trim_start_matches("ok.")
                    .trim_start_matches("FAILED.")
                    .trim();
                if let Some(n) = part.strip_suffix(" passed").and_then(num) {
                    self.passed += n;
                } else if let Some(n) = part.strip_suffix(" failed").and_then(num) {
                    self.failed += n;
                }
            }
        } else if let Some(n) = line.strip_prefix("# pass ").and_then(num) {
            self.passed += n;
        } else if let Some(n) = line.strip_prefix("# fail ").and_then(num) {
            self.failed += n;
        } else if let Some(n) = line
            .strip_prefix("# skipped ")
            .or_else(|| line.strip_prefix("# skip "))
            .and_then(num)
        {
            self.skipped += n;
        }
    }
}

impl Tally {
    /// Prints the failed tests by name, one a line, if any failed.
    fn print_failures(&self) {
        if !self.failures.is_empty() {
            println!("\nfailed tests:");
            for name in &self.failures {
                println!("  {name}");
            }
        }
    }
}

/// `cargo xtask test` (everything) or `cargo xtask test --quick` (the fast loop).
pub fn run(args: &[String]) -> Result<(), String> {
    match args {
        [] => run_all(),
        [flag] if flag == "--quick" => run_quick(),
        _ => Err(format!(
            "unknown arguments {args:?}: cargo xtask test [--quick]"
        )),
    }
}

/// The end-to-end test targets `--quick` leaves out, and why: they need the network.
const NEEDS_NETWORK: &[(&str, &str)] = &[(
    "connectors",
    "the LangServe and Hayhooks venv comes from PyPI",
)];

/// The fast loop: every unit, property, CLI and end-to-end Rust test that needs no browser, no
/// fuzzing, no network and no root (nothing is installed; the Octave manual is only checked),
/// closing with the same `N passed, N failed` line.
fn run_quick() -> Result<(), String> {
    paths::check_repository()?;
    layers::check_repository()?;
    main_module_without_document()?;
    // The API listing needs nightly's rustdoc, which --quick does not install.
    if sh::answers("cargo", &["+nightly", "--version"]).is_some() {
        api::check()?;
    } else {
        eprintln!("xtask: --quick leaves out the API listing check: no nightly toolchain (cargo xtask setup installs it)");
    }
    setup::octave_manual()?;
    let mut tally = Tally::default();
    let result = quick_steps(&mut tally);
    tally.print_failures();
    println!(
        "\nfigeval (quick): {} passed, {} failed",
        tally.passed, tally.failed
    );
    result?;
    if tally.passed == 0 {
        return Err("no test ran".into());
    }
    Ok(())
}

fn quick_steps(tally: &mut Tally) -> Result<(), String> {
    // The end-to-end tests start figeval and refsearch.
    exec(cmd("cargo", &["build", "--workspace", "--bins"]))?;
    let mut unit = cmd(
        "cargo",
        &[
            "test",
            "--workspace",
            "--exclude",
            "figeval-e2e",
            "--no-fail-fast",
        ],
    );
    unit.env("RUST_BACKTRACE", "1");
    let unit_result = run_lines(unit, |l| tally.read(l));
    let targets = e2e_targets()?;
    let mut args = vec!["test", "-p", "figeval-e2e", "--no-fail-fast", "--lib"];
    for t in &targets {
        if NEEDS_NETWORK.iter().all(|(name, _)| name != t) {
            args.extend(["--test", t]);
        }
    }
    for (name, why) in NEEDS_NETWORK {
        eprintln!("xtask: --quick leaves out tests/{name}.rs: {why}");
    }
    let mut e2e = cmd("cargo", &args);
    e2e.env("RUST_BACKTRACE", "1");
    let e2e_result = run_lines(e2e, |l| tally.read(l));
    unit_result.and(e2e_result)
}

/// The test targets of `figeval-e2e` (tests/Cargo.toml), from `cargo metadata`.
fn e2e_targets() -> Result<Vec<String>, String> {
    let text = sh::stdout_of(cmd(
        "cargo",
        &["metadata", "--no-deps", "--format-version", "1"],
    ))?;
    let meta: serde_json::Value = serde_json::from_slice(&text)
        .map_err(|e| format!("cargo metadata printed no JSON: {e}"))?;
    let targets: Vec<String> = meta["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["name"] == "figeval-e2e")
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter(|t| {
            t["kind"]
                .as_array()
                .is_some_and(|k| k.iter().any(|k| k == "test"))
        })
        .filter_map(|t| t["name"].as_str().map(String::from))
        .collect();
    if targets.is_empty() {
        return Err("cargo metadata lists no test target of figeval-e2e".into());
    }
    Ok(targets)
}

/// Checks that the repository stands alone, installs what is missing, then runs everything;
/// the first failing step stops the run.
fn run_all() -> Result<(), String> {
    // First and cheap: a reference outside the repository fails on a fresh clone anyway.
    paths::check_repository()?;
    // As cheap: an import circle between modules, or a module above its stated layer, fails
    // before anything is built.
    layers::check_repository()?;
    // And the main browser module must not depend on the document crate.
    main_module_without_document()?;
    setup::all()?;
    let mut tally = Tally::default();
    let result = steps(&mut tally);
    tally.print_failures();
    println!(
        "\nfigeval: {} passed, {} failed",
        tally.passed, tally.failed
    );
    result?;
    if tally.passed == 0 {
        return Err("no test ran".into());
    }
    Ok(())
}

fn steps(tally: &mut Tally) -> Result<(), String> {
    exec(cmd("cargo", &["fmt", "--all", "--", "--check"]))?;
    exec(cmd(
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    ))?;
    // A change to the core's public API must come with its listing (crates/figeval/public-api.txt).
    api::check()?;
    // The scoring core and the document crate must build for the browser as they build natively.
    exec(cmd(
        "cargo",
        &[
            "build",
            "-p",
            "figeval",
            "-p",
            "figeval-document",
            "--target",
            "wasm32-unknown-unknown",
        ],
    ))?;
    // And with each feature combination a shipped artifact takes: what a feature leaves out
    // must leave nothing unused or broken behind.
    core_combinations()?;
    // Builds every binary first: the end-to-end tests start figeval and refsearch.
    exec(cmd("cargo", &["build", "--workspace", "--bins"]))?;
    // The connector tests run the real LangServe and Hayhooks servers from this venv.
    let servers = Servers::prepare()?;
    let mut test = cmd("cargo", &["test", "--workspace", "--no-fail-fast"]);
    test.env("RUST_BACKTRACE", "1");
    servers.apply(&mut test);
    let cargo_result = run_lines(test, |l| tally.read(l));
    // figeval export against an independent implementation (ranx, from PyPI).
    let ranx_result = ranx::check();
    let browser_result = browser_tests(tally, &servers);
    let fuzz_result = fuzz_briefly();
    cargo_result
        .and(ranx_result)
        .and(browser_result)
        .and(fuzz_result)
}

/// The core's feature combinations that shipped artifacts build it with, as
/// crates/figeval/Cargo.toml lists them: (features, target, who takes it). A native one is
/// checked with its tests.
const CORE_COMBINATIONS: &[(&str, &str, &str)] = &[
    (
        "",
        "wasm32-unknown-unknown",
        "the page's main module, web/work and web/runs",
    ),
    (
        "connectors",
        "wasm32-unknown-unknown",
        "web/doc and web/connect",
    ),
    ("connectors,native-speed", "native", "the command line"),
    ("connectors", "native", "the fuzz targets"),
    (
        "",
        "native",
        "`default`, as `cargo test -p figeval` builds it",
    ),
];

/// Clippy over the core with each of [`CORE_COMBINATIONS`], warnings denied.
fn core_combinations() -> Result<(), String> {
    for (features, target, who) in CORE_COMBINATIONS {
        eprintln!("xtask: the core as {who} builds it (features [{features}], {target})");
        let mut args = vec!["clippy", "-p", "figeval", "--features", features];
        if *target == "native" {
            args.push("--all-targets");
        } else {
            args.extend(["--target", target]);
        }
        args.extend(["--", "-D", "warnings"]);
        exec(cmd("cargo", &args))?;
    }
    Ok(())
}

/// How long CI runs each fuzz target.
const FUZZ_SECONDS: u32 = 30;

/// Runs every cargo-fuzz target for [`FUZZ_SECONDS`] from its checked-in seed corpus; a crash
/// fails the run (libFuzzer exits non-zero and leaves the input in `fuzz/artifacts/`).
fn fuzz_briefly() -> Result<(), String> {
    let list = sh::answers("cargo", &["+nightly", "fuzz", "list", "--fuzz-dir", "fuzz"])
        .ok_or("`cargo +nightly fuzz list` failed: is the nightly toolchain installed?")?;
    let targets: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if targets.is_empty() {
        return Err("no fuzz target found in fuzz/".into());
    }
    for target in targets {
        // New inputs go to a scratch folder; the checked-in seeds stay small.
        let scratch = sh::target_dir().join("fuzz-corpus").join(target);
        std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
        let seeds = format!("fuzz/corpus/{target}");
        let time = format!("-max_total_time={FUZZ_SECONDS}");
        let mut fuzz = cmd(
            "cargo",
            &["+nightly", "fuzz", "run", "--fuzz-dir", "fuzz", target],
        );
        fuzz.arg(&scratch).args([
            &seeds,
            "--",
            &time,
            "-timeout=10",
            "-dict=fuzz/dicts/figeval.dict",
            "-print_final_stats=1",
        ]);
        exec(fuzz)?;
    }
    Ok(())
}

/// Builds the browser app with Trunk and runs the browser tests against it.
fn browser_tests(tally: &mut Tally, servers: &Servers) -> Result<(), String> {
    let root = sh::root();
    if !root.join("Trunk.toml").exists() {
        return Err("Trunk.toml is missing: the browser app cannot be built".into());
    }
    exec(cmd("trunk", &["build", "--release", "--offline"]))?;
    // One build makes the five WebAssembly modules: the app and the four it loads on demand
    // (web/README.md). Measured before the tests (which may write into dist/), reported after
    // them: a module that is missing or past its budget fails the suite without hiding what the
    // browser tests found.
    let budget = bundle::within_budgets(&root.join("dist"));
    let bins = sh::target_dir().join("debug");
    let mut node = cmd("node", &["--test", "--test-reporter=tap", "tests/browser/"]);
    node.env("FIGEVAL_DIST", root.join("dist"))
        .env("FIGEVAL_BIN", bins.join("figeval"))
        .env("REFSEARCH_BIN", bins.join("refsearch"))
        .env(testkit::manual::ENV, testkit::manual::path());
    // connect.test.mjs runs the real LangServe server from the servers' venv.
    servers.apply(&mut node);
    let skipped_before = tally.skipped;
    run_lines(node, |l| tally.read(l.trim_start()))?;
    // A browser test skips itself when what it needs is missing; here everything is built,
    // so a skip means a broken set-up and must not pass unseen.
    match tally.skipped - skipped_before {
        0 => budget,
        n => Err(format!(
            "{n} browser test(s) skipped: their prerequisites are missing"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::Tally;

    #[test]
    fn the_tally_reads_cargo_and_node_summaries() {
        let mut t = Tally::default();
        t.read("test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.1s");
        t.read("test result: FAILED. 3 passed; 2 failed; 0 ignored");
        t.read("# pass 4");
        t.read("# fail 1");
        t.read("# skip 2");
        t.read("# skipped 1");
        t.read("ok 1 - something passed");
        assert_eq!((t.passed, t.failed, t.skipped), (19, 3, 3));
        assert!(t.failures.is_empty(), "{:?}", t.failures);
    }

    #[test]
    fn the_tally_names_each_failed_test_with_its_binary() {
        let mut t = Tally::default();
        t.read("     Running tests/ground.rs (target/debug/deps/ground-1a2b3c)");
        t.read("test the_manual_grounds ... ok");
        t.read("test an_offset_is_found ... FAILED");
        t.read("   Doc-tests figeval");
        t.read("not ok 3 - a shared link loads");
        t.read("ok 4 - the report shows");
        assert_eq!(
            t.failures,
            [
                "tests/ground.rs: an_offset_is_found",
                "browser: a shared link loads"
            ]
        );
    }
}
