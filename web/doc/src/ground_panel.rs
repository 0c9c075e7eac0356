//! The dataset-check panel (`ground-panel`): the document crate's ground check
//! (`figeval_document::ground`, the function `figeval ground` runs) of the main app's dataset against the
//! page texts the viewer read from the open PDF, before any run. Findings first, each with the
//! document crate's advice; then the offset and the warnings; then the items that are fine.

use figeval_document::ground::{ground_read, in_file};
use figeval_document::{Ground, ItemGround, Verdict};
use yew::prelude::*;

use figeval::describe::counted;

use crate::state::{page_list, DatasetIn, Doc, Pages, Pdf, Texts};

/// The badge class of a verdict (the word is always shown too).
fn badge(v: Verdict) -> &'static str {
    match v {
        Verdict::Ok => "hit",
        Verdict::NotChecked => "neutral",
        Verdict::MentionOnly => "warn",
        Verdict::Moved | Verdict::Absent | Verdict::BeyondEnd | Verdict::Unreadable => "miss",
    }
}

fn row(number: usize, item: &ItemGround, g: &Ground) -> Html {
    let v = item.verdict;
    let advice = g.advice(item);
    html! {
        <li class="ground-row" data-testid="ground-row" data-verdict={v.name()} data-item={number.to_string()}>
            <div class="row wrap">
                <span class={classes!("badge", badge(v))}>{ v.name() }</span>
                <span class="muted small">{ format!("#{number} · {} · {}", item.group.name(), item.figure_ref) }</span>
            </div>
            <p class="ground-question">{ item.question.clone() }</p>
            <p class="small">
                { format!("expected {}", page_list(&item.expected_pages)) }
                if !item.found_pages.is_empty() { { format!(" · found on {}", page_list(&item.found_pages)) } }
                if !item.mention_pages.is_empty() { { format!(" · mentioned on {}", page_list(&item.mention_pages)) } }
            </p>
            if !advice.is_empty() { <p class="small advice" data-testid="ground-advice">{ advice }</p> }
        </li>
    }
}

