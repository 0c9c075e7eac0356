//! The live run: where it is, its capture so far, and its sub-reducer (started, answered,
//! retried, failed, cancelled, discarded). A run that started carries the settings it asks
//! with in its status, so a stopped run can always be resumed the same way.

use std::rc::Rc;

use crate::settings::RunConfig;

/// Where a live run is. Every status after a start holds the run's settings.
#[derive(Debug, Clone, PartialEq)]
pub enum RunStatus {
    /// No run for this dataset yet.
    Idle,
    /// Searches are in flight.
    Running(Rc<RunConfig>),
    /// The user stopped it; what was received is kept.
    Cancelled(Rc<RunConfig>),
    /// A search failed; what was received is kept.
    Failed(Rc<RunConfig>),
    /// Every item answered and the report was built.
    Finished,
}

impl RunStatus {
    /// The status in words (`data-status` of the progress bar).
    pub fn word(&self) -> &'static str {
        match self {
            RunStatus::Idle => "not started",
            RunStatus::Running(_) => "running…",
            RunStatus::Cancelled(_) => "cancelled",
            RunStatus::Failed(_) => "stopped by a failure",
            RunStatus::Finished => "finished",
        }
    }
}

/// A live run's capture: one envelope per dataset item, `None` until answered. Shared, not
/// copied, between the run and the report scored from it; joined into JSON Lines only when
/// it is downloaded.
pub type CaptureLines = Rc<Vec<Option<Rc<str>>>>;

/// The answered envelopes of `lines` as JSON Lines, in dataset order.
pub fn capture_text(lines: &[Option<Rc<str>>]) -> String {
    let mut out = String::with_capacity(lines.iter().flatten().map(|l| l.len() + 1).sum());
    for line in lines.iter().flatten() {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A live run: its capture so far (one envelope per item, `None` until answered).
#[derive(Debug, Clone, PartialEq)]
pub struct LiveRun {
    /// Increases with every start, so a cancelled run's late answers are ignored.
    pub id: u64,
    /// Where it is, with the settings of a run that started.
    pub status: RunStatus,
    /// One capture line per dataset item, in dataset order.
    pub lines: CaptureLines,
    /// Items whose answer hit on page_hit_at_3 so far.
    pub hits: usize,
    /// When the first segment started (RFC 3339).
    pub started_at: Option<String>,
    /// Seconds spent in finished segments.
    pub elapsed_s: f64,
    /// When the running segment started (ms since the epoch).
    pub segment_started_ms: f64,
    /// Retried requests.
    pub retries: u64,
    /// Why it stopped, when it failed.
    pub failure: Option<String>,
}

impl LiveRun {
    /// No run yet, over `items` dataset items; `id` continues the last run's count.
    pub(super) fn new(items: usize, id: u64) -> LiveRun {
        LiveRun {
            id,
            status: RunStatus::Idle,
            lines: Rc::new(vec![None; items]),
            hits: 0,
            started_at: None,
            elapsed_s: 0.0,
            segment_started_ms: 0.0,
            retries: 0,
            failure: None,
        }
    }

    /// Whether searches are in flight.
    pub fn is_running(&self) -> bool {
        matches!(self.status, RunStatus::Running(_))
    }

    /// Items answered.
    pub fn done(&self) -> usize {
        self.lines.iter().filter(|l| l.is_some()).count()
    }

    /// Items in the dataset.
    pub fn total(&self) -> usize {
        self.lines.len()
    }

    /// Dataset indices not answered yet, in dataset order.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.lines.len())
            .filter(|&i| self.lines[i].is_none())
            .collect()
    }

    /// Whether any answer was received (so there is a capture to download).
    pub fn has_capture(&self) -> bool {
        self.lines.iter().any(Option::is_some)
    }

    /// The settings a stopped run must be resumed with, when it can be resumed.
    pub fn resumable(&self) -> Option<&RunConfig> {
        match &self.status {
            RunStatus::Cancelled(c) | RunStatus::Failed(c) if self.done() < self.total() => Some(c),
            _ => None,
        }
    }

    /// Whether a stopped run can be resumed.
    pub fn can_resume(&self) -> bool {
        self.resumable().is_some()
    }

    /// The capture received so far: JSON Lines of envelopes, in dataset order.
    pub fn capture_text(&self) -> String {
        capture_text(&self.lines)
    }

    fn stop_segment(&mut self, now_ms: f64) {
        self.elapsed_s += ((now_ms - self.segment_started_ms) / 1000.0).max(0.0);
    }

    /// Ends the running segment of run `id`: its settings, or `None` when `id` is not running.
    fn stop_running(&mut self, id: u64, now_ms: f64) -> Option<Rc<RunConfig>> {
        match &self.status {
            RunStatus::Running(config) if id == self.id => {
                let config = config.clone();
                self.stop_segment(now_ms);
                Some(config)
            }
            _ => None,
        }
    }

    /// A run (or its resume) started.
    pub(super) fn start(
        &mut self,
        id: u64,
        config: RunConfig,
        resume: bool,
        started_at: String,
        now_ms: f64,
    ) {
        if !resume {
            *self = LiveRun::new(self.total(), id);
            self.started_at = Some(started_at);
        }
        self.id = id;
        self.status = RunStatus::Running(Rc::new(config));
        self.segment_started_ms = now_ms;
        self.failure = None;
    }

    /// One item was answered. After a failure, searches already in flight may still land;
    /// nothing lands from another run or after a cancel.
    pub(super) fn receive(&mut self, id: u64, index: usize, line: Rc<str>, hit: bool) {
        if id == self.id
            && matches!(self.status, RunStatus::Running(_) | RunStatus::Failed(_))
            && self.lines.get(index).is_some_and(Option::is_none)
        {
            Rc::make_mut(&mut self.lines)[index] = Some(line);
            self.hits += usize::from(hit);
        }
    }

    /// A request of run `id` was retried.
    pub(super) fn retried(&mut self, id: u64) {
        if id == self.id {
            self.retries += 1;
        }
    }

    /// Stops the running run `id` as failed (or cancelled when `failure` is `None`); whether it
    /// was the running one.
    pub(super) fn stop(&mut self, id: u64, failure: Option<String>, now_ms: f64) -> bool {
        let Some(config) = self.stop_running(id, now_ms) else {
            return false;
        };
        self.status = match failure {
            Some(_) => RunStatus::Failed(config),
            None => RunStatus::Cancelled(config),
        };
        self.failure = failure;
        true
    }

    /// The running run `id`'s workers are done: its settings, and whether every item was
    /// answered (otherwise it is stopped as failed, with the reason). `None` when `id` is not
    /// the running run.
    pub(super) fn end(
        &mut self,
        id: u64,
        now_ms: f64,
    ) -> Option<(Rc<RunConfig>, Result<(), String>)> {
        let config = self.stop_running(id, now_ms)?;
        if self.done() < self.total() {
            let msg = format!(
                "the run ended with {} of {} items unanswered",
                self.total() - self.done(),
                self.total()
            );
            self.status = RunStatus::Failed(config.clone());
            self.failure = Some(msg.clone());
            return Some((config, Err(msg)));
        }
        Some((config, Ok(())))
    }

    /// Forgets a stopped run's capture (not a running one's).
    pub(super) fn discard(&mut self) {
        if !self.is_running() {
            *self = LiveRun::new(self.total(), self.id);
        }
    }
}
