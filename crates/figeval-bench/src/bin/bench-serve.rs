//! `bench-serve`: the team server (`figeval serve`, contract §15) on SQLite and on PostgreSQL.
//! See README.md.
//!
//! For each store, against one real `figeval serve` (release build) on 127.0.0.1:0:
//!
//! 1. **The floor.** `GET /api/health` (an HTTP request and one store query) from the same
//!    clients: what any request costs. Every figure below is also printed as a ratio to it.
//! 2. **Pushes per second.** [`RUNS`] pushes of a real report (the test fixture's, scored by
//!    `figeval score`) from [`CLIENTS`] clients at once, each checked by `Report::parse` and
//!    stored in one transaction; also the core's own check of that report in this process,
//!    one thread, as a second floor.
//! 3. **The first page of 10,000 runs.** `GET /api/runs?limit=100` over the stored runs,
//!    then filtered by dataset and by a label, one client, [`LIST_REPS`] times each: median
//!    and 95th percentile against the floor's.
//!
//! Then **a soak** (`--soak-secs`, default 600) against one server on SQLite: mixed pushes and
//! reads (one push in four requests; the rest list the first page or read a run) from
//! [`CLIENTS`] clients; every answer must be 201 or 200, and the server's resident set over the
//! last tenth of the soak may be at most [`SOAK_RSS_DRIFT_MAX`] times that of the tenth after
//! the warm-up ([`WARM_TENTHS`]); the peak of every tenth is printed.
//!
//! ```text
//! cargo build --release -p figeval-cli -p figeval-bench && target/release/bench-serve
//!     [--runs 10000] [--store sqlite|postgres|both] [--soak-secs 600] [--only store|soak]
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use figeval_bench::procfs::{peak_between, Sampler};
use figeval_bench::{sibling, verdict, work_dir, workspace_root};
use testkit::serve::Served;

/// Runs stored before the listing is timed.
const RUNS: usize = 10_000;
/// Clients pushing (and soaking) at once.
const CLIENTS: usize = 8;
/// Listings timed per filter.
const LIST_REPS: usize = 200;
/// The server's RSS peak over the soak's last tenth, at most this times the peak of the tenth
/// after the warm-up ([`WARM_TENTHS`]).
const SOAK_RSS_DRIFT_MAX: f64 = 1.10;
/// Tenths of the soak that are its warm-up: SQLite's page caches (2 MB a connection, 8
/// connections) and the allocator's per-thread heaps fill while the store grows from nothing
/// (measured: +10 MB over the first four minutes of ten, then flat). A leak grows through the
/// whole soak, so the second half shows it.
const WARM_TENTHS: usize = 4;
/// The issue's target for the page's first page of 10,000 runs; the API must leave it room.
const PAGE_TARGET_MS: f64 = 300.0;

struct Options {
    runs: usize,
    stores: Vec<&'static str>,
    soak_secs: u64,
    only: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        runs: RUNS,
        stores: vec!["sqlite", "postgres"],
        soak_secs: 600,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--runs" => o.runs = value()?.parse().map_err(|e| format!("--runs: {e}"))?,
            "--soak-secs" => {
                o.soak_secs = value()?.parse().map_err(|e| format!("--soak-secs: {e}"))?
            }
            "--store" => {
                o.stores = match value()?.as_str() {
                    "sqlite" => vec!["sqlite"],
                    "postgres" => vec!["postgres"],
                    "both" => vec!["sqlite", "postgres"],
                    other => return Err(format!("--store {other:?}: sqlite, postgres or both")),
                }
            }
            "--only" => o.only = Some(value()?),
            other => {
                return Err(format!(
                    "unknown flag {other}: bench-serve [--runs N] [--store sqlite|postgres|both] \
                     [--soak-secs N] [--only store|soak]"
                ))
            }
        }
    }
    Ok(o)
}

