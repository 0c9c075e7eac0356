//! Running a command and checking what it did, in one chain:
//! `expect(cmd).exit(2).stderr_has("PDF not found").stdout_is_empty();`, or
//! `let o = expect(cmd); o.exit(0);` and then `o.stdout()` for more. Every failed check shows
//! the command, its exit status and both of its streams. [`expect_within`] is the same with a
//! hang detector: a command still running at its time limit is killed and fails the test.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `command` to its end and returns what it did, to be checked.
pub fn expect(command: &mut Command) -> Outcome {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    Outcome {
        command: format!("{command:?}"),
        output,
    }
}

/// Runs `command` like [`expect`], but kills it and fails, with what it printed so far, when it
/// is still running after `limit`: a hang detector, so give it a bound generous enough for a
/// loaded machine, not a timing.
pub fn expect_within(command: &mut Command, limit: Duration) -> Outcome {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let drain = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = from.read_to_end(&mut all);
            all
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout is piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr is piped")));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                let (out, err) = (stdout.join(), stderr.join());
                panic!(
                    "still running after {} s, killed: {command:?}\n--- stderr ---\n{}\n--- stdout ---\n{}",
                    limit.as_secs_f64(),
                    String::from_utf8_lossy(&err.unwrap_or_default()),
                    String::from_utf8_lossy(&out.unwrap_or_default())
                );
            }
            Err(e) => panic!("cannot wait for {command:?}: {e}"),
        }
    };
    Outcome {
        command: format!("{command:?}"),
        output: Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        },
    }
}

/// What a command did: its exit status and output.
#[derive(Debug)]
pub struct Outcome {
    command: String,
    /// Its exit status and both streams.
    pub output: Output,
}

impl Outcome {
    /// Fails unless the command exited with `code` (not by a signal).
    #[track_caller]
    pub fn exit(&self, code: i32) -> &Outcome {
        if self.output.status.code() != Some(code) {
            self.fail(&format!("expected exit status {code}"));
        }
        self
    }

    /// Fails unless stderr contains `needle`.
    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Outcome {
        if !self.stderr().contains(needle) {
            self.fail(&format!("expected stderr to contain {needle:?}"));
        }
        self
    }

    /// Fails when stderr contains `needle`.
    #[track_caller]
    pub fn stderr_lacks(&self, needle: &str) -> &Outcome {
        if self.stderr().contains(needle) {
            self.fail(&format!("expected stderr not to contain {needle:?}"));
        }
        self
    }

    /// Fails unless stdout contains `needle`.
    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Outcome {
        if !self.stdout().contains(needle) {
            self.fail(&format!("expected stdout to contain {needle:?}"));
        }
        self
    }

    /// Fails unless stdout is empty (no partial output after a failure).
    #[track_caller]
    pub fn stdout_is_empty(&self) -> &Outcome {
        if !self.output.stdout.is_empty() {
            self.fail("expected nothing on stdout");
        }
        self
    }

    /// The exit status's code (`None` when a signal ended it).
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Its stdout, as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    /// Its stderr, as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    #[track_caller]
    fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}: {}\nexited: {}\n--- stderr ---\n{}\n--- stdout ---\n{}",
            self.command,
            self.output.status,
            self.stderr(),
            self.stdout()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Outcome {
        expect(Command::new("sh").args(["-c", script]))
    }

    #[test]
    fn matching_checks_pass_and_chain() {
        sh("echo out; echo 'the error' >&2; exit 2")
            .exit(2)
            .stderr_has("the error")
            .stderr_lacks("panicked")
            .stdout_has("out");
        sh("exit 0").exit(0).stdout_is_empty();
    }

    #[test]
    fn a_wrong_exit_status_fails_showing_stderr() {
        let e = std::panic::catch_unwind(|| {
            sh("echo 'why it failed' >&2; exit 3").exit(2);
        })
        .unwrap_err();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(e.contains("expected exit status 2"), "{e}");
        assert!(
            e.contains("exit status: 3") && e.contains("why it failed"),
            "{e}"
        );
    }

    #[test]
    fn within_its_limit_a_command_is_checked_like_expect() {
        let o = expect_within(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 2"]),
            Duration::from_secs(60),
        );
        o.exit(2).stderr_has("err").stdout_has("out");
    }

    #[test]
    fn a_command_past_its_limit_is_killed_and_fails() {
        let started = Instant::now();
        let e = std::panic::catch_unwind(|| {
            expect_within(
                Command::new("sh").args(["-c", "echo begun >&2; exec sleep 30"]),
                Duration::from_millis(300),
            );
        })
        .unwrap_err();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(e.contains("still running after 0.3 s, killed"), "{e}");
        assert!(e.contains("begun"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn a_missing_text_fails_naming_it() {
        let e = std::panic::catch_unwind(|| {
            sh("echo other >&2").stderr_has("wanted");
        })
        .unwrap_err();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(e.contains("expected stderr to contain \"wanted\""), "{e}");
    }
}
