//! The reports on show and compared: a report with its name and key, and the comparison's
//! list, one `Vec` in order (the first is the baseline), edited in place.

use std::rc::Rc;

use figeval::Report;

use crate::said::Said;
use crate::shared::Shared;

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// The baseline.
    Before,
    /// The change.
    After,
}

/// A report and what it is called (its file, `live`, `share link`…).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenReport {
    /// Where it came from.
    pub name: Rc<str>,
    /// The report.
    pub report: Shared<Report>,
    /// What its matches said, when it was scored here from responses (a live run, a capture).
    pub said: Option<Said>,
    /// This entry's own key, never shared with another entry: the compare view's list keys its
    /// rows by it, so a row (and its focus) follows its report when the list is reordered, also
    /// when the same report was added twice.
    pub key: u64,
}

/// The next [`OpenReport::key`].
static NEXT_KEY: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl OpenReport {
    pub(super) fn new(name: &str, report: Report) -> OpenReport {
        OpenReport {
            name: name.into(),
            report: Shared::new(report),
            said: None,
            key: 0,
        }
        .keyed()
    }

    /// The same report as a new entry, with a key of its own.
    pub(super) fn keyed(self) -> OpenReport {
        let key = NEXT_KEY.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OpenReport { key, ..self }
    }
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
            Rc::make_mut(&mut self.reports)[at].name = name.into();
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

#[cfg(test)]
mod tests {
    use super::*;

    fn open(name: &str) -> OpenReport {
        OpenReport::new(name, crate::state::tests::scored(&[(1, 1)]))
    }

    fn names(c: &Compared) -> Vec<String> {
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
}
