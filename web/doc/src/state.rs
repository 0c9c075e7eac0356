//! The document module's state and its reducer: the open PDF, its page texts and caption index,
//! the main app's dataset, and the view on show. Pure (no browser calls), so it has native unit
//! tests: `cargo test -p figeval-doc`.
//!
//! What the views read is [`Doc`], given to every view as a Yew context (web/README.md, "The
//! document module").

use std::rc::Rc;

use figeval::provenance::AuditHit;
use figeval::Dataset;
use figeval_document::ground::PageSource;
use figeval_document::{find_captions, Caption, ItemGround, Verdict};
use yew::Reducible;

use crate::shared::Shared;

/// The PDF as the document strip reports it (`data-status`, `data-pages` of `pdf-panel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pdf {
    /// No PDF is open.
    None,
    /// A PDF is being opened.
    Loading,
    /// A PDF of `pages` pages is open.
    Open {
        /// Its page count.
        pages: u32,
    },
    /// The last PDF could not be opened.
    Failed,
}

impl Pdf {
    /// Reads the strip's `data-status` and `data-pages`.
    pub fn from_panel(status: &str, pages: &str) -> Pdf {
        match status {
            "open" => match pages.parse::<u32>() {
                Ok(pages) if pages > 0 => Pdf::Open { pages },
                _ => Pdf::Failed,
            },
            "loading" => Pdf::Loading,
            "failed" => Pdf::Failed,
            _ => Pdf::None,
        }
    }
}

/// Where one page's text came from, as the viewer says (`texts()`'s `sources`).
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// The PDF's text layer.
    Layer,
    /// tesseract.js read the page (it has no text layer): its mean word confidence, 0 to 100.
    Ocr(f64),
    /// OCR could not read the page (it failed, or was stopped): why. Its text is empty.
    Unreadable(Rc<str>),
}

impl Source {
    /// What the document crate's ground check needs to know of it.
    pub fn page_source(&self) -> PageSource {
        match self {
            Source::Layer => PageSource::Layer,
            Source::Ocr(_) => PageSource::Ocr,
            Source::Unreadable(_) => PageSource::Unreadable,
        }
    }
}

/// The open document's text, as the viewer gives it, with its caption index.
#[derive(Debug)]
pub struct Pages {
    /// One string a page, index 0 = page 1 (`pdfview.mjs`'s `texts()`).
    pub texts: Vec<String>,
    /// Where each page's text came from, index 0 = page 1 (a page past its end: the layer).
    pub sources: Vec<Source>,
    /// `figeval_document::find_captions` of `texts`.
    pub captions: Vec<Caption>,
    /// How long the viewer took to give the texts, in milliseconds.
    pub read_ms: f64,
}

impl Pages {
    /// The page texts, where they came from, and their caption index.
    pub fn new(texts: Vec<String>, sources: Vec<Source>, read_ms: f64) -> Pages {
        let captions = find_captions(&texts);
        Pages {
            texts,
            sources,
            captions,
            read_ms,
        }
    }

    /// Where page `page` (1-based) got its text.
    pub fn source(&self, page: u32) -> &Source {
        let index = usize::try_from(page).map_or(usize::MAX, |p| p.wrapping_sub(1));
        self.sources.get(index).unwrap_or(&Source::Layer)
    }

    /// How many pages a read under way has still to read by OCR ([`NOT_READ_YET`]).
    pub fn pages_to_read(&self) -> usize {
        self.sources
            .iter()
            .filter(|s| matches!(s, Source::Unreadable(why) if &**why == NOT_READ_YET))
            .count()
    }

    /// How many pages a read under way has not read yet, by their text layer ([`NOT_READ`]) or
    /// by OCR ([`NOT_READ_YET`]).
    pub fn pages_unread(&self) -> usize {
        (1..=self.sources.len())
            .filter(|&p| !self.is_read(u32::try_from(p).unwrap_or(u32::MAX)))
            .count()
    }

    /// Whether page `page` (1-based) has been read (from its text layer, by OCR, or found
    /// unreadable), rather than waiting in a read under way.
    pub fn is_read(&self, page: u32) -> bool {
        !matches!(self.source(page), Source::Unreadable(why) if &**why == NOT_READ || &**why == NOT_READ_YET)
    }

