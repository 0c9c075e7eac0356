//! The comparison's state: the reports compared, one `Vec` in order (the first is the
//! baseline), edited in place, and the reducer that edits it. Everything that changes together
//! is one value changed by [`Action`]s, so the reducer is a pure function with ordinary unit
//! tests; the view does the I/O (files, the app's report on show, the bridge) and dispatches
//! what happened.

use std::rc::Rc;

use figeval_web_common::open_report::{read_report, OpenReport};
use yew::Reducible;

/// A comparison link's reports, open in order.
pub fn named(reports: Vec<figeval::share::NamedReport>) -> Vec<OpenReport> {
    reports
        .into_iter()
        .map(|n| OpenReport::named(n.name, "share link", n.report))
        .collect()
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The baseline.
    Before,
    /// The change.
    After,
}

/// The reports compared, in order: the first is the baseline, the second the run compared with
/// it in the before/after view, the others further runs (the matrix). One list, edited in place.
#[derive(Debug, Clone, PartialEq)]
pub struct Compared {
    reports: Rc<Vec<OpenReport>>,
    /// Which slot a lone report fills, while the list holds one: a report put in *After* first
    /// stays the after side until a baseline joins it.
    lone: Slot,
}

impl Default for Compared {
    fn default() -> Self {
        Compared {
            reports: Rc::new(Vec::new()),
            lone: Slot::Before,
        }
    }
}

impl Compared {
    /// A comparison of these reports, in order.
    pub fn of(reports: Vec<OpenReport>) -> Compared {
        Compared {
            reports: Rc::new(reports),
            lone: Slot::Before,
        }
    }

    /// The reports, in order (the baseline first).
    pub fn list(&self) -> &[OpenReport] {
        &self.reports
    }

    /// The report in a slot of the before/after view.
    pub fn slot(&self, slot: Slot) -> Option<&OpenReport> {
        match (self.reports.len(), slot) {
            (1, s) if s != self.lone => None,
            (1, _) => self.reports.first(),
            (_, Slot::Before) => self.reports.first(),
            (_, Slot::After) => self.reports.get(1),
        }
    }

    /// Puts a report in a slot of the before/after view, replacing the one there.
    pub fn set(&mut self, slot: Slot, o: OpenReport) {
        let list = Rc::make_mut(&mut self.reports);
        match (list.len(), slot) {
            (0, _) => {
                list.push(o);
                self.lone = slot;
            }
            (1, s) if s == self.lone => list[0] = o,
            (1, Slot::Before) => list.insert(0, o),
            (1, Slot::After) => list.push(o),
            (_, Slot::Before) => list[0] = o,
            (_, Slot::After) => list[1] = o,
        }
    }

    /// Swaps before and after (a lone report changes sides).
    pub fn swap(&mut self) {
        if self.reports.len() >= 2 {
            Rc::make_mut(&mut self.reports).swap(0, 1);
        } else {
            self.lone = match self.lone {
                Slot::Before => Slot::After,
                Slot::After => Slot::Before,
            };
        }
    }

    /// Adds a report after the others.
    pub fn add(&mut self, o: OpenReport) {
        if self.reports.len() == 1 && self.lone == Slot::After {
            // The lone report is the after side: the new one goes after it all the same, and
            // the lone one becomes the baseline, as the list reads.
            self.lone = Slot::Before;
        }
        Rc::make_mut(&mut self.reports).push(o);
    }

    /// Takes the report at `at` out (nothing when out of range).
    pub fn remove(&mut self, at: usize) {
        if at < self.reports.len() {
            Rc::make_mut(&mut self.reports).remove(at);
            self.lone = Slot::Before;
        }
    }

    /// Renames the report at `at` (nothing when out of range, or for a blank name: a report is
    /// always called something). The name is what the views and the share link carry.
    pub fn rename(&mut self, at: usize, name: &str) {
        let name = name.trim();
        if at < self.reports.len() && !name.is_empty() {
            Rc::make_mut(&mut self.reports)[at].rename(name);
        }
    }

