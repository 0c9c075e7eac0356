//! `cargo xtask demo` stopped with SIGTERM stops its children: once the figures-on `refsearch`
//! listens, a SIGTERM to the demo leaves its port free and no `refsearch` behind.
//!
//! The demo runs with the debug `figeval` and `refsearch` of this target folder (`--bins`, no
//! release build), on a port this test picked (`--listen`), writing to a scratch folder
//! (`--out`), so that it neither builds for minutes nor collides with another run.

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the demo may take to reach the figures-on refsearch (two startups over the
/// 1158-page manual and one eval, debug builds, on a busy machine).
const STARTUP: Duration = Duration::from_secs(300);

/// The folder of the workspace's debug binaries (this test runs from `target/debug/deps`).
fn bins() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("tests run from target/<profile>/deps")
        .to_path_buf();
    for name in ["figeval", "refsearch"] {
        assert!(
            dir.join(name).exists(),
            "{} is missing: build the binaries first (cargo build --workspace --bins)",
            dir.join(name).display()
        );
    }
    dir
}

/// A port that was free a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("bound").port()
}

/// The refsearch processes told to listen on `listen`, as (pid, command line).
fn refsearch_on(listen: &str) -> Vec<(i32, String)> {
    let needle = format!("--listen {listen}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .flatten()
    {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let line = String::from_utf8_lossy(&raw).replace('\0', " ");
        if line.contains(&needle) && line.contains("--corpus-id") {
            found.push((pid, line));
        }
    }
    found
}

/// The demo and anything it left listening on the test's port are killed when the test ends,
/// whatever the outcome.
struct Cleanup {
    demo: Child,
    listen: String,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let _ = self.demo.kill();
        let _ = self.demo.wait();
        for (pid, _) in refsearch_on(&self.listen) {
            // SAFETY: kill(2) on a process this test's demo started with its unique address.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    }
}

#[test]
fn sigterm_to_the_demo_stops_refsearch_and_frees_its_port() {
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let out = std::env::temp_dir().join(format!("figeval-demo-sigterm-{}", std::process::id()));
    let demo = Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["demo", "--no-serve", "--listen", &listen, "--out"])
        .arg(&out)
        .arg("--bins")
        .arg(bins())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cargo xtask demo");
    let mut run = Cleanup { demo, listen };

    // Everything the demo says, kept for failure messages; a line on the channel once the
    // figures-on refsearch listens on our port.
    let log = Arc::new(Mutex::new(String::new()));
    let (up, is_up) = mpsc::channel();
    let stderr = run.demo.stderr.take().expect("stderr is piped");
    let wanted = format!("refsearch: listening on http://{}/api", run.listen);
    let kept = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let done = line.trim() == wanted;
            let mut log = kept.lock().unwrap();
            log.push_str(&line);
            log.push('\n');
            if done {
                let _ = up.send(());
            }
        }
    });
    let log_text = || log.lock().unwrap().clone();
    is_up.recv_timeout(STARTUP).unwrap_or_else(|_| {
        panic!(
            "the demo's figures-on refsearch did not listen on {} within {STARTUP:?}:\n{}",
            run.listen,
            log_text()
        )
    });
    let addr: SocketAddr = run.listen.parse().expect("a socket address");
    assert!(
        TcpStream::connect_timeout(&addr, Duration::from_secs(5)).is_ok(),
        "refsearch holds the port before the SIGTERM"
    );
    assert_eq!(
        refsearch_on(&run.listen).len(),
        1,
        "one refsearch runs with --listen {}",
        run.listen
    );

    let pid = i32::try_from(run.demo.id()).expect("a pid");
    // SAFETY: kill(2) on the child this test started and has not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0, "SIGTERM sent");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = run.demo.try_wait().expect("wait for the demo") {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the demo still runs 30 s after SIGTERM:\n{}",
            log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    // The watcher exits with 128 + 15 once its children are gone.
    assert_eq!(status.code(), Some(143), "{status}:\n{}", log_text());
    // Its closing line may still be in the pipe when the demo has exited.
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        log_text().contains("xtask: stopped by SIGTERM; stopped "),
        "{}",
        log_text()
    );

    let left = refsearch_on(&run.listen);
    assert!(left.is_empty(), "left running after SIGTERM: {left:?}");
    TcpListener::bind(addr)
        .unwrap_or_else(|e| panic!("port {port} is still held after the demo stopped: {e}"));
    let _ = std::fs::remove_dir_all(&out);
}
