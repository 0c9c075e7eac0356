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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

use figeval::connector::{AnswerPages, Asked, Secrets};
use figeval::live::{self, AnswerFailure, Transport};
use figeval::{Dataset, ItemRecord, Pairing, RunInfo, ScoreConfig, SearchRequest};

use crate::connect::{self, Connect};
use crate::fail::{Failure, Outcome};
use crate::{audit, bundled, clock, files, score_cmd, RunArgs};

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

/// Runs the eval live: the steps below, in order.
pub fn run(args: &RunArgs) -> Outcome {
    let settings = Settings::check(args)?;
    let started_at = clock::now_rfc3339();
    let clock = Instant::now();
    let connect = connect::prepare(&args.connect)?;
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs_f64(settings.timeout))
        .build();
    let dataset = choose_dataset(
        args.dataset.as_deref(),
        &settings.base_url,
        &connect,
        &agent,
    )?;
    files::check_pdfs(&dataset, &args.connect.pdf)?;
    let secrets = connect.secrets()?;
    let request = settings.request(&dataset.corpus_id);
    // Every answer is scored by one pairing, the capture's first when resuming, so the report
    // states the settings it was scored and asked with by construction.
    let pdfs = &args.connect.pdf;
    let mut pairing = Pairing::keeping(&dataset, settings.config, audit::keeper(pdfs));
    connect.attach(&mut pairing);
    let (pairing, complete_lines_end) = match args.capture.as_deref().filter(|_| args.resume) {
        Some(capture) => resume(capture, pairing, &request)?,
        None => (pairing, None),
    };
    let capture = match &args.capture {
        Some(path) => Some(Capture {
            file: open_capture(path, args.resume, complete_lines_end)?,
            path,
        }),
        None => None,
    };
    let mut collector = Collector::new(&dataset, pairing, capture, connect.record.as_ref());
    let url = request.url();
    let ask = Ask {
        agent: &agent,
        url: &url,
        request: &request,
        connect: &connect,
        secrets: &secrets,
    };
    ask_all(&ask, args, &mut collector);
    let (pairing, retries) = collector.finish()?;
    let (scored, kept) = pairing
        .finish_keeping(false)
        .map_err(|e| Failure::Input(format!("the run's answers cannot be scored: {e}")))?;
    let run = RunInfo {
        name: args.name.clone(),
        started_at: Some(started_at),
        duration_s: clock.elapsed().as_secs_f64(),
        retries,
        source: "live".into(),
        ..RunInfo::default()
    };
    score_cmd::emit(scored, run, &dataset, pdfs, &kept, args.out.as_deref())
}

/// The flags of a run, checked: what every search asks with and how answers are scored.
#[derive(Debug, PartialEq)]
struct Settings {
    base_url: String,
    top_k: u32,
    cache_mode: figeval::CacheMode,
    timeout: f64,
    config: ScoreConfig,
}

impl Settings {
    /// Checks the flags against the core's rules of a live run ([`live`]); a flag that breaks
    /// one is named with the rule.
    fn check(args: &RunArgs) -> Result<Settings, Failure> {
        let flag = |name: &str, e: live::SettingError| Failure::Input(format!("{name}: {e}"));
        figeval::check_top_k(args.top_k).map_err(|e| flag("--top-k", e))?;
        let timeout = live::check_timeout(args.timeout).map_err(|e| flag("--timeout", e))?;
        let base_url = live::check_base_url(&args.base_url).map_err(|e| flag("--base-url", e))?;
        Ok(Settings {
            base_url,
            top_k: args.top_k,
            cache_mode: args.cache_mode,
            timeout,
            config: ScoreConfig {
                max_precise_span_pages: args.max_precise_span,
            },
        })
    }

    /// The search of every item of a dataset of `corpus_id`.
    fn request<'a>(&'a self, corpus_id: &'a str) -> SearchRequest<'a> {
        SearchRequest {
            base_url: &self.base_url,
            top_k: self.top_k,
            cache_mode: self.cache_mode,
            corpus_id,
        }
    }
}

