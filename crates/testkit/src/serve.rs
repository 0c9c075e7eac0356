//! Starting `figeval serve` and reading where it listens: it prints `figeval serve: listening on
//! http://ADDR` on stderr once it listens (with `--listen 127.0.0.1:0`, the port it was given),
//! then one line per request. Used by the server's end-to-end tests and `bench-serve`. The
//! process is killed on drop.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The start of the line `figeval serve` prints once it listens; the URL follows.
pub const LISTENING: &str = "figeval serve: listening on ";

/// `figeval serve --listen 127.0.0.1:0 --store STORE --app APP`: add flags, then
/// [`Served::start`] it.
pub fn command(figeval: &std::path::Path, store: &str, app: &std::path::Path) -> Command {
    let mut c = Command::new(figeval);
    c.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--store",
        store,
        "--app",
    ])
    .arg(app);
    c
}

/// A running `figeval serve`.
pub struct Served {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Served {
    /// Starts `command` (a `figeval serve` command line listening on loopback) and waits up to
    /// a minute until it listens; its stderr lines are kept when `keep_lines` (the log of a
    /// long soak is read and dropped).
    pub fn start(command: &mut Command, keep_lines: bool) -> Result<Served, String> {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start figeval serve: {e}"))?;
        let stderr = child.stderr.take().ok_or("stderr is piped")?;
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let kept = lines.clone();
        std::thread::spawn(move || {
            let mut listening = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix(LISTENING) {
                    let _ = tx.send(url.trim().to_string());
                    listening = true;
                }
                if keep_lines || !listening {
                    if let Ok(mut k) = kept.lock() {
                        k.push(line);
                    }
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(base) = rx.recv_timeout(Duration::from_millis(50)) {
                return Ok(Served {
                    child: Some(child),
                    base,
                    lines,
                });
            }
            if let Ok(Some(status)) = child.try_wait() {
                std::thread::sleep(Duration::from_millis(100));
                let said = lines.lock().map(|l| l.join("\n")).unwrap_or_default();
                return Err(format!("figeval serve exited ({status}): {said}"));
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err("figeval serve did not listen within 60 s".into());
            }
        }
    }

    /// Every stderr line so far (only the start-up's without `keep_lines`).
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().map(|l| l.clone()).unwrap_or_default()
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().map_or(0, Child::id)
    }

    /// Kills it with SIGKILL and waits for it.
    pub fn kill9(mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Sends SIGTERM and waits for the exit; its status and stderr.
    pub fn terminate(mut self) -> Result<(std::process::ExitStatus, Vec<String>), String> {
        let mut c = self.child.take().ok_or("not running")?;
        let _ = Command::new("kill")
            .args(["-TERM", &c.id().to_string()])
            .status();
        let status = c.wait().map_err(|e| e.to_string())?;
        std::thread::sleep(Duration::from_millis(100));
        Ok((status, self.lines()))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}
