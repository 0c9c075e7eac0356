//! `cargo xtask test`: every check and every test, with one closing count.

use crate::bundle::{self, main_module_without_document};
use crate::servers::Servers;
use std::time::{Duration, Instant};

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
/// the first failing step stops the run. What waits on the network or on one core (Debian's
/// packages, npm, the Python venvs, the manual's page cache) goes on in a second thread beside
/// the Rust builds, and is waited for before the first test that needs it.
fn run_all() -> Result<(), String> {
    let mut phases = Phases::default();
    let mut tally = Tally::default();
    let result = everything(&mut phases, &mut tally);
    tally.print_failures();
    phases.print();
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

fn everything(phases: &mut Phases, tally: &mut Tally) -> Result<(), String> {
    phases.time("repository checks (paths, layers, main module)", || {
        // First and cheap: a reference outside the repository fails on a fresh clone anyway.
        paths::check_repository()?;
        // As cheap: an import circle between modules, or a module above its stated layer,
        // fails before anything is built.
        layers::check_repository()?;
        // And the main browser module must not depend on the document crate.
        main_module_without_document()
    })?;
    // rustup's part first: nothing else may run rustup meanwhile.
    phases.time("toolchains (wasm target, nightly)", setup::toolchains)?;
    let beside = std::thread::spawn(|| {
        let started = Instant::now();
        let prepared = beside_the_builds();
        (prepared, started.elapsed())
    });
    let built = builds(phases);
    // Joined on every path, so that no install is left running when a build step failed.
    let waited = Instant::now();
    let (prepared, took) = beside
        .join()
        .map_err(|_| "the installs beside the builds panicked".to_string())?;
    phases.beside = Some((took, waited.elapsed()));
    built?;
    tests(phases, tally, &prepared?)
}

/// The machine's packages and checks, the npm packages, and the venvs of the connector tests'
/// servers and of the ranx check: network and single-core work, run beside [`builds`]. Gives
/// the connector tests' servers.
fn beside_the_builds() -> Result<Servers, String> {
    setup::machine()?;
    setup::npm_packages()?;
    // The connector tests run the real LangServe and Hayhooks servers from this venv.
    let servers = Servers::prepare()?;
    ranx::prepare()?;
    Ok(servers)
}

/// The cargo-installed tools, then format, lints, the API listing and every build the tests
/// start from.
fn builds(phases: &mut Phases) -> Result<(), String> {
    phases.time(
        "cargo install (trunk, wasm-bindgen-cli, cargo-fuzz)",
        setup::cargo_tools,
    )?;
    phases.time("cargo fmt --check", || {
        exec(cmd("cargo", &["fmt", "--all", "--", "--check"]))
    })?;
    phases.time("cargo clippy, the workspace", || {
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
        ))
    })?;
    // A change to the core's public API must come with its listing
    // (crates/figeval/public-api.txt).
    phases.time("public API listing", api::check)?;
    // The scoring core and the document crate must build for the browser as they build
    // natively, and with each feature combination a shipped artifact takes: what a feature
    // leaves out must leave nothing unused or broken behind.
    phases.time("the core for wasm and per feature set", || {
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
        core_combinations()
    })?;
    // Every binary first: the end-to-end tests start figeval and refsearch.
    phases.time("cargo build, the binaries", || {
        exec(cmd("cargo", &["build", "--workspace", "--bins"]))
    })
}

/// The cargo tests, the ranx check, the browser tests and the fuzz targets; each runs even when
/// an earlier one failed, so one run names every failure.
fn tests(phases: &mut Phases, tally: &mut Tally, servers: &Servers) -> Result<(), String> {
    let cargo_result = phases.time("cargo test, the workspace", || {
        let mut test = cmd("cargo", &["test", "--workspace", "--no-fail-fast"]);
        test.env("RUST_BACKTRACE", "1");
        servers.apply(&mut test);
        run_lines(test, |l| tally.read(l))
    });
    // figeval export against an independent implementation (ranx, from PyPI).
    let ranx_result = phases.time("ranx and ir_measures", ranx::check);
    let browser_result = phases.time("trunk build and the browser tests", || {
        browser_tests(tally, servers)
    });
    let fuzz_result = phases.time("fuzz targets", fuzz_briefly);
    cargo_result
        .and(ranx_result)
        .and(browser_result)
        .and(fuzz_result)
}

/// Where a run's time goes: each phase's wall-clock time, printed at the end, so that a slow
/// step shows in the CI log (CONTRIBUTING.md records a fresh machine's).
#[derive(Default)]
struct Phases {
    done: Vec<(&'static str, Duration)>,
    /// How long the installs beside the builds took, and how long the builds then waited for
    /// them.
    beside: Option<(Duration, Duration)>,
    started: Option<Instant>,
}

impl Phases {
    /// Runs one phase and records its time, whatever it returns.
    fn time<T>(&mut self, name: &'static str, phase: impl FnOnce() -> T) -> T {
        let now = Instant::now();
        self.started.get_or_insert(now);
        eprintln!("xtask: phase: {name}");
        let out = phase();
        self.done.push((name, now.elapsed()));
        out
    }

