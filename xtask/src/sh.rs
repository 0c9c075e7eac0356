//! Running commands, children that are stopped when dropped, and every child stopped when the
//! task is stopped by SIGINT or SIGTERM.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The children this process started that have not been reaped yet, by process id.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// How long stopped children get to exit after SIGTERM before they are killed.
const STOP_GRACE: Duration = Duration::from_secs(5);

fn children() -> MutexGuard<'static, Vec<u32>> {
    CHILDREN
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts a child and records it, so that a SIGINT or SIGTERM stops it too. The record is
/// made under the same lock the signal watcher takes, so no child is started unseen.
pub fn spawn(c: &mut Command) -> Result<Child, String> {
    let mut running = children();
    let child = c
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", describe(c)))?;
    running.push(child.id());
    Ok(child)
}

/// Waits for a child started by [`spawn`] and forgets it.
fn wait(child: &mut Child) -> std::io::Result<ExitStatus> {
    let status = child.wait();
    children().retain(|&pid| pid != child.id());
    status
}

/// Stops every recorded child when this process gets SIGINT (Ctrl-C) or SIGTERM, then exits
/// with 128 + the signal's number. Each child gets SIGTERM, then SIGKILL if it is still running
/// after [`STOP_GRACE`]; the process exits only once they are all gone, so the ports they held
/// are free by then.
pub fn stop_children_on_signals() -> Result<(), String> {
    let (mut reader, writer) = UnixStream::pair().map_err(|e| e.to_string())?;
    writer.set_nonblocking(true).map_err(|e| e.to_string())?;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let writer = writer.try_clone().map_err(|e| e.to_string())?;
        // SAFETY: the action only writes one byte to a non-blocking socket (write(2) is
        // async-signal-safe); it allocates nothing and takes no lock.
        unsafe {
            signal_hook_registry::register(signal, move || {
                let _ = (&writer).write(&[signal as u8]);
            })
        }
        .map_err(|e| format!("cannot watch for signal {signal}: {e}"))?;
    }
    std::thread::spawn(move || {
        let mut got = [0u8];
        if reader.read_exact(&mut got).is_err() {
            return;
        }
        let signal = i32::from(got[0]);
        // Held to the end: nothing new starts while the children are stopped.
        let running = children();
        let stopped = stop_all(&running);
        let name = if signal == libc::SIGINT {
            "SIGINT"
        } else {
            "SIGTERM"
        };
        let noun = if stopped == 1 { "process" } else { "processes" };
        eprintln!("\nxtask: stopped by {name}; stopped {stopped} child {noun}");
        std::process::exit(128 + signal);
    });
    Ok(())
}

/// SIGTERM to each of `pids`, then SIGKILL to those still running after [`STOP_GRACE`]; returns
/// how many there were. Reaps them, so none is left as a zombie holding its port.
fn stop_all(pids: &[u32]) -> usize {
    let pids: Vec<libc::pid_t> = pids.iter().filter_map(|&p| p.try_into().ok()).collect();
    for &pid in &pids {
        // SAFETY: kill(2) on our own unreaped child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    let deadline = Instant::now() + STOP_GRACE;
    let mut left = pids.clone();
    while !left.is_empty() {
        // Gone when reaped here (waitpid returns it) or elsewhere (-1, ECHILD).
        // SAFETY: waitpid(2) with WNOHANG on our own child; status may be null.
        left.retain(|&pid| unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) } == 0);
        if Instant::now() >= deadline {
            for &pid in &left {
                // SAFETY: as above; then a blocking reap.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, std::ptr::null_mut(), 0);
                }
            }
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    pids.len()
}

/// The repository root (xtask lives one folder below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the repository")
        .to_path_buf()
}

/// The cargo target folder in use.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// The folder where `cargo install` and rustup put binaries.
pub fn cargo_bin() -> PathBuf {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo")
        })
        .join("bin")
}

/// PATH with the cargo bin folder and the app's npm build tools (`web/node_modules/.bin`:
/// binaryen's wasm-opt) in front.
pub fn tool_path() -> String {
    let mut parts = vec![root().join("web/node_modules/.bin"), cargo_bin()];
    if let Some(p) = std::env::var_os("PATH") {
        parts.extend(std::env::split_paths(&p));
    }
    // A part holding the separator cannot be joined; PATH is then left as it was.
    std::env::join_paths(parts)
        .unwrap_or_else(|_| std::env::var_os("PATH").unwrap_or_default())
        .to_string_lossy()
        .into_owned()
}

/// A command run from the repository root with the tool PATH. The program and the arguments
/// are OS strings, so a path that is not UTF-8 (a `--out` or `CARGO_TARGET_DIR` a user gave)
/// is passed as it is.
pub fn cmd<S: AsRef<OsStr>>(program: impl AsRef<OsStr>, args: &[S]) -> Command {
    let mut c = Command::new(program);
    c.args(args).current_dir(root()).env("PATH", tool_path());
    c
}

/// Runs a command, echoing it; an error says which command failed.
pub fn exec(mut c: Command) -> Result<(), String> {
    eprintln!("$ {}", describe(&c));
    let mut child = spawn(&mut c)?;
    let status = wait(&mut child).map_err(|e| format!("{}: {e}", describe(&c)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(&c)))
    }
}

/// Runs a command, echoing its output while calling `each` on every line of stdout.
pub fn run_lines(mut c: Command, mut each: impl FnMut(&str)) -> Result<(), String> {
    eprintln!("$ {}", describe(&c));
    let mut child = spawn(c.stdout(Stdio::piped()))?;
    let out = child.stdout.take().expect("stdout is piped");
    for line in BufReader::new(out).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        each(&line);
    }
    let status = wait(&mut child).map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(&c)))
    }
}

/// Runs a command to its end and returns what it wrote to stdout, as bytes; an error says which
/// command failed.
pub fn stdout_of(mut c: Command) -> Result<Vec<u8>, String> {
    let child = spawn(c.stdin(Stdio::null()).stdout(Stdio::piped()))?;
    let pid = child.id();
    let out = child.wait_with_output();
    children().retain(|&p| p != pid);
    let out = out.map_err(|e| format!("{}: {e}", describe(&c)))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{} failed ({})", describe(&c), out.status))
    }
}

/// Whether a program answers `--version` (or the given probe) successfully.
pub fn answers(program: &str, args: &[&str]) -> Option<String> {
    let mut c = cmd(program, args);
    let child = spawn(
        c.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    )
    .ok()?;
    let pid = child.id();
    let out: std::io::Result<Output> = child.wait_with_output();
    children().retain(|&p| p != pid);
    let out = out.ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn describe(c: &Command) -> String {
    let mut s = c.get_program().to_string_lossy().into_owned();
    for a in c.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// A child process started by [`spawn`] that is killed and reaped when dropped, so a task never
/// leaves one behind.
pub struct Guard(pub Child);

impl Guard {
    /// Waits for the child to end on its own, and forgets it.
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        wait(&mut self.0)
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = wait(&mut self.0);
    }
}
