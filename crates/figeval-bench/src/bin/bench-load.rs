//! `bench-load`: does figeval hold up at the sizes real users reach? See README.md.
//!
//! Two parts, both against one real `refsearch` over the Octave manual on 127.0.0.1:0:
//!
//! 1. **`figeval run` at concurrency 16.** A 2,000-question dataset generated from the manual's
//!    own lines (`figeval_bench::questions`), its first 200 questions, and an 8,000-question
//!    one ([`SCALE`] times as many), each run three times (alternating). Every run must finish
//!    with exit 0, a report of every item and a capture of every answer. Memory must stay
//!    flat (nothing but the report's small per-item records may grow with the questions): figeval's peak resident set (`ru_maxrss`, read by the `rusage-exec` launcher so it
//!    is figeval's own and not this process's; median of the runs) over 8,000 questions may be at most [`RUN_RSS_RATIO_MAX`]
//!    times the peak over 2,000, and the RSS each added question costs at most
//!    [`RUN_HELD_MAX`] of the bytes of its answer (the report keeps a small record per item;
//!    the answers themselves go to the capture and must not be kept). The 200-question run
//!    shows the warm-up: the allocator's per-thread heaps fill during the first thousand or
//!    so answers.
//! 2. **A soak of `refsearch`.** One client for a quarter of the soak time (the baseline), then
//!    16 clients at once, each sending the generated questions back to back with keep-alive.
//!    Every answer must be 200 with a JSON body holding a `matches` array; refsearch's
//!    resident set over the last tenth of the 16-client soak may be at most
//!    [`SOAK_RSS_DRIFT_MAX`] above the first tenth's; its open file descriptors after the
//!    soak at most [`SOAK_FD_SLACK`] above before it. Throughput and latency percentiles of
//!    both phases are printed, with their ratio.
//!
//! ```text
//! cargo build --release -p figeval-cli -p refsearch -p figeval-bench && $CARGO_TARGET_DIR/release/bench-load
//!     [--questions 2000] [--reps 3] [--concurrency 16] [--clients 16] [--soak-secs 60]
//!     [--only run|soak] [--pdf P] [--corpus-id ID] [--figure-notes P|none] [--refsearch BIN]
//! ```

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use figeval_bench::measure::{launcher_command, run_via_launcher};
use figeval_bench::procfs::{open_fds, peak_between, rss_bytes, Sample, Sampler};
use figeval_bench::questions;
use figeval_bench::server::{self, live_binaries, Server, ServerFlags};
use figeval_bench::{sibling, verdict, work_dir};
use serde_json::Value;

/// The largest run has this many times the questions of the main one.
const SCALE: usize = 4;
/// figeval's peak RSS over [`SCALE`] times the questions, at most this times its peak (a
/// gross check; the per-question bound below is the fine one).
const RUN_RSS_RATIO_MAX: f64 = 1.5;
/// RSS added per added question, at most this fraction of the bytes of one answer: holding
/// the answers (rather than their scored records) would show as 1.0 or more.
const RUN_HELD_MAX: f64 = 0.25;
/// refsearch's RSS peak over the last tenth of the soak over the first tenth's, at most.
const SOAK_RSS_DRIFT_MAX: f64 = 1.10;
/// Open descriptors refsearch may hold after the soak beyond those before it.
const SOAK_FD_SLACK: usize = 4;
/// Errors quoted in full; the rest are counted.
const ERRORS_SHOWN: usize = 5;

#[derive(Clone, Copy, PartialEq)]
enum Only {
    Both,
    Run,
    Soak,
}

struct Options {
    questions: usize,
    reps: usize,
    concurrency: u32,
    clients: usize,
    soak_secs: u64,
    only: Only,
    server: ServerFlags,
}

