//! `figeval run`: live evaluation against a deployment (contract §2).
//!
//! Up to `--concurrency` searches are in flight; answers are written to the capture as they
//! arrive (one flushed line each, so a crash loses nothing), progress is printed in dataset
//! order, and the report lists items in dataset order whatever order answers came in. The
//! first failure stops new searches, lets those in flight finish into the capture, and ends
//! the run with exit 3 and no report: a failure is never scored as a miss. Through a connector,
//! until the first answer with hits is seen to cite a page, a worker asks its next question
//! only once its last answer has been read, so a mapping that reads no page stops the run
//! with one question in flight per worker at most.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

use figeval::connector::{AnswerPages, Asked, Secrets};
use figeval::live::{self, AnswerFailure, Transport};
use figeval::{CutOff, Dataset, ItemRecord, Pairing, Report, RunInfo, ScoreConfig, SearchRequest};

use crate::audit;
use crate::connect::{self, Connect};
use crate::fail::{Failure, Outcome};
use crate::{clock, files, score_cmd, RunArgs};

/// The largest response body read; a larger one is a failure, not a silent truncation.
const MAX_BODY_BYTES: u64 = live::MAX_BODY_BYTES as u64;

/// One answered search.
pub(crate) struct Answer {
    pub(crate) body: String,
    matches: Vec<figeval::Match>,
    /// What the pages came to, for an answer read through a connector.
    pages: Option<AnswerPages>,
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
    files::check_pdfs(&dataset, &args.connect.pdf)?;
    let connect = connect::prepare(&args.connect)?;
    let secrets = connect.secrets()?;
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
    let pdfs = &args.connect.pdf;
    let mut pairing = Pairing::keeping(&dataset, config, audit::keeper(pdfs));
    connect.attach(&mut pairing);
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
    // The first answer with hits, in dataset order, must cite a page through the connector.
    let mut first_hits = FirstWithHits::new(&from_capture);
    let mut progress = Progress::new(&dataset);
    let mut retries_total = 0u64;
    // The failure of the earliest item in dataset order, so the message does not depend on
    // which of several failing searches answered first.
    let mut failure: Option<(usize, String)> = None;
    let mut capture_error: Option<String> = None;
    // Why the first answer with hits cites no page through the connector (exit 2).
    let mut no_page: Option<String> = None;
    // Answers safely in the capture: those it held, and those written since.
    let mut in_capture = from_capture.iter().filter(|&&c| c).count();
    let workers = (args.concurrency as usize).min(todo.len());
    // Through a connector, until the first answer with hits is decided: how many answers the
    // workers have sent and the reading below has taken in, so a worker waits for its own.
    let undecided = AtomicBool::new(connect.reader.is_some());
    let sent = AtomicUsize::new(0);
    let read = (Mutex::new(0usize), Condvar::new());
    progress.advance(pairing.records(), &from_capture);
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Result<Answer, String>)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (agent, url, todo, next, stop, request, dataset, connect, secrets) = (
                &agent, &url, &todo, &next, &stop, &request, &dataset, &connect, &secrets,
            );
            let (undecided, sent, read) = (&undecided, &sent, &read);
            s.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let item = &dataset.items[i];
                let ask = Ask {
                    agent,
                    url,
                    request,
                    connect,
                    secrets,
                };
                let answer = search(&ask, &item.question, args.retries, args.timeout);
                if answer.is_err() {
                    // Stop at once, before this worker takes another item.
                    stop.store(true, Ordering::SeqCst);
                }
                let mine = sent.fetch_add(1, Ordering::SeqCst) + 1;
                if tx.send((i, answer)).is_err() {
                    return;
                }
                let (count, taken) = read;
                let mut count = count.lock().unwrap_or_else(|e| e.into_inner());
                while undecided.load(Ordering::SeqCst) && *count < mine {
                    count = taken.wait(count).unwrap_or_else(|e| e.into_inner());
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
                        let line = request.envelope_line_with(
                            &item.question,
                            &a.body,
                            connect.record.as_ref(),
                        ) + "\n";
                        match w.write_all(line.as_bytes()).and_then(|_| w.flush()) {
                            Ok(()) => in_capture += 1,
                            Err(e) => {
                                capture_error.get_or_insert(format!(
                                    "cannot write the capture {}: {}",
                                    args.capture.as_deref().unwrap_or(Path::new("")).display(),
                                    files::io_words(&e)
                                ));
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    pairing.add_answer(i, &request, &a.matches);
                    let verdict = match (&connect.reader, &a.pages) {
                        (Some(reader), Some(pages)) => first_hits.answered(i, pages, reader),
                        _ => None,
                    };
                    if let (None, Some((i, reason))) = (&no_page, verdict) {
                        let item = &dataset.items[i];
                        stop.store(true, Ordering::SeqCst);
                        no_page = Some(format!(
                            "item {} ({:?}): {reason}",
                            i + 1,
                            figeval::score::question_start(&item.question)
                        ));
                    }
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
            if first_hits.decided || stop.load(Ordering::SeqCst) {
                undecided.store(false, Ordering::SeqCst);
            }
            let (count, taken) = &read;
            *count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            taken.notify_all();
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
    if let Some(reason) = no_page {
        return Err(Failure::Input(format!(
            "{reason}\n{kept}\nno report was written"
        )));
    }
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
    let (scored, kept) = pairing
        .finish_keeping(false)
        .map_err(|e| Failure::Input(format!("the run's answers cannot be scored: {e}")))?;
    let mut report = Report::build(
        scored,
        RunInfo {
            started_at: Some(started_at),
            duration_s: clock.elapsed().as_secs_f64(),
            retries: retries_total,
            source: "live".into(),
            ..RunInfo::default()
        },
    );
    audit::apply(&mut report, &dataset, pdfs, &kept)?;
    files::emit_report(&report, args.out.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the capture into `pairing`, for `--resume`: the answers it already holds, and its
/// last line if a crash cut it off. The capture must otherwise be clean (no unknown, duplicate
/// or unreadable answers) and made with the same search parameters. A capture that does not
/// exist yet holds nothing.
fn resume<'d, K>(
    path: &Path,
    pairing: Pairing<'d, K>,
    request: &SearchRequest<'_>,
) -> Result<(Pairing<'d, K>, Option<CutOff>), Failure> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((pairing, None)),
        Err(e) => {
            return Err(Failure::Input(format!(
                "cannot read {}: {}",
                path.display(),
                files::io_words(&e)
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
        Failure::Output(format!(
            "cannot open the capture {}: {}",
            path.display(),
            files::io_words(&e)
        ))
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

/// What every search of a run shares.
pub(crate) struct Ask<'a> {
    pub(crate) agent: &'a ureq::Agent,
    /// The search URL of the default connector.
    pub(crate) url: &'a str,
    pub(crate) request: &'a SearchRequest<'a>,
    pub(crate) connect: &'a Connect,
    pub(crate) secrets: &'a Secrets,
}

impl Ask<'_> {
    /// The request of one search: the default connector's exactly as always, or the
    /// connector's template filled in.
    fn prepare(&self, question: &str) -> (String, ureq::Request, Option<String>) {
        let Some(_) = &self.connect.reader else {
            let req = self
                .agent
                .post(self.url)
                .set("Content-Type", "application/json")
                .set("Accept", "application/json");
            return (self.url.to_string(), req, Some(self.request.body(question)));
        };
        let c = &self.connect.connector;
        let asked = Asked {
            base_url: self.request.base_url,
            question,
            corpus_id: self.request.corpus_id,
            top_k: self.request.top_k,
            cache_mode: self.request.cache_mode,
        };
        let url = c.url(&asked);
        let body = c.body(&asked);
        let mut req = self
            .agent
            .request(c.request.method.name(), &url)
            .set("Accept", "application/json");
        if body.is_some() {
            req = req.set("Content-Type", "application/json");
        }
        for (name, value) in self.secrets.headers() {
            req = req.set(name, value);
        }
        (url, req, body)
    }

    /// Judges an answer: the contract's reader, or the connector's mapping.
    fn judge(
        &self,
        status: u16,
        status_text: &str,
        text: &str,
    ) -> Result<(Vec<figeval::Match>, Option<AnswerPages>), AnswerFailure> {
        match &self.connect.reader {
            None => live::judge(status, status_text, text).map(|m| (m, None)),
            Some(reader) => live::judge_mapped(reader, self.secrets, status, status_text, text)
                .map(|a| (a.matches.unwrap_or_default(), Some(a.pages))),
        }
    }
}

/// Finds the run's first answer with hits in dataset order (as offline scoring does, so the
/// verdict does not depend on which answer arrived first) and whether it cites a page.
struct FirstWithHits {
    /// Per item, what its answer came to, once answered.
    done: Vec<Option<Pages>>,
    /// Items before this one are done and have no hits.
    next: usize,
    decided: bool,
}

/// What one answer's pages came to, for [`FirstWithHits`].
#[derive(Clone)]
enum Pages {
    /// No hits (or taken from the capture, which its own reading checked).
    NoHits,
    /// Some hit cites a page.
    Cited,
    /// Hits, none citing a page: why.
    NoneCited(String),
}

impl FirstWithHits {
    /// `from_capture` items count as having no hits.
    fn new(from_capture: &[bool]) -> FirstWithHits {
        FirstWithHits {
            done: from_capture
                .iter()
                .map(|&c| c.then_some(Pages::NoHits))
                .collect(),
            next: 0,
            decided: false,
        }
    }

    /// Notes item `i`'s answer; the item and the reason once the first answer with hits in
    /// dataset order is known and cites no page.
    fn answered(
        &mut self,
        i: usize,
        pages: &AnswerPages,
        reader: &figeval::connector::Reader,
    ) -> Option<(usize, String)> {
        self.done[i] = Some(match pages.hits {
            0 => Pages::NoHits,
            h if pages.without_page == h => Pages::NoneCited(reader.no_page_reason(pages)),
            _ => Pages::Cited,
        });
        while !self.decided {
            match self.done.get(self.next) {
                Some(Some(Pages::NoHits)) => self.next += 1,
                Some(Some(Pages::Cited)) => self.decided = true,
                Some(Some(Pages::NoneCited(reason))) => {
                    self.decided = true;
                    return Some((self.next, reason.clone()));
                }
                _ => break,
            }
        }
        None
    }
}

/// One search, retried as [`live`] says (429/502/503/504 and lost connections, with backoff).
pub(crate) fn search(
    ask: &Ask<'_>,
    question: &str,
    retries: u32,
    timeout: f64,
) -> Result<Answer, String> {
    let mut attempt = 0u32;
    loop {
        let (url, req, body) = ask.prepare(question);
        let url = url.as_str();
        let outcome = match &body {
            Some(b) => req.send_string(b),
            None => req.call(),
        };
        let (cause, retry_after) = match outcome {
            Ok(resp) => {
                let status = resp.status();
                let text = read_body(resp)?;
                let (matches, pages) = ask.judge(status, "", &text).map_err(|f| f.to_string())?;
                return Ok(Answer {
                    body: text,
                    matches,
                    pages,
                    retries: attempt,
                });
            }
            Err(ureq::Error::Status(code, resp)) => {
                let retry_after = resp.header("Retry-After").map(str::to_string);
                let status_text = resp.status_text().to_string();
                let text = read_body(resp).unwrap_or_default();
                let failure = ask
                    .judge(code, &status_text, &text)
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
                        "cannot connect to the deployment at {}: {}",
                        ask.request.base_url,
                        ask.secrets.redact(&t.to_string())
                    ),
                    Transport::Dropped => format!(
                        "the connection to {url} dropped before an answer: {}",
                        ask.secrets.redact(&t.to_string())
                    ),
                    Transport::Other => format!(
                        "the request to {url} failed: {}",
                        ask.secrets.redact(&t.to_string())
                    ),
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
            let mut pages: Vec<String> = r.expected_pages.iter().map(u32::to_string).collect();
            pages.extend(r.expected_locations.iter().map(|l| {
                let end = if l.end == l.start {
                    String::new()
                } else {
                    format!("-{}", l.end)
                };
                format!("{}:{}{end}", l.path, l.start)
            }));
            // A miss whose top 3 cite an expected page of another file says so.
            let wrong_file = match r.top.iter().take(3).find(|t| t.wrong_file) {
                Some(t) if !r.page_hit_at_3 => {
                    format!("  (right page, wrong file at rank {})", t.rank)
                }
                _ => String::new(),
            };
            eprintln!(
                "[{:>width$}/{n}] {} {:<7} p.{:<9} {:?}{}{wrong_file}",
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