/// The dataset of a run: `--dataset` (a file, or a bundled dataset's name); without it, the
/// bundled dataset of the corpus the deployment says it serves (`GET {base_url}/health`, as
/// refsearch answers it and the page asks it). Otherwise a refusal that says to pass
/// `--dataset` and names the bundled datasets.
fn choose_dataset(
    given: Option<&Path>,
    base_url: &str,
    connect: &Connect,
    agent: &ureq::Agent,
) -> Result<Dataset, Failure> {
    if let Some(path) = given {
        return files::read_dataset(path);
    }
    let refuse = |why: String| {
        Failure::Input(format!(
            "no --dataset given, and {why}: pass --dataset FILE, or the name of a bundled \
             dataset: {}",
            bundled::listed()
        ))
    };
    if connect.reader.is_some() {
        return Err(refuse(format!(
            "a deployment asked through the connector {:?} is not asked which corpus it serves",
            connect.connector.name
        )));
    }
    let corpus = served_corpus(agent, base_url).map_err(|why| {
        refuse(format!(
            "the deployment does not say which corpus it serves (GET {base_url}/health: {why})"
        ))
    })?;
    let b = bundled::of_corpus(&corpus).ok_or_else(|| {
        refuse(format!(
            "the deployment serves the corpus {corpus:?}, of which no dataset is bundled"
        ))
    })?;
    let dataset = Dataset::parse(b.text).map_err(|e| Failure::Input(format!("{}: {e}", b.name)))?;
    eprintln!(
        "figeval: note: no --dataset given; the deployment serves the corpus {corpus}, so this \
         runs the bundled dataset {} ({})",
        b.name,
        figeval::describe::counted(dataset.items.len(), "item", "items")
    );
    Ok(dataset)
}

/// The corpus the deployment at `base_url` says it serves: the string `corpus_id` of its
/// `GET {base_url}/health`, or why there is none.
fn served_corpus(agent: &ureq::Agent, base_url: &str) -> Result<String, String> {
    let answer = agent
        .get(&format!("{base_url}/health"))
        .timeout(Duration::from_secs(10))
        .call();
    let body = match answer {
        Ok(resp) => read_body(resp)?,
        Err(ureq::Error::Status(code, _)) => return Err(format!("HTTP {code}")),
        Err(ureq::Error::Transport(t)) => return Err(format!("no answer: {t}")),
    };
    corpus_in(&body).ok_or_else(|| "its answer names no corpus_id".to_string())
}

/// The non-empty string `corpus_id` of a JSON object.
fn corpus_in(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    let corpus = value.get("corpus_id")?.as_str()?;
    (!corpus.is_empty()).then(|| corpus.to_string())
}

/// The capture a run writes each answer to, as it arrives.
struct Capture<'p, W> {
    file: W,
    path: &'p Path,
}

/// Takes a run's answers as they arrive, in any order: writes each to the capture, scores it,
/// prints the progress lines in dataset order, and keeps what ends the run — the failure of
/// the earliest item in dataset order (so the message does not depend on which of several
/// failing searches answered first), a capture that could not be written, or a first answer
/// with hits that cites no page through the connector.
struct Collector<'d, 'p, K, W> {
    dataset: &'d Dataset,
    pairing: Pairing<'d, K>,
    capture: Option<Capture<'p, W>>,
    /// What a capture line records of the connector (`None` for the default).
    record: Option<&'d serde_json::Value>,
    /// Items whose answer the capture held before the run.
    from_capture: Vec<bool>,
    first_hits: FirstWithHits,
    progress: Progress<'d>,
    retries: u64,
    failure: Option<(usize, String)>,
    capture_error: Option<String>,
    /// Why the first answer with hits cites no page through the connector (exit 2).
    no_page: Option<String>,
    /// Answers safely in the capture: those it held, and those written since.
    in_capture: usize,
}

