//! A `refsearch` started for a benchmark: on 127.0.0.1:0, ready once it says where it
//! listens, and killed and reaped when dropped (also on error or panic).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long refsearch may take to index the PDF and start listening.
const START_TIMEOUT: Duration = Duration::from_secs(300);

/// What to start refsearch on.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The PDF to index.
    pub pdf: PathBuf,
    /// The corpus id.
    pub corpus_id: String,
    /// `--latency-ms` (0: none).
    pub latency_ms: u64,
    /// `--figure-notes`, when given.
    pub figure_notes: Option<PathBuf>,
}

/// A running refsearch; killed and reaped when dropped.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT/api`.
    pub base_url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `bin` and waits until it is listening.
    pub fn start(bin: &Path, o: &ServerOptions) -> Result<Server, String> {
        let mut cmd = Command::new(bin);
        cmd.arg("--pdf")
            .arg(&o.pdf)
            .arg("--corpus-id")
            .arg(&o.corpus_id)
            .arg("--listen")
            .arg("127.0.0.1:0")
            .arg("--latency-ms")
            .arg(o.latency_ms.to_string());
        if let Some(notes) = &o.figure_notes {
            cmd.arg("--figure-notes").arg(notes);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stderr = child.stderr.take().expect("stderr is piped");
        // From here on the guard owns the child: any early return kills it.
        let mut server = Server {
            child,
            base_url: String::new(),
        };
        let (tx, rx) = mpsc::channel();
        // Reads refsearch's stderr for the whole run, so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if !sent {
                    if let Some(url) = line.strip_prefix("refsearch: listening on ") {
                        let _ = tx.send(Ok(url.trim().to_string()));
                        sent = true;
                        continue;
                    }
                    eprintln!("  [refsearch] {line}");
                }
            }
            if !sent {
                let _ = tx.send(Err("refsearch exited before listening".to_string()));
            }
        });
        let started = Instant::now();
        match rx.recv_timeout(START_TIMEOUT) {
            Ok(Ok(url)) => {
                server.base_url = url;
                println!(
                    "  refsearch ready in {:.1} s at {}",
                    started.elapsed().as_secs_f64(),
                    server.base_url
                );
                Ok(server)
            }
            Ok(Err(e)) => Err(e),
            Err(_) => Err(format!(
                "refsearch did not say it was listening within {} s",
                START_TIMEOUT.as_secs()
            )),
        }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether the server is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// The `figeval` and `refsearch` binaries a live benchmark runs (`refsearch` from `--refsearch`
/// when given, else next to the benchmark), printed under a `<bench>: N cores` header.
pub fn live_binaries(bench: &str, refsearch: Option<&Path>) -> Result<(PathBuf, PathBuf), String> {
    let figeval = crate::sibling("figeval", "figeval-cli")?;
    let refsearch = match refsearch {
        Some(p) => p.to_path_buf(),
        None => crate::sibling("refsearch", "refsearch")?,
    };
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("{bench}: {cores} cores");
    println!("  figeval:   {}", figeval.display());
    println!("  refsearch: {}", refsearch.display());
    Ok((figeval, refsearch))
}

/// What the live benchmarks' command lines say about refsearch: `--pdf P`, `--corpus-id ID`,
/// `--figure-notes P|none`, `--refsearch BIN`; by default the Octave manual with its notes.
#[derive(Debug, Clone)]
pub struct ServerFlags {
    /// How to start refsearch (`latency_ms` 0 unless the benchmark sets it).
    pub options: ServerOptions,
    /// The refsearch binary, when not the one next to the benchmark.
    pub refsearch: Option<PathBuf>,
}

impl Default for ServerFlags {
    fn default() -> ServerFlags {
        let notes = crate::workspace_root().join("data/corpora/octave-manual/figure-notes.json");
        ServerFlags {
            options: ServerOptions {
                pdf: PathBuf::from("/usr/share/doc/octave/octave.pdf"),
                corpus_id: "octave-manual".into(),
                latency_ms: 0,
                figure_notes: notes.is_file().then_some(notes),
            },
            refsearch: None,
        }
    }
}

impl ServerFlags {
    /// The flags, for a usage line.
    pub const USAGE: &'static str =
        "[--pdf P] [--corpus-id ID] [--figure-notes P|none] [--refsearch BIN]";

    /// Takes `flag` when it is one of these (reading its argument from `value`); `false` when
    /// it is not.
    pub fn take(&mut self, flag: &str, value: impl FnOnce() -> String) -> bool {
        match flag {
            "--pdf" => self.options.pdf = value().into(),
            "--corpus-id" => self.options.corpus_id = value(),
            "--figure-notes" => {
                let v = value();
                self.options.figure_notes = (v != "none").then(|| v.into());
            }
            "--refsearch" => self.refsearch = Some(value().into()),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_flags_take_only_their_own() {
        let mut f = ServerFlags::default();
        assert!(f.take("--pdf", || "/x.pdf".into()));
        assert!(f.take("--figure-notes", || "none".into()));
        assert!(f.take("--corpus-id", || "c".into()));
        assert!(!f.take("--reps", || unreachable!("not read for a foreign flag")));
        assert_eq!(f.options.pdf, PathBuf::from("/x.pdf"));
        assert_eq!(f.options.figure_notes, None);
        assert_eq!(f.options.corpus_id, "c");
    }
}
