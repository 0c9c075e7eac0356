//! `bench-live`: does `figeval run --concurrency 8` really overlap searches? See README.md.
//!
//! Starts `refsearch --latency-ms 50` on 127.0.0.1:0 (release binary from the same target
//! directory), times `figeval run` at concurrency 1 and 8 against it (alternating, a few
//! repetitions, median), checks that both give the same numbers and that the speedup is at
//! least 5x, and always stops refsearch (killed on drop, also on error or panic).
//!
//! ```text
//! cargo build --release -p figeval-cli -p refsearch -p figeval-bench && $CARGO_TARGET_DIR/release/bench-live
//!     [--reps 5] [--latency-ms 50] [--concurrency 8] [--dataset P] [--pdf P] [--corpus-id ID]
//!     [--figure-notes P] [--refsearch BIN]
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use figeval_bench::jsondiff::first_difference;
use figeval_bench::measure::run_measured;
use figeval_bench::server::{self, live_binaries, ServerFlags, ServerOptions};
use figeval_bench::{verdict, work_dir, workspace_root};

/// The speedup concurrency 8 must reach over concurrency 1.
const SPEEDUP_MIN: f64 = 5.0;

struct Options {
    reps: usize,
    latency_ms: u64,
    concurrency: u32,
    dataset: PathBuf,
    server: ServerFlags,
}

fn usage() -> ! {
    eprintln!(
        "usage: bench-live [--reps N] [--latency-ms N] [--concurrency N] [--dataset P] {}",
        ServerFlags::USAGE
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let root = workspace_root();
    let mut o = Options {
        reps: 5,
        latency_ms: 50,
        concurrency: 8,
        dataset: root.join("data/eval_datasets/octave-manual-figures.json"),
        server: ServerFlags::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--reps" => o.reps = value().parse().unwrap_or_else(|_| usage()),
            "--latency-ms" => o.latency_ms = value().parse().unwrap_or_else(|_| usage()),
            "--concurrency" => o.concurrency = value().parse().unwrap_or_else(|_| usage()),
            "--dataset" => o.dataset = value().into(),
            flag => {
                if !o.server.take(flag, value) {
                    usage()
                }
            }
        }
    }
    if o.reps == 0 || o.concurrency < 2 {
        usage()
    }
    o
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    if s.len() % 2 == 1 {
        s[m]
    } else {
        (s[m - 1] + s[m]) / 2.0
    }
}

fn fmt(v: &[f64]) -> String {
    v.iter()
        .map(|s| format!("{s:.3}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report's numbers (everything but `run`, which holds times).
fn numbers(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(o) = v.as_object_mut() {
        o.remove("run");
    }
    Ok(v)
}

fn run() -> Result<bool, String> {
    let o = parse_args();
    let (figeval, refsearch) = live_binaries("bench-live", o.server.refsearch.as_deref())?;
    println!("  dataset:   {}", o.dataset.display());
    let server = server::start(
        &refsearch,
        &ServerOptions {
            latency_ms: o.latency_ms,
            ..o.server.options.clone()
        },
    )?;
    let dir = work_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let run_at = |c: u32, out: &Path| -> Result<f64, String> {
        let log = std::fs::File::create(dir.join(format!("live-c{c}.log")))
            .map_err(|e| format!("cannot create the log: {e}"))?;
        let mut cmd = Command::new(&figeval);
        cmd.arg("run")
            .arg("--dataset")
            .arg(&o.dataset)
            .arg("--base-url")
            .arg(&server.base_url)
            .arg("--concurrency")
            .arg(c.to_string())
            .arg("--out")
            .arg(out)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        let m = run_measured(&mut cmd).map_err(|e| format!("cannot start figeval: {e}"))?;
        if m.code != Some(0) {
            return Err(format!(
                "figeval run --concurrency {c} failed (exit {:?}); see {}",
                m.code,
                dir.join(format!("live-c{c}.log")).display()
            ));
        }
        Ok(m.secs())
    };
    let out1 = dir.join("live-report-c1.json");
    let outn = dir.join(format!("live-report-c{}.json", o.concurrency));
    // One untimed run warms the index, the page cache and the connection path.
    run_at(o.concurrency, &outn)?;
    let (mut t1, mut tn) = (Vec::new(), Vec::new());
    for _ in 0..o.reps {
        t1.push(run_at(1, &out1)?);
        tn.push(run_at(o.concurrency, &outn)?);
    }
    drop(server);
    let (a, b) = (numbers(&out1)?, numbers(&outn)?);
    if let Some(d) = first_difference(&a, &b) {
        println!(
            "FAIL concurrency 1 and {} give different reports: {d}",
            o.concurrency
        );
        return Ok(false);
    }
    let n = a["per_item"].as_array().map_or(0, Vec::len);
    let (m1, mn) = (median(&t1), median(&tn));
    let speedup = m1 / mn;
    let ideal = n as f64 / (n as f64 / f64::from(o.concurrency)).ceil();
    println!(
        "\n{n} searches, --latency-ms {}, {} repetitions (alternating), wall time of `figeval run`:",
        o.latency_ms, o.reps
    );
    println!(
        "  concurrency 1: median {m1:.3} s (best {:.3}; runs {})",
        t1.iter().copied().fold(f64::INFINITY, f64::min),
        fmt(&t1)
    );
    println!(
        "  concurrency {}: median {mn:.3} s (best {:.3}; runs {})",
        o.concurrency,
        tn.iter().copied().fold(f64::INFINITY, f64::min),
        fmt(&tn)
    );
    println!(
        "  speedup {speedup:.2}x (latency-bound ideal for {n} items at {}: {ideal:.2}x); same report at both: yes",
        o.concurrency
    );
    let ok = speedup >= SPEEDUP_MIN;
    println!(
        "{} speedup at concurrency {} >= {SPEEDUP_MIN}x: {speedup:.2}x",
        verdict(ok),
        o.concurrency
    );
    Ok(ok)
}

fn main() -> ExitCode {
    figeval_bench::exit("bench-live", run())
}
