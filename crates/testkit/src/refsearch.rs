//! Starting `refsearch` and reading where it listens: it indexes its PDF, then prints
//! `refsearch: listening on http://ADDR/api` on stderr (with `--listen 127.0.0.1:0`, the port
//! it was given). Used by the end-to-end tests, refsearch's own tests, the benchmarks and
//! `cargo xtask demo`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The start of the line refsearch prints once it listens; the base URL follows.
pub const LISTENING: &str = "refsearch: listening on ";

/// How long refsearch may take to index the manual and listen (about 10 s alone; far more on a
/// loaded 2-core machine).
pub const START_TIMEOUT: Duration = Duration::from_secs(300);

/// What refsearch said up to and including the line saying where it listens.
#[derive(Debug, Clone)]
pub struct Started {
    /// Its API base, `http://127.0.0.1:PORT/api`.
    pub base_url: String,
    /// Every stderr line it printed, the `listening on` line last.
    pub lines: Vec<String>,
}

/// Reads `child`'s stderr (it must be piped) until the `listening on` line, handing every
/// line to `echo` as it comes. After that a thread keeps reading stderr, so refsearch never
/// blocks on a full pipe. Fails when refsearch exits first (with what it said) or does not
/// listen within `timeout`; the caller still owns the child and stops it.
pub fn wait_until_listening(
    child: &mut Child,
    timeout: Duration,
    mut echo: impl FnMut(&str),
) -> Result<Started, String> {
    let stderr = child
        .stderr
        .take()
        .ok_or("refsearch's stderr is not piped: nothing says where it listens")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = BufReader::new(stderr).lines().map_while(Result::ok);
        for line in lines.by_ref() {
            let last = line.starts_with(LISTENING);
            if tx.send(line).is_err() || last {
                break;
            }
        }
        lines.for_each(drop);
    });
    let deadline = Instant::now() + timeout;
    let mut lines = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                echo(&line);
                let url = line.strip_prefix(LISTENING).map(|u| u.trim().to_string());
                lines.push(line);
                if let Some(base_url) = url {
                    return Ok(Started { base_url, lines });
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "refsearch did not say it was listening within {} s; it said:\n{}",
                    timeout.as_secs(),
                    lines.join("\n")
                ))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = child
                    .wait()
                    .map_or_else(|e| e.to_string(), |s| s.to_string());
                return Err(format!(
                    "refsearch exited ({status}) before it listened; it said:\n{}",
                    lines.join("\n")
                ));
            }
        }
    }
}

/// A `refsearch` process, killed and reaped when dropped (also when a test fails).
pub struct Server {
    child: Child,
    /// Its API base, `http://127.0.0.1:PORT/api`.
    pub base_url: String,
    /// What it printed on stderr up to the `listening on` line.
    pub lines: Vec<String>,
}

impl Server {
    /// Starts `command` (a refsearch command line, with `--listen 127.0.0.1:0` or another
    /// loopback address) and waits up to [`START_TIMEOUT`] until it listens; `echo` sees every
    /// startup line.
    pub fn start(command: &mut Command, echo: impl FnMut(&str)) -> Result<Server, String> {
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {:?}: {e}", command.get_program()))?;
        // From here the guard owns the child: an early return kills it.
        let mut server = Server {
            child,
            base_url: String::new(),
            lines: Vec::new(),
        };
        let started = wait_until_listening(&mut server.child, START_TIMEOUT, echo)?;
        server.base_url = started.base_url;
        server.lines = started.lines;
        Ok(server)
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether it is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends SIGTERM and waits up to `within` for it to exit; its exit status, or an error
    /// when it is still running then (it is killed on drop).
    pub fn terminate(&mut self, within: Duration) -> Result<ExitStatus, String> {
        let pid = self.pid().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .map_err(|e| format!("cannot run kill: {e}"))?;
        if !sent.success() {
            return Err(format!("kill -TERM {pid} failed ({sent})"));
        }
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().map_err(|e| e.to_string())? {
                return Ok(status);
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "refsearch (pid {pid}) still runs {} s after SIGTERM",
                    within.as_secs()
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in that prints like refsearch: `sh -c` writing lines to stderr.
    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn the_base_url_is_read_from_the_listening_line_and_every_line_before_it_is_kept() {
        let mut echoed = Vec::new();
        let s = Server::start(
            &mut sh("echo 'refsearch: indexed 3 pages' >&2; \
                 echo 'refsearch: listening on http://127.0.0.1:4321/api' >&2; \
                 echo after >&2; exec sleep 30"),
            |l| echoed.push(l.to_string()),
        )
        .unwrap();
        assert_eq!(s.base_url, "http://127.0.0.1:4321/api");
        assert_eq!(s.lines.len(), 2);
        assert_eq!(echoed, s.lines);
    }

    #[test]
    fn a_process_that_exits_before_listening_fails_with_what_it_said() {
        let e = Server::start(
            &mut sh("echo 'refsearch: error: PDF not found: /x.pdf' >&2; exit 2"),
            |_| {},
        )
        .err()
        .expect("no server");
        assert!(
            e.contains("exited (exit status: 2) before it listened"),
            "{e}"
        );
        assert!(e.contains("PDF not found: /x.pdf"), "{e}");
    }

    #[test]
    fn a_process_that_never_listens_fails_after_the_timeout() {
        let mut child = sh("echo 'refsearch: indexing' >&2; exec sleep 30")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let e = wait_until_listening(&mut child, Duration::from_millis(300), |_| {}).unwrap_err();
        let _ = child.kill();
        let _ = child.wait();
        assert!(e.contains("did not say it was listening"), "{e}");
        assert!(e.contains("refsearch: indexing"), "{e}");
    }
}
