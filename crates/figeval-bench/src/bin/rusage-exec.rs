//! `rusage-exec REPORT PROGRAM ARGS...`: runs PROGRAM (stdio inherited), waits for it with
//! `wait4`, writes `wall_ns user_us sys_us maxrss_kib exit_code` to REPORT and exits with
//! PROGRAM's exit code.
//!
//! Why a launcher: Linux starts a process's peak-RSS record (`ru_maxrss`) at the peak RSS of
//! the process that spawned it (exec records the old address space's high-water mark), so a
//! child spawned straight from the benchmark — which holds generated data and parsed reports
//! — would report at least the benchmark's own peak. This launcher is small, so what it reports
//! is the program's own peak.

use std::process::{Command, ExitCode};
use std::time::Instant;

use figeval_bench::measure::wait_measured;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(report), Some(program)) = (args.next(), args.next()) else {
        eprintln!("usage: rusage-exec REPORT PROGRAM ARGS...");
        return ExitCode::from(125);
    };
    let start = Instant::now();
    let child = match Command::new(&program).args(args).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "rusage-exec: cannot start {}: {e}",
                program.to_string_lossy()
            );
            return ExitCode::from(126);
        }
    };
    let m = match wait_measured(child, start) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("rusage-exec: wait4 failed: {e}");
            return ExitCode::from(125);
        }
    };
    let line = format!(
        "{} {} {} {} {}\n",
        m.wall.as_nanos(),
        m.user.as_micros(),
        m.sys.as_micros(),
        m.max_rss / 1024,
        m.code.unwrap_or(-1)
    );
    if let Err(e) = std::fs::write(&report, line) {
        eprintln!(
            "rusage-exec: cannot write {}: {e}",
            report.to_string_lossy()
        );
        return ExitCode::from(125);
    }
    match m.code {
        Some(c) => ExitCode::from(c as u8),
        None => ExitCode::from(128),
    }
}
