//! The live runner: asks the deployment for each pending item with bounded concurrency, a
//! per-request timeout, and retries as the core says (`figeval::live`); dispatches every answer
//! as it arrives. The first failure halts the run: no new search starts, and the searches
//! already in flight may still land in the capture (as `figeval run` does). Cancelling aborts
//! the searches in flight (AbortController) and drops whatever they would have brought.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use figeval::{score_item, Dataset, ScoreConfig};
use futures::future::{join_all, select, Either};
use gloo_timers::future::TimeoutFuture;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{AbortController, Headers, Request, RequestCredentials, RequestInit, RequestMode};
use yew::UseReducerDispatcher;

use crate::browser;
use crate::search::{self, Answer, Failure};
use crate::settings::RunConfig;
use crate::shared::Shared;
use crate::state::{Action, WorkState};

/// A running run's brakes: `halt` (no new search) and `stop` (abort everything).
#[derive(Default)]
pub struct RunHandle {
    halted: Cell<bool>,
    stopped: Cell<bool>,
    next_key: Cell<u64>,
    in_flight: RefCell<BTreeMap<u64, AbortController>>,
    /// An answer of this run has cited a page (through the team server's proxy, an answer
    /// citing none stops the run until one has).
    any_page: Cell<bool>,
}

impl RunHandle {
    /// Stops the run: no new request starts, and every request in flight is aborted.
    pub fn stop(&self) {
        self.halted.set(true);
        self.stopped.set(true);
        let controllers = std::mem::take(&mut *self.in_flight.borrow_mut());
        for c in controllers.values() {
            c.abort();
        }
    }

    /// Whether the run was stopped (cancelled): answers still in flight are dropped.
    pub fn is_stopped(&self) -> bool {
        self.stopped.get()
    }

    /// Halts the run after a failure: no new search starts; those in flight may finish.
    fn halt(&self) {
        self.halted.set(true);
    }

    /// Whether no new search may start.
    fn is_halted(&self) -> bool {
        self.halted.get()
    }

    fn track(&self, c: &AbortController) -> u64 {
        let key = self.next_key.get();
        self.next_key.set(key + 1);
        self.in_flight.borrow_mut().insert(key, c.clone());
        key
    }

    fn untrack(&self, key: u64) {
        self.in_flight.borrow_mut().remove(&key);
    }
}

/// What one attempt came to.
enum Outcome {
    Failed(Failure),
    /// The run was stopped while the request was in flight.
    Stopped,
}

/// Everything a run needs.
pub struct Job {
    /// The run id the answers are dispatched under.
    pub id: u64,
    /// The dataset.
    pub dataset: Shared<Dataset>,
    /// Dataset indices to ask, in order.
    pub pending: Vec<usize>,
    /// The settings.
    pub config: RunConfig,
    /// Where answers go.
    pub dispatch: UseReducerDispatcher<WorkState>,
}

/// Starts a run in the background; the handle stops it.
pub fn start(job: Job) -> Rc<RunHandle> {
    let handle = Rc::new(RunHandle::default());
    let h = Rc::clone(&handle);
    spawn_local(async move {
        let workers = job.config.concurrency.clamp(1, job.pending.len().max(1));
        let queue = Rc::new(RefCell::new(VecDeque::from(job.pending.clone())));
        let job = Rc::new(job);
        join_all((0..workers).map(|_| worker(Rc::clone(&job), Rc::clone(&queue), Rc::clone(&h))))
            .await;
        if !h.is_halted() {
            job.dispatch.dispatch(Action::RunFinished {
                id: job.id,
                now_ms: browser::now_ms(),
            });
        }
    });
    handle
}