    /// The table of phases, in the order they ran, with the whole run's time.
    fn print(&self) {
        println!("\n{}", self.table());
    }

    fn table(&self) -> String {
        let mut out = String::from("where the time went (wall clock):\n");
        let line = |out: &mut String, d: Duration, what: &str| {
            out.push_str(&format!("  {:>7.1} s  {what}\n", d.as_secs_f64()));
        };
        for (name, took) in &self.done {
            line(&mut out, *took, name);
        }
        if let Some((took, waited)) = self.beside {
            line(
                &mut out,
                took,
                "beside the builds: Debian packages, npm, venvs, page cache",
            );
            line(&mut out, waited, "the builds waiting for them");
        }
        if let Some(started) = self.started {
            line(&mut out, started.elapsed(), "in all");
        }
        out
    }
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
///
/// The targets are built once, then run as many at a time as the machine has cores (libFuzzer
/// uses one each), each writing to its own log under the target folder; a target's closing
/// statistics are printed when it ends, and its whole log when it fails.
pub fn fuzz_briefly() -> Result<(), String> {
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
    exec(cmd(
        "cargo",
        &["+nightly", "fuzz", "build", "--fuzz-dir", "fuzz"],
    ))?;
    let at_once = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let logs = sh::target_dir().join("fuzz-logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let mut failures = Vec::new();
    for batch in targets.chunks(at_once) {
        let mut running = Vec::new();
        for target in batch {
            let log = logs.join(format!("{target}.log"));
            running.push((*target, log.clone(), start_fuzzing(target, &log)?));
        }
        for (target, log, mut child) in running {
            let status = child.wait();
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            match status {
                Ok(s) if s.success() => {
                    eprintln!("xtask: fuzz target {target} ran {FUZZ_SECONDS} s without a crash:");
                    for l in closing_lines(&text) {
                        eprintln!("  {l}");
                    }
                }
                failed => {
                    eprintln!("{text}");
                    failures.push(format!(
                        "fuzz target {target} failed ({failed:?}); its log: {}",
                        log.display()
                    ));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// Starts one fuzz target for [`FUZZ_SECONDS`], its output going to `log`.
fn start_fuzzing(target: &str, log: &std::path::Path) -> Result<sh::Guard, String> {
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
    let out =
        std::fs::File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    fuzz.stdout(out).stderr(err);
    eprintln!(
        "$ cargo +nightly fuzz run --fuzz-dir fuzz {target} … > {}",
        log.display()
    );
    sh::spawn(&mut fuzz).map(sh::Guard)
}

/// libFuzzer's closing lines: `Done N runs in S second(s)` and the `stat::` lines.
fn closing_lines(log: &str) -> impl Iterator<Item = &str> {
    log.lines()
        .filter(|l| l.starts_with("Done ") || l.starts_with("stat::"))
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
    use std::time::Duration;

    use super::{closing_lines, Phases, Tally};

    #[test]
    fn the_phase_table_lists_each_phase_in_order_and_what_ran_beside_the_builds() {
        let mut p = Phases::default();
        let got: Result<u8, String> = p.time("first", || Ok(7));
        assert_eq!(got, Ok(7));
        let failed: Result<(), String> = p.time("second", || Err("broken".into()));
        assert!(failed.is_err());
        p.beside = Some((Duration::from_secs(90), Duration::from_millis(1500)));
        let table = p.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines[0], "where the time went (wall clock):");
        assert!(lines[1].ends_with("s  first"), "{table}");
        assert!(
            lines[2].ends_with("s  second"),
            "a failed phase is timed too: {table}"
        );
        assert!(lines[3].contains("90.0 s  beside the builds"), "{table}");
        assert!(lines[4].contains("1.5 s  the builds waiting"), "{table}");
        assert!(lines[5].ends_with("s  in all"), "{table}");
        assert_eq!(lines.len(), 6, "{table}");
    }

    #[test]
    fn a_fuzz_log_is_summed_up_by_libfuzzers_closing_lines() {
        let log = "INFO: Seed: 1\n#2 INITED cov: 10\nDone 214130 runs in 31 second(s)\nstat::number_of_executed_units: 214130\nstat::peak_rss_mb: 80\n";
        let lines: Vec<&str> = closing_lines(log).collect();
        assert_eq!(
            lines,
            [
                "Done 214130 runs in 31 second(s)",
                "stat::number_of_executed_units: 214130",
                "stat::peak_rss_mb: 80"
            ]
        );
    }

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