    /// Whether `item`'s verdict on these pages stays once every page is read. An `ok` (a
    /// caption on an expected page), a `beyond_end` and a `not_checked` need no other page;
    /// `unreadable` stays when its pages were tried; a `moved`, `mention_only` or `absent`
    /// needs the whole document.
    pub fn settles(&self, item: &ItemGround) -> bool {
        match item.verdict {
            Verdict::Ok | Verdict::BeyondEnd | Verdict::NotChecked => true,
            Verdict::Unreadable => item.unreadable_pages.iter().all(|p| self.is_read(p.get())),
            Verdict::Moved | Verdict::MentionOnly | Verdict::Absent => self.pages_unread() == 0,
        }
    }

    /// How many pages were read by OCR.
    pub fn ocr_pages(&self) -> usize {
        self.sources
            .iter()
            .filter(|s| matches!(s, Source::Ocr(_)))
            .count()
    }

    /// The pages OCR could not read (it failed, or was stopped), in page order.
    pub fn unreadable_pages(&self) -> Vec<figeval::Page> {
        (1..)
            .zip(&self.sources)
            .filter(|(_, s)| matches!(s, Source::Unreadable(_)))
            .filter_map(|(n, _)| figeval::Page::new(n))
            .collect()
    }

    /// How the pages were read, in `figeval captions`' words (`6 of 6 pages read by OCR`, then
    /// `; 5 pages could not be read (333,334,335,336,337)`), when any went through OCR or could
    /// not be read.
    pub fn read_note(&self) -> Option<String> {
        let pages = u32::try_from(self.texts.len()).unwrap_or(u32::MAX);
        let ocr = u32::try_from(self.ocr_pages()).unwrap_or(u32::MAX);
        figeval_document::render::pages_read(pages, ocr, &self.unreadable_pages())
    }

    /// Each page's source as the ground check takes it.
    pub fn page_sources(&self) -> Vec<PageSource> {
        self.sources.iter().map(Source::page_source).collect()
    }
}

/// Where the page texts are.
#[derive(Debug, Clone, PartialEq)]
pub enum Texts {
    /// No PDF is open (or it failed to open).
    Waiting,
    /// The viewer is reading them: `done` of `total` pages.
    Reading {
        /// Pages read.
        done: u32,
        /// Pages in all.
        total: u32,
    },
    /// Read.
    Ready(Shared<Pages>),
    /// The viewer could not read them: why.
    Failed(Rc<str>),
}

/// The main app's current dataset, as its text was announced.
#[derive(Debug, Clone, PartialEq)]
pub enum DatasetIn {
    /// No valid dataset is loaded in the main app.
    None,
    /// The dataset.
    Valid(Shared<Dataset>),
    /// The announced text did not parse: `Dataset::parse`'s errors.
    Invalid(Rc<Vec<String>>),
    /// A dataset of several files (`expected_locations`, contract §1.5): the check reads the
    /// items located in each PDF read in this page ([`Doc::read`]).
    SeveralFiles(Shared<Dataset>),
}

impl DatasetIn {
    /// Parses an announced text (`""`: no dataset).
    pub fn from_text(text: &str) -> DatasetIn {
        if text.trim().is_empty() {
            return DatasetIn::None;
        }
        match Dataset::parse(text) {
            Ok(d) if d.of_several_files() => DatasetIn::SeveralFiles(Shared::new(d)),
            Ok(d) => DatasetIn::Valid(Shared::new(d)),
            Err(e) => DatasetIn::Invalid(Rc::new(e.0.iter().map(ToString::to_string).collect())),
        }
    }
}

/// What the main app announced: the dataset of what is on screen there (web/src/checked.rs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Announced {
    /// The dataset's JSON text (`""`: none).
    pub text: String,
    /// Which dataset it is (the open report's items, the workbench's dataset…), in words.
    pub what: String,
    /// A warning to show with the check (`""`: none).
    pub note: String,
    /// The hits of the report on show whose responses were read in the page, as a JSON array of
    /// `[page_start, page_end, cut, content]` (`""`: none).
    pub hits: String,
}

/// The hits of [`Announced::hits`], for the provenance audit (none when there are none, or
/// the text is not such an array).
pub fn audit_hits(text: &str) -> Vec<AuditHit> {
    serde_json::from_str::<Vec<(u32, u32, bool, String, Option<String>)>>(text)
        .unwrap_or_default()
        .into_iter()
        .map(|(start, end, cut, content, file)| AuditHit {
            pages: (start, end),
            content,
            cut,
            file,
        })
        .collect()
}