impl<'d, 'p, K, W: Write> Collector<'d, 'p, K, W> {
    /// Starts collecting into `pairing` (which holds the capture's answers when resuming).
    fn new(
        dataset: &'d Dataset,
        pairing: Pairing<'d, K>,
        capture: Option<Capture<'p, W>>,
        record: Option<&'d serde_json::Value>,
    ) -> Self {
        let from_capture: Vec<bool> = pairing.records().iter().map(Option::is_some).collect();
        let mut c = Collector {
            dataset,
            first_hits: FirstWithHits::new(&from_capture),
            in_capture: from_capture.iter().filter(|&&c| c).count(),
            progress: Progress::new(dataset),
            pairing,
            capture,
            record,
            from_capture,
            retries: 0,
            failure: None,
            capture_error: None,
            no_page: None,
        };
        c.print_progress();
        c
    }

    /// The items still to ask, in dataset order.
    fn todo(&self) -> Vec<usize> {
        (0..self.dataset.items.len())
            .filter(|&i| !self.from_capture[i])
            .collect()
    }

    /// Takes item `i`'s answer (or why its search failed), asked with `request`, read through
    /// `reader` when a connector reads it. `true` when the run must ask nothing more.
    fn take(
        &mut self,
        i: usize,
        answer: Result<Answer, String>,
        request: &SearchRequest<'_>,
        reader: Option<&figeval::connector::Reader>,
    ) -> bool {
        let item = &self.dataset.items[i];
        let a = match answer {
            Ok(a) => a,
            Err(cause) => {
                if self.failure.as_ref().is_none_or(|(first, _)| i < *first) {
                    let message = format!(
                        "the search failed for item {} ({:?}): {cause}",
                        i + 1,
                        figeval::score::question_start(&item.question)
                    );
                    self.failure = Some((i, message));
                }
                return true;
            }
        };
        self.retries += u64::from(a.retries);
        let mut stop = false;
        if let Some(c) = self.capture.as_mut() {
            let line = request.envelope_line_with(&item.question, &a.body, self.record) + "\n";
            match c
                .file
                .write_all(line.as_bytes())
                .and_then(|_| c.file.flush())
            {
                Ok(()) => self.in_capture += 1,
                Err(e) => {
                    self.capture_error.get_or_insert(format!(
                        "cannot write the capture {}: {}",
                        c.path.display(),
                        files::io_words(&e)
                    ));
                    stop = true;
                }
            }
        }
        self.pairing.add_answer(i, request, &a.matches);
        let verdict = match (reader, &a.pages) {
            (Some(reader), Some(pages)) => self.first_hits.answered(i, pages, reader),
            _ => None,
        };
        if let (None, Some((first, reason))) = (&self.no_page, verdict) {
            self.no_page = Some(format!(
                "item {} ({:?}): {reason}",
                first + 1,
                figeval::score::question_start(&self.dataset.items[first].question)
            ));
            stop = true;
        }
        self.print_progress();
        stop
    }

    /// Whether the first answer with hits in dataset order has been seen (through a
    /// connector, the workers wait for their answers to be read until then).
    fn decided(&self) -> bool {
        self.first_hits.decided
    }

    fn print_progress(&mut self) {
        for line in self
            .progress
            .advance(self.pairing.records(), &self.from_capture)
        {
            eprintln!("{line}");
        }
    }

    /// What the run came to: its pairing and retries, or the failure that ends it without a
    /// report, with how many answers were kept and how to go on. A deployment failure is the
    /// news even when the capture could not be written as well.
    fn finish(self) -> Result<(Pairing<'d, K>, u64), Failure> {
        let n = self.dataset.items.len();
        let answered = self.pairing.records().iter().flatten().count();
        let kept = match &self.capture {
            Some(c) => format!(
                "{} of {n} answers are in the capture {}; run again with --resume to ask only \
                 for the rest",
                self.in_capture,
                c.path.display()
            ),
            None => format!(
                "{answered} of {n} items were answered; with --capture FILE a rerun can \
                 --resume from them"
            ),
        };
        if let Some(reason) = self.no_page {
            return Err(Failure::Input(format!(
                "{reason}\n{kept}\nno report was written"
            )));
        }
        match (self.failure, self.capture_error) {
            (Some((_, message)), output) => {
                let also = output.map_or(String::new(), |e| format!("\nalso: {e}"));
                Err(Failure::Deployment(format!(
                    "{message}{also}\n{kept}\nno report was written"
                )))
            }
            (None, Some(e)) => Err(Failure::Output(format!(
                "{e}\n{kept}\nno report was written"
            ))),
            (None, None) => Ok((self.pairing, self.retries)),
        }
    }
}