fn usage() -> ! {
    eprintln!(
        "usage: bench-load [--questions N] [--reps N] [--concurrency N] [--clients N] \
         [--soak-secs N] [--only run|soak] {}",
        ServerFlags::USAGE
    );
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        questions: 2000,
        reps: 3,
        concurrency: 16,
        clients: 16,
        soak_secs: 60,
        only: Only::Both,
        server: ServerFlags::default(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        let mut number = || value().parse::<u64>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--questions" => o.questions = number() as usize,
            "--reps" => o.reps = number() as usize,
            "--concurrency" => o.concurrency = number() as u32,
            "--clients" => o.clients = number() as usize,
            "--soak-secs" => o.soak_secs = number(),
            "--only" => {
                o.only = match value().as_str() {
                    "run" => Only::Run,
                    "soak" => Only::Soak,
                    _ => usage(),
                }
            }
            flag => {
                if !o.server.take(flag, value) {
                    usage()
                }
            }
        }
    }
    if o.questions < 20 || o.reps == 0 || o.concurrency == 0 || o.clients < 2 {
        usage()
    }
    if o.soak_secs < 8 {
        eprintln!("bench-load: --soak-secs must be at least 8");
        std::process::exit(2)
    }
    o
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// One `figeval run` and what it cost.
struct RunStats {
    wall: f64,
    peak_rss: u64,
    page_hit_at_3: f64,
}

fn write_json(path: &Path, v: &Value) -> Result<(), String> {
    std::fs::write(path, v.to_string()).map_err(|e| format!("{}: {e}", path.display()))
}

fn count_lines(path: &Path) -> Result<usize, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(BufReader::new(f).lines().count())
}

fn run_eval(
    launcher: &Path,
    figeval: &Path,
    dataset: &Path,
    items: usize,
    base_url: &str,
    concurrency: u32,
    dir: &Path,
) -> Result<RunStats, String> {
    let tag = format!("load-{items}");
    let report = dir.join(format!("{tag}-report.json"));
    let capture = dir.join(format!("{tag}-capture.jsonl"));
    let log_path = dir.join(format!("{tag}.log"));
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let rusage = dir.join(format!("{tag}.rusage"));
    let mut cmd = launcher_command(launcher, &rusage, figeval);
    cmd.arg("run")
        .arg("--dataset")
        .arg(dataset)
        .arg("--base-url")
        .arg(base_url)
        .arg("--concurrency")
        .arg(concurrency.to_string())
        .arg("--out")
        .arg(&report)
        .arg("--capture")
        .arg(&capture)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log);
    let m = run_via_launcher(&mut cmd, &rusage)
        .map_err(|e| format!("cannot run {}: {e}", figeval.display()))?;
    if m.code != Some(0) {
        return Err(format!(
            "figeval run of {items} questions failed (exit {:?}); see {}",
            m.code,
            log_path.display()
        ));
    }
    let text =
        std::fs::read_to_string(&report).map_err(|e| format!("{}: {e}", report.display()))?;
    let v: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", report.display()))?;
    let reported = v["per_item"].as_array().map_or(0, Vec::len);
    let captured = count_lines(&capture)?;
    if reported != items || captured != items {
        return Err(format!(
            "figeval run of {items} questions reported {reported} items and captured {captured} \
             answers; see {}",
            log_path.display()
        ));
    }
    Ok(RunStats {
        wall: m.secs(),
        peak_rss: m.max_rss,
        page_hit_at_3: v["page_hit_at_3"].as_f64().unwrap_or(f64::NAN),
    })
}

fn median_u64(v: &[u64]) -> u64 {
    let mut s = v.to_vec();
    s.sort_unstable();
    s[s.len() / 2]
}

fn median_f64(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[s.len() / 2]
}