#[cfg(test)]
impl Announced {
    /// A dataset text with nothing said about it.
    pub fn text(text: &str) -> Announced {
        Announced {
            text: text.to_string(),
            ..Announced::default()
        }
    }
}

/// What every view reads (a Yew context).
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    /// Counts the PDFs opened: a view's thumbnails and reads belong to one generation.
    pub generation: u32,
    /// The PDF.
    pub pdf: Pdf,
    /// Its page texts and caption index.
    pub texts: Texts,
    /// The main app's dataset.
    pub dataset: DatasetIn,
    /// Which dataset it is, as the main app named it.
    pub dataset_what: Rc<str>,
    /// The main app's warning about it (`""`: none).
    pub dataset_note: Rc<str>,
    /// The hits of the report on show, for the provenance audit (empty: none).
    pub hits: Shared<Vec<AuditHit>>,
    /// While OCR reads the scanned pages: the pages read so far and their captions (a page
    /// still to read is [`Source::Unreadable`] with [`NOT_READ_YET`]).
    pub so_far: Option<Shared<Pages>>,
    /// Which set of PDFs is open (the strip's `data-set`): a new set forgets every read.
    pub set: u32,
    /// The open PDFs' names, in the order they were chosen (one, or a drawing set); the PDF on
    /// show ([`Doc::pdf`], [`Doc::texts`]) is one of them.
    pub open: Rc<Vec<Rc<str>>>,
    /// The texts of each open PDF read so far, by file name, in the order read (a PDF read
    /// again replaces its earlier read): a dataset of several files is checked in each. Only
    /// PDFs that are open: a read of a PDF no longer open is dropped.
    pub read: Rc<Vec<(Rc<str>, Shared<Pages>)>>,
    /// The open PDFs whose texts could not be read, and why (the PDF on show's failure is
    /// [`Texts::Failed`]).
    pub unread: Rc<Vec<(Rc<str>, Rc<str>)>>,
}

/// Why a scanned page of a read under way has no text yet (the viewer's words).
pub const NOT_READ_YET: &str = "not read by OCR yet";

/// Why a page of a read under way has no text yet while the pages the check needs are read
/// first (the viewer's words).
pub const NOT_READ: &str = "not read yet";

impl Doc {
    /// The page texts and captions, once read.
    pub fn pages(&self) -> Option<&Shared<Pages>> {
        match &self.texts {
            Texts::Ready(p) => Some(p),
            _ => None,
        }
    }

    /// The page texts and captions once read, or while OCR reads them, those read so far.
    pub fn pages_so_far(&self) -> Option<&Shared<Pages>> {
        self.pages().or(self.so_far.as_ref())
    }

    /// Keeps the texts of `name` when it is open, replacing an earlier read of it.
    fn keep_read(&mut self, name: Rc<str>, pages: Shared<Pages>) {
        if !self.open.contains(&name) {
            return;
        }
        Rc::make_mut(&mut self.unread).retain(|(n, _)| *n != name);
        let read = Rc::make_mut(&mut self.read);
        read.retain(|(n, _)| *n != name);
        read.push((name, pages));
    }

    /// The open PDFs whose texts are still to be read (neither read nor failed).
    pub fn still_reading(&self) -> Vec<Rc<str>> {
        self.open
            .iter()
            .filter(|n| {
                !self.read.iter().any(|(r, _)| r == *n) && !self.unread.iter().any(|(u, _)| u == *n)
            })
            .cloned()
            .collect()
    }
}

/// The module's views, in the order of their buttons. To add one, see web/README.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The ground check of the dataset against the PDF (`ground-panel`).
    Check,
    /// The caption index (`caption-list`).
    Captions,
    /// The dataset editor (`editor-panel`).
    Editor,
}

impl View {
    /// Every view, in button order.
    pub const ALL: [View; 3] = [View::Check, View::Captions, View::Editor];

    /// The name a `data-doc-view` attribute gives (`check`, `captions`).
    pub fn name(self) -> &'static str {
        match self {
            View::Check => "check",
            View::Captions => "captions",
            View::Editor => "editor",
        }
    }

    /// The view a `data-doc-view` names.
    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// The module's state.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// What the views read.
    pub doc: Doc,
    /// The view on show.
    pub view: View,
    /// Whether the views are folded away (the bar stays), to give the app the room.
    pub folded: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            doc: Doc {
                generation: 0,
                pdf: Pdf::None,
                texts: Texts::Waiting,
                dataset: DatasetIn::None,
                dataset_what: "".into(),
                dataset_note: "".into(),
                hits: Shared::new(Vec::new()),
                so_far: None,
                set: 0,
                open: Rc::new(Vec::new()),
                read: Rc::new(Vec::new()),
                unread: Rc::new(Vec::new()),
            },
            view: View::Check,
            folded: false,
        }
    }
}

