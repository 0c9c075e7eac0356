//! The dataset editor's state and its reducer: the draft being written
//! (`figeval_document::editor::Draft`), which item's page is being picked, and what the last open or
//! import said. Pure (no browser calls), so it has native unit tests; the view
//! (`editor.rs`) saves [`Editor::draft`] to `localStorage` after every change.

use std::rc::Rc;

use figeval::Kind;
use figeval_document::editor::{split_tags, Draft, DraftItem};
use figeval_document::Caption;
use yew::Reducible;

/// The `localStorage` key the draft is saved under.
pub const STORAGE_KEY: &str = "figeval.editor.draft.v1";

/// How many thumbnails the page picker shows at once.
pub const PICKER_PAGES: u32 = 6;

/// The editor.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Editor {
    /// The draft.
    pub draft: Draft,
    /// The item (0-based) whose page the picker sets, when one is chosen.
    pub picking: Option<usize>,
    /// The first page the picker shows.
    pub first_page: u32,
    /// What the last open, import or add said (shown in a live region).
    pub notice: String,
    /// Per item, whether it was added here and not typed in yet: its problems are not shown
    /// until the user has had a chance to write it (an item past the end is not quiet).
    pub quiet: Vec<bool>,
    /// Whether the corpus id was typed, or came with an opened draft: until then, or until an
    /// item is typed in, an empty corpus id is not shown as an error.
    pub corpus_touched: bool,
}

/// One change to an item.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// The question.
    Question(String),
    /// The expected pages, as typed.
    Pages(String),
    /// The `figure_ref`.
    FigureRef(String),
    /// The kind.
    Kind(Kind),
    /// The tags, as typed in one field (comma-separated).
    Tags(String),
    /// Marks or unmarks a prose control item.
    Prose(bool),
}

/// What the editor can be asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Starts an empty draft for a corpus.
    New(String),
    /// Replaces the draft with an opened one (import, a bundled or the loaded dataset); the
    /// notice says what was opened.
    Open(Draft, String),
    /// An open or import failed: why.
    Refused(String),
    /// Sets the corpus id.
    Corpus(String),
    /// Fills in a corpus id nobody gave yet (the open report's or dataset's corpus, else the
    /// PDF's name): the draft's stays when it has one, and the field stays calm.
    SuggestCorpus(String),
    /// Appends a locate item for a caption of the caption index.
    AddCaption(Caption),
    /// Appends an empty figure item.
    AddItem,
    /// Appends a prose item with no page yet, and picks its page.
    AddProse,
    /// Changes one item.
    Edit(usize, Edit),
    /// Deletes an item.
    Remove(usize),
    /// Moves an item from one place to another.
    Move(usize, usize),
    /// Chooses the item whose page the picker sets (`None`: closes the picker).
    Pick(Option<usize>),
    /// Shows the picker's pages from this one.
    Browse(u32),
    /// Sets the picked item's page (a thumbnail was clicked).
    UsePage(u32),
    /// Sets the picked item's `figure_ref` to a section heading found on its page and marks it
    /// as prose.
    UseHeading(String),
}

impl Editor {
    /// The editor with a saved draft (`None`, or text that cannot be read: an empty draft and
    /// a notice saying so).
    pub fn restore(saved: Option<&str>) -> Editor {
        match saved.map(Draft::from_storage) {
            None => Editor::default(),
            Some(Ok(draft)) => Editor {
                notice: format!(
                    "Your draft of {} with {} was restored from this browser.",
                    quoted(&draft.corpus_id),
                    figeval::describe::counted(draft.items.len(), "item", "items")
                ),
                draft,
                ..Editor::default()
            },
            Some(Err(why)) => Editor {
                notice: format!("{why}; starting an empty draft."),
                ..Editor::default()
            },
        }
    }

    /// The page of the picked item that the picker starts at.
    fn start_of(&self, index: usize) -> u32 {
        let page = self
            .draft
            .items
            .get(index)
            .and_then(|i| i.page_numbers().first().map(|p| p.get()))
            .unwrap_or(1);
        page.saturating_sub(PICKER_PAGES / 2 - 1).max(1)
    }

