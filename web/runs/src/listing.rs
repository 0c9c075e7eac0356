//! The Runs view's state and its reducer: whether a team server serves the page and what its
//! session allows, the filters, the page of its list on show (a stack of cursors, so *Newer*
//! goes back), the runs kept in this browser, the runs picked to compare (in the order picked:
//! the first is the baseline) and the trend's metric. Everything that changes together is one
//! value; the view does the I/O and dispatches what came back. A late answer to an earlier ask
//! is dropped: each ask has a number, and only the last one's answer is taken.

use std::rc::Rc;

use figeval::Metric;
use yew::Reducible;

use crate::history::{Filters, Page, Run, Session, Source, TrendMetric};

/// How many runs a page of the server's list shows.
pub const PAGE_SIZE: u32 = 50;
/// How many of a dataset's newest runs its trend shows.
pub const TREND_RUNS: u32 = 100;

/// What serves the page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Server {
    /// Not known yet (`GET api/session` is on its way).
    Asking,
    /// No figeval server: a static host, a file. Only the runs kept here are listed.
    None,
    /// `figeval serve`, and what its session says.
    Serve(Session),
}

/// Something on its way, there, or failed (in words).
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded<T> {
    /// Asked for.
    Loading,
    /// Arrived.
    Ready(T),
    /// Failed, in words.
    Failed(String),
}

/// A run picked to compare.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picked {
    /// Its id.
    pub id: String,
    /// Where it comes from.
    pub source: Source,
    /// Its name.
    pub name: String,
}

/// The Runs view's state.
#[derive(Debug, Clone, PartialEq)]
pub struct RunsState {
    /// What serves the page.
    pub server: Server,
    /// The filters applied.
    pub filters: Filters,
    /// The cursors of the pages before this one and this one's (`None`: the first page).
    pub cursors: Vec<Option<String>>,
    /// The page of the server's list on show.
    pub page: Loaded<Page>,
    /// The newest runs of the filtered dataset, for its trend (server).
    pub trend_runs: Loaded<Vec<Run>>,
    /// The runs kept in this browser, newest first (`None` while they are read).
    pub kept: Option<Vec<Run>>,
    /// The runs picked to compare, in the order picked.
    pub picked: Vec<Picked>,
    /// The metric the trend follows.
    pub metric: TrendMetric,
    /// The number of the last ask of the server's list: its answer is the one taken.
    pub ask: u32,
}

impl Default for RunsState {
    fn default() -> Self {
        RunsState {
            server: Server::Asking,
            filters: Filters::default(),
            cursors: vec![None],
            page: Loaded::Loading,
            trend_runs: Loaded::Loading,
            kept: None,
            picked: Vec::new(),
            metric: TrendMetric::Rate(Metric::PageHitAt3),
            ask: 0,
        }
    }
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Action {
    /// What `GET api/session` said (`None`: no figeval server).
    Server(Option<Session>),
    /// New filters (the first page of them).
    Filter(Filters),
    /// The next (older) page.
    Older,
    /// The page before (newer).
    Newer,
    /// The server's list answered ask `n`.
    Page(u32, Result<Page, String>),
    /// The server's runs of the filtered dataset answered ask `n`.
    Trend(u32, Result<Vec<Run>, String>),
    /// The runs kept here, read.
    Kept(Vec<Run>),
    /// A kept run was deleted.
    Deleted(String),
    /// A run picked (`true`) or put back.
    Pick(Picked, bool),
    /// The trend's metric.
    Metric(TrendMetric),
}

impl RunsState {
    /// Whether the server's list can be asked for: a figeval server whose session may read.
    pub fn may_list(&self) -> bool {
        matches!(&self.server, Server::Serve(s) if s.may_read())
    }

    /// Asks for the list again from the first page.
    fn ask_again(&mut self) {
        self.ask = self.ask.wrapping_add(1);
        self.page = Loaded::Loading;
        self.trend_runs = Loaded::Loading;
    }