/// Starts `figeval serve` on a free loopback port over `store`.
fn serve(figeval: &Path, store: &str, app: &Path) -> Result<Served, String> {
    let mut command = testkit::serve::command(figeval, store, app);
    Served::start(&mut command, false)
}

fn agent() -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(60))
        .build()
}

/// One request; its status, or the transport failure.
fn ask(agent: &ureq::Agent, method: &str, url: &str, body: Option<&str>) -> Result<u16, String> {
    let req = agent.request(method, url);
    let result = match body {
        Some(b) => req.set("Content-Type", "application/json").send_string(b),
        None => req.call(),
    };
    match result {
        Ok(r) => {
            let status = r.status();
            let _ = std::io::copy(&mut r.into_reader(), &mut std::io::sink());
            Ok(status)
        }
        Err(ureq::Error::Status(code, r)) => {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut r.into_reader(), &mut text);
            Err(format!("HTTP {code}: {text}"))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Milliseconds of `reps` sequential GETs of `url`: median and 95th percentile.
fn time_gets(url: &str, reps: usize) -> Result<(f64, f64), String> {
    let agent = agent();
    for _ in 0..5 {
        ask(&agent, "GET", url, None)?;
    }
    let mut ms = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        ask(&agent, "GET", url, None)?;
        ms.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    ms.sort_by(f64::total_cmp);
    Ok((percentile(&ms, 0.5), percentile(&ms, 0.95)))
}

/// `total` requests from [`CLIENTS`] clients; `make(i)` gives the i-th request's method, URL
/// and body. Requests per second.
fn load(
    total: usize,
    make: impl Fn(usize) -> (&'static str, String, Option<Arc<String>>) + Send + Sync + 'static,
) -> Result<f64, String> {
    let next = Arc::new(AtomicUsize::new(0));
    let errors = Arc::new(Mutex::new(Vec::new()));
    let make = Arc::new(make);
    let started = Instant::now();
    let threads: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let (next, errors, make) = (next.clone(), errors.clone(), make.clone());
            std::thread::spawn(move || {
                let agent = agent();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        return;
                    }
                    let (method, url, body) = make(i);
                    match ask(&agent, method, &url, body.as_deref().map(String::as_str)) {
                        Ok(200 | 201) => {}
                        Ok(s) => errors.lock().unwrap().push(format!("HTTP {s}")),
                        Err(e) => errors.lock().unwrap().push(e),
                    }
                }
            })
        })
        .collect();
    for t in threads {
        t.join().map_err(|_| "a client panicked")?;
    }
    let secs = started.elapsed().as_secs_f64();
    let errors = errors.lock().unwrap();
    if let Some(e) = errors.first() {
        return Err(format!(
            "{} of {total} requests failed, first: {e}",
            errors.len()
        ));
    }
    Ok(total as f64 / secs)
}

/// The report pushed: the test fixture's capture scored by `figeval score`.
fn fixture_report(figeval: &Path, dir: &Path) -> Result<String, String> {
    let fx = workspace_root().join("crates/figeval/tests/fixtures/deployment");
    let out = dir.join("report.json");
    let status = Command::new(figeval)
        .arg("score")
        .arg("--responses")
        .arg(fx.join("capture.jsonl"))
        .arg("--dataset")
        .arg(fx.join("dataset.json"))
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run figeval score: {e}"))?;
    if !status.success() {
        return Err("figeval score of the fixture failed".into());
    }
    std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))
}

fn push_body(report: &str, i: usize) -> String {
    format!(
        "{{\"report\": {report}, \"name\": \"bench run {i}\", \"labels\": {{\"batch\": \"{}\", \"branch\": \"main\"}}}}",
        i % 10
    )
}

