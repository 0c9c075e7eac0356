//! One page through OCR: `pdftoppm` renders it in grey, `tesseract` reads the image from a pipe
//! and writes its TSV (one row per word, with the word's confidence), and both are killed when
//! the page's time limit passes.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::child::{drain, joined, stop, POLL};
use std::time::{Duration, Instant};

/// What OCR read off one page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OcrText {
    /// The words, a line of the page per line, a blank line between tesseract's blocks.
    pub text: String,
    /// Tesseract's mean word confidence, 0 to 100 (0 when it found no word).
    pub confidence: f32,
}

/// Why a page could not be read through OCR.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum OcrError {
    /// The page took longer than its time limit; both processes were killed.
    TimedOut,
    /// A tool exited with a failure, or could not be waited for.
    Failed(String),
    /// A tool is not installed: `pdftoppm` or `tesseract`.
    ToolMissing(&'static str),
}

/// How much of a tool's stderr a failure quotes, in characters.
const STDERR_QUOTED: usize = 300;

/// Renders `page` of `pdf` at `dpi` and reads it with tesseract in `language`, within `limit`.
pub(crate) fn read_page(
    pdf: &Path,
    page: u32,
    dpi: u32,
    language: &str,
    limit: Duration,
) -> Result<OcrText, OcrError> {
    let page_arg = page.to_string();
    let mut render = Command::new("pdftoppm")
        .args([
            "-r",
            &dpi.to_string(),
            "-f",
            &page_arg,
            "-l",
            &page_arg,
            "-gray",
        ])
        .arg(pdf)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_error("pdftoppm", &e))?;
    let image = render.stdout.take().expect("stdout is piped");
    let render_err = drain(render.stderr.take().expect("stderr is piped"));
    let mut read = match Command::new("tesseract")
        .args(["stdin", "stdout", "-l", language, "tsv"])
        // One thread per tesseract: the pages already run one process per core.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(image)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            stop(&mut render);
            return Err(spawn_error("tesseract", &e));
        }
    };
    let tsv = drain(read.stdout.take().expect("stdout is piped"));
    let read_err = drain(read.stderr.take().expect("stderr is piped"));
    let deadline = Instant::now() + limit;
    let (mut rendered, mut done) = (None, None);
    while rendered.is_none() || done.is_none() {
        if rendered.is_none() {
            rendered = render.try_wait().map_err(|e| wait_error("pdftoppm", &e))?;
        }
        if done.is_none() {
            done = read.try_wait().map_err(|e| wait_error("tesseract", &e))?;
        }
        if (rendered.is_none() || done.is_none()) && Instant::now() >= deadline {
            stop(&mut render);
            stop(&mut read);
            let _ = (tsv.join(), read_err.join(), render_err.join());
            return Err(OcrError::TimedOut);
        }
        std::thread::sleep(POLL);
    }
    let (tsv, read_err, render_err) = (joined(tsv), joined(read_err), joined(render_err));
    if !rendered.is_some_and(|s| s.success()) {
        return Err(OcrError::Failed(format!(
            "pdftoppm failed on page {page}: {}",
            quote(&render_err)
        )));
    }
    if !done.is_some_and(|s| s.success()) {
        return Err(OcrError::Failed(format!(
            "tesseract failed on page {page}: {}",
            quote(&read_err)
        )));
    }
    Ok(parse_tsv(&String::from_utf8_lossy(&tsv)))
}

/// A word with no letter or digit and a confidence below this is a speck on the scan, not
/// text: on the scanned test corpus tesseract reads specks of dust as `-`, `_`, `.` or `’` with
/// confidences 0 to 3, while real punctuation gets 68 or more. Left in, a speck before
/// `Figure 15.4:` hides the caption (a caption starts its line).
pub(crate) const SPECK_CONFIDENCE: f64 = 10.0;

/// The page's words and mean confidence from tesseract's TSV: rows of level 5 are words,
/// `block_num`/`par_num`/`line_num` say which line a word is on, `conf` is its confidence
/// (-1 on rows that are not words). Specks ([`SPECK_CONFIDENCE`]) are left out.
pub(crate) fn parse_tsv(tsv: &str) -> OcrText {
    let mut text = String::new();
    let mut line_key: Option<(&str, &str, &str)> = None;
    let (mut sum, mut words) = (0.0f64, 0u32);
    for row in tsv.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        if cols.len() < 12 || cols[0] != "5" {
            continue;
        }
        let word = cols[11].trim();
        let conf = cols[10].trim().parse::<f64>().unwrap_or(-1.0);
        let speck = conf < SPECK_CONFIDENCE && !word.chars().any(char::is_alphanumeric);
        if word.is_empty() || speck {
            continue;
        }
        let key = (cols[2], cols[3], cols[4]);
        match line_key {
            Some(previous) if previous == key => text.push(' '),
            Some(previous) => {
                text.push('\n');
                if previous.0 != key.0 {
                    text.push('\n');
                }
            }
            None => {}
        }
        line_key = Some(key);
        text.push_str(word);
        if conf >= 0.0 {
            sum += conf;
            words += 1;
        }
    }
    if !text.is_empty() {
        text.push('\n');
    }
    let confidence = if words == 0 {
        0.0
    } else {
        (sum / f64::from(words)) as f32
    };
    OcrText { text, confidence }
}

fn quote(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(3)
        .collect();
    let quoted: String = lines.join("; ").chars().take(STDERR_QUOTED).collect();
    if quoted.is_empty() {
        "(nothing on stderr)".into()
    } else {
        quoted
    }
}

fn spawn_error(tool: &'static str, e: &std::io::Error) -> OcrError {
    if e.kind() == std::io::ErrorKind::NotFound {
        OcrError::ToolMissing(tool)
    } else {
        OcrError::Failed(format!("could not run {tool}: {e}"))
    }
}

fn wait_error(tool: &str, e: &std::io::Error) -> OcrError {
    OcrError::Failed(format!("could not wait for {tool}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t
5\t1\t1\t1\t1\t1\t0\t0\t10\t10\t90\tFigure
5\t1\t1\t1\t1\t2\t0\t0\t10\t10\t80\t15.1:
5\t1\t1\t1\t2\t1\t0\t0\t10\t10\t70\tplot
5\t1\t2\t1\t1\t1\t0\t0\t10\t10\t60\tnext
5\t1\t2\t1\t1\t2\t0\t0\t10\t10\t95\t 
5\t1\t2\t1\t2\t1\t0\t0\t10\t10\t0\t-
";

    #[test]
    fn tsv_words_become_lines_with_a_blank_line_between_blocks_specks_left_out() {
        let read = parse_tsv(TSV);
        assert_eq!(read.text, "Figure 15.1:\nplot\n\nnext\n");
    }

    #[test]
    fn confidence_is_the_mean_over_words_only() {
        assert_eq!(parse_tsv(TSV).confidence, 75.0);
    }

    #[test]
    fn a_page_without_words_reads_as_empty_with_no_confidence() {
        let read = parse_tsv("level\tpage_num\n1\t1\t0\t0\t0\t0\t0\t0\t9\t9\t-1\t\n");
        assert_eq!(
            read,
            OcrText {
                text: String::new(),
                confidence: 0.0
            }
        );
    }
}