    /// Moves the report at `from` to `to` (0 makes it the baseline; nothing when either is out
    /// of range).
    pub fn move_to(&mut self, from: usize, to: usize) {
        let n = self.reports.len();
        if from < n && to < n {
            let list = Rc::make_mut(&mut self.reports);
            let o = list.remove(from);
            list.insert(to, o);
        }
    }
}

/// A failure to show in the app's banner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    /// One line saying what failed.
    pub title: String,
    /// Why, in words.
    pub detail: String,
    /// The technical detail behind `detail`, folded away, when there is one.
    pub more: Option<String>,
}

/// The compare view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompareState {
    /// The reports compared, in order (the baseline first).
    pub compared: Compared,
    /// The last failure, numbered: the view hands each new one to the app's banner once
    /// (`None`: clear the banner).
    pub banner: (u32, Option<Banner>),
    /// How many times reports were taken to be shown at once (picked in the Runs view): the
    /// view asks the app to show the Compare view each time.
    pub show: u32,
}

/// Something that happened.
#[derive(Debug, Clone)]
pub enum Action {
    /// Put a report in a slot: a file's name and text, refused in words when it is not a
    /// report.
    SetFile {
        /// Which side.
        slot: Slot,
        /// Its name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Add a report file after the others.
    AddFile {
        /// Its name.
        name: String,
        /// Its text.
        text: String,
    },
    /// Put the app's report on show in a slot (`None`: at the end of the list); nothing when
    /// there is none.
    SetCurrent(Option<Slot>, Option<OpenReport>),
    /// A comparison's reports arrived, in order (a `#compare=` or `#runs=` link, or runs
    /// picked in the Runs view: `show`, the Compare view is shown).
    Open(Vec<OpenReport>, bool),
    /// Swap before and after.
    Swap,
    /// Take the report at this position of [`Compared::list`] out of the comparison.
    Remove(usize),
    /// Rename the report at this position of [`Compared::list`].
    Rename(usize, String),
    /// Move the report at `from` of [`Compared::list`] to `to` (0 makes it the baseline).
    Move {
        /// Its position now.
        from: usize,
        /// Its position after.
        to: usize,
    },
    /// Something failed outside the reducer (a file that could not be read, a link).
    Failed(Banner),
}

impl CompareState {
    fn say(&mut self, banner: Option<Banner>) {
        self.banner = (self.banner.0 + 1, banner);
    }

    /// Puts `o` in `slot`, or at the end with no slot.
    fn put(&mut self, slot: Option<Slot>, o: OpenReport) {
        match slot {
            Some(slot) => self.compared.set(slot, o),
            None => self.compared.add(o),
        }
    }

    /// A report file's text put in the comparison, or refused in the banner.
    fn file(&mut self, slot: Option<Slot>, name: &str, text: &str) {
        match read_report(name, text) {
            Ok(r) => self.put(slot, OpenReport::new(name, r)),
            Err(e) => self.say(Some(Banner {
                title: e.title,
                detail: e.detail,
                more: None,
            })),
        }
    }

    /// Applies one action (the pure heart of the view).
    pub fn apply(mut self, action: Action) -> CompareState {
        match action {
            Action::SetFile { slot, name, text } => self.file(Some(slot), &name, &text),
            Action::AddFile { name, text } => self.file(None, &name, &text),
            Action::SetCurrent(slot, Some(o)) => self.put(slot, o.keyed()),
            Action::SetCurrent(_, None) => {}
            Action::Open(reports, show) => {
                self.compared = Compared::of(reports);
                self.say(None);
                self.show += u32::from(show);
            }
            Action::Swap => self.compared.swap(),
            Action::Remove(at) => self.compared.remove(at),
            Action::Rename(at, name) => self.compared.rename(at, &name),
            Action::Move { from, to } => self.compared.move_to(from, to),
            Action::Failed(b) => self.say(Some(b)),
        }
        self
    }
}

impl Reducible for CompareState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use figeval::{Dataset, Report};