/// The store of `kind` for one measurement: a fresh SQLite file, or a fresh database in a
/// cluster of the benchmark's own.
fn store(
    kind: &str,
    dir: &Path,
    cluster: &mut Option<testkit::postgres::Cluster>,
) -> Result<String, String> {
    match kind {
        "sqlite" => {
            // One file, made anew by each measurement (and the soak), so none piles up.
            let db = dir.join("bench.db");
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
            }
            Ok(format!("sqlite:{}", db.display()))
        }
        _ => {
            if cluster.is_none() {
                *cluster = Some(testkit::postgres::Cluster::start(&dir.join("postgres"))?);
            }
            let c = cluster.as_ref().ok_or("no cluster")?;
            Ok(c.database("bench"))
        }
    }
}

fn measure_store(
    kind: &str,
    figeval: &Path,
    app: &Path,
    dir: &Path,
    report: &Arc<String>,
    runs: usize,
    cluster: &mut Option<testkit::postgres::Cluster>,
) -> Result<bool, String> {
    let store = store(kind, dir, cluster)?;
    let s = serve(figeval, &store, app)?;
    let base = Arc::new(s.base.clone());
    println!("\n== {kind} ({runs} runs, {CLIENTS} clients) ==");

    let b = base.clone();
    let floor_rps = load(4000, move |_| ("GET", format!("{b}/api/health"), None))?;
    let t = Instant::now();
    let mut checks = 0usize;
    while t.elapsed() < Duration::from_secs(2) {
        figeval::Report::parse(report).map_err(|e| e.to_string())?;
        checks += 1;
    }
    let check_rate = checks as f64 / t.elapsed().as_secs_f64();

    let (b, r) = (base.clone(), report.clone());
    let push_rps = load(runs, move |i| {
        (
            "POST",
            format!("{b}/api/runs"),
            Some(Arc::new(push_body(&r, i))),
        )
    })?;
    println!(
        "floor GET /api/health        {floor_rps:>9.0} requests/s\n\
         core Report::parse (1 thread) {check_rate:>9.0} reports/s\n\
         pushes                       {push_rps:>9.0} runs/s   ({:.3}× the floor, {:.3}× the core's check)",
        push_rps / floor_rps,
        push_rps / check_rate
    );

    let key = figeval::Report::parse(report)
        .map_err(|e| e.to_string())?
        .dataset_key();
    let (floor_med, floor_p95) = time_gets(&format!("{base}/api/health"), LIST_REPS)?;
    println!("floor GET /api/health          median {floor_med:>7.2} ms  p95 {floor_p95:>7.2} ms");
    let mut ok = true;
    for (what, query) in [
        ("first page", "limit=100".to_string()),
        ("by dataset", format!("limit=100&dataset={key}")),
        ("by label", "limit=100&label=batch:7".to_string()),
    ] {
        let (med, p95) = time_gets(&format!("{base}/api/runs?{query}"), LIST_REPS)?;
        println!(
            "GET /api/runs {what:<12}   median {med:>7.2} ms  p95 {p95:>7.2} ms  ({:.1}× the floor's median)",
            med / floor_med
        );
        ok &= p95 < PAGE_TARGET_MS;
    }
    println!(
        "{}: the first page of {runs} runs answers well inside the page's {PAGE_TARGET_MS} ms",
        verdict(ok)
    );
    Ok(ok)
}

