//! Shared helpers for figeval's end-to-end tests: the repository, the binaries under test, the
//! real reference deployment over the Octave manual, and a deliberately faulty server for the
//! tests that are about faults. Everything listens on 127.0.0.1 and is stopped on drop.

pub mod serve;
pub mod servers;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The Octave figure dataset.
pub const OCTAVE_DATASET: &str = "data/eval_datasets/octave-manual-figures.json";
/// The Octave figure notes.
pub const OCTAVE_NOTES: &str = "data/corpora/octave-manual/figure-notes.json";

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits inside the repository")
        .to_path_buf()
}

/// A binary of the workspace, built into the same target folder as this test.
pub fn bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("tests run from target/<profile>/deps");
    let path = dir.join(name);
    assert!(
        path.exists(),
        "{} is missing: build the binaries first (cargo build --workspace --bins)",
        path.display()
    );
    path
}

/// The Octave manual (`FIGEVAL_OCTAVE_PDF`, checked once per process), or a failure that says
/// how to install it.
pub fn octave_pdf() -> &'static str {
    testkit::manual::require_str()
}

/// The project's scanned test corpus: the Octave manual's pages 325-370 with their text layer
/// and as a scan (images only, some pages turned, blurred or noisy), made once under
/// `target/scanned` by `xtask/scanned_excerpt.py` (the script `cargo xtask setup` runs).
pub struct ScannedExcerpt {
    /// The pages with their text layer.
    pub text: PathBuf,
    /// The same pages as a scan.
    pub scanned: PathBuf,
}

/// The target folder the tests run from (`target/`), where inputs too costly to make on every
/// run are kept between runs.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    exe.ancestors()
        .nth(3)
        .expect("tests run from target/<profile>/deps")
        .to_path_buf()
}

/// The scanned excerpt ([`ScannedExcerpt`]), made when missing.
pub fn scanned_excerpt() -> ScannedExcerpt {
    let out = target_dir().join("scanned");
    let status = Command::new("/usr/bin/python3")
        .arg(repo_root().join("xtask/scanned_excerpt.py"))
        .arg(&out)
        .env("FIGEVAL_OCTAVE_PDF", octave_pdf())
        .status()
        .expect("/usr/bin/python3 runs (cargo xtask setup installs python3-pil)");
    assert!(
        status.success(),
        "xtask/scanned_excerpt.py failed: {status}"
    );
    ScannedExcerpt {
        text: out.join("octave-325-370-text.pdf"),
        scanned: out.join("octave-325-370-scanned.pdf"),
    }
}

/// Runs `figeval` from the repository root, to check its exit status and output.
pub fn expect(args: &[&str]) -> testkit::Outcome {
    testkit::expect(
        Command::new(bin("figeval"))
            .args(args)
            .current_dir(repo_root()),
    )
}

/// A running `refsearch` over the Octave manual, stopped on drop.
pub struct Refsearch {
    _server: testkit::refsearch::Server,
    /// Its API base, `http://127.0.0.1:PORT/api`.
    pub base_url: String,
}