async fn worker(job: Rc<Job>, queue: Rc<RefCell<VecDeque<usize>>>, handle: Rc<RunHandle>) {
    let url = search::search_url(&job.config);
    let score_config = ScoreConfig {
        max_precise_span_pages: job.config.max_precise_span_pages,
    };
    loop {
        if handle.is_halted() {
            return;
        }
        let Some(index) = queue.borrow_mut().pop_front() else {
            return;
        };
        let item = &job.dataset.items[index];
        let body = search::request_body(&item.question, &job.dataset.corpus_id, &job.config);
        match search_with_retries(&job, &url, &body, &handle).await {
            Ok(answer) => {
                if handle.is_stopped() {
                    return;
                }
                let hit = score_item(item, &answer.matches, score_config).page_hit_at_3;
                let line = search::envelope_line(&item.question, &job.config, &answer.body);
                job.dispatch.dispatch(Action::Received {
                    id: job.id,
                    index,
                    line: line.into(),
                    hit,
                });
            }
            Err(Outcome::Failed(failure)) => {
                if handle.is_halted() {
                    // The run already failed (or was cancelled); the first failure is the one shown.
                    return;
                }
                handle.halt();
                job.dispatch.dispatch(Action::RunFailed {
                    id: job.id,
                    message: failure.message(&item.question, &browser::shown_url(&url)),
                    now_ms: browser::now_ms(),
                });
                return;
            }
            Err(Outcome::Stopped) => return,
        }
    }
}

async fn search_with_retries(
    job: &Job,
    url: &str,
    body: &str,
    handle: &RunHandle,
) -> Result<Answer, Outcome> {
    let mut attempt = 0;
    loop {
        match search_once(url, body, job.config.timeout_ms, handle).await {
            Err(Outcome::Failed(f)) if f.retryable() && attempt < job.config.retries => {
                attempt += 1;
                job.dispatch.dispatch(Action::Retried { id: job.id });
                TimeoutFuture::new(figeval::live::retry_delay_ms(attempt, f.retry_after())).await;
                if handle.is_halted() {
                    return Err(Outcome::Stopped);
                }
            }
            other => return other,
        }
    }
}

async fn search_once(
    url: &str,
    body: &str,
    timeout_ms: u32,
    handle: &RunHandle,
) -> Result<Answer, Outcome> {
    let transport = |e: JsValue| {
        Outcome::Failed(Failure::Transport(format!(
            "the search could not be sent ({})",
            browser::js_error_text(&e)
        )))
    };
    let controller = AbortController::new().map_err(transport)?;
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_mode(RequestMode::Cors);
    // The session cookie goes to the team server's proxy on the page's own origin (§15.7),
    // and to no other origin.
    init.set_credentials(RequestCredentials::SameOrigin);
    init.set_body(&JsValue::from_str(body));
    init.set_signal(Some(&controller.signal()));
    let headers = Headers::new().map_err(transport)?;
    headers
        .set("Content-Type", "application/json")
        .map_err(transport)?;
    init.set_headers(&headers);
    let request = Request::new_with_str_and_init(url, &init).map_err(transport)?;

    let key = handle.track(&controller);
    let exchange = async {
        let response = JsFuture::from(browser::search(&request, url, body)).await?;
        let response: web_sys::Response = response.unchecked_into();
        let text = JsFuture::from(response.text()?).await?;
        // Readable only when the deployment exposes it (Access-Control-Expose-Headers).
        let retry_after = response.headers().get("retry-after").ok().flatten();
        Ok::<_, JsValue>((
            response.status(),
            response.status_text(),
            text.as_string().unwrap_or_default(),
            retry_after,
        ))
    };
    let exchange = Box::pin(exchange);
    let timeout = TimeoutFuture::new(timeout_ms);
    let result = select(exchange, timeout).await;
    handle.untrack(key);
    if handle.is_stopped() {
        return Err(Outcome::Stopped);
    }
    match result {
        Either::Left((Ok((status, status_text, text, _)), _)) if browser::proxied(url) => {
            let answer = search::judge_proxied(status, &status_text, text, handle.any_page.get())
                .map_err(Outcome::Failed)?;
            if search::cites_a_page(&answer) {
                handle.any_page.set(true);
            }
            Ok(answer)
        }
        Either::Left((Ok((status, status_text, text, retry_after)), _)) => {
            search::judge(status, &status_text, text, retry_after).map_err(Outcome::Failed)
        }
        Either::Left((Err(e), _)) => match browser::connector_refusal(&e) {
            Some(words) => Err(Outcome::Failed(Failure::Connector(words))),
            None => Err(Outcome::Failed(Failure::Transport(
                browser::unreachable(url, &e).await,
            ))),
        },
        Either::Right(_) => {
            controller.abort();
            Err(Outcome::Failed(Failure::Timeout { ms: timeout_ms }))
        }
    }
}