fn part_run(
    o: &Options,
    launcher: &Path,
    figeval: &Path,
    server: &mut Server,
    full: &Value,
) -> Result<bool, String> {
    let dir = work_dir();
    let n = o.questions;
    let sizes = [n / 10, n, n * SCALE];
    let mut paths = Vec::new();
    for &size in &sizes {
        let mut d = full.clone();
        d["items"]
            .as_array_mut()
            .expect("the generator writes an items array")
            .truncate(size);
        let path = dir.join(format!("load-{size}.json"));
        write_json(&path, &d)?;
        paths.push(path);
    }
    println!(
        "\n1. figeval run --concurrency {}: {} / {} / {} questions, {} runs each (alternating), medians",
        o.concurrency, sizes[0], sizes[1], sizes[2], o.reps
    );
    let server_before = rss_bytes(server.pid()).unwrap_or(0);
    // One untimed run warms the index, the page cache and the connection path.
    run_eval(
        launcher,
        figeval,
        &paths[1],
        sizes[1],
        &server.base_url,
        o.concurrency,
        &dir,
    )?;
    let mut runs: Vec<Vec<RunStats>> = sizes.iter().map(|_| Vec::new()).collect();
    for _ in 0..o.reps {
        for (k, &size) in sizes.iter().enumerate() {
            runs[k].push(run_eval(
                launcher,
                figeval,
                &paths[k],
                size,
                &server.base_url,
                o.concurrency,
                &dir,
            )?);
        }
    }
    if !server.is_running() {
        return Err("refsearch exited during the run".into());
    }
    let server_after = rss_bytes(server.pid()).unwrap_or(0);
    let mut peaks = Vec::new();
    for (k, &size) in sizes.iter().enumerate() {
        let r = &runs[k];
        let peak = median_u64(&r.iter().map(|s| s.peak_rss).collect::<Vec<_>>());
        let wall = median_f64(&r.iter().map(|s| s.wall).collect::<Vec<_>>());
        let all: Vec<String> = r.iter().map(|s| format!("{:.1}", mb(s.peak_rss))).collect();
        println!(
            "  {size:>5} questions: {wall:.2} s ({:.0} searches/s), exit 0, every item reported and \
             captured; peak RSS {:.1} MB (runs {} MB), page_hit_at_3 {:.4}",
            size as f64 / wall,
            mb(peak),
            all.join(", "),
            r[0].page_hit_at_3
        );
        peaks.push(peak);
    }
    let largest = sizes[2];
    let capture = dir.join(format!("load-{largest}-capture.jsonl"));
    let report = dir.join(format!("load-{largest}-report.json"));
    let answer_bytes = figeval_bench::file_mb(&capture) * 1e6 / largest as f64;
    let record_bytes = figeval_bench::file_mb(&report) * 1e6 / largest as f64;
    println!(
        "  refsearch RSS {:.1} MB before, {:.1} MB after; per question: {answer_bytes:.0} bytes of \
         answer (capture), {record_bytes:.0} bytes of report",
        mb(server_before),
        mb(server_after)
    );
    let ratio = peaks[2] as f64 / peaks[1].max(1) as f64;
    let warm = peaks[1] as f64 / peaks[0].max(1) as f64;
    let added = (sizes[2] - sizes[1]) as f64;
    let growth = (peaks[2] as f64 - peaks[1] as f64) / added;
    let held = growth / answer_bytes;
    let ok_flat = ratio <= RUN_RSS_RATIO_MAX;
    let ok_held = held <= RUN_HELD_MAX;
    println!(
        "  peak RSS {} vs {} questions: {warm:.3}x (the allocator's per-thread heaps warming up); \
         {} vs {}: {ratio:.3}x",
        sizes[1], sizes[0], sizes[2], sizes[1],
    );
    println!(
        "{} flat: peak RSS at {} questions is {ratio:.3}x the peak at {} (at most {RUN_RSS_RATIO_MAX}x)",
        verdict(ok_flat),
        sizes[2],
        sizes[1]
    );
    println!(
        "{} answers are not held: {growth:.0} bytes of RSS per added question = {held:.3}x the bytes \
         of its answer (at most {RUN_HELD_MAX}x; the report's own record is {:.3}x)",
        verdict(ok_held),
        record_bytes / answer_bytes
    );
    Ok(ok_flat && ok_held)
}