    /// Whether item `index` was added here and not typed in yet.
    pub fn is_quiet(&self, index: usize) -> bool {
        self.quiet.get(index).copied().unwrap_or(false)
    }

    /// Whether the draft's own problems (its corpus id) are shown: once the corpus id was
    /// typed or opened, or an item typed in.
    pub fn shows_corpus(&self) -> bool {
        self.corpus_touched || (0..self.draft.items.len()).any(|i| !self.is_quiet(i))
    }

    fn set_quiet(&mut self, index: usize, quiet: bool) {
        if self.quiet.len() <= index {
            self.quiet.resize(index + 1, false);
        }
        self.quiet[index] = quiet;
    }

    /// The state after `action`.
    pub fn apply(mut self, action: Action) -> Editor {
        match action {
            Action::New(corpus_id) => {
                self.draft = Draft::new(corpus_id.trim());
                self.picking = None;
                self.notice = "A new, empty draft.".into();
                self.quiet.clear();
                self.corpus_touched = false;
            }
            Action::Open(draft, notice) => {
                self.draft = draft;
                self.picking = None;
                self.notice = notice;
                self.quiet.clear();
                self.corpus_touched = true;
            }
            Action::Refused(why) => self.notice = why,
            Action::Corpus(c) => {
                self.draft.corpus_id = c;
                self.corpus_touched = true;
            }
            Action::SuggestCorpus(c) => {
                if self.draft.corpus_id.trim().is_empty() {
                    self.draft.corpus_id = c;
                }
            }
            Action::AddCaption(c) => {
                let n = self.draft.add(DraftItem::from_caption(&c));
                self.set_quiet(n, true);
                let n = n + 1;
                self.notice = format!(
                    "{} (p.{}) added as item {n}, a locate item: write its question in the editor.",
                    c.label, c.page
                );
            }
            Action::AddItem => {
                let n = self.draft.add(DraftItem::default());
                self.set_quiet(n, true);
                self.notice = format!("Item {} added.", n + 1);
            }
            Action::AddProse => {
                let mut item = DraftItem::default();
                item.set_prose(true);
                let n = self.draft.add(item);
                self.set_quiet(n, true);
                self.picking = Some(n);
                self.first_page = self.start_of(n);
                self.notice = format!(
                    "Prose item {} added: pick its page, then a section heading on it.",
                    n + 1
                );
            }
            Action::Edit(i, edit) => {
                if i < self.draft.items.len() {
                    self.set_quiet(i, false);
                }
                if let Some(item) = self.draft.items.get_mut(i) {
                    match edit {
                        Edit::Question(q) => item.question = q,
                        Edit::Pages(p) => item.pages = p,
                        Edit::FigureRef(f) => item.figure_ref = f,
                        Edit::Kind(k) => item.kind = k,
                        Edit::Tags(t) => {
                            let prose = item.is_prose();
                            item.tags = split_tags(&t);
                            item.set_prose(prose || item.is_prose());
                        }
                        Edit::Prose(p) => item.set_prose(p),
                    }
                }
            }
            Action::Remove(i) => {
                if self.draft.remove(i).is_some() {
                    if i < self.quiet.len() {
                        self.quiet.remove(i);
                    }
                    self.picking = match self.picking {
                        Some(p) if p == i => None,
                        Some(p) if p > i => Some(p - 1),
                        other => other,
                    };
                    self.notice = format!("Item {} deleted.", i + 1);
                }
            }
            Action::Move(from, to) => {
                if self.draft.move_item(from, to) {
                    self.quiet.resize(self.draft.items.len(), false);
                    let q = self.quiet.remove(from);
                    self.quiet.insert(to, q);
                    self.picking = self.picking.map(|p| {
                        if p == from {
                            to
                        } else if from < p && p <= to {
                            p - 1
                        } else if to <= p && p < from {
                            p + 1
                        } else {
                            p
                        }
                    });
                    self.notice = format!("Item {} moved to place {}.", from + 1, to + 1);
                }
            }
            Action::Pick(i) => {
                self.picking = i.filter(|&i| i < self.draft.items.len());
                if let Some(i) = self.picking {
                    self.first_page = self.start_of(i);
                }
            }
            Action::Browse(page) => self.first_page = page.max(1),
            Action::UsePage(page) => {
                if let Some(item) = self.picking.and_then(|i| self.draft.items.get_mut(i)) {
                    item.set_page(page);
                }
            }
            Action::UseHeading(heading) => {
                if let Some(item) = self.picking.and_then(|i| self.draft.items.get_mut(i)) {
                    item.figure_ref = heading;
                    item.set_prose(true);
                }
            }
        }
        self
    }
}