/// What happens to the state.
#[derive(Debug)]
pub enum Action {
    /// The strip reported the PDF on show (after each open, and once when the module starts).
    Pdf(Pdf),
    /// The strip reported the open PDFs: which set (`data-set`) and their names (`data-names`),
    /// before each [`Action::Pdf`].
    Set {
        /// Which set.
        set: u32,
        /// The open PDFs' names.
        names: Vec<Rc<str>>,
    },
    /// The viewer finished reading the texts of `name`, an open PDF of set `set` that is not on
    /// show (a drawing set's other PDFs are read after the one on show).
    ReadOther {
        /// Whose read.
        set: u32,
        /// The PDF's file name.
        name: Rc<str>,
        /// The texts (index 0 = page 1), or why they could not be read.
        texts: Result<Vec<String>, String>,
        /// Where each text came from (index 0 = page 1).
        sources: Vec<Source>,
    },
    /// The viewer read `done` of `total` pages of generation `generation`.
    Progress {
        /// Whose read.
        generation: u32,
        /// Pages read.
        done: u32,
        /// Pages in all.
        total: u32,
    },
    /// While OCR reads generation `generation`'s scanned pages: the texts so far (a page still
    /// to read has the source [`NOT_READ_YET`]).
    Partial {
        /// Whose read.
        generation: u32,
        /// The texts so far (index 0 = page 1).
        texts: Vec<String>,
        /// Where each came from.
        sources: Vec<Source>,
    },
    /// The viewer finished reading generation `generation`'s texts.
    Read {
        /// Whose read.
        generation: u32,
        /// The PDF's file name.
        name: Rc<str>,
        /// The texts (index 0 = page 1), or why they could not be read.
        texts: Result<Vec<String>, String>,
        /// Where each text came from (index 0 = page 1).
        sources: Vec<Source>,
        /// How long it took, in milliseconds.
        ms: f64,
    },
    /// The main app announced the dataset of what is on screen.
    Dataset(Announced),
    /// Show a view (unfolding the views).
    Show(View),
    /// Fold the views away (`true`) or unfold them.
    Fold(bool),
}

