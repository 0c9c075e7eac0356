//! `figeval score`: score captured or pasted responses offline, streaming the capture.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use figeval::provenance::AuditHit;
use figeval::{CaptureRead, CaptureReader, Dataset, Pairing, Report, RunInfo, ScoreConfig, Scored};

use crate::fail::{Failure, Outcome};
use crate::{audit, clock};
use crate::{connect, files, ScoreArgs};

/// Scores the responses against the dataset and prints the report.
pub fn run(args: &ScoreArgs) -> Outcome {
    let (responses, connect_args) = (args.responses.as_path(), &args.connect);
    let started_at = clock::now_rfc3339();
    let clock = Instant::now();
    let dataset = files::read_dataset(&args.dataset)?;
    files::check_pdfs(&dataset, &connect_args.pdf)?;
    let config = ScoreConfig {
        max_precise_span_pages: args.max_precise_span,
    };
    let connect = connect::prepare(connect_args)?;
    let pdfs = &connect_args.pdf;
    let mut pairing = Pairing::keeping(&dataset, config, audit::keeper(pdfs));
    if pdfs.is_empty() {
        // Only the provenance audit reads the matches' content.
        pairing.skip_content();
    }
    connect.attach(&mut pairing);
    let (read, source) = read_responses(responses, pairing)?;
    let (mut scored, kept) = read
        .pairing
        .finish_keeping(args.allow_missing)
        .map_err(|e| Failure::Input(format!("{}: {e}", responses.display())))?;
    if let Some(top_k) = args.top_k {
        scored = scored
            .stating_top_k(top_k)
            .map_err(|e| Failure::Input(format!("--top-k: {e}")))?;
    }
    let run = RunInfo {
        name: args.name.clone(),
        started_at: Some(started_at),
        duration_s: clock.elapsed().as_secs_f64(),
        source,
        ..RunInfo::default()
    };
    emit(scored, run, &dataset, pdfs, &kept, args.out.as_deref())
}

/// The report of what was scored, audited against `pdfs` when given, printed (and written to
/// `out`): how `run` and `score` end.
pub fn emit(
    scored: Scored,
    run: RunInfo,
    dataset: &Dataset,
    pdfs: &[PathBuf],
    kept: &[Vec<AuditHit>],
    out: Option<&Path>,
) -> Outcome {
    let mut report = Report::build(scored, run);
    audit::apply(&mut report, dataset, pdfs, kept)?;
    files::emit_report(&report, out)?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the responses at `responses` (`-` for stdin) into `pairing`; a cut-off last line is
/// noted on stderr. Returns what was read and the report's `run.source` name.
pub fn read_responses<'d, K>(
    responses: &Path,
    pairing: Pairing<'d, K>,
) -> Result<(CaptureRead<'d, K>, String), Failure> {
    let (read, source) = if responses == Path::new("-") {
        let read = read_capture(io::stdin().lock(), pairing).map_err(|e| read_error("stdin", e))?;
        (read, "stdin".to_string())
    } else {
        let file = File::open(responses).map_err(|e| read_error(responses.display(), e))?;
        let read = read_capture(BufReader::with_capacity(1 << 20, file), pairing)
            .map_err(|e| read_error(responses.display(), e))?;
        let name = responses.file_name().map_or_else(
            || responses.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        (read, name)
    };
    if let Some(cut) = read.cut_off {
        eprintln!("figeval: note: {}: {cut}", responses.display());
    }
    Ok((read, source))
}

fn read_error(what: impl std::fmt::Display, e: io::Error) -> Failure {
    Failure::Input(format!("cannot read {what}: {}", files::io_words(&e)))
}

/// Streams a capture through the core's reader, one buffer at a time (memory stays flat
/// whatever the bodies weigh, for JSON Lines), and pairs it.
pub fn read_capture<'d, K>(
    mut reader: impl BufRead,
    pairing: Pairing<'d, K>,
) -> io::Result<CaptureRead<'d, K>> {
    let mut capture = CaptureReader::new(pairing);
    while capture.wants_more() {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        capture.feed(chunk);
        let n = chunk.len();
        reader.consume(n);
    }
    Ok(capture.end())
}
