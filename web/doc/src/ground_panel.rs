//! The dataset-check panel (`ground-panel`): the document crate's ground check
//! (`figeval_document::ground`, the function `figeval ground` runs) of the main app's dataset against the
//! page texts the viewer read from the open PDF, before any run. Findings first, each with the
//! document crate's advice; then the offset and the warnings; then the items that are fine.

use figeval_document::ground::{ground_read, in_file};
use figeval_document::{Ground, ItemGround, Verdict};
use yew::prelude::*;

use crate::state::{page_list, DatasetIn, Doc, Pdf, Texts};

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

/// The dataset-check panel.
#[function_component(GroundPanel)]
pub fn ground_panel() -> Html {
    let doc = use_context::<Doc>().expect("the module provides Doc");
    let dataset = match &doc.dataset {
        DatasetIn::Valid(d) => Some((d.clone(), false)),
        DatasetIn::SeveralFiles(d) => Some((d.clone(), true)),
        _ => None,
    };
    // A dataset of several files (contract §1.5) is checked on its items located in the open
    // PDF, found by its file name, as `figeval ground` checks each of its PDFs.
    let checked = use_memo((doc.pages().cloned(), dataset), |(pages, dataset)| {
        let (p, (d, several)) = (pages.as_ref()?, dataset.as_ref()?);
        if !several {
            return Some((ground_read(d, &p.texts, &p.page_sources()), None));
        }
        let name = crate::bridge::pdf_name();
        let (located, numbers) = in_file(d, &name, p.texts.len());
        let g = ground_read(&located, &p.texts, &p.page_sources());
        Some((g, Some((name, numbers, d.items.len()))))
    });
    let (status, text, body) = match (&doc.texts, &doc.dataset, checked.as_ref()) {
        (_, _, Some((_, Some((name, numbers, _))))) if numbers.is_empty() => (
            "several-files",
            format!("The dataset is of several files (expected_locations), and none of its items has a location in {name}: open one of its files to check the items located in it."),
            html! {},
        ),
        (_, _, Some((g, located))) => {
            let n = g.items.len();
            let mut text = if g.all_ok() {
                format!("No findings: every checked item of the {n} is on a page that carries its caption or heading ({} pages read).", g.pdf_pages)
            } else {
                let found = g.items.iter().filter(|i| i.verdict.is_finding()).count();
                format!("{found} of {n} items have a finding ({} pages read).", g.pdf_pages)
            };
            if let Some((name, numbers, of)) = located {
                text = format!(
                    "A dataset of several files: its items located in {name} are checked here ({} of {of}); open each other file to check its items. {text}",
                    numbers.len()
                );
            }
            ("checked", text, findings(g, located.as_ref().map(|(_, n, _)| n.as_slice())))
        }
        (Texts::Reading { done, total }, _, _) => (
            "reading",
            match &doc.so_far {
                // The check needs every page: a page not read yet would be a false absent.
                Some(p) => format!(
                    "OCR is reading the scanned pages ({} to go): the check waits for every page, and the caption list shows what is read so far.",
                    p.pages_to_read()
                ),
                None => "Reading the text of every page of the PDF…".to_string(),
            },
            html! {
                <div class="progress">
                    <progress max={total.to_string()} value={done.to_string()} aria-label="Pages read"></progress>
                    <span class="progress-text small">{ format!("{done} of {total} pages read") }</span>
                </div>
            },
        ),
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
