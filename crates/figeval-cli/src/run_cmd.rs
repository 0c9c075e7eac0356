//! `figeval run`: live evaluation against a deployment (contract §2).
//!
//! Up to `--concurrency` searches are in flight; answers are written to the capture as they
//! arrive (one flushed line each, so a crash loses nothing), progress is printed in dataset
//! order, and the report lists items in dataset order whatever order answers came in. The
//! first failure stops new searches, lets those in flight finish into the capture, and ends
//! the run with exit 3 and no report: a failure is never scored as a miss.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use figeval::live::{self, Transport};
use figeval::{
    CutOff, Dataset, Item, ItemRecord, Pairing, Report, RunInfo, ScoreConfig, SearchRequest,
};

use crate::fail::{Failure, Outcome};
use crate::{clock, files, score_cmd, RunArgs};

/// The largest response body read; a larger one is a failure, not a silent truncation.
const MAX_BODY_BYTES: u64 = live::MAX_BODY_BYTES as u64;

/// One answered search.
struct Answer {
    body: String,
    matches: Vec<figeval::Match>,
    retries: u32,
}

/// Runs the eval live.
pub fn run(args: &RunArgs) -> Outcome {
    figeval::check_top_k(args.top_k).map_err(|e| Failure::Input(format!("--top-k: {e}")))?;
    let timeout =
        live::check_timeout(args.timeout).map_err(|e| Failure::Input(format!("--timeout: {e}")))?;
    let base_url = live::check_base_url(&args.base_url)
        .map_err(|e| Failure::Input(format!("--base-url: {e}")))?;
    let base_url = base_url.as_str();
    let started_at = clock::now_rfc3339();
    let clock = Instant::now();
    let dataset = files::read_dataset(&args.dataset)?;
    let request = SearchRequest {
        base_url,
        top_k: args.top_k,
        cache_mode: args.cache_mode,
        corpus_id: &dataset.corpus_id,
    };
    let config = ScoreConfig {
        max_precise_span_pages: args.max_precise_span,
    };
    let n = dataset.items.len();
    // Every answer is scored by one pairing, the capture's first when resuming, so the report
    // states the settings it was scored and asked with by construction.
    let mut pairing = Pairing::new(&dataset, config);
    // Where the capture's complete lines end, when a crash cut its last line off.
    let mut complete_lines_end = None;
    if args.resume {
        let capture = args.capture.as_deref().expect("clap requires --capture");
        let cut_off;
        (pairing, cut_off) = resume(capture, pairing, &request)?;
        if let Some(cut) = cut_off {
            eprintln!(
                "figeval: note: {}: {cut}; this run asks for it again",
                capture.display()
            );
            complete_lines_end = Some(cut.offset);
        }
    }
    let mut capture = match &args.capture {
        Some(path) => Some(open_capture(path, args.resume, complete_lines_end)?),
        None => None,
    };
    let from_capture: Vec<bool> = pairing.records().iter().map(Option::is_some).collect();
    let todo: Vec<usize> = (0..n).filter(|&i| !from_capture[i]).collect();
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs_f64(timeout))
        .build();
    let url = request.url();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut progress = Progress::new(&dataset);
    let mut retries_total = 0u64;
    // The failure of the earliest item in dataset order, so the message does not depend on
    // which of several failing searches answered first.
    let mut failure: Option<(usize, String)> = None;
    let mut capture_error: Option<String> = None;
    // Answers safely in the capture: those it held, and those written since.
    let mut in_capture = from_capture.iter().filter(|&&c| c).count();
    let workers = (args.concurrency as usize).min(todo.len());
    progress.advance(pairing.records(), &from_capture);
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Result<Answer, String>)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (agent, url, todo, next, stop, request, dataset) =
                (&agent, &url, &todo, &next, &stop, &request, &dataset);
            s.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let item = &dataset.items[i];
                let answer = search(agent, url, request, item, args.retries, args.timeout);
                if answer.is_err() {
                    // Stop at once, before this worker takes another item.
                    stop.store(true, Ordering::SeqCst);
                }
                if tx.send((i, answer)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for (i, answer) in rx {
            let item = &dataset.items[i];
            match answer {
                Ok(a) => {
                    retries_total += u64::from(a.retries);
                    if let Some(w) = capture.as_mut() {
                        let line = request.envelope_line(&item.question, &a.body) + "\n";
                        match w.write_all(line.as_bytes()).and_then(|_| w.flush()) {
                            Ok(()) => in_capture += 1,
                            Err(e) => {
                                capture_error.get_or_insert(format!(
                                    "cannot write the capture {}: {e}",
                                    args.capture.as_deref().unwrap_or(Path::new("")).display()
                                ));
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    pairing.add_answer(i, &request, &a.matches);
                    progress.advance(pairing.records(), &from_capture);
                }
                Err(cause) => {
                    stop.store(true, Ordering::SeqCst);
                    if failure.as_ref().is_none_or(|(first, _)| i < *first) {
                        let message = format!(
                            "the search failed for item {} ({:?}): {cause}",
                            i + 1,
                            figeval::score::question_start(&item.question)
                        );
                        failure = Some((i, message));
                    }
                }
            }
        }
    });
    let answered = pairing.records().iter().flatten().count();
    let kept = match &args.capture {
        Some(path) => format!(
            "{in_capture} of {n} answers are in the capture {}; run again with --resume to ask only for the rest",
            path.display()
        ),
        None => format!(
            "{answered} of {n} items were answered; with --capture FILE a rerun can --resume from them"
        ),
    };
    // A deployment failure is the news even when the capture could not be written as well.
    match (failure, capture_error) {
        (Some((_, message)), output) => {
            let also = output.map_or(String::new(), |e| format!("\nalso: {e}"));
            return Err(Failure::Deployment(format!(
                "{message}{also}\n{kept}\nno report was written"
            )));
        }
        (None, Some(e)) => {
            return Err(Failure::Output(format!(
                "{e}\n{kept}\nno report was written"
            )));
        }
        (None, None) => {}
    }
    let scored = pairing
        .finish(false)
        .map_err(|e| Failure::Input(format!("the run's answers cannot be scored: {e}")))?;
    let report = Report::build(
        scored,
        RunInfo {
            started_at: Some(started_at),
            duration_s: clock.elapsed().as_secs_f64(),
            retries: retries_total,
            source: "live".into(),
            ..RunInfo::default()
        },
    );
    files::emit_report(&report, args.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the capture into `pairing`, for `--resume`: the answers it already holds, and its
/// last line if a crash cut it off. The capture must otherwise be clean (no unknown, duplicate
/// or unreadable answers) and made with the same search parameters. A capture that does not
/// exist yet holds nothing.
fn resume<'d>(
    path: &Path,
    pairing: Pairing<'d>,
    request: &SearchRequest<'_>,
) -> Result<(Pairing<'d>, Option<CutOff>), Failure> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((pairing, None)),
        Err(e) => {
            return Err(Failure::Input(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    let read = score_cmd::read_capture(BufReader::new(file), pairing)
        .map_err(|e| Failure::Input(format!("cannot resume from {}: {e}", path.display())))?;
    read.pairing
        .check()
        .map_err(|e| Failure::Input(format!("cannot resume from {}: {e}", path.display())))?;
    if !read.pairing.asked_with(request) {
        return Err(Failure::Input(format!(
            "cannot resume from {}: its answers were not all asked with base URL {}, top_k {} and \
             cache mode {}; start a new capture",
            path.display(),
            request.base_url,
            request.top_k,
            request.cache_mode
        )));
    }
    Ok((read.pairing, read.cut_off))
}

/// Opens the capture: new, or (`append`) to be completed, first cut back to
/// `complete_lines_end` when a crash left a cut-off line there, so the capture stays clean.
fn open_capture(
    path: &Path,
    append: bool,
    complete_lines_end: Option<u64>,
) -> Result<File, Failure> {
    let fail = |e: std::io::Error| {
        Failure::Output(format!("cannot open the capture {}: {e}", path.display()))
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(fail)?;
    }
    let mut options = OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    let mut file = options.open(path).map_err(fail)?;
    if let Some(len) = complete_lines_end.filter(|_| append) {
        file.set_len(len).map_err(fail)?;
    }
    // A last line without its line break (a crash just before it, or an edit) must not glue
    // the next answer onto it.
    if append && file.metadata().map_err(fail)?.len() > 0 && !ends_with_newline(path) {
        file.write_all(b"\n").map_err(fail)?;
    }
    Ok(file)
}

fn ends_with_newline(path: &Path) -> bool {
    use std::io::{Seek, SeekFrom};
    let Ok(mut f) = File::open(path) else {
        return true;
    };
    let mut last = [0u8; 1];
    f.seek(SeekFrom::End(-1)).is_ok() && f.read_exact(&mut last).is_ok() && last[0] == b'\n'
}

/// One search, retried as [`live`] says (429/502/503/504 and lost connections, with backoff).
fn search(
    agent: &ureq::Agent,
    url: &str,
    request: &SearchRequest<'_>,
    item: &Item,
    retries: u32,
    timeout: f64,
) -> Result<Answer, String> {
    let body = request.body(&item.question);
    let mut attempt = 0u32;
    loop {
        let outcome = agent
            .post(url)
            .set("Content-Type", "application/json")
            .set("Accept", "application/json")
            .send_string(&body);
        let (cause, retry_after) = match outcome {
            Ok(resp) => {
                let status = resp.status();
                let text = read_body(resp)?;
                let matches = live::judge(status, "", &text).map_err(|f| f.to_string())?;
                return Ok(Answer {
                    body: text,
                    matches,
                    retries: attempt,
                });
            }
            Err(ureq::Error::Status(code, resp)) => {
                let retry_after = resp.header("Retry-After").map(str::to_string);
                let status_text = resp.status_text().to_string();
                let text = read_body(resp).unwrap_or_default();
                let failure = live::judge(code, &status_text, &text)
                    .err()
                    .ok_or_else(|| format!("HTTP {code} was not judged a failure"))?;
                if !failure.retryable() {
                    return Err(failure.to_string());
                }
                (failure.to_string(), retry_after)
            }
            Err(ureq::Error::Transport(t)) => {
                let kind = transport_kind(&t);
                let message = match kind {
                    Transport::Timeout => {
                        format!("no answer from {url} within {timeout} s (--timeout)")
                    }
                    Transport::Connect => format!(
                        "cannot connect to the deployment at {}: {t}",
                        request.base_url
                    ),
                    Transport::Dropped => {
                        format!("the connection to {url} dropped before an answer: {t}")
                    }
                    Transport::Other => format!("the request to {url} failed: {t}"),
                };
                if !kind.retryable() {
                    return Err(message);
                }
                (message, None)
            }
        };
        if attempt >= retries {
            let tries = if attempt == 0 {
                String::new()
            } else {
                format!(
                    " (after {} retr{})",
                    attempt,
                    if attempt == 1 { "y" } else { "ies" }
                )
            };
            return Err(format!("{cause}{tries}"));
        }
        attempt += 1;
        let wait = live::retry_delay_ms(attempt, retry_after.as_deref());
        std::thread::sleep(Duration::from_millis(u64::from(wait)));
    }
}

/// What kind of transport failure `t` is, as [`live::Transport`] classes them.
fn transport_kind(t: &ureq::Transport) -> Transport {
    if is_timeout(t) {
        return Transport::Timeout;
    }
    match t.kind() {
        ureq::ErrorKind::ConnectionFailed | ureq::ErrorKind::Dns => Transport::Connect,
        ureq::ErrorKind::Io | ureq::ErrorKind::BadStatus => Transport::Dropped,
        _ => Transport::Other,
    }
}

fn is_timeout(t: &ureq::Transport) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(t);
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if matches!(
                io.kind(),
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
            ) {
                return true;
            }
        }
        source = e.source();
    }
    t.to_string().contains("timed out")
}

fn read_body(resp: ureq::Response) -> Result<String, String> {
    let mut bytes = Vec::new();
    resp.into_reader()
        .take(MAX_BODY_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("reading the response body failed: {e}"))?;
    if bytes.len() as u64 > MAX_BODY_BYTES {
        return Err(live::AnswerFailure::TooLarge.to_string());
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "the response body is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Prints one line per item on stderr, in dataset order, as soon as every earlier item is done.
struct Progress<'d> {
    dataset: &'d Dataset,
    printed: usize,
}

impl<'d> Progress<'d> {
    fn new(dataset: &'d Dataset) -> Self {
        Progress {
            dataset,
            printed: 0,
        }
    }

    fn advance(&mut self, records: &[Option<ItemRecord>], from_capture: &[bool]) {
        let n = self.dataset.items.len();
        let width = n.to_string().len();
        while let Some(Some(r)) = records.get(self.printed) {
            let pages: Vec<String> = r.expected_pages.iter().map(u32::to_string).collect();
            eprintln!(
                "[{:>width$}/{n}] {} {:<7} p.{:<9} {:?}{}",
                self.printed + 1,
                if r.page_hit_at_3 { "hit " } else { "miss" },
                r.group.name(),
                pages.join(","),
                figeval::score::question_start(&r.question),
                if from_capture[self.printed] {
                    "  (from capture)"
                } else {
                    ""
                },
            );
            self.printed += 1;
        }
    }
}
