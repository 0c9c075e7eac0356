//! Running a subprocess and measuring its wall time, CPU time and peak resident set.

use std::io;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// What one subprocess run cost.
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// Wall time from spawn to exit.
    pub wall: Duration,
    /// User CPU time.
    pub user: Duration,
    /// System CPU time.
    pub sys: Duration,
    /// Peak resident set of the child (`ru_maxrss`), in bytes.
    pub max_rss: u64,
    /// Exit code (`None` when killed by a signal).
    pub code: Option<i32>,
}

impl Measured {
    /// Wall time in seconds.
    pub fn secs(&self) -> f64 {
        self.wall.as_secs_f64()
    }

    /// User + system CPU time in seconds.
    pub fn cpu_secs(&self) -> f64 {
        (self.user + self.sys).as_secs_f64()
    }

    /// Peak RSS in MB (10^6 bytes).
    pub fn rss_mb(&self) -> f64 {
        self.max_rss as f64 / 1e6
    }
}

fn tv(t: libc::timeval) -> Duration {
    Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
}

/// Spawns `cmd` and waits for it with `wait4`, which reports the child's own resource usage.
///
/// The child's `ru_maxrss` starts at this process's own peak RSS (see `rusage-exec`); use
/// [`run_via_launcher`] when this process is large.
pub fn run_measured(cmd: &mut Command) -> io::Result<Measured> {
    let start = Instant::now();
    let child = cmd.spawn()?;
    wait_measured(child, start)
}

/// Waits for an already spawned child with `wait4`.
pub fn wait_measured(child: Child, start: Instant) -> io::Result<Measured> {
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pid is our own child, not yet reaped (std's Child never waited for it);
        // status and usage point to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let wall = start.elapsed();
    // The child is reaped; dropping the handle does not wait again.
    drop(child);
    let code = if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    Ok(Measured {
        wall,
        user: tv(usage.ru_utime),
        sys: tv(usage.ru_stime),
        // Linux reports ru_maxrss in KiB.
        max_rss: (usage.ru_maxrss.max(0) as u64) * 1024,
        code,
    })
}

/// A command that runs `program` through the small `rusage-exec` launcher, which writes the
/// program's own costs to `report`: its peak RSS is then the program's, not this (large)
/// process's. Add the program's arguments and stdio to it, then call [`run_via_launcher`].
pub fn launcher_command(launcher: &Path, report: &Path, program: &Path) -> Command {
    let mut c = Command::new(launcher);
    c.arg(report).arg(program);
    c
}

/// Runs a [`launcher_command`] and reads what the launcher measured.
pub fn run_via_launcher(cmd: &mut Command, report: &Path) -> io::Result<Measured> {
    let _ = std::fs::remove_file(report);
    let outer = run_measured(cmd)?;
    let text = std::fs::read_to_string(report).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("the launcher wrote no report (exit {:?}): {e}", outer.code),
        )
    })?;
    let f: Vec<i64> = text
        .split_whitespace()
        .map(|s| s.parse().unwrap_or(-1))
        .collect();
    if f.len() != 5 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("bad launcher report {text:?}"),
        ));
    }
    Ok(Measured {
        wall: Duration::from_nanos(f[0].max(0) as u64),
        user: Duration::from_micros(f[1].max(0) as u64),
        sys: Duration::from_micros(f[2].max(0) as u64),
        max_rss: f[3].max(0) as u64 * 1024,
        code: (f[4] >= 0).then_some(f[4] as i32),
    })
}