impl Refsearch {
    /// Starts `refsearch` on a free loopback port with extra flags, and waits until it listens.
    pub fn start(extra: &[&str]) -> Refsearch {
        let mut command = Command::new(bin("refsearch"));
        command
            .args([
                "--pdf",
                octave_pdf(),
                "--corpus-id",
                testkit::manual::CORPUS_ID,
            ])
            .args(["--listen", "127.0.0.1:0"])
            // With `--figures off` the notes are checked and build nothing.
            .args(["--figure-notes", OCTAVE_NOTES])
            .args(extra)
            .current_dir(repo_root());
        let server = testkit::refsearch::Server::start(&mut command, |_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        Refsearch {
            base_url: server.base_url.clone(),
            _server: server,
        }
    }
}

/// What a faulty server does with one request.
#[derive(Clone, Debug)]
pub enum Reply {
    /// Answer with this status and body.
    Status(u16, String),
    /// Wait, then answer 200 with this body.
    Slow(Duration, String),
    /// Close the connection without answering.
    Hangup,
}

/// A deliberately faulty search server for fault tests: `reply(n, question)` decides what the
/// n-th request (0-based) gets. It records every question it was asked.
pub struct FaultyServer {
    /// Its API base, `http://127.0.0.1:PORT/api`.
    pub base_url: String,
    addr: std::net::SocketAddr,
    stop: Arc<AtomicBool>,
    asked: Arc<Mutex<Vec<String>>>,
    headers: Arc<Mutex<Vec<String>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

type Policy = dyn Fn(usize, &str) -> Reply + Send + Sync;

impl FaultyServer {
    /// Starts the server on a free loopback port.
    pub fn start(reply: impl Fn(usize, &str) -> Reply + Send + Sync + 'static) -> FaultyServer {
        FaultyServer::start_at("127.0.0.1:0".parse().unwrap(), reply)
    }

    /// Starts the server on a given loopback address (to stand in for a restarted deployment).
    pub fn start_at(
        addr: std::net::SocketAddr,
        reply: impl Fn(usize, &str) -> Reply + Send + Sync + 'static,
    ) -> FaultyServer {
        assert!(
            addr.ip().is_loopback(),
            "test servers listen on loopback only"
        );
        let listener = TcpListener::bind(addr).expect("a loopback port");
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let asked = Arc::new(Mutex::new(Vec::new()));
        let headers = Arc::new(Mutex::new(Vec::new()));
        let count = Arc::new(AtomicUsize::new(0));
        let reply: Arc<Policy> = Arc::new(reply);
        let (s, a, h) = (stop.clone(), asked.clone(), headers.clone());
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let (a, h, reply, count) = (a.clone(), h.clone(), reply.clone(), count.clone());
                std::thread::spawn(move || {
                    let _ = handle(stream, &a, &h, &*reply, &count);
                });
            }
        });
        FaultyServer {
            base_url: format!("http://{addr}/api"),
            addr,
            stop,
            asked,
            headers,
            thread: Some(thread),
        }
    }

    /// Every request header line received so far (`Name: value`), in arrival order.
    pub fn headers(&self) -> Vec<String> {
        self.headers.lock().unwrap().clone()
    }

    /// The address it listens on.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// The questions asked so far, in arrival order.
    pub fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

impl Drop for FaultyServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn handle(
    mut stream: TcpStream,
    asked: &Mutex<Vec<String>>,
    headers: &Mutex<Vec<String>>,
    reply: &Policy,
    count: &AtomicUsize,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut length = 0usize;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.lock().unwrap().push(line.trim_end().to_string());
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    // The contract's `query`, or LangServe's `input` (for connector tests).
    let question = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| {
            v["query"]
                .as_str()
                .or(v["input"].as_str())
                .map(String::from)
        })
        .unwrap_or_default();
    asked.lock().unwrap().push(question.clone());
    let n = count.fetch_add(1, Ordering::SeqCst);
    let (status, text) = match reply(n, &question) {
        Reply::Status(code, text) => (code, text),
        Reply::Slow(wait, text) => {
            std::thread::sleep(wait);
            (200, text)
        }
        Reply::Hangup => return Ok(()),
    };
    write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    )?;
    stream.flush()
}

/// A valid search response body for `question` citing `page`.
pub fn body_citing(question: &str, page: u32) -> String {
    serde_json::json!({"query": question, "matches": [
        {"chunk_id": "c1", "content": "…", "score": 1.0,
         "metadata": {"chunk_kind": "text"},
         "provenance": {"extraction": "test", "page_start": page, "page_end": page, "regions": []}}
    ]})
    .to_string()
}

/// Writes `text` to a file in `dir` and returns its path as a string.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A report from JSON text.
pub fn report(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not a JSON report ({e}):\n{text}"))
}
