//! `figeval score`: score captured or pasted responses offline, streaming the capture.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use figeval::capture::is_multiline_document;
use figeval::{Pairing, RunInfo, ScoreConfig};

use crate::clock;
use crate::fail::{Failure, Outcome};
use crate::files;

/// Scores the responses at `responses` against the dataset and prints the report.
pub fn run(
    responses: &Path,
    dataset: &Path,
    max_precise_span: u32,
    allow_missing: bool,
    out: Option<&Path>,
) -> Outcome {
    let started_at = clock::now_rfc3339();
    let clock = Instant::now();
    let dataset = files::read_dataset(dataset)?;
    let config = ScoreConfig {
        max_precise_span_pages: max_precise_span,
    };
    let mut pairing = Pairing::new(&dataset, config);
    let source = if responses == Path::new("-") {
        read_capture(io::stdin().lock(), &mut pairing).map_err(|e| read_error("stdin", e))?;
        "stdin".to_string()
    } else {
        let file = File::open(responses).map_err(|e| read_error(responses.display(), e))?;
        read_capture(BufReader::with_capacity(1 << 20, file), &mut pairing)
            .map_err(|e| read_error(responses.display(), e))?;
        responses.file_name().map_or_else(
            || responses.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let scored = pairing
        .finish(allow_missing)
        .map_err(|e| Failure::Input(format!("{}: {e}", responses.display())))?;
    let report = scored.into_report(
        &dataset.corpus_id,
        config,
        RunInfo {
            started_at: Some(started_at),
            duration_s: clock.elapsed().as_secs_f64(),
            source,
            ..RunInfo::default()
        },
    );
    files::emit_report(&report, out)?;
    Ok(ExitCode::SUCCESS)
}

fn read_error(what: impl std::fmt::Display, e: io::Error) -> Failure {
    Failure::Input(format!("cannot read {what}: {e}"))
}

/// The longest capture line accepted (the same limit `figeval run` puts on a response body).
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// Feeds a capture to the pairing: line by line for JSON Lines (memory stays flat whatever the
/// bodies weigh), whole for a JSON array or a body pretty-printed across lines.
pub fn read_capture(mut reader: impl BufRead, pairing: &mut Pairing<'_>) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    let mut line_no = 0usize;
    let mut first = true;
    loop {
        buf.clear();
        if (&mut reader)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut buf)?
            == 0
        {
            return Ok(());
        }
        line_no += 1;
        if buf.len() as u64 > MAX_LINE_BYTES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("line {line_no} is over {MAX_LINE_BYTES} bytes; no search response is that large"),
            ));
        }
        // simdutf8 checks a line several times faster than `std::str::from_utf8` (whose
        // check was a sixth of a whole `figeval score`); on failure std says where.
        let line = match simdutf8::basic::from_utf8(&buf) {
            Ok(line) => line,
            Err(_) => std::str::from_utf8(&buf).map_err(|e| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "line {line_no} is not UTF-8 text (invalid byte at column {})",
                        e.valid_up_to() + 1
                    ),
                )
            })?,
        };
        if first && !line.trim().is_empty() {
            first = false;
            if is_multiline_document(line) {
                let mut rest = String::new();
                reader
                    .read_to_string(&mut rest)
                    .map_err(|e| io::Error::new(e.kind(), format!("after line {line_no}: {e}")))?;
                let mut whole = "\n".repeat(line_no - 1);
                whole.push_str(line);
                whole.push_str(&rest);
                pairing.add_document(&whole);
                return Ok(());
            }
        }
        pairing.add_line(line_no, line);
    }
}
