//! The real LangServe and Hayhooks servers from PyPI (`tests/servers/`), over the Octave
//! manual with BM25 retrievers, for the connector tests; and the Python hand-scorer of their
//! answers.
//!
//! They run from the venv `cargo xtask servers` makes under the target folder; the test learns
//! its python and the manual's page cache from `FIGEVAL_SERVERS_PYTHON` and
//! `FIGEVAL_SERVERS_PAGES` (`cargo xtask test` sets both, `cargo xtask servers` prints them). A
//! test without them fails and says so: it never passes without its servers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::{octave_pdf, repo_root};

/// How long a server may take to load the manual and listen: about 5 s with the page cache,
/// a minute or more without it on a loaded 2-core machine.
const START_TIMEOUT: Duration = Duration::from_secs(300);

/// A variable `cargo xtask test` sets, or a failure that says how to get it.
fn required_var(name: &str) -> PathBuf {
    let value = std::env::var_os(name).unwrap_or_else(|| {
        panic!(
            "{name} is not set: the connector tests need the LangServe and Hayhooks venv. \
             `cargo xtask test` makes it and sets the variable; by hand, run \
             `cargo xtask servers` and export the two variables it prints"
        )
    });
    let path = PathBuf::from(value);
    assert!(
        path.exists(),
        "{name}={} does not exist: run `cargo xtask servers`",
        path.display()
    );
    path
}

/// The test servers' python.
pub fn python() -> PathBuf {
    required_var("FIGEVAL_SERVERS_PYTHON")
}

/// The cache of the manual's pages as PyPDFLoader reads them (tests/servers/manual.py).
fn pages() -> PathBuf {
    required_var("FIGEVAL_SERVERS_PAGES")
}

/// Which of the two servers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// LangChain's BM25Retriever behind LangServe's `add_routes`, at `/octave`.
    LangServe,
    /// Haystack's InMemoryBM25Retriever in a Hayhooks pipeline wrapper named `octave`.
    Hayhooks,
}

impl Kind {
    /// The name of its preset and of the hand-scorer's `--server`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::LangServe => "langserve",
            Kind::Hayhooks => "hayhooks",
        }
    }
}

/// A running test server, its whole process group killed and reaped on drop (also when the
/// test fails).
pub struct PyServer {
    child: Child,
    /// The URL to give figeval as `--base-url`: `http://127.0.0.1:PORT/octave`.
    pub base_url: String,
    /// What it printed up to its ready line.
    pub lines: Vec<String>,
}

impl Drop for PyServer {
    fn drop(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) on the process group this test made for the server (process_group(0)
        // made the child its leader); nothing else is in it.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

impl PyServer {
    /// Starts `kind` on a loopback port and waits until it accepts connections.
    pub fn start(kind: Kind) -> PyServer {
        let python = python();
        let servers = repo_root().join("tests").join("servers");
        // Hayhooks runs through its own command, installed beside the venv's python.
        let program = match kind {
            Kind::LangServe => python.clone(),
            Kind::Hayhooks => python.with_file_name("hayhooks"),
        };
        let mut command = Command::new(&program);
        command
            .current_dir(&servers)
            .env("HAYSTACK_TELEMETRY_ENABLED", "False")
            .env("PYTHONWARNINGS", "ignore::DeprecationWarning")
            // No __pycache__ folders in the repository.
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        // LangServe prints its own ready line with the port it was given (0: any free one).
        // Hayhooks's command line takes 0 for its default port 1416, so a free port is picked
        // here; its ready line is uvicorn's, on stderr.
        let (ready, port) = match kind {
            Kind::LangServe => {
                command
                    .arg("langserve_server.py")
                    .args(["--pdf", octave_pdf()])
                    .arg("--cache")
                    .arg(pages())
                    .args(["--port", "0"]);
                ("langserve: listening on ", None)
            }
            Kind::Hayhooks => {
                let port = free_port();
                command
                    .args(["run", "--host", "127.0.0.1"])
                    .args(["--port", &port.to_string()])
                    .args(["--pipelines-dir", "hayhooks"])
                    .args(["--additional-python-path", "."])
                    .env("FIGEVAL_SERVER_PDF", octave_pdf())
                    .env("FIGEVAL_SERVER_PAGES", pages())
                    .env("NO_COLOR", "1");
                ("Uvicorn running on ", Some(port))
            }
        };
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let (tx, rx) = mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().expect("piped")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("piped")),
        ] {
            let tx = tx.clone();
            // Read to the end, so the server never blocks on a full pipe.
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    let _ = tx.send(line);
                }
            });
        }
        drop(tx);
        let mut server = PyServer {
            child,
            base_url: String::new(),
            lines: Vec::new(),
        };
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match rx.recv_timeout(left) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => panic!(
                    "{} did not say it was ready within {} s; it said:\n{}",
                    kind.name(),
                    START_TIMEOUT.as_secs(),
                    server.lines.join("\n")
                ),
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "{} exited before it was ready ({:?}); it said:\n{}",
                    kind.name(),
                    server.child.wait(),
                    server.lines.join("\n")
                ),
            };
            let found = line.find(ready).is_some();
            server.lines.push(line);
            if found {
                break;
            }
        }
        server.base_url = match (kind, port) {
            (Kind::LangServe, _) => {
                let line = server.lines.last().expect("the ready line");
                line[line.find(ready).expect("found") + ready.len()..]
                    .trim()
                    .to_string()
            }
            (Kind::Hayhooks, Some(port)) => {
                assert!(
                    server
                        .lines
                        .iter()
                        .any(|l| l.contains("1/1 pipelines deployed")),
                    "hayhooks did not deploy the octave pipeline; it said:\n{}",
                    server.lines.join("\n")
                );
                format!("http://127.0.0.1:{port}/octave")
            }
            (Kind::Hayhooks, None) => unreachable!("hayhooks is given its port"),
        };
        // Afterwards the lines are not needed; the reader threads drain the pipes alone.
        std::thread::spawn(move || rx.iter().for_each(drop));
        server
    }
}

/// Posts a JSON body to `url` (`http://127.0.0.1:PORT/path`) with plain HTTP/1.1 and returns
/// the status and the JSON answer: the servers asked directly, without figeval.
pub fn post_json(url: &str, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(host).expect("the server accepts");
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("the request is sent");
    let mut answer = String::new();
    stream
        .read_to_string(&mut answer)
        .expect("the answer is read");
    let (head, text) = answer
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP answer: {answer}"));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head}"));
    assert!(
        !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked"),
        "a chunked answer: {head}"
    );
    let json = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("{url} answered {status} with no JSON ({e}): {text}"));
    (status, json)
}

/// A loopback port that was free a moment ago.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port()
}

/// The hand-scoring of a capture of `kind`'s answers over the Octave dataset
/// (tests/servers/hand_score.py), as JSON.
pub fn hand_score(kind: Kind, capture: &std::path::Path) -> serde_json::Value {
    let out = Command::new(python())
        .arg(repo_root().join("tests/servers/hand_score.py"))
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .args(["--server", kind.name()])
        .args(["--dataset", crate::OCTAVE_DATASET])
        .arg("--capture")
        .arg(capture)
        .current_dir(repo_root())
        .output()
        .expect("the hand-scorer runs");
    assert!(
        out.status.success(),
        "hand_score.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the hand-scorer prints JSON")
}
