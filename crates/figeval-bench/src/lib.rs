//! Benchmarks of figeval (see README.md):
//!
//! - `bench-score`: offline scoring of a synthetic capture, against a parse-only floor
//!   (`parse-floor`) and a Python implementation of the same scoring (`score.py`);
//! - `bench-live`: `figeval run` against `refsearch --latency-ms 50` at concurrency 1 and 8;
//! - `bench-load`: `figeval run` of 2,000 questions at concurrency 16 (memory flat against a
//!   200-question run), and a 16-client soak of `refsearch` against a 1-client baseline;
//! - `bench-ground`: `figeval ground` on the Octave manual against `pdftotext` alone.
//!
//! The binaries under test are found next to the benchmark's own executable, in the same
//! target directory (`CARGO_TARGET_DIR` respected); this crate never builds them.

pub mod gen;
pub mod jsondiff;
pub mod measure;
pub mod procfs;
pub mod questions;
pub mod server;

use std::path::{Path, PathBuf};

/// The workspace root (two levels above this crate's manifest).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("the crate sits at crates/figeval-bench")
        .to_path_buf()
}

/// The directory holding this executable (`<target>/release`).
pub fn exe_dir() -> PathBuf {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .expect("the benchmark knows where its executable is")
}

/// A sibling binary in the same target directory, or a message saying how to build it.
pub fn sibling(name: &str, package: &str) -> Result<PathBuf, String> {
    let path = exe_dir().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} not found; build it first: cargo build --release -p {package} \
             (with the same CARGO_TARGET_DIR as this benchmark)",
            path.display()
        ))
    }
}

/// `<target>/figeval-bench`, where generated inputs and outputs go.
pub fn work_dir() -> PathBuf {
    let dir = exe_dir();
    let target = dir.parent().unwrap_or(&dir);
    target.join("figeval-bench")
}

/// A file size in MB (10^6 bytes).
pub fn file_mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1e6)
}

/// `PASS` or `FAIL`, the first word of a benchmark's verdict line.
pub fn verdict(ok: bool) -> &'static str {
    if ok {
        "PASS"
    } else {
        "FAIL"
    }
}

/// A benchmark's exit status: 0 when every check passed, 1 when one failed, 2 (after printing
/// `<bench>: <why>`) when it could not run.
pub fn exit(bench: &str, outcome: Result<bool, String>) -> std::process::ExitCode {
    match outcome {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{bench}: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
