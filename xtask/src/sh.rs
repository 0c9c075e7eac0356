//! Running commands, and children that are stopped when dropped.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

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

/// PATH with the cargo bin folder and the npm tools of `tests/browser` in front.
pub fn tool_path() -> String {
    let mut parts = vec![root().join("tests/browser/node_modules/.bin"), cargo_bin()];
    if let Some(p) = std::env::var_os("PATH") {
        parts.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(parts)
        .expect("PATH parts are valid")
        .to_string_lossy()
        .into_owned()
}

/// A command run from the repository root with the tool PATH.
pub fn cmd(program: &str, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args).current_dir(root()).env("PATH", tool_path());
    c
}

/// Runs a command, echoing it; an error says which command failed.
pub fn exec(mut c: Command) -> Result<(), String> {
    eprintln!("$ {}", describe(&c));
    let status = c
        .status()
        .map_err(|e| format!("cannot start {}: {e}", describe(&c)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(&c)))
    }
}

/// Runs a command, echoing its output while calling `each` on every line of stdout.
pub fn run_lines(mut c: Command, mut each: impl FnMut(&str)) -> Result<(), String> {
    eprintln!("$ {}", describe(&c));
    let mut child = c
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", describe(&c)))?;
    let out = child.stdout.take().expect("stdout is piped");
    for line in BufReader::new(out).lines() {
        let line = line.map_err(|e| e.to_string())?;
        println!("{line}");
        each(&line);
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed ({status})", describe(&c)))
    }
}

/// Whether a program answers `--version` (or the given probe) successfully.
pub fn answers(program: &str, args: &[&str]) -> Option<String> {
    let out = cmd(program, args).stderr(Stdio::null()).output().ok()?;
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

/// A child process that is killed and reaped when dropped, so a task never leaves one behind.
pub struct Guard(pub Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