/// A corpus id in quotes, or "an unnamed corpus".
fn quoted(corpus_id: &str) -> String {
    if corpus_id.trim().is_empty() {
        "an unnamed corpus".into()
    } else {
        format!("{corpus_id:?}")
    }
}

impl Reducible for Editor {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caption(label: &str, page: u32) -> Caption {
        Caption {
            label: label.into(),
            page,
            text: "A plot.".into(),
        }
    }

    fn two() -> Editor {
        Editor::default()
            .apply(Action::New(" octave-manual ".into()))
            .apply(Action::AddCaption(caption("Figure 15.1", 332)))
            .apply(Action::AddCaption(caption("Figure 15.2", 337)))
    }

    #[test]
    fn a_new_row_is_quiet_until_it_is_typed_in_and_keeps_that_when_moved() {
        let empty = Editor::default().apply(Action::New(String::new()));
        assert!(
            !empty.shows_corpus(),
            "an empty draft does not call its corpus id an error"
        );
        let e = empty
            .apply(Action::AddCaption(caption("Figure 15.1", 332)))
            .apply(Action::AddCaption(caption("Figure 15.2", 337)));
        assert!(e.is_quiet(0) && e.is_quiet(1));
        assert!(
            !e.shows_corpus(),
            "rows not typed in yet leave the corpus id calm"
        );
        let e = e.apply(Action::Edit(1, Edit::Question("Which figure?".into())));
        assert!(e.is_quiet(0) && !e.is_quiet(1));
        assert!(
            e.shows_corpus(),
            "once a row is typed in, the corpus id is checked too"
        );
        let e = e.apply(Action::Move(1, 0));
        assert!(
            !e.is_quiet(0) && e.is_quiet(1),
            "the quiet row moved with its item"
        );
        let e = e.apply(Action::AddItem).apply(Action::Remove(1));
        assert_eq!(e.draft.items.len(), 2);
        assert!(
            !e.is_quiet(0) && e.is_quiet(1),
            "the added item is quiet in its new place"
        );
        let opened = e.apply(Action::Open(Draft::new("c"), "Opened.".into()));
        assert!(opened.quiet.is_empty() && opened.shows_corpus());
        assert!(!Editor::default()
            .apply(Action::Corpus(String::new()))
            .is_quiet(0));
        assert!(Editor::default()
            .apply(Action::Corpus(String::new()))
            .shows_corpus());
    }

    #[test]
    fn a_suggested_corpus_fills_an_empty_corpus_id_only_and_stays_calm() {
        let e = Editor::default()
            .apply(Action::New(String::new()))
            .apply(Action::SuggestCorpus("octave".into()));
        assert_eq!(e.draft.corpus_id, "octave");
        assert!(
            !e.shows_corpus(),
            "filled in, not typed: no problems shown yet"
        );
        let e = e.apply(Action::Corpus("manual".into()));
        let e = e.apply(Action::SuggestCorpus("other".into()));
        assert_eq!(e.draft.corpus_id, "manual", "a corpus id given stays");
    }

    #[test]
    fn captions_become_locate_items_and_the_notice_says_so() {
        let e = two();
        assert_eq!(e.draft.corpus_id, "octave-manual");
        assert_eq!(e.draft.items.len(), 2);
        assert_eq!(e.draft.items[1].figure_ref, "Figure 15.2");
        assert_eq!(e.draft.items[1].pages, "337");
        assert!(
            e.notice.contains("Figure 15.2 (p.337) added as item 2"),
            "{}",
            e.notice
        );
    }