fn soak(
    figeval: &Path,
    app: &Path,
    dir: &Path,
    report: &Arc<String>,
    secs: u64,
) -> Result<bool, String> {
    let mut none = None;
    let store = store("sqlite", dir, &mut none)?;
    let s = serve(figeval, &store, app)?;
    let base = Arc::new(s.base.clone());
    // A first run to read.
    let first = agent()
        .post(&format!("{base}/api/runs"))
        .set("Content-Type", "application/json")
        .send_string(&push_body(report, 0))
        .map_err(|e| e.to_string())?;
    let first: serde_json::Value =
        serde_json::from_reader(first.into_reader()).map_err(|e| e.to_string())?;
    let id = Arc::new(first["id"].as_str().unwrap_or_default().to_string());
    println!("\n== soak: {secs} s of mixed pushes and reads, {CLIENTS} clients, sqlite ==");
    let sampler = Sampler::start(s.pid(), Duration::from_millis(500));
    let deadline = Instant::now() + Duration::from_secs(secs);
    let counts = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let threads: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (base, id, report, counts, errors) = (
                base.clone(),
                id.clone(),
                report.clone(),
                counts.clone(),
                errors.clone(),
            );
            std::thread::spawn(move || {
                let agent = agent();
                let mut i = c;
                while Instant::now() < deadline {
                    let outcome = match i % 4 {
                        0 => ask(
                            &agent,
                            "POST",
                            &format!("{base}/api/runs"),
                            Some(&push_body(&report, i)),
                        ),
                        1 => ask(&agent, "GET", &format!("{base}/api/runs/{id}"), None),
                        _ => ask(&agent, "GET", &format!("{base}/api/runs?limit=100"), None),
                    };
                    match outcome {
                        Ok(200 | 201) => {
                            counts[usize::from(i % 4 != 0)].fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(other) => errors.lock().unwrap().push(format!("HTTP {other}")),
                        Err(e) => errors.lock().unwrap().push(e),
                    }
                    i += CLIENTS;
                }
            })
        })
        .collect();
    for t in threads {
        t.join().map_err(|_| "a soak client panicked")?;
    }
    let samples = sampler.finish();
    let tenths: Vec<f64> = (0..10)
        .map(|t| {
            let (from, to) = (f64::from(t) / 10.0, f64::from(t + 1) / 10.0);
            peak_between(&samples, from, to).unwrap_or(0) as f64 / 1e6
        })
        .collect();
    let shown: Vec<String> = tenths.iter().map(|mb| format!("{mb:.1}")).collect();
    println!(
        "server RSS peak of each tenth of the soak, MB: {}",
        shown.join(" ")
    );
    let (start, end) = (tenths[WARM_TENTHS], tenths[9]);
    let errors = errors.lock().unwrap();
    let (pushes, reads) = (
        counts[0].load(Ordering::Relaxed),
        counts[1].load(Ordering::Relaxed),
    );
    println!(
        "{pushes} pushes and {reads} reads ({:.0} requests/s), {} errors",
        (pushes + reads) as f64 / secs as f64,
        errors.len()
    );
    for e in errors.iter().take(5) {
        println!("  error: {e}");
    }
    let drift = if start > 0.0 {
        end / start
    } else {
        f64::INFINITY
    };
    println!(
        "server RSS: tenth {} {start:.1} MB, last tenth {end:.1} MB ({drift:.3}×)",
        WARM_TENTHS + 1
    );
    let ok = errors.is_empty() && drift <= SOAK_RSS_DRIFT_MAX;
    println!(
        "{}: no error, and memory flat (last tenth at most {SOAK_RSS_DRIFT_MAX}× tenth {})",
        verdict(ok),
        WARM_TENTHS + 1
    );
    Ok(ok)
}

fn run() -> Result<bool, String> {
    let o = options()?;
    let figeval = sibling("figeval", "figeval-cli")?;
    let dir: PathBuf = work_dir().join("serve");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let app = dir.join("app");
    std::fs::create_dir_all(&app).map_err(|e| e.to_string())?;
    std::fs::write(
        app.join("index.html"),
        "<!doctype html><title>bench</title>\n",
    )
    .map_err(|e| e.to_string())?;
    let report = Arc::new(fixture_report(&figeval, &dir)?);
    println!(
        "bench-serve: figeval serve ({}), a report of {} bytes",
        figeval.display(),
        report.len()
    );
    let mut ok = true;
    let mut cluster = None;
    if o.only.as_deref() != Some("soak") {
        for kind in &o.stores {
            ok &= measure_store(kind, &figeval, &app, &dir, &report, o.runs, &mut cluster)?;
        }
    }
    drop(cluster);
    if o.only.as_deref() != Some("store") {
        ok &= soak(&figeval, &app, &dir, &report, o.soak_secs)?;
    }
    Ok(ok)
}

fn main() -> ExitCode {
    figeval_bench::exit("bench-serve", run())
}
