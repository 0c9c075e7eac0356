//! `gen-questions`: writes the load benchmarks' dataset (see `figeval_bench::questions`).
//!
//! ```text
//! gen-questions --count N --out FILE [--pdf P] [--corpus-id ID]
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

use figeval_bench::questions;

fn main() -> ExitCode {
    let mut count: Option<usize> = None;
    let mut out: Option<PathBuf> = None;
    let mut pdf = testkit::manual::path();
    let mut corpus_id = String::from(testkit::manual::CORPUS_ID);
    let mut args = std::env::args().skip(1);
    let usage = || {
        eprintln!("usage: gen-questions --count N --out FILE [--pdf P] [--corpus-id ID]");
        ExitCode::from(2)
    };
    while let Some(a) = args.next() {
        let Some(v) = args.next() else {
            return usage();
        };
        match a.as_str() {
            "--count" => match v.parse() {
                Ok(n) => count = Some(n),
                Err(_) => return usage(),
            },
            "--out" => out = Some(v.into()),
            "--pdf" => pdf = v.into(),
            "--corpus-id" => corpus_id = v,
            _ => return usage(),
        }
    }
    let (Some(count), Some(out)) = (count, out) else {
        return usage();
    };
    let result = questions::pdf_pages(&pdf)
        .and_then(|pages| questions::dataset(&pages, &corpus_id, count))
        .and_then(|d| {
            std::fs::write(&out, d.to_string()).map_err(|e| format!("{}: {e}", out.display()))
        });
    match result {
        Ok(()) => {
            println!("gen-questions: {count} questions -> {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("gen-questions: {e}");
            ExitCode::FAILURE
        }
    }
}
