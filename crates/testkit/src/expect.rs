//! Running a command and checking what it did, in one chain:
//! `expect(cmd).exit(2).stderr_has("PDF not found").stdout_is_empty();`, or
//! `let o = expect(cmd); o.exit(0);` and then `o.stdout()` for more. Every failed check shows
//! the command, its exit status and both of its streams.

use std::process::{Command, Output};

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
    fn a_missing_text_fails_naming_it() {
        let e = std::panic::catch_unwind(|| {
            sh("echo other >&2").stderr_has("wanted");
        })
        .unwrap_err();
        let e = e.downcast_ref::<String>().unwrap();
        assert!(e.contains("expected stderr to contain \"wanted\""), "{e}");
    }
}