/// Asks for every item the collector has no answer to, `--concurrency` searches at a time,
/// and hands each answer to the collector as it arrives. The first failure stops new searches;
/// those in flight finish into the collector. Through a connector, until the first answer with
/// hits is decided, a worker asks its next question only once its last answer has been read.
fn ask_all<K, W: Write>(ask: &Ask<'_>, args: &RunArgs, collector: &mut Collector<'_, '_, K, W>) {
    let todo = collector.todo();
    let workers = (args.concurrency as usize).min(todo.len());
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // How many answers the workers have sent and the collector has taken in, so a worker
    // waits for its own while the first answer with hits is undecided.
    let undecided = AtomicBool::new(ask.connect.reader.is_some());
    let sent = AtomicUsize::new(0);
    let read = (Mutex::new(0usize), Condvar::new());
    let dataset = collector.dataset;
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Result<Answer, String>)>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (todo, next, stop, undecided, sent, read) =
                (&todo, &next, &stop, &undecided, &sent, &read);
            s.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let Some(&i) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    return;
                };
                let question = &dataset.items[i].question;
                let answer = search(ask, question, args.retries, args.timeout);
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
            if collector.take(i, answer, ask.request, ask.connect.reader.as_ref()) {
                stop.store(true, Ordering::SeqCst);
            }
            if collector.decided() || stop.load(Ordering::SeqCst) {
                undecided.store(false, Ordering::SeqCst);
            }
            let (count, taken) = &read;
            *count.lock().unwrap_or_else(|e| e.into_inner()) += 1;
            taken.notify_all();
        }
    });
}