/// The findings of `g`; `numbers` gives each checked item's number in the dataset, when the
/// check read some of its items (the items of several files located in the open PDF).
fn findings(g: &Ground, numbers: Option<&[usize]>) -> Html {
    let counts = Verdict::ALL
        .iter()
        .map(|&v| format!("{} {}", v.name(), g.counts.get(v)))
        .collect::<Vec<_>>()
        .join(" · ");
    let numbered = || {
        g.items.iter().enumerate().map(move |(i, item)| {
            (
                numbers.and_then(|n| n.get(i)).copied().unwrap_or(i + 1),
                item,
            )
        })
    };
    let rows = numbered()
        .filter(|(_, i)| i.verdict.is_finding())
        .chain(numbered().filter(|(_, i)| !i.verdict.is_finding()))
        .map(|(n, item)| row(n, item, g));
    html! {
        <>
            <p data-testid="ground-counts">{ counts }</p>
            if let Some(o) = g.offset {
                <p class="finding" data-testid="ground-offset" data-pages={o.pages.to_string()} data-items={o.items.to_string()}>
                    <strong>{ format!("Offset {:+} pages: ", o.pages) }</strong>{ o.advice(g.offset_shifts_unplaced()) }
                </p>
            }
            { for g.warnings.iter().map(|w| html! {
                <p class="finding" data-testid="ground-warning" data-code={w.code}
                   data-pages={w.pages.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")}>
                    <strong>{ "Warning: " }</strong>{ w.message.clone() }
                </p>
            }) }
            <div class="doc-scroll" tabindex="0" role="group" aria-label="Items, findings first">
                <ol class="ground-list">{ for rows }</ol>
            </div>
        </>
    }
}

/// What the check read: the one PDF's check, or a dataset of several files checked in each
/// open PDF that one of its locations names.
#[derive(PartialEq)]
enum Checked {
    One(Ground),
    Files {
        /// Each open PDF read that holds items, with their check.
        files: Vec<FileGround>,
        /// The dataset's paths no open PDF is, listed for the status (`""`: none).
        unopened: String,
        /// How many locations the dataset's items give.
        locations: usize,
        /// The open PDFs none of the dataset's paths names.
        unmatched: Vec<String>,
        /// The open PDFs its paths name whose texts are still being read.
        reading: Vec<String>,
    },
}

/// The check of the items located in one PDF of a dataset of several files.
#[derive(PartialEq)]
struct FileGround {
    name: std::rc::Rc<str>,
    ground: Ground,
    /// Each checked item's number in the dataset.
    numbers: Vec<usize>,
}

/// `a.pdf is` or `a.pdf and b.pdf are`.
fn counted_names(names: &[String], one: &str, many: &str) -> String {
    match names {
        [one_name] => format!("{one_name} {one}"),
        [rest @ .., last] => format!("{} and {last} {many}", rest.join(", ")),
        [] => String::new(),
    }
}

/// The status's count of findings over the checks `grounds`.
fn summary(grounds: &[&Ground]) -> String {
    let n: usize = grounds.iter().map(|g| g.items.len()).sum();
    let pages: u32 = grounds.iter().map(|g| g.pdf_pages).sum();
    if grounds.iter().all(|g| g.all_ok()) {
        format!("No findings: every checked item of the {n} is on a page that carries its caption or heading ({pages} pages read).")
    } else {
        let found: usize = grounds
            .iter()
            .flat_map(|g| g.items.iter())
            .filter(|i| i.verdict.is_finding())
            .count();
        format!("{found} of {n} items have a finding ({pages} pages read).")
    }
}

/// What the read under way has still to do, in words.
fn reading_text(p: &Pages) -> String {
    match (p.pages_to_read(), p.pages_unread()) {
        // The check needs every page: a page not read yet would be a false absent.
        (0, unread) => format!(
            "The rest of the document is being read ({} to go).",
            counted(unread, "page", "pages")
        ),
        (ocr, _) => format!(
            "OCR is reading the scanned pages ({ocr} to go): the check waits for every page, and the caption list shows what is read so far."
        ),
    }
}

/// The provisional check's rows, in dataset order: an item its pages read so far settle with
/// its verdict, marked provisional; any other as waiting for the whole document.
fn provisional(g: &Ground, p: &Pages) -> Html {
    let rows = g.items.iter().enumerate().map(|(i, item)| {
        if p.settles(item) {
            let mut r = row(i + 1, item, g);
            if let Html::VTag(tag) = &mut r {
                tag.add_attribute("data-provisional", "true");
            }
            return r;
        }
        html! {
            <li class="ground-row" data-testid="ground-row" data-verdict="pending" data-item={(i + 1).to_string()}>
                <div class="row wrap">
                    <span class="badge neutral">{ "waiting" }</span>
                    <span class="muted small">{ format!("#{} · {} · {}", i + 1, item.group.name(), item.figure_ref) }</span>
                </div>
                <p class="ground-question">{ item.question.clone() }</p>
                <p class="small">{ format!("expected {} · its caption is not on the pages read so far: the whole document tells where it is", page_list(&item.expected_pages)) }</p>
            </li>
        }
    });
    html! {
        <div class="doc-scroll" tabindex="0" role="group" aria-label="Items, provisional">
            <ol class="ground-list">{ for rows }</ol>
        </div>
    }
}

/// The dataset-check panel.
#[function_component(GroundPanel)]
pub fn ground_panel() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let dataset = match &doc.dataset {
        DatasetIn::Valid(d) => Some((d.clone(), false)),
        DatasetIn::SeveralFiles(d) => Some((d.clone(), true)),
        _ => None,
    };
    // A dataset of several files (contract §1.5) is checked on its items located in each PDF
    // read in this page, found by its file name, as `figeval ground` checks each of its PDFs.
    let checked = use_memo(
        (
            doc.pages().cloned(),
            dataset,
            doc.read.clone(),
            doc.open.clone(),
        ),
        |(pages, dataset, read, open)| {
            // Nothing is checked while the PDF on show is still being read; once it is, it is
            // in `read`, and the other open PDFs follow.
            let (p, (d, several)) = (pages.as_ref()?, dataset.as_ref()?);
            if !several {
                return Some(Checked::One(ground_read(d, &p.texts, &p.page_sources())));
            }
            let files: Vec<FileGround> = read
                .iter()
                .filter_map(|(name, p)| {
                    let (located, numbers) = in_file(d, name, p.texts.len());
                    (!numbers.is_empty()).then(|| FileGround {
                        name: name.clone(),
                        ground: ground_read(&located, &p.texts, &p.page_sources()),
                        numbers,
                    })
                })
                .collect();
            // The dataset's files that no open PDF is, each named once (two paths of one file,
            // `part2.pdf` and `manual/part2.pdf`, name it once).
            let same = figeval::files::same_file;
            let paths = || {
                d.items
                    .iter()
                    .flat_map(|i| &i.expected_locations)
                    .map(|l| &l.path)
            };
            let mut unopened: Vec<&str> = Vec::new();
            for path in paths() {
                let is_open = open.iter().any(|n| same(n, path));
                if !is_open && !unopened.iter().any(|u| same(u, path)) {
                    unopened.push(path);
                }
            }
            let locations = d.items.iter().map(|i| i.expected_locations.len()).sum();
            let named = |n: &str| paths().any(|path| same(n, path));
            let is_read = |n: &str| read.iter().any(|(r, _)| &**r == n);
            Some(Checked::Files {
                unmatched: open
                    .iter()
                    .filter(|n| !named(n))
                    .map(|n| n.to_string())
                    .collect(),
                reading: open
                    .iter()
                    .filter(|n| named(n) && !is_read(n))
                    .map(|n| n.to_string())
                    .collect(),
                unopened: unopened.join(", "),
                locations,
                files,
            })
        },
    );
    // While the document is read, the pages the check needs come first (the viewer reads the
    // dataset's expected pages before the rest): the verdicts they settle are shown at once.
    let early = use_memo(
        (doc.so_far.clone(), doc.dataset.clone()),
        |(so_far, dataset)| match (so_far, dataset) {
            (Some(p), DatasetIn::Valid(d)) => Some(ground_read(d, &p.texts, &p.page_sources())),
            _ => None,
        },
    );
    // Several PDFs open (a drawing set) and a dataset that names no file: the PDF on show is
    // the one checked, and the check says so.
    let shown_only = match (&doc.dataset, doc.open.len()) {
        (DatasetIn::Valid(_), n) if n > 1 => format!(
            "{n} PDFs are open, and the dataset names no file (it gives expected_pages, not expected_locations): it is checked against the PDF on show, {}. ",
            crate::bridge::pdf_name()
        ),
        _ => String::new(),
    };
    // Of several files: the open PDFs none of its paths names, and those still being read.
    let aside = |unmatched: &[String], reading: &[String]| {
        let mut text = String::new();
        if !unmatched.is_empty() {
            text.push_str(&format!(
                "{} none of the dataset's files: nothing is checked in {}. ",
                counted_names(unmatched, "is", "are"),
                if unmatched.len() == 1 { "it" } else { "them" }
            ));
        }
        if !reading.is_empty() {
            text.push_str(&format!("Still reading {}. ", reading.join(", ")));
        }
        for (name, why) in doc.unread.iter() {
            text.push_str(&format!("{name} could not be read: {why}. "));
        }
        text
    };
    let (status, text, body) = match (&doc.texts, &doc.dataset, checked.as_ref()) {
        (_, _, Some(Checked::Files { files, unmatched, reading, .. })) if files.is_empty() => (
            if reading.is_empty() { "several-files" } else { "reading" },
            format!(
                "{}The dataset is of several files (expected_locations), and none of its items has a location in {}: open one of its files to check the items located in it.",
                // Every open PDF is named next: none is one of its files.
                aside(&[], reading),
                doc.open.join(", ")
            ),
            html! {},
        ),
        (_, _, Some(Checked::One(g))) => ("checked", format!("{shown_only}{}", summary(&[g])), findings(g, None)),
        (_, _, Some(Checked::Files { files, unopened, locations, unmatched, reading })) => {
            let grounds: Vec<&Ground> = files.iter().map(|f| &f.ground).collect();
            let names: Vec<&str> = files.iter().map(|f| &*f.name).collect();
            let checked: usize = files.iter().map(|f| f.numbers.len()).sum();
            let mut text = format!(
                "A dataset of several files: {checked} of its {locations} item locations are checked, in {}.",
                names.join(", ")
            );
            if !unopened.is_empty() {
                text.push_str(&format!(" Open {unopened} to check the rest."));
            }
            text.push(' ');
            text.push_str(&aside(unmatched, reading));
            text.push_str(&summary(&grounds));
            let body = html! {
                for files.iter().map(|f| html! {
                    <section class="ground-file" data-testid="ground-file" data-name={f.name.to_string()} aria-label={f.name.to_string()}>
                        <h4>{ f.name.to_string() }</h4>
                        { findings(&f.ground, Some(f.numbers.as_slice())) }
                    </section>
                })
            };
            ("checked", text, body)
        }
        (Texts::Reading { done, total }, _, _) => {
            let progress = html! {
                <div class="progress">
                    <progress max={total.to_string()} value={done.to_string()} aria-label="Pages read"></progress>
                    <span class="progress-text small">{ format!("{done} of {total} pages read") }</span>
                </div>
            };
            match (&doc.so_far, early.as_ref()) {
                (Some(p), Some(g)) => {
                    let settled = g.items.iter().filter(|i| p.settles(i)).count();
                    let waiting = g.items.len() - settled;
                    let mut text = format!(
                        "Provisional: {settled} of {} items checked on the pages read so far",
                        g.items.len()
                    );
                    if waiting > 0 {
                        text.push_str(&format!(
                            "; {} the whole document (a caption not on its expected page may be on any page)",
                            counted(waiting, "item waits for", "items wait for")
                        ));
                    }
                    text.push_str(". ");
                    text.push_str(&reading_text(p));
                    ("provisional", text, html! { <>{ progress }{ provisional(g, p) }</> })
                }
                (Some(p), None) => ("reading", reading_text(p), progress),
                (None, _) => (
                    "reading",
                    "Reading the text of every page of the PDF…".to_string(),
                    progress,
                ),
            }
        }
        (Texts::Failed(why), _, _) => (
            "failed",
            format!("The page text could not be read: {why}"),
            html! {},
        ),
        (Texts::Waiting, _, _) => {
            let text = match doc.pdf {
                Pdf::Loading => "The PDF is opening…",
                _ => "Open the PDF (above) to check the dataset against it.",
            };
            ("waiting", text.to_string(), html! {})
        }
        (Texts::Ready(p), DatasetIn::Invalid(errors), None) => (
            "no-dataset",
            format!(
                "The dataset does not parse ({}), so it cannot be checked against the {} pages: {}",
                figeval::describe::counted(errors.len(), "error", "errors"),
                p.texts.len(),
                errors.first().map_or("", String::as_str)
            ),
            html! {},
        ),
        (Texts::Ready(p), _, None) => (
            "no-dataset",
            format!("No dataset loaded: load one in Run & score and it is checked against these {} pages.", p.texts.len()),
            html! {},
        ),
    };
    html! {
        <section class="card doc-card" data-testid="ground-panel" data-status={status} aria-labelledby="ground-h">
            <h3 id="ground-h">{ "Dataset check" }</h3>
            <p class="muted small">{ "Does each item's expected page carry its figure's caption or its section's heading? The same check as figeval ground, run in this page on the text of the open PDF, before any run." }</p>
            if !doc.dataset_what.is_empty() {
                <p class="small" data-testid="ground-checked">{ format!("Checked: {}.", doc.dataset_what) }</p>
            }
            if !doc.dataset_note.is_empty() {
                <p class="finding" data-testid="ground-corpus-note"><strong>{ "Another corpus: " }</strong>{ doc.dataset_note.to_string() }</p>
            }
            <p role="status" data-testid="ground-status">{ text }</p>
            { body }
        </section>
    }
}