    #[test]
    fn a_prose_item_gets_its_page_from_a_thumbnail_and_its_ref_from_a_heading() {
        let e = two().apply(Action::AddProse);
        assert_eq!(e.picking, Some(2));
        assert_eq!(e.first_page, 1);
        let e = e
            .apply(Action::Browse(185))
            .apply(Action::UsePage(187))
            .apply(Action::UseHeading("Section 8.7 Increment Operators".into()));
        let item = &e.draft.items[2];
        assert_eq!(
            (item.pages.as_str(), item.figure_ref.as_str()),
            ("187", "Section 8.7 Increment Operators")
        );
        assert!(item.is_prose());
        let e = e.apply(Action::Pick(Some(0)));
        assert_eq!(e.first_page, 330, "the picker opens around the item's page");
        assert_eq!(e.apply(Action::Pick(Some(9))).picking, None);
    }

    #[test]
    fn edits_reach_their_item_and_typed_tags_keep_the_prose_mark() {
        let e = two()
            .apply(Action::Edit(0, Edit::Question("Which figure?".into())))
            .apply(Action::Edit(0, Edit::Kind(Kind::Content)))
            .apply(Action::Edit(0, Edit::Prose(true)))
            .apply(Action::Edit(0, Edit::Tags("plot, figure".into())))
            .apply(Action::Edit(1, Edit::Pages("337, 338".into())))
            .apply(Action::Edit(7, Edit::Question("nowhere".into())));
        let a = &e.draft.items[0];
        assert_eq!(a.question, "Which figure?");
        assert_eq!(a.kind, Kind::Content);
        assert_eq!(a.tags, ["plot", "figure", "prose"]);
        assert_eq!(e.draft.items[1].pages, "337, 338");
        assert_eq!(e.draft.items.len(), 2);
    }

    #[test]
    fn moving_and_deleting_keep_the_picked_item() {
        let e = two().apply(Action::AddItem).apply(Action::Pick(Some(2)));
        let e = e.apply(Action::Move(2, 0));
        assert_eq!(e.picking, Some(0));
        assert_eq!(e.draft.items[1].figure_ref, "Figure 15.1");
        let e = e.apply(Action::Move(1, 2));
        assert_eq!(e.picking, Some(0));
        let e = e.apply(Action::Pick(Some(2))).apply(Action::Move(0, 2));
        assert_eq!(e.picking, Some(1));
        let e = e.apply(Action::Remove(0));
        assert_eq!(e.picking, Some(0));
        let e = e.apply(Action::Remove(0));
        assert_eq!(e.picking, None);
        assert_eq!(e.draft.items.len(), 1);
        assert_eq!(e.apply(Action::Remove(5)).draft.items.len(), 1);
    }

    #[test]
    fn a_saved_draft_is_restored_and_an_unreadable_one_is_said_to_be() {
        let e = two().apply(Action::Edit(0, Edit::Pages("33x".into())));
        let back = Editor::restore(Some(&e.draft.to_storage()));
        assert_eq!(back.draft, e.draft);
        assert!(back
            .notice
            .contains("\"octave-manual\" with 2 items was restored"));
        let bad = Editor::restore(Some("{"));
        assert_eq!(bad.draft, Draft::default());
        assert!(
            bad.notice.contains("the saved draft cannot be read"),
            "{}",
            bad.notice
        );
        assert_eq!(Editor::restore(None), Editor::default());
    }

    #[test]
    fn opening_replaces_the_draft_and_a_refusal_keeps_it() {
        let e = two().apply(Action::Pick(Some(1)));
        let opened = Draft::new("other");
        let e = e.apply(Action::Open(opened.clone(), "Opened.".into()));
        assert_eq!(
            (&e.draft, e.picking, e.notice.as_str()),
            (&opened, None, "Opened.")
        );
        let e = e.apply(Action::Refused("nope".into()));
        assert_eq!((&e.draft, e.notice.as_str()), (&opened, "nope"));
    }
}
