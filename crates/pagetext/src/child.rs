//! Running a tool as a child process within a time limit: its output is drained on threads (a
//! full pipe never stalls it), and it is killed when the limit passes.

use std::io::{self, Read};
use std::process::{Child, Command, Output, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a running tool is left between two looks at it.
pub(crate) const POLL: Duration = Duration::from_millis(5);

/// Reads all of `from` on a thread of its own.
pub(crate) fn drain<R: Read + Send + 'static>(mut from: R) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let _ = from.read_to_end(&mut all);
        all
    })
}

/// What a [`drain`] read (nothing, if its thread panicked).
pub(crate) fn joined(handle: JoinHandle<Vec<u8>>) -> Vec<u8> {
    handle.join().unwrap_or_default()
}

/// Kills `child` and reaps it.
pub(crate) fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Runs `command` with no input and its output captured, as [`Command::output`] does, but
/// kills it when it runs past `limit`: `Ok(None)` then. `Err` when it cannot be started or
/// waited for.
pub(crate) fn output_within(command: &mut Command, limit: Duration) -> io::Result<Option<Output>> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take().expect("stdout is piped"));
    let stderr = drain(child.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                stop(&mut child);
                let _ = (joined(stdout), joined(stderr));
                return Ok(None);
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => {
                stop(&mut child);
                return Err(e);
            }
        }
    };
    Ok(Some(Output {
        status,
        stdout: joined(stdout),
        stderr: joined(stderr),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_past_its_limit_is_killed_and_said_to_have_timed_out() {
        let started = Instant::now();
        let out = output_within(Command::new("sleep").arg("30"), Duration::from_millis(100))
            .expect("sleep starts");
        assert!(out.is_none());
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "it was killed, not waited for"
        );
    }

    #[test]
    fn a_tool_within_its_limit_gives_its_status_and_output() {
        let out = output_within(
            Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"]),
            Duration::from_secs(30),
        )
        .expect("sh starts")
        .expect("within the limit");
        assert_eq!(out.status.code(), Some(3));
        assert_eq!(out.stdout, b"out\n");
        assert_eq!(out.stderr, b"err\n");
    }
}