/// What the clients of one soak phase saw.
#[derive(Default)]
struct Phase {
    ok: u64,
    errors: u64,
    first_errors: Vec<String>,
    latencies_us: Vec<u32>,
    secs: f64,
}

impl Phase {
    fn merge(&mut self, other: Phase) {
        self.ok += other.ok;
        self.errors += other.errors;
        for e in other.first_errors {
            if self.first_errors.len() < ERRORS_SHOWN {
                self.first_errors.push(e);
            }
        }
        self.latencies_us.extend(other.latencies_us);
    }

    fn percentile_ms(&self, p: f64) -> f64 {
        if self.latencies_us.is_empty() {
            return f64::NAN;
        }
        let i = ((self.latencies_us.len() - 1) as f64 * p).round() as usize;
        f64::from(self.latencies_us[i]) / 1e3
    }

    fn rate(&self) -> f64 {
        self.ok as f64 / self.secs
    }
}

/// Whether a 200 body is a search answer: JSON with a `matches` array.
fn check_body(body: &str) -> Result<(), String> {
    let v: Value = serde_json::from_str(body).map_err(|e| format!("the body is not JSON: {e}"))?;
    if v.get("matches").is_some_and(Value::is_array) {
        Ok(())
    } else {
        Err("the body has no matches array".into())
    }
}

/// One client: its own keep-alive connection, questions `first, first + stride, …` in a loop
/// until `deadline`.
fn client(url: &str, bodies: &[String], first: usize, stride: usize, deadline: Instant) -> Phase {
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs(30))
        .build();
    let mut phase = Phase::default();
    let mut i = first;
    while Instant::now() < deadline {
        let body = &bodies[i % bodies.len()];
        i += stride;
        let sent = Instant::now();
        let result = agent
            .post(url)
            .set("Content-Type", "application/json")
            .send_string(body)
            .map_err(|e| e.to_string())
            .and_then(|r| r.into_string().map_err(|e| e.to_string()))
            .and_then(|text| check_body(&text));
        let us = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        match result {
            Ok(()) => {
                phase.ok += 1;
                phase.latencies_us.push(us);
            }
            Err(e) => {
                phase.errors += 1;
                if phase.first_errors.len() < ERRORS_SHOWN {
                    phase.first_errors.push(e);
                }
            }
        }
    }
    phase
}

fn soak_phase(url: &str, bodies: &Arc<Vec<String>>, clients: usize, secs: f64) -> Phase {
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(secs);
    let threads: Vec<_> = (0..clients)
        .map(|c| {
            let bodies = Arc::clone(bodies);
            let url = url.to_string();
            std::thread::spawn(move || client(&url, &bodies, c, clients, deadline))
        })
        .collect();
    let mut phase = Phase::default();
    for t in threads {
        match t.join() {
            Ok(p) => phase.merge(p),
            Err(_) => {
                phase.errors += 1;
                phase.first_errors.push("a client thread panicked".into());
            }
        }
    }
    phase.secs = started.elapsed().as_secs_f64();
    phase.latencies_us.sort_unstable();
    phase
}

fn print_phase(label: &str, p: &Phase) {
    println!(
        "  {label}: {} answers in {:.1} s = {:.0}/s, {} errors; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        p.ok,
        p.secs,
        p.rate(),
        p.errors,
        p.percentile_ms(0.5),
        p.percentile_ms(0.99),
        p.percentile_ms(1.0)
    );
    for e in &p.first_errors {
        println!("    error: {e}");
    }
}

