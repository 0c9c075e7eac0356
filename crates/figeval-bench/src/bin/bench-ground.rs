//! `bench-ground`: what `figeval ground` costs on the GNU Octave manual (1158 pages), against
//! `pdftotext` alone extracting the same PDF, measured in the same run. See the crate's
//! README.md.
//!
//! ```text
//! cargo build --release -p figeval-cli -p figeval-bench && $CARGO_TARGET_DIR/release/bench-ground
//!     [--runs N] [--pdf PDF] [--dataset D] [--figeval BIN]
//! ```
//!
//! Three timings, each the median of `--runs` (default 3), the two commands alternating:
//!
//! - `pdftotext -layout -enc UTF-8 PDF -` in one process: the baseline, the extraction alone;
//! - `figeval ground --dataset D --pdf PDF`: extraction (one `pdftotext` per core over page
//!   ranges, as `refsearch` does) plus the check and its report;
//! - `figeval_document::ground` on the already extracted pages, in this process.
//!
//! Passes when `figeval ground` takes at most [`RATIO_MAX`] times the baseline's wall time.

use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use figeval_bench::measure::{run_measured, Measured};
use figeval_bench::{exit, sibling, verdict, workspace_root};

/// `figeval ground` within this factor of `pdftotext` alone (wall time).
const RATIO_MAX: f64 = 1.5;

struct Options {
    runs: usize,
    pdf: PathBuf,
    dataset: PathBuf,
    figeval: Option<PathBuf>,
}

fn usage() -> ! {
    eprintln!("usage: bench-ground [--runs N] [--pdf PDF] [--dataset D] [--figeval BIN]");
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut o = Options {
        runs: 3,
        pdf: testkit::manual::path(),
        dataset: workspace_root().join("data/eval_datasets/octave-manual-figures.json"),
        figeval: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--runs" => o.runs = value().parse().unwrap_or_else(|_| usage()),
            "--pdf" => o.pdf = value().into(),
            "--dataset" => o.dataset = value().into(),
            "--figeval" => o.figeval = Some(value().into()),
            _ => usage(),
        }
    }
    if o.runs == 0 {
        usage()
    }
    o
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Runs `c` with its stdout discarded; `Err` unless it exits with one of `codes`.
fn measured(c: &mut Command, codes: &[i32]) -> Result<Measured, String> {
    c.stdout(Stdio::null());
    let m = run_measured(c).map_err(|e| format!("{c:?}: {e}"))?;
    match m.code {
        Some(code) if codes.contains(&code) => Ok(m),
        other => Err(format!("{c:?} exited with {other:?}")),
    }
}

fn bench(o: &Options) -> Result<bool, String> {
    let figeval = match &o.figeval {
        Some(p) => p.clone(),
        None => sibling("figeval", "figeval-cli")?,
    };
    let pdf = o.pdf.to_str().ok_or("the PDF path is not UTF-8")?;
    let dataset = o.dataset.to_str().ok_or("the dataset path is not UTF-8")?;
    let mut baseline = Vec::new();
    let mut ground = Vec::new();
    for _ in 0..o.runs {
        let mut c = Command::new("pdftotext");
        c.args(["-layout", "-enc", "UTF-8", pdf, "-"]);
        baseline.push(measured(&mut c, &[0])?);
        let mut c = Command::new(&figeval);
        c.args(["ground", "--dataset", dataset, "--pdf", pdf]);
        // 1 is a finding, still a whole check; 2 would be bad input.
        ground.push(measured(&mut c, &[0, 1])?);
    }
    let pages = pagetext::extract_pages(&o.pdf).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(&o.dataset).map_err(|e| e.to_string())?;
    let d = figeval::Dataset::parse(&text).map_err(|e| e.to_string())?;
    let mut core = Vec::new();
    let mut counts = None;
    for _ in 0..o.runs.max(5) {
        let start = Instant::now();
        let g = figeval_document::ground(&d, &pages);
        core.push(start.elapsed());
        counts = Some(g.counts);
    }
    let wall = |ms: &[Measured]| median(ms.iter().map(Measured::secs).collect());
    let cpu = |ms: &[Measured]| median(ms.iter().map(Measured::cpu_secs).collect());
    let base = wall(&baseline);
    let total = wall(&ground);
    let core_s = median(core.iter().map(Duration::as_secs_f64).collect());
    let ratio = total / base;
    println!(
        "bench-ground: {} ({} pages), {}, median of {} runs",
        o.pdf.display(),
        pages.len(),
        o.dataset.display(),
        o.runs
    );
    println!(
        "  pdftotext -layout, one process (baseline)  wall {base:>6.2} s  cpu {:>6.2} s",
        cpu(&baseline)
    );
    println!(
        "  figeval ground (extraction + check)        wall {total:>6.2} s  cpu {:>6.2} s  ratio {ratio:.2} (cpu {:.2})",
        cpu(&ground),
        cpu(&ground) / cpu(&baseline)
    );
    println!(
        "  the ground check alone, in process         wall {core_s:>6.3} s                ratio {:.3}",
        core_s / base
    );
    if let Some(c) = counts {
        println!(
            "  verdicts: ok {}, moved {}, mention_only {}, absent {}, beyond_end {}, not_checked {}",
            c.ok, c.moved, c.mention_only, c.absent, c.beyond_end, c.not_checked
        );
    }
    let ok = ratio <= RATIO_MAX;
    println!(
        "{} figeval ground takes {ratio:.2}x the wall time of pdftotext alone (at most {RATIO_MAX})",
        verdict(ok)
    );
    Ok(ok)
}

fn main() -> ExitCode {
    let o = parse_args();
    exit("bench-ground", bench(&o))
}