    /// Applies one action (the pure heart of the view).
    pub fn apply(mut self, action: Action) -> RunsState {
        match action {
            Action::Server(s) => {
                self.server = s.map_or(Server::None, Server::Serve);
                self.cursors = vec![None];
                self.ask_again();
            }
            Action::Filter(f) => {
                self.filters = f;
                self.cursors = vec![None];
                self.ask_again();
            }
            Action::Older => {
                if let Loaded::Ready(Page {
                    next: Some(next), ..
                }) = &self.page
                {
                    self.cursors.push(Some(next.clone()));
                    self.ask = self.ask.wrapping_add(1);
                    self.page = Loaded::Loading;
                }
            }
            Action::Newer => {
                if self.cursors.len() > 1 {
                    self.cursors.pop();
                    self.ask = self.ask.wrapping_add(1);
                    self.page = Loaded::Loading;
                }
            }
            Action::Page(n, got) if n == self.ask => {
                self.page = match got {
                    Ok(p) => Loaded::Ready(p),
                    Err(e) => Loaded::Failed(e),
                };
            }
            Action::Trend(n, got) if n == self.ask => {
                self.trend_runs = match got {
                    Ok(p) => Loaded::Ready(p),
                    Err(e) => Loaded::Failed(e),
                };
            }
            Action::Page(..) | Action::Trend(..) => {}
            Action::Kept(runs) => self.kept = Some(runs),
            Action::Deleted(id) => {
                if let Some(k) = &mut self.kept {
                    k.retain(|r| r.id != id);
                }
                self.picked
                    .retain(|p| !(p.source == Source::Kept && p.id == id));
            }
            Action::Pick(p, on) => {
                self.picked
                    .retain(|q| !(q.source == p.source && q.id == p.id));
                if on {
                    self.picked.push(p);
                }
            }
            Action::Metric(m) => self.metric = m,
        }
        self
    }

    /// Whether a run is picked.
    pub fn is_picked(&self, r: &Run) -> bool {
        self.picked
            .iter()
            .any(|p| p.source == r.source && p.id == r.id)
    }
}

impl Reducible for RunsState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(scope: &str) -> Session {
        Session {
            signed_in: true,
            open: false,
            name: Some("t".into()),
            scope: Some(scope.into()),
        }
    }

    fn page(next: Option<&str>) -> Page {
        Page {
            runs: Vec::new(),
            next: next.map(str::to_string),
        }
    }

    fn picked(id: &str) -> Picked {
        Picked {
            id: id.into(),
            source: Source::Server,
            name: id.into(),
        }
    }

    #[test]
    fn only_a_session_that_may_read_lists_the_servers_runs() {
        let s = RunsState::default();
        assert!(!s.may_list());
        assert!(!s.clone().apply(Action::Server(None)).may_list());
        assert!(!s
            .clone()
            .apply(Action::Server(Some(session("push"))))
            .may_list());
        assert!(s.apply(Action::Server(Some(session("read")))).may_list());
    }

    #[test]
    fn older_and_newer_walk_the_cursors_and_a_late_answer_is_dropped() {
        let s = RunsState::default().apply(Action::Server(Some(session("admin"))));
        let first = s.ask;
        let s = s.apply(Action::Page(first, Ok(page(Some("9.a")))));
        let s = s.apply(Action::Older);
        assert_eq!(s.cursors, [None, Some("9.a".into())]);
        assert_eq!(s.page, Loaded::Loading);
        // The first page's answer, arriving again late, is not this page.
        let s = s.apply(Action::Page(first, Ok(page(None))));
        assert_eq!(s.page, Loaded::Loading);
        let ask = s.ask;
        let s = s.apply(Action::Page(ask, Ok(page(None))));
        // The last page: no older one.
        let was = s.cursors.clone();
        let s = s.apply(Action::Older);
        assert_eq!(s.cursors, was);
        let s = s.apply(Action::Newer).apply(Action::Newer);
        assert_eq!(s.cursors, [None], "never before the first page");
        // New filters start from the first page again.
        let s = s.apply(Action::Filter(Filters::trimmed("k", "", "")));
        assert_eq!((s.cursors.len(), &s.page), (1, &Loaded::Loading));
    }

    #[test]
    fn runs_are_picked_in_order_once_each_and_a_deleted_kept_run_is_put_back() {
        let s = RunsState::default()
            .apply(Action::Pick(picked("b"), true))
            .apply(Action::Pick(picked("a"), true))
            .apply(Action::Pick(picked("b"), true));
        let ids: Vec<&str> = s.picked.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a", "b"], "picked again goes last");
        let s = s.apply(Action::Pick(picked("a"), false));
        assert_eq!(s.picked.len(), 1);
        let kept = Picked {
            source: Source::Kept,
            ..picked("b")
        };
        let s = s
            .apply(Action::Pick(kept, true))
            .apply(Action::Deleted("b".into()));
        assert_eq!(s.picked, [picked("b")], "only the kept one goes");
    }
}
