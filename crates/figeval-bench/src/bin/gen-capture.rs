//! `gen-capture`: writes (or reuses) the synthetic dataset and capture of `bench-score`, for
//! benchmarks outside this crate (the browser benchmarks in `tests/browser/bench/`).
//!
//! ```text
//! gen-capture [--items 10000] [--seed N] [--out DIR]
//! ```
//!
//! The files are the ones `bench-score --sizes N` uses (same generator, seed and names), in
//! `DIR` (default `$CARGO_TARGET_DIR/figeval-bench/`). Prints one JSON object:
//! `{"items", "seed", "dataset", "capture", "reused"}`.

use std::path::PathBuf;
use std::process::ExitCode;

use figeval_bench::gen::{self, DEFAULT_SEED};
use figeval_bench::work_dir;

fn usage() -> ExitCode {
    eprintln!("usage: gen-capture [--items N] [--seed N] [--out DIR]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut items = 10_000usize;
    let mut seed = DEFAULT_SEED;
    let mut out = work_dir();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let Some(v) = args.next() else {
            return usage();
        };
        match a.as_str() {
            "--items" => match v.parse() {
                Ok(n) if n > 0 => items = n,
                _ => return usage(),
            },
            "--seed" => {
                let parsed = match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16).ok(),
                    None => v.parse().ok(),
                };
                match parsed {
                    Some(s) => seed = s,
                    None => return usage(),
                }
            }
            "--out" => out = PathBuf::from(v),
            _ => return usage(),
        }
    }
    match gen::generate(&out, items, seed) {
        Ok(g) => {
            let info = serde_json::json!({
                "items": items,
                "seed": format!("{seed:#x}"),
                "dataset": g.dataset,
                "capture": g.capture,
                "reused": g.reused,
            });
            println!("{info}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!(
                "gen-capture: generating {items} items in {}: {e}",
                out.display()
            );
            ExitCode::from(2)
        }
    }
}
