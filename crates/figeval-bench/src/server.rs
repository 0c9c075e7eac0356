//! A `refsearch` started for a benchmark: on 127.0.0.1:0, ready once it says where it
//! listens, and killed and reaped when dropped (also on error or panic).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

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

/// A running refsearch (the test kit's); killed and reaped when dropped.
pub use testkit::refsearch::Server;

/// Starts `bin` with `o` on 127.0.0.1:0 and waits until it is listening, printing its startup
/// lines and how long it took.
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
    let started = Instant::now();
    let server = Server::start(&mut cmd, |line| eprintln!("  [refsearch] {line}"))?;
    println!(
        "  refsearch ready in {:.1} s at {}",
        started.elapsed().as_secs_f64(),
        server.base_url
    );
    Ok(server)
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
                pdf: testkit::manual::path(),
                corpus_id: testkit::manual::CORPUS_ID.into(),
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