fn part_soak(o: &Options, server: &mut Server, full: &Value) -> Result<bool, String> {
    let corpus_id = full["corpus_id"].as_str().unwrap_or_default();
    let request = figeval::request::SearchRequest {
        base_url: &server.base_url,
        corpus_id,
        top_k: 5,
        cache_mode: figeval::CacheMode::Bypass,
    };
    let url = request.url();
    let bodies: Arc<Vec<String>> = Arc::new(
        full["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["question"].as_str())
            .map(|q| request.body(q))
            .collect(),
    );
    let base_secs = (o.soak_secs as f64 / 4.0).max(2.0);
    println!(
        "\n2. refsearch soak: 1 client for {base_secs:.0} s, then {} clients for {} s (keep-alive, \
         {} distinct questions, top_k 5)",
        o.clients,
        o.soak_secs,
        bodies.len()
    );
    let pid = server.pid();
    let one = soak_phase(&url, &bodies, 1, base_secs);
    let fds_before = open_fds(pid).unwrap_or(0);
    let sampler = Sampler::start(pid, Duration::from_millis(100));
    let many = soak_phase(&url, &bodies, o.clients, o.soak_secs as f64);
    let samples: Vec<Sample> = sampler.finish();
    // The clients' connections are closed once their threads end; give the server a moment
    // to see the FINs before counting its descriptors.
    std::thread::sleep(Duration::from_millis(500));
    let fds_after = open_fds(pid).unwrap_or(usize::MAX);
    if !server.is_running() {
        return Err("refsearch exited during the soak".into());
    }
    print_phase("1 client ", &one);
    print_phase(&format!("{} clients", o.clients), &many);
    let first = peak_between(&samples, 0.0, 0.1).unwrap_or(0);
    let last = peak_between(&samples, 0.9, 1.0).unwrap_or(0);
    let peak = samples.iter().map(|s| s.rss).max().unwrap_or(0);
    println!(
        "  refsearch RSS during the {}-client soak: first tenth peak {:.1} MB, last tenth peak \
         {:.1} MB, overall peak {:.1} MB ({} samples); open fds {fds_before} before, {fds_after} after",
        o.clients,
        mb(first),
        mb(last),
        mb(peak),
        samples.len()
    );
    println!(
        "  throughput {} clients vs 1: {:.2}x; p50 latency {:.2}x",
        o.clients,
        many.rate() / one.rate(),
        many.percentile_ms(0.5) / one.percentile_ms(0.5)
    );
    let ok_errors = one.errors == 0 && many.errors == 0 && many.ok > 0;
    let drift = last as f64 / first.max(1) as f64;
    let ok_rss = drift <= SOAK_RSS_DRIFT_MAX;
    let ok_fds = fds_after <= fds_before + SOAK_FD_SLACK;
    println!(
        "{} no errors: {} answers, {} errors",
        verdict(ok_errors),
        one.ok + many.ok,
        one.errors + many.errors
    );
    println!(
        "{} refsearch RSS last tenth vs first tenth: {drift:.3}x (at most {SOAK_RSS_DRIFT_MAX}x)",
        verdict(ok_rss)
    );
    println!(
        "{} refsearch open fds after vs before: {fds_after} vs {fds_before} (at most {SOAK_FD_SLACK} more)",
        verdict(ok_fds)
    );
    Ok(ok_errors && ok_rss && ok_fds)
}

fn run() -> Result<bool, String> {
    let o = parse_args();
    let (figeval, refsearch) = live_binaries("bench-load", o.server.refsearch.as_deref())?;
    let launcher = sibling("rusage-exec", "figeval-bench")?;
    println!("  pdf:       {}", o.server.options.pdf.display());
    let dir = work_dir();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let pages = questions::pdf_pages(&o.server.options.pdf)?;
    let full = questions::dataset(&pages, &o.server.options.corpus_id, o.questions * SCALE)?;
    println!(
        "  dataset:   {} questions quoting lines of {} pages (the first {} are the main run)",
        o.questions * SCALE,
        pages.len(),
        o.questions
    );
    let mut server = server::start(&refsearch, &o.server.options)?;
    let mut ok = true;
    if o.only != Only::Soak {
        ok &= part_run(&o, &launcher, &figeval, &mut server, &full)?;
    }
    if o.only != Only::Run {
        ok &= part_soak(&o, &mut server, &full)?;
    }
    Ok(ok)
}

fn main() -> ExitCode {
    figeval_bench::exit("bench-load", run())
}
