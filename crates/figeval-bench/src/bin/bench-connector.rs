//! `bench-connector`: `figeval score` of a capture of LangServe-shaped answers read through the
//! `langserve` connector, against the ragweld fast path (§3's own reader) on the same answers.
//! See BENCHMARKS.md, "Reading through a connector".
//!
//! ```text
//! cargo build --release -p figeval-cli -p figeval-bench && target/release/bench-connector
//!     [--items 10000] [--seed S] [--runs N] [--figeval BIN]
//! ```
//!
//! Both captures are made from `gen-capture`'s synthetic capture, hit for hit: each match
//! becomes a LangChain `Document` (`page_content`, `metadata.page` 0-based, `metadata.source`,
//! `id`) in one, and a ragweld match citing the same one page with the same content and id in
//! the other. The two reports must be equal (but for `run` and `hits_without_page`); the target
//! is the connector at most 1.3× the fast path's time.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};

use figeval_bench::gen::{self, DEFAULT_SEED};
use figeval_bench::jsondiff::first_difference;
use figeval_bench::measure::{launcher_command, run_via_launcher, Measured};
use figeval_bench::{file_mb, sibling, work_dir};
use serde_json::{json, Value};

/// The connector's time at most this many times the fast path's.
const RATIO_MAX: f64 = 1.3;

struct Options {
    items: usize,
    seed: u64,
    runs: usize,
    figeval: Option<PathBuf>,
}

fn usage() -> ! {
    eprintln!("usage: bench-connector [--items 10000] [--seed N] [--runs N] [--figeval BIN]");
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        items: 10_000,
        seed: DEFAULT_SEED,
        runs: 9,
        figeval: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--items" => o.items = value().replace('_', "").parse().unwrap_or_else(|_| usage()),
            "--seed" => o.seed = value().parse().unwrap_or_else(|_| usage()),
            "--runs" => o.runs = value().parse().unwrap_or_else(|_| usage()),
            "--figeval" => o.figeval = Some(value().into()),
            _ => usage(),
        }
    }
    if o.items == 0 || o.runs == 0 {
        usage()
    }
    o
}

/// Writes the LangServe-shaped and the ragweld-shaped captures of the same answers.
fn project(capture: &Path, langserve: &Path, ragweld: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| format!("{}: {e}", capture.display());
    let input = BufReader::new(File::open(capture).map_err(io)?);
    let mut ls = BufWriter::new(File::create(langserve).map_err(io)?);
    let mut rw = BufWriter::new(File::create(ragweld).map_err(io)?);
    for line in input.lines() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        let entry: Value = serde_json::from_str(&line).map_err(|e| format!("{e}: {line}"))?;
        let question = entry["question"].clone();
        let matches = entry["response"]["matches"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let (mut docs, mut hits) = (Vec::new(), Vec::new());
        for m in &matches {
            let Some(page) = m["provenance"]["page_start"].as_u64() else {
                continue;
            };
            let content = m["content"].as_str().unwrap_or("");
            let id = m["chunk_id"].clone();
            docs.push(
                json!({"page_content": content, "type": "Document", "id": id,
                "metadata": {"source": "corpus.pdf", "page": page - 1}}),
            );
            hits.push(json!({"chunk_id": id, "content": content,
                "provenance": {"page_start": page, "page_end": page}}));
        }
        let ls_line = json!({"question": question,
            "response": {"output": docs, "metadata": {"run_id": "r", "feedback_tokens": []}}});
        let rw_line = json!({"question": question,
            "response": {"query": question, "matches": hits}});
        writeln!(ls, "{ls_line}").map_err(io)?;
        writeln!(rw, "{rw_line}").map_err(io)?;
    }
    ls.flush().map_err(io)?;
    rw.flush().map_err(io)
}

/// The report without what differs by nature: `run` (times) and `hits_without_page` (stated
/// only through a connector).
fn comparable(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut v: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(o) = v.as_object_mut() {
        o.remove("run");
        o.remove("hits_without_page");
    }
    Ok(v)
}

fn main() -> ExitCode {
    let o = parse_args();
    let outcome = (|| -> Result<bool, String> {
        let figeval = match &o.figeval {
            Some(p) => p.clone(),
            None => sibling("figeval", "figeval-cli")?,
        };
        let launcher = sibling("rusage-exec", "figeval-bench")?;
        let dir = work_dir();
        let generated = gen::generate(&dir, o.items, o.seed).map_err(|e| e.to_string())?;
        let langserve = dir.join(format!("connector-langserve-{}.jsonl", o.items));
        let ragweld = dir.join(format!("connector-ragweld-{}.jsonl", o.items));
        project(&generated.capture, &langserve, &ragweld)?;
        println!(
            "bench-connector: {} items; langserve capture {:.1} MB, ragweld capture {:.1} MB",
            o.items,
            file_mb(&langserve),
            file_mb(&ragweld)
        );
        if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
            println!("  load avg:    {}", load.trim());
        }
        let rusage = dir.join("rusage-connector.txt");
        let measure = |connector: &str, capture: &Path, out: &Path| -> Result<Measured, String> {
            let mut cmd = launcher_command(&launcher, &rusage, &figeval);
            cmd.args(["score", "--connector", connector, "--dataset"])
                .arg(&generated.dataset)
                .arg("--responses")
                .arg(capture)
                .arg("--out")
                .arg(out)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::inherit());
            let m = run_via_launcher(&mut cmd, &rusage).map_err(|e| e.to_string())?;
            match m.code {
                Some(0) => Ok(m),
                code => Err(format!(
                    "figeval score --connector {connector} failed ({code:?})"
                )),
            }
        };
        let (out_ls, out_rw) = (
            dir.join("report-langserve.json"),
            dir.join("report-ragweld.json"),
        );
        let (mut ls_best, mut rw_best) = (
            (f64::INFINITY, f64::INFINITY),
            (f64::INFINITY, f64::INFINITY),
        );
        for run in 1..=o.runs {
            // Alternated, so a change of load touches both alike.
            let r = measure("ragweld", &ragweld, &out_rw)?;
            let l = measure("langserve", &langserve, &out_ls)?;
            println!(
                "  run {run}: ragweld {:.3} s ({:.3} cpu), langserve {:.3} s ({:.3} cpu)",
                r.secs(),
                r.cpu_secs(),
                l.secs(),
                l.cpu_secs()
            );
            rw_best = (rw_best.0.min(r.secs()), rw_best.1.min(r.cpu_secs()));
            ls_best = (ls_best.0.min(l.secs()), ls_best.1.min(l.cpu_secs()));
        }
        let (a, b) = (comparable(&out_ls)?, comparable(&out_rw)?);
        let same = first_difference(&a, &b);
        println!(
            "\n{} the two reports are equal (but for run and hits_without_page){}",
            figeval_bench::verdict(same.is_none()),
            same.map_or(String::new(), |d| format!(": {d}"))
        );
        let (wall, cpu) = (ls_best.0 / rw_best.0, ls_best.1 / rw_best.1);
        let ok = cpu <= RATIO_MAX;
        println!(
            "{} langserve connector vs ragweld fast path: {cpu:.2}x CPU time ({wall:.2}x wall; \
             best of {} runs: {:.3} s vs {:.3} s CPU), target <= {RATIO_MAX}x",
            figeval_bench::verdict(ok),
            o.runs,
            ls_best.1,
            rw_best.1
        );
        Ok(ok && a == b)
    })();
    figeval_bench::exit("bench-connector", outcome)
}