impl State {
    /// The state after `action`.
    pub fn apply(mut self, action: Action) -> State {
        let doc = &mut self.doc;
        match action {
            Action::Pdf(pdf) => {
                doc.pdf = pdf;
                if pdf != Pdf::Loading {
                    doc.so_far = None;
                }
                doc.texts = match pdf {
                    // Every report of an open PDF follows an open: a new document.
                    Pdf::Open { pages } => {
                        doc.generation += 1;
                        Texts::Reading {
                            done: 0,
                            total: pages,
                        }
                    }
                    Pdf::Loading => std::mem::replace(&mut doc.texts, Texts::Waiting),
                    Pdf::None | Pdf::Failed => Texts::Waiting,
                };
                if matches!(pdf, Pdf::None | Pdf::Failed) {
                    doc.generation += 1;
                }
            }
            Action::Progress {
                generation,
                done,
                total,
            } => {
                if generation == doc.generation && matches!(doc.texts, Texts::Reading { .. }) {
                    doc.texts = Texts::Reading { done, total };
                }
            }
            Action::Read {
                generation,
                name,
                texts,
                sources,
                ms,
            } => {
                // While another PDF loads, the viewer has closed this one: its read stopped
                // ("the PDF was closed"), which is no failure to show.
                if generation == doc.generation && doc.pdf != Pdf::Loading {
                    doc.so_far = None;
                    doc.texts = match texts {
                        Ok(texts) => {
                            let pages = Shared::new(Pages::new(texts, sources, ms));
                            doc.keep_read(name, pages.clone());
                            Texts::Ready(pages)
                        }
                        Err(why) => Texts::Failed(why.into()),
                    };
                }
            }
            Action::Set { set, names } => {
                if set != doc.set {
                    doc.set = set;
                    doc.read = Rc::new(Vec::new());
                    doc.unread = Rc::new(Vec::new());
                }
                Rc::make_mut(&mut doc.read).retain(|(n, _)| names.contains(n));
                Rc::make_mut(&mut doc.unread).retain(|(n, _)| names.contains(n));
                doc.open = Rc::new(names);
            }
            Action::ReadOther {
                set,
                name,
                texts,
                sources,
            } => {
                if set == doc.set {
                    match texts {
                        Ok(texts) => {
                            doc.keep_read(name, Shared::new(Pages::new(texts, sources, 0.0)))
                        }
                        Err(why) if doc.open.contains(&name) => {
                            let unread = Rc::make_mut(&mut doc.unread);
                            unread.retain(|(n, _)| *n != name);
                            unread.push((name, why.into()));
                        }
                        Err(_) => {}
                    }
                }
            }
            Action::Partial {
                generation,
                texts,
                sources,
            } => {
                if generation == doc.generation && matches!(doc.texts, Texts::Reading { .. }) {
                    doc.so_far = Some(Shared::new(Pages::new(texts, sources, 0.0)));
                }
            }
            Action::Dataset(a) => {
                doc.dataset = DatasetIn::from_text(&a.text);
                doc.dataset_what = a.what.into();
                doc.dataset_note = a.note.into();
                doc.hits = Shared::new(audit_hits(&a.hits));
            }
            Action::Show(view) => {
                self.view = view;
                self.folded = false;
            }
            Action::Fold(folded) => self.folded = folded,
        }
        self
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

/// `p.5` or `pp. 5, 7` (the CLI's wording); `—` for none.
pub fn page_list<T: ToString>(pages: &[T]) -> String {
    let list: Vec<String> = pages.iter().map(ToString::to_string).collect();
    match list.len() {
        0 => "—".to_string(),
        1 => format!("p.{}", list[0]),
        _ => format!("pp. {}", list.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(pages: u32) -> State {
        State::default().apply(Action::Pdf(Pdf::Open { pages }))
    }

    fn page_texts() -> Vec<String> {
        vec![
            "Intro\nshown in Figure 1.1 below\n".into(),
            "Figure 1.1: A plot.\n".into(),
        ]
    }

    #[test]
    fn the_announced_hits_are_read_as_the_audit_takes_them() {
        let hits = audit_hits(
            r#"[[3, 4, true, "what it said", null], [7, 7, false, "", "sheets/A-101.pdf"]]"#,
        );
        assert_eq!(hits.len(), 2);
        assert_eq!(
            (
                hits[0].pages,
                hits[0].cut,
                hits[0].content.as_str(),
                &hits[0].file
            ),
            ((3, 4), true, "what it said", &None)
        );
        assert_eq!(hits[1].file.as_deref(), Some("sheets/A-101.pdf"));
        assert!(audit_hits("").is_empty(), "none announced");
        assert!(audit_hits(r#"{"not": "hits"}"#).is_empty());
        let s = State::default().apply(Action::Dataset(Announced {
            hits: r#"[[1, 1, false, "x", null]]"#.into(),
            ..Announced::default()
        }));
        assert_eq!(s.doc.hits.len(), 1);
    }

    #[test]
    fn the_strip_attributes_name_the_pdf_state() {
        assert_eq!(Pdf::from_panel("open", "1158"), Pdf::Open { pages: 1158 });
        assert_eq!(Pdf::from_panel("open", "0"), Pdf::Failed);
        assert_eq!(Pdf::from_panel("open", "x"), Pdf::Failed);
        assert_eq!(Pdf::from_panel("loading", "0"), Pdf::Loading);
        assert_eq!(Pdf::from_panel("failed", "0"), Pdf::Failed);
        assert_eq!(Pdf::from_panel("none", "0"), Pdf::None);
    }

    #[test]
    fn an_open_pdf_starts_a_read_and_its_texts_index_the_captions() {
        let s = open(2);
        assert_eq!(s.doc.generation, 1);
        assert_eq!(s.doc.texts, Texts::Reading { done: 0, total: 2 });
        let s = s.apply(Action::Progress {
            generation: 1,
            done: 1,
            total: 2,
        });
        assert_eq!(s.doc.texts, Texts::Reading { done: 1, total: 2 });
        let s = s.apply(Action::Read {
            generation: 1,
            name: "a.pdf".into(),
            texts: Ok(page_texts()),
            sources: Vec::new(),
            ms: 12.0,
        });
        let pages = s.doc.pages().expect("read");
        assert_eq!(pages.texts.len(), 2);
        let found: Vec<(&str, u32)> = pages
            .captions
            .iter()
            .map(|c| (c.label.as_str(), c.page))
            .collect();
        assert_eq!(found, [("Figure 1.1", 2)]);
        assert_eq!(pages.read_ms, 12.0);
    }

    #[test]
    fn pages_read_so_far_show_while_ocr_reads_and_give_way_to_the_whole_read() {
        let s = open(2).apply(Action::Partial {
            generation: 1,
            texts: vec!["Figure 1.1: A plot.\n".into(), String::new()],
            sources: vec![Source::Ocr(90.0), Source::Unreadable(NOT_READ_YET.into())],
        });
        assert!(s.doc.pages().is_none(), "the check waits for every page");
        let so_far = s.doc.pages_so_far().expect("the pages so far");
        assert_eq!(so_far.captions.len(), 1);
        assert_eq!(so_far.pages_to_read(), 1);
        // Another generation's pages are not this read's.
        let stale = s.clone().apply(Action::Partial {
            generation: 0,
            texts: Vec::new(),
            sources: Vec::new(),
        });
        assert_eq!(stale.doc.so_far, s.doc.so_far);
        let done = s.clone().apply(Action::Read {
            generation: 1,
            name: "a.pdf".into(),
            texts: Ok(page_texts()),
            sources: Vec::new(),
            ms: 1.0,
        });
        assert!(done.doc.so_far.is_none());
        assert_eq!(done.doc.pages_so_far(), done.doc.pages());
        let closed = s.apply(Action::Pdf(Pdf::None));
        assert!(closed.doc.pages_so_far().is_none());
    }

    #[test]
    fn the_pages_read_first_settle_their_ok_items_and_leave_the_rest_to_the_whole_read() {
        let not_read = || Source::Unreadable(NOT_READ.into());
        // Pages 2 and 4 read first; page 4 is a scan OCR has still to read.
        let pages = Pages::new(
            vec![
                String::new(),
                "Figure 1.1: A plot.\n".into(),
                String::new(),
                String::new(),
            ],
            vec![
                not_read(),
                Source::Layer,
                not_read(),
                Source::Unreadable(NOT_READ_YET.into()),
            ],
            0.0,
        );
        assert_eq!((pages.pages_unread(), pages.pages_to_read()), (3, 1));
        assert!(pages.is_read(2) && !pages.is_read(1) && !pages.is_read(4));
        let dataset = Dataset::parse(
            r#"{"corpus_id": "c", "items": [
                {"question": "Where is the plot?", "expected_pages": [2], "figure_ref": "Figure 1.1", "kind": "locate"},
                {"question": "Where is the map?", "expected_pages": [2], "figure_ref": "Figure 1.2", "kind": "locate"},
                {"question": "And the table?", "expected_pages": [4], "figure_ref": "Table 1", "kind": "locate"},
                {"question": "Past the end?", "expected_pages": [9], "figure_ref": "Figure 1.1", "kind": "locate"}
            ]}"#,
        )
        .expect("a valid dataset");
        let g =
            figeval_document::ground::ground_read(&dataset, &pages.texts, &pages.page_sources());
        let verdicts: Vec<(Verdict, bool)> = g
            .items
            .iter()
            .map(|i| (i.verdict, pages.settles(i)))
            .collect();
        assert_eq!(
            verdicts,
            [
                (Verdict::Ok, true),
                (Verdict::Absent, false),
                (Verdict::Unreadable, false),
                (Verdict::BeyondEnd, true)
            ]
        );
        // Every page read: an absent verdict stands.
        let whole = Pages::new(pages.texts.clone(), vec![Source::Layer; 4], 0.0);
        assert_eq!(whole.pages_unread(), 0);
        assert!(whole.settles(&g.items[1]));
    }

    #[test]
    fn a_read_says_which_pages_ocr_read() {
        let s = open(3).apply(Action::Read {
            generation: 1,
            name: "a.pdf".into(),
            texts: Ok(vec![
                String::new(),
                "Figure 1.1: A plot.\n".into(),
                String::new(),
            ]),
            sources: vec![
                Source::Unreadable("OCR was stopped before this page".into()),
                Source::Ocr(91.5),
            ],
            ms: 1.0,
        });
        let pages = s.doc.pages().expect("read");
        assert_eq!(pages.ocr_pages(), 1);
        assert_eq!(pages.source(2), &Source::Ocr(91.5));
        assert_eq!(
            pages.source(3),
            &Source::Layer,
            "past the sources: the layer"
        );
        assert_eq!(pages.source(0), &Source::Layer);
        assert_eq!(
            pages.page_sources(),
            [PageSource::Unreadable, PageSource::Ocr]
        );
        assert_eq!(pages.captions.len(), 1);
        assert_eq!(
            pages.read_note().as_deref(),
            Some("1 of 3 pages read by OCR; 1 page could not be read (1)")
        );
    }

    /// The set `set` of PDFs `names` opened, the first on show, read.
    fn open_set(s: State, set: u32, names: &[&str]) -> State {
        let generation = s.doc.generation + 1;
        let s = s
            .apply(Action::Set {
                set,
                names: names.iter().map(|&n| n.into()).collect(),
            })
            .apply(Action::Pdf(Pdf::Open { pages: 2 }));
        s.apply(Action::Read {
            generation,
            name: names[0].into(),
            texts: Ok(page_texts()),
            sources: Vec::new(),
            ms: 1.0,
        })
    }

    fn other(set: u32, name: &str, texts: Result<Vec<String>, String>) -> Action {
        Action::ReadOther {
            set,
            name: name.into(),
            texts,
            sources: Vec::new(),
        }
    }

    fn names(s: &State) -> Vec<String> {
        s.doc.read.iter().map(|(n, _)| n.to_string()).collect()
    }

    #[test]
    fn each_open_pdf_of_a_set_is_read_and_kept_by_name() {
        let s = open_set(
            State::default(),
            1,
            &["A-101.pdf", "A-102.pdf", "A-103.pdf"],
        );
        assert_eq!(names(&s), ["A-101.pdf"], "the one on show is read first");
        assert_eq!(
            &*s.doc.still_reading(),
            ["A-102.pdf".into(), "A-103.pdf".into()] as [Rc<str>; 2]
        );
        let s = s
            .apply(other(1, "A-102.pdf", Ok(page_texts())))
            .apply(other(1, "A-103.pdf", Err("the PDF is damaged".into())));
        assert_eq!(names(&s), ["A-101.pdf", "A-102.pdf"]);
        assert_eq!(s.doc.unread.len(), 1);
        assert!(s.doc.still_reading().is_empty());
        // Read again (another PDF of the set shown), a PDF replaces its earlier read.
        let again = s
            .clone()
            .apply(other(1, "A-101.pdf", Ok(vec![String::new()])));
        assert_eq!(names(&again), ["A-102.pdf", "A-101.pdf"]);
        assert_eq!(again.doc.read[1].1.texts.len(), 1);
    }

    #[test]
    fn no_read_outlives_the_set_it_was_of() {
        let s = open_set(State::default(), 1, &["A-101.pdf", "A-102.pdf"]).apply(other(
            1,
            "A-102.pdf",
            Ok(page_texts()),
        ));
        assert_eq!(names(&s), ["A-101.pdf", "A-102.pdf"]);
        // Another set: the earlier reads go, even of a PDF of the same name.
        let next = open_set(s.clone(), 2, &["A-102.pdf"]);
        assert_eq!(names(&next), ["A-102.pdf"]);
        assert!(
            next.doc.read[0].1 != s.doc.read[1].1,
            "a new read, not the old one"
        );
        // A late read of the earlier set, or of a PDF that is not open, is dropped.
        let late = next
            .clone()
            .apply(other(1, "A-101.pdf", Ok(page_texts())))
            .apply(other(2, "A-999.pdf", Ok(page_texts())));
        assert_eq!(names(&late), ["A-102.pdf"]);
        // An open that failed leaves nothing open, and nothing read.
        let failed = next
            .apply(Action::Set {
                set: 2,
                names: Vec::new(),
            })
            .apply(Action::Pdf(Pdf::Failed));
        assert!(failed.doc.read.is_empty() && failed.doc.open.is_empty());
    }

    #[test]
    fn a_read_of_an_earlier_pdf_is_dropped() {
        let s = open(2)
            .apply(Action::Pdf(Pdf::Loading))
            .apply(Action::Pdf(Pdf::Open { pages: 3 }));
        assert_eq!(s.doc.generation, 2);
        let s = s
            .apply(Action::Progress {
                generation: 1,
                done: 2,
                total: 2,
            })
            .apply(Action::Read {
                generation: 1,
                name: "a.pdf".into(),
                texts: Ok(page_texts()),
                sources: Vec::new(),
                ms: 1.0,
            });
        assert_eq!(s.doc.texts, Texts::Reading { done: 0, total: 3 });
        let s = s.apply(Action::Read {
            generation: 2,
            name: "b.pdf".into(),
            texts: Err("the PDF was closed".into()),
            sources: Vec::new(),
            ms: 1.0,
        });
        assert_eq!(s.doc.texts, Texts::Failed("the PDF was closed".into()));
    }

    #[test]
    fn a_read_stopped_by_opening_another_pdf_is_no_failure() {
        let s = open(2)
            .apply(Action::Pdf(Pdf::Loading))
            .apply(Action::Read {
                generation: 1,
                name: "a.pdf".into(),
                texts: Err("the PDF was closed".into()),
                sources: Vec::new(),
                ms: 1.0,
            });
        assert_eq!(s.doc.texts, Texts::Reading { done: 0, total: 2 });
        let s = s.apply(Action::Pdf(Pdf::Open { pages: 3 }));
        assert_eq!(s.doc.texts, Texts::Reading { done: 0, total: 3 });
    }

    #[test]
    fn a_failed_open_clears_the_texts_and_ends_the_generation() {
        let s = open(2).apply(Action::Read {
            generation: 1,
            name: "a.pdf".into(),
            texts: Ok(page_texts()),
            sources: Vec::new(),
            ms: 1.0,
        });
        let s = s.apply(Action::Pdf(Pdf::Loading));
        assert!(
            s.doc.pages().is_some(),
            "the old texts stay while the next PDF loads"
        );
        let s = s.apply(Action::Pdf(Pdf::Failed));
        assert_eq!(s.doc.texts, Texts::Waiting);
        assert_eq!(s.doc.generation, 2);
    }

    #[test]
    fn the_announced_dataset_is_parsed_by_the_core() {
        let s = State::default().apply(Action::Dataset(Announced {
            what: "the report on show".into(),
            ..Announced::text(r#"{"corpus_id": "c", "items": [{"question": "Which figure?", "expected_pages": [2], "figure_ref": "Figure 1.1", "kind": "locate"}]}"#)
        }));
        assert_eq!(&*s.doc.dataset_what, "the report on show");
        assert!(matches!(&s.doc.dataset, DatasetIn::Valid(d) if d.items.len() == 1));
        let s = s.apply(Action::Dataset(Announced::text(
            r#"{"corpus_id": "c", "items": []}"#,
        )));
        match &s.doc.dataset {
            DatasetIn::Invalid(errors) => {
                let expected: Vec<String> = Dataset::parse(r#"{"corpus_id": "c", "items": []}"#)
                    .unwrap_err()
                    .0
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                assert_eq!(**errors, expected);
            }
            other => panic!("{other:?}"),
        }
        // A dataset of several files is read, and is not one this page checks against its PDF.
        let s = s.apply(Action::Dataset(Announced::text(
            r#"{"corpus_id": "c", "items": [{"question": "Which sheet?", "figure_ref": "A-101", "kind": "locate",
                "expected_locations": [{"path": "A-101.pdf", "unit": "page", "start": 1, "end": 1}]}]}"#,
        )));
        assert!(matches!(&s.doc.dataset, DatasetIn::SeveralFiles(d) if d.items.len() == 1));
        let s = s.apply(Action::Dataset(Announced::default()));
        assert_eq!(s.doc.dataset, DatasetIn::None);
    }

    #[test]
    fn views_are_named_for_data_doc_view() {
        for v in View::ALL {
            assert_eq!(View::from_name(v.name()), Some(v));
        }
        assert_eq!(View::from_name("nope"), None);
        let s = State::default().apply(Action::Show(View::Captions));
        assert_eq!(s.view, View::Captions);
        let s = s.apply(Action::Fold(true));
        assert!(s.folded);
        let s = s.apply(Action::Show(View::Check));
        assert_eq!(
            (s.view, s.folded),
            (View::Check, false),
            "asking for a view unfolds"
        );
    }

    #[test]
    fn page_lists_read_like_the_cli() {
        assert_eq!(page_list::<u32>(&[]), "—");
        assert_eq!(page_list(&[5]), "p.5");
        assert_eq!(page_list(&[5, 7]), "pp. 5, 7");
    }
}