    /// The demo dataset's report, every item answered with one match citing `pages`.
    pub(crate) fn scored(pages: &[(u32, u32)]) -> Report {
        use figeval::{CaptureReader, Pairing, RunInfo, ScoreConfig};
        let d = Dataset::parse(&figeval_web_common::demo::dataset_json()).unwrap();
        let text: String = d
            .items
            .iter()
            .map(|it| figeval_web_common::demo::body(&it.question, pages).to_string() + "\n")
            .collect();
        let read = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &text);
        let mut r = Report::build(read.pairing.finish(false).unwrap(), RunInfo::default());
        // A report from before names, called by where it came from.
        r.run.name = None;
        r
    }

    fn open(name: &str) -> OpenReport {
        OpenReport::new(name, scored(&[(1, 1)]))
    }

    pub(crate) fn names(c: &Compared) -> Vec<String> {
        c.list().iter().map(|o| o.name.to_string()).collect()
    }

    #[test]
    fn a_lone_report_stays_in_the_slot_it_was_put_in_until_the_other_is_filled() {
        let mut c = Compared::default();
        c.set(Slot::After, open("a"));
        assert!(c.slot(Slot::Before).is_none());
        assert_eq!(&*c.slot(Slot::After).unwrap().name, "a");
        c.set(Slot::Before, open("b"));
        assert_eq!(names(&c), ["b", "a"], "the baseline goes first");
        c.swap();
        assert_eq!(names(&c), ["a", "b"]);
        c.set(Slot::After, open("c"));
        assert_eq!(names(&c), ["a", "c"], "a filled slot is replaced");
    }

    #[test]
    fn the_list_is_edited_in_place_and_out_of_range_edits_do_nothing() {
        let mut c = Compared::of(vec![open("a"), open("b"), open("c")]);
        c.move_to(2, 0);
        assert_eq!(names(&c), ["c", "a", "b"]);
        c.move_to(5, 0);
        c.remove(9);
        assert_eq!(names(&c), ["c", "a", "b"]);
        c.remove(0);
        assert_eq!(names(&c), ["a", "b"]);
        assert_eq!(&*c.slot(Slot::Before).unwrap().name, "a");
    }

    #[test]
    fn a_report_is_renamed_in_place_and_never_to_a_blank_name() {
        let mut c = Compared::of(vec![open("a"), open("b")]);
        let key = c.list()[1].key;
        c.rename(1, "  reranker on  ");
        assert_eq!(names(&c), ["a", "reranker on"]);
        assert_eq!(c.list()[1].key, key, "the row keeps its key");
        c.rename(0, "   ");
        c.rename(7, "x");
        assert_eq!(names(&c), ["a", "reranker on"]);
    }

    #[test]
    fn a_compared_file_is_called_by_its_run_and_a_rename_renames_the_run() {
        let mut named = scored(&[(1, 1)]);
        named.run.name = Some("figures on".into());
        let s = state_of(vec![
            Action::AddFile {
                name: "old.json".into(),
                text: scored(&[(1, 1)]).to_json_pretty(),
            },
            Action::AddFile {
                name: "octave-on.json".into(),
                text: named.to_json_pretty(),
            },
        ]);
        let mut c = s.compared;
        assert_eq!(
            names(&c),
            ["old.json", "figures on"],
            "a report from before names is called by its file"
        );
        assert_eq!(&*c.list()[1].from, "octave-on.json");
        c.rename(0, "baseline");
        assert_eq!(
            c.list()[0].report.run.name.as_deref(),
            Some("baseline"),
            "the link and downloads carry it"
        );
    }

    fn state_of(actions: Vec<Action>) -> CompareState {
        actions
            .into_iter()
            .fold(CompareState::default(), CompareState::apply)
    }

    fn file(name: &str, r: &Report) -> Action {
        Action::AddFile {
            name: name.into(),
            text: r.to_json_pretty(),
        }
    }

    #[test]
    fn a_compare_link_opens_all_its_reports_in_order_and_clears_the_banner() {
        let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
        let fragment =
            figeval::share::compare_fragment(&[("before.json", &a), ("after.json", &b), ("c", &c)])
                .unwrap();
        let figeval::share::Link::Compare(reports) =
            figeval::share::decode_link(&format!("#{fragment}")).unwrap()
        else {
            panic!("a comparison link")
        };
        let s = state_of(vec![
            Action::AddFile {
                name: "bad.json".into(),
                text: "{".into(),
            },
            Action::Open(named(reports), false),
        ]);
        assert_eq!(s.banner, (2, None), "the link clears the file's banner");
        assert_eq!(s.show, 0, "a link shows its own view");
        assert_eq!(names(&s.compared), ["before.json", "after.json", "c"]);
        assert_eq!(*s.compared.slot(Slot::Before).unwrap().report, a);
        assert_eq!(*s.compared.slot(Slot::After).unwrap().report, b);
        assert_eq!(*s.compared.list()[2].report, c);
    }

    #[test]
    fn reports_are_added_removed_reordered_and_made_the_baseline_in_order() {
        let (a, b, c) = (scored(&[(4, 4)]), scored(&[(9, 9)]), scored(&[(2, 2)]));
        let s = state_of(vec![file("a", &a), file("b", &b), file("c", &c)]);
        assert_eq!(names(&s.compared), ["a", "b", "c"]);
        assert_eq!(*s.compared.slot(Slot::Before).unwrap().report, a);
        let s = s.apply(Action::Move { from: 2, to: 0 });
        assert_eq!(names(&s.compared), ["c", "a", "b"]);
        assert_eq!(*s.compared.slot(Slot::After).unwrap().report, a);
        let s = s
            .apply(Action::Move { from: 1, to: 2 })
            .apply(Action::Remove(0));
        assert_eq!(names(&s.compared), ["b", "a"]);
        // Out of range: nothing moves.
        let s = s
            .apply(Action::Move { from: 5, to: 0 })
            .apply(Action::Move { from: 0, to: 2 })
            .apply(Action::Remove(9));
        assert_eq!(names(&s.compared), ["b", "a"]);
        // A file that is not a report is refused and nothing is added.
        let s = s.apply(Action::AddFile {
            name: "bad.json".into(),
            text: "{".into(),
        });
        assert_eq!(names(&s.compared), ["b", "a"]);
        assert_eq!(s.banner.1.unwrap().title, "bad.json was refused");
        // No report on show adds nothing.
        let s = CompareState::default().apply(Action::SetCurrent(None, None));
        assert!(s.compared.list().is_empty());
    }

    #[test]
    fn each_report_compared_keeps_its_own_key_through_moves_even_the_same_report_twice() {
        let current = OpenReport::new("a.json", scored(&[(4, 4)]));
        let put = |s: CompareState| s.apply(Action::SetCurrent(None, Some(current.clone())));
        let s = put(put(put(CompareState::default())));
        let keys = |s: &CompareState| s.compared.list().iter().map(|o| o.key).collect::<Vec<_>>();
        let was = keys(&s);
        assert_eq!(was.len(), 3);
        assert!(
            was[0] != was[1] && was[1] != was[2] && was[0] != was[2],
            "{was:?}"
        );
        assert!(!was.contains(&current.key));
        let s = s.apply(Action::Move { from: 0, to: 2 });
        assert_eq!(
            keys(&s),
            [was[1], was[2], was[0]],
            "a key moves with its report"
        );
    }

    #[test]
    fn the_current_report_is_compared_with_a_file_and_a_bad_file_leaves_the_slot_alone() {
        let current = OpenReport::new("live run", scored(&[(4, 4)]));
        let json = current.report.to_json_pretty();
        let s = state_of(vec![
            Action::SetCurrent(Some(Slot::Before), Some(current)),
            Action::SetFile {
                slot: Slot::After,
                name: "after.json".into(),
                text: json,
            },
            Action::SetFile {
                slot: Slot::After,
                name: "bad.json".into(),
                text: "{".into(),
            },
        ]);
        assert_eq!(names(&s.compared), ["live run", "after.json"]);
        assert!(s.banner.1.unwrap().title.contains("bad.json"));
    }

    #[test]
    fn a_dataset_given_where_a_report_belongs_is_named_as_a_dataset() {
        let s = CompareState::default().apply(Action::AddFile {
            name: "demo.json".into(),
            text: figeval_web_common::demo::dataset_json(),
        });
        let detail = s.banner.1.unwrap().detail;
        assert!(
            detail.starts_with("this is a dataset, not a report"),
            "{detail}"
        );
    }
}