/// Reads the capture into `pairing`, for `--resume`: the answers it already holds, and where
/// its complete lines end if a crash cut its last line off (noted on stderr). The capture must otherwise be clean (no unknown, duplicate
/// or unreadable answers) and made with the same search parameters. A capture that does not
/// exist yet holds nothing.
fn resume<'d, K>(
    path: &Path,
    pairing: Pairing<'d, K>,
    request: &SearchRequest<'_>,
) -> Result<(Pairing<'d, K>, Option<u64>), Failure> {
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
    // Where the capture's complete lines end, when a crash cut its last line off.
    let complete_lines_end = read.cut_off.map(|cut| {
        eprintln!(
            "figeval: note: {}: {cut}; this run asks for it again",
            path.display()
        );
        cut.offset
    });
    Ok((read.pairing, complete_lines_end))
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

/// One progress line per item, in dataset order, as soon as every earlier item is done.
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

    /// The lines of the items done since the last call whose earlier items are all done.
    fn advance(&mut self, records: &[Option<ItemRecord>], from_capture: &[bool]) -> Vec<String> {
        let n = self.dataset.items.len();
        let width = n.to_string().len();
        let mut lines = Vec::new();
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
            lines.push(format!(
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
            ));
            self.printed += 1;
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use clap::Parser;
    use figeval::connector::Reader;
    use figeval::{CacheMode, Connector, Response};

    use super::*;

    /// `figeval run`'s flags, as the command line reads them.
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        run: RunArgs,
    }

    fn args(flags: &[&str]) -> RunArgs {
        Cli::try_parse_from(std::iter::once("figeval").chain(flags.iter().copied()))
            .unwrap_or_else(|e| panic!("{e}"))
            .run
    }

    fn dataset() -> Dataset {
        Dataset::parse(
            r#"{"corpus_id": "c", "items": [
            {"question": "Which figure shows A?", "expected_pages": [1], "figure_ref": "F1", "kind": "locate"},
            {"question": "Which figure shows B?", "expected_pages": [2], "figure_ref": "F2", "kind": "content"},
            {"question": "Which figure shows C?", "expected_pages": [3], "figure_ref": "F3", "kind": "locate"}]}"#,
        )
        .unwrap()
    }

    fn request() -> SearchRequest<'static> {
        SearchRequest {
            base_url: "http://127.0.0.1:9/api",
            top_k: 5,
            cache_mode: CacheMode::Bypass,
            corpus_id: "c",
        }
    }

    /// An answer whose one match cites `page`, after `retries` retries.
    fn answer(page: u32, retries: u32) -> Answer {
        let body = format!(
            r#"{{"matches": [{{"chunk_id": "x", "provenance": {{"page_start": {page}, "page_end": {page}}}}}]}}"#
        );
        Answer {
            matches: Response::parse(&body).unwrap().matches.unwrap(),
            body,
            pages: None,
            retries,
        }
    }

    /// A capture file that refuses every write, as a full disk does.
    struct Full;

    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::StorageFull))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn message(f: Failure) -> (u8, String) {
        let code = match f {
            Failure::Input(_) => 2,
            Failure::Deployment(_) => 3,
            Failure::Output(_) => 4,
        };
        (code, f.to_string())
    }

    #[test]
    fn settings_refuse_each_flag_that_breaks_a_rule_of_a_live_run_naming_it() {
        let refused = |flags: &[&str]| message(Settings::check(&args(flags)).unwrap_err());
        let (code, m) = refused(&["--top-k", "4"]);
        assert_eq!(code, 2);
        assert!(
            m.starts_with("--top-k: top_k must be at least 5, not 4: "),
            "{m}"
        );
        let (_, m) = refused(&["--timeout", "0"]);
        assert!(m.starts_with("--timeout: the timeout must be"), "{m}");
        let (_, m) = refused(&["--base-url", "ftp://x"]);
        assert!(m.starts_with("--base-url: the base URL must be"), "{m}");
        let s =
            Settings::check(&args(&["--base-url", " http://h:1/api/ ", "--top-k", "10"])).unwrap();
        assert_eq!((s.base_url.as_str(), s.top_k), ("http://h:1/api", 10));
        assert_eq!(s.request("c").url(), "http://h:1/api/search");
    }

    #[test]
    fn a_given_dataset_is_a_file_or_a_bundled_name_and_none_needs_a_deployment_that_says() {
        let connect = connect::prepare(&args(&[]).connect).unwrap();
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(5))
            .build();
        let named = Path::new("octave-manual-figures");
        let d = choose_dataset(Some(named), "http://127.0.0.1:9/api", &connect, &agent).unwrap();
        assert_eq!(d.corpus_id, "octave-manual");
        // Nothing listens on port 9 of the loopback: the deployment says nothing.
        let (code, m) =
            message(choose_dataset(None, "http://127.0.0.1:9/api", &connect, &agent).unwrap_err());
        assert_eq!(code, 2);
        assert!(
            m.starts_with(
                "no --dataset given, and the deployment does not say which corpus it serves \
                 (GET http://127.0.0.1:9/api/health: no answer: "
            ),
            "{m}"
        );
        assert!(
            m.ends_with(
                "pass --dataset FILE, or the name of a bundled dataset: nasa-apollo-11-figures \
                 (corpus nasa-apollo-11), octave-manual-figures (corpus octave-manual)"
            ),
            "{m}"
        );
        let through = connect::prepare(&args(&["--connector", "langserve"]).connect).unwrap();
        let (_, m) = message(choose_dataset(None, "http://h/x", &through, &agent).unwrap_err());
        assert!(
            m.contains("asked through the connector \"langserve\" is not asked which corpus"),
            "{m}"
        );
    }

    #[test]
    fn the_served_corpus_is_the_health_answers_non_empty_corpus_id() {
        assert_eq!(
            corpus_in(r#"{"status": "ok", "corpus_id": "octave-manual"}"#).as_deref(),
            Some("octave-manual")
        );
        for none in [
            r#"{"corpus_id": ""}"#,
            r#"{"corpus_id": 3}"#,
            "[]",
            "<html>",
        ] {
            assert_eq!(corpus_in(none), None, "{none}");
        }
    }

    #[test]
    fn answers_arriving_in_any_order_are_captured_as_they_come_and_scored_in_dataset_order() {
        let d = dataset();
        let mut written = Vec::new();
        let path = Path::new("out/run.jsonl");
        let capture = Some(Capture {
            file: &mut written,
            path,
        });
        let mut c = Collector::new(&d, Pairing::new(&d, ScoreConfig::default()), capture, None);
        assert_eq!(c.todo(), [0, 1, 2]);
        for (i, page, retries) in [(2, 3, 0), (0, 9, 2), (1, 2, 1)] {
            assert!(!c.take(i, Ok(answer(page, retries)), &request(), None));
        }
        let (pairing, retries) = c.finish().unwrap();
        assert_eq!(retries, 3);
        let hits: Vec<bool> = pairing
            .records()
            .iter()
            .flatten()
            .map(|r| r.page_hit_at_3)
            .collect();
        assert_eq!(hits, [false, true, true]);
        let lines: Vec<serde_json::Value> = String::from_utf8(written)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let order: Vec<&str> = lines
            .iter()
            .map(|l| l["question"].as_str().unwrap())
            .collect();
        assert_eq!(
            order,
            [
                "Which figure shows C?",
                "Which figure shows A?",
                "Which figure shows B?"
            ],
            "the capture is in arrival order"
        );
    }

    #[test]
    fn the_failure_named_is_the_earliest_in_dataset_order_whatever_answered_first() {
        let d = dataset();
        let mut c: Collector<'_, '_, (), Vec<u8>> =
            Collector::new(&d, Pairing::new(&d, ScoreConfig::default()), None, None);
        assert!(c.take(2, Err("HTTP 500".into()), &request(), None));
        assert!(!c.take(0, Ok(answer(1, 0)), &request(), None));
        assert!(c.take(1, Err("HTTP 502".into()), &request(), None));
        let (code, m) = message(c.finish().err().unwrap());
        assert_eq!(code, 3);
        assert_eq!(
            m,
            "the search failed for item 2 (\"Which figure shows B?\"): HTTP 502\n1 of 3 items \
             were answered; with --capture FILE a rerun can --resume from them\nno report was \
             written"
        );
    }

    #[test]
    fn a_capture_that_cannot_be_written_stops_the_run_unless_the_deployment_failed_first() {
        let d = dataset();
        let path = Path::new("full/run.jsonl");
        let full = || Some(Capture { file: Full, path });
        let mut c = Collector::new(&d, Pairing::new(&d, ScoreConfig::default()), full(), None);
        assert!(c.take(0, Ok(answer(1, 0)), &request(), None), "stops");
        let (code, m) = message(c.finish().err().unwrap());
        assert_eq!(code, 4);
        assert!(
            m.starts_with(
                "cannot write the capture full/run.jsonl: the disk is full\n0 of 3 answers are \
                 in the capture full/run.jsonl; run again with --resume"
            ),
            "{m}"
        );
        let mut c = Collector::new(&d, Pairing::new(&d, ScoreConfig::default()), full(), None);
        c.take(0, Ok(answer(1, 0)), &request(), None);
        c.take(1, Err("no answer within 1 s".into()), &request(), None);
        let (code, m) = message(c.finish().err().unwrap());
        assert_eq!(code, 3, "the deployment's failure is the news");
        assert!(
            m.contains("no answer within 1 s\nalso: cannot write the capture full/run.jsonl"),
            "{m}"
        );
    }

    #[test]
    fn the_first_answer_with_hits_in_dataset_order_decides_whether_the_connector_reads_pages() {
        let reader = Reader::new(&Connector::preset("langserve").unwrap(), None).unwrap();
        let pages = |hits, without_page| {
            let mut p = AnswerPages::default();
            (p.hits, p.without_page) = (hits, without_page);
            p
        };
        let mut first = FirstWithHits::new(&[false, false, false]);
        // Item 3 cites no page, but items 1 and 2 are not in yet.
        assert_eq!(first.answered(2, &pages(2, 2), &reader), None);
        assert!(!first.decided);
        // Item 1 has no hits: item 2 is the first with hits, and it cites a page.
        assert_eq!(first.answered(0, &pages(0, 0), &reader), None);
        assert_eq!(first.answered(1, &pages(3, 1), &reader), None);
        assert!(first.decided);
        let mut first = FirstWithHits::new(&[true, false]);
        let (item, reason) = first.answered(1, &pages(2, 2), &reader).unwrap();
        assert_eq!(item, 1, "an item from the capture counts as having no hits");
        assert!(!reason.is_empty());
    }

    #[test]
    fn progress_is_printed_in_dataset_order_and_marks_answers_from_the_capture() {
        let d = dataset();
        let mut pairing = Pairing::new(&d, ScoreConfig::default());
        let mut progress = Progress::new(&d);
        pairing.add_answer(1, &request(), &answer(2, 0).matches);
        assert!(
            progress
                .advance(pairing.records(), &[true, false, false])
                .is_empty(),
            "item 1 is not done yet"
        );
        pairing.add_answer(0, &request(), &answer(7, 0).matches);
        let lines = progress.advance(pairing.records(), &[true, false, false]);
        assert_eq!(
            lines,
            [
                "[1/3] miss locate  p.1         \"Which figure shows A?\"  (from capture)",
                "[2/3] hit  content p.2         \"Which figure shows B?\"",
            ]
        );
    }

    #[test]
    fn resuming_reads_the_capture_and_refuses_one_asked_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let d = dataset();
        let path = dir.path().join("run.jsonl");
        let fresh = || Pairing::new(&d, ScoreConfig::default());
        let (p, end) = resume(&path, fresh(), &request()).unwrap();
        assert_eq!(
            (p.records().iter().flatten().count(), end),
            (0, None),
            "not there yet"
        );
        let line = request().envelope_line("Which figure shows A?", &answer(1, 0).body);
        let cut = &line[..line.len() / 2];
        fs::write(&path, format!("{line}\n{cut}")).unwrap();
        let (p, end) = resume(&path, fresh(), &request()).unwrap();
        assert_eq!(p.records().iter().flatten().count(), 1);
        assert_eq!(
            end,
            Some(line.len() as u64 + 1),
            "where the whole lines end"
        );
        let ten = SearchRequest {
            top_k: 10,
            ..request()
        };
        let (code, m) = message(resume(&path, fresh(), &ten).err().unwrap());
        assert_eq!(code, 2);
        assert!(
            m.ends_with(
                "its answers were not all asked with base URL http://127.0.0.1:9/api, top_k 10 \
                 and cache mode bypass; start a new capture"
            ),
            "{m}"
        );
    }

    #[test]
    fn a_capture_opened_to_resume_is_cut_back_to_its_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/run.jsonl");
        let mut f = open_capture(&path, false, None).unwrap();
        f.write_all(b"{\"a\":1}\n{\"b\":").unwrap();
        drop(f);
        let mut f = open_capture(&path, true, Some(8)).unwrap();
        f.write_all(b"{\"c\":3}\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"a\":1}\n{\"c\":3}\n");
        fs::write(&path, "{\"a\":1}").unwrap();
        let mut f = open_capture(&path, true, None).unwrap();
        f.write_all(b"{\"c\":3}\n").unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "{\"a\":1}\n{\"c\":3}\n",
            "a last line without its line break gets one first"
        );
        let mut f = open_capture(&path, false, None).unwrap();
        f.write_all(b"new\n").unwrap();
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "new\n",
            "a new capture starts empty"
        );
    }
}
