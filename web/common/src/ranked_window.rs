//! An item's ranked window: the top-5 matches as the report recorded them, the figure
//! summaries of the top 3, and — when the responses were read in this page (a live run, a
//! scored capture) — what each match said (`match-snippet`).

use figeval::score::SUMMARY_CHARS;
use figeval::snippet::Snippet;
use figeval::{Report, ScoreConfig};
use yew::prelude::*;

use crate::format::{self, Chip};
use crate::said::Said;
use crate::shared::Shared;
use crate::table_scroll::table_scroll;

/// Chips shown per match before a wide span is abbreviated.
const MAX_CHIPS: u32 = 8;
/// The span, in pages, that fills the span bar.
const SPAN_BAR_FULL: u32 = 20;

/// Props of [`RankedWindow`].
#[derive(Properties, PartialEq)]
pub struct RankedWindowProps {
    /// The report.
    pub report: Shared<Report>,
    /// What the report's matches said, when the page read the responses.
    pub said: Option<Said>,
    /// The item's index in `per_item`.
    pub index: usize,
}

fn chips(start: u32, end: u32, expected: &[u32]) -> Html {
    format::page_chips(start, end, expected, MAX_CHIPS)
        .into_iter()
        .map(|c| match c {
            Chip::Page { page, expected } => html! {
                <span class={classes!("page-chip", expected.then_some("expected"))}
                      title={if expected { "an expected page" } else { "cited page" }}>
                    if expected { { "✓ " } }{ page }</span>
            },
            Chip::Gap(n) => html! { <span class="page-gap" title={format!("{n} more pages")}>{ format!("…{n}…") }</span> },
        })
        .collect()
}

fn span_bar(span: u32, config: ScoreConfig) -> Html {
    let wide = !config.is_precise(span);
    let max_precise = config.max_precise_span_pages;
    let w = f64::from(span.min(SPAN_BAR_FULL)) / f64::from(SPAN_BAR_FULL) * 100.0;
    html! {
        <span class={classes!("span", wide.then_some("wide"))}>
            <svg class="spanbar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
                <rect class="track" width="100" height="8" rx="2" />
                <rect class="fill" width={format::fixed(w, 2)} height="8" rx="2" />
            </svg>
            <span>{ format::span(span) }</span>
            if wide { <span class="badge warn" title={format!("wider than max_precise_span_pages ({max_precise}): not a precise hit")}>{ "wide blob" }</span> }
        </span>
    }
}

/// What one match said, as text: the start of its content (quoted, "…" when cut there),
/// then its figure summary.
fn said_row(s: &Snippet) -> Html {
    let cut = |c: bool| if c { "…" } else { "" };
    html! {
        <tr class="snippet-row">
            <td colspan="6" data-testid="match-snippet" data-rank={s.rank.to_string()}>
                if let Some((text, c)) = &s.content {
                    <q>{ text.clone() }{ cut(*c) }</q>
                } else {
                    <span class="muted">{ "no content text" }</span>
                }
                if let Some((text, c)) = &s.figure_summary {
                    <span class="muted">{ " — figure summary: " }</span>{ text.clone() }{ cut(*c) }
                }
            </td>
        </tr>
    }
}

/// A figure summary as the report keeps it, its first [`SUMMARY_CHARS`] characters, with "…"
/// when it is that long (so it was most likely cut there, maybe mid-word).
fn summary(s: &str) -> String {
    if s.chars().count() >= SUMMARY_CHARS {
        format!("{s}…")
    } else {
        s.to_string()
    }
}

/// The window.
#[function_component(RankedWindow)]
pub fn ranked_window(props: &RankedWindowProps) -> Html {
    let said = props.said.as_ref().and_then(|s| s.get(props.index));
    let report = &props.report;
    let rec = &report.per_item[props.index];
    let config = report.score_config();
    // A corpus of several files (contract §1.5): the item's pages are its locations' pages in
    // the match's own file, marked only on a match that covers one.
    let locs = &rec.expected_locations;
    let rows = rec.top.iter().map(|row| {
        let pages = match (row.page_start, row.page_end) {
            (Some(s), Some(e)) if !locs.is_empty() => {
                let last = e.min(s.saturating_add(MAX_CHIPS));
                let file = row.file_path.as_deref().unwrap_or_default();
                let marked: Vec<u32> = locs
                    .iter()
                    .filter(|l| row.on_expected_page && figeval::files::same_file(file, &l.path))
                    .flat_map(|l| l.start.get().max(s)..=l.end.get().min(last))
                    .collect();
                chips(s, e, &marked)
            }
            (Some(s), Some(e)) => chips(s, e, &rec.expected_pages),
            _ => html! { <span class="muted">{ "cites no page" }</span> },
        };
        let span = row
            .span_pages
            .map_or_else(|| html! { <span class="muted">{ "—" }</span> }, |s| span_bar(s, config));
        let kind = match row.chunk_kind.as_deref() {
            Some("figure") => html! { <span class="badge figure">{ "figure" }</span> },
            Some(k) => html! { <span class="badge neutral">{ k.to_string() }</span> },
            None => html! { <span class="muted">{ "—" }</span> },
        };
        html! {
            <>
            <tr class={classes!(if row.on_expected_page { "on" } else { "off" }, (row.rank > 3).then_some("beyond3"))}
                data-testid="window-row" data-rank={row.rank.to_string()}
                data-file={row.file_path.as_ref().filter(|_| !locs.is_empty()).map(ToString::to_string)}>
                <td class="num" data-col="rank">{ row.rank }</td>
                <td class="pages" data-col="pages" title={format::cited(row.page_start, row.page_end)}>{ pages }</td>
                <td data-col="kind">{ kind }</td>
                <td data-testid="on-expected" data-col="verdict" data-on={row.on_expected_page.to_string()}>
                    if row.on_expected_page {
                        <span class="badge hit">{ "✓ expected page" }</span>
                    } else if row.wrong_file {
                        <span class="badge miss-soft" data-testid="wrong-file">{ "✗ right page, wrong file" }</span>
                    } else {
                        <span class="badge miss-soft">{ "✗ off page" }</span>
                    }
                </td>
                <td>{ span }</td>
                <td><code class="chunk">{ if row.chunk_id.is_empty() { "—".to_string() } else { row.chunk_id.to_string() } }</code>
                    if let Some(f) = &row.file_path { <br /><span class="muted small" data-testid="match-file">{ f.to_string() }</span> }</td>
            </tr>
            if let Some(s) = said.and_then(|s| s.get(row.rank as usize - 1)) { { said_row(s) } }
            </>
        }
    });
    // A window of several files (`data-files`) gives the PDF viewer its locations
    // (`data-locations`, `[path, start, end]` each) and each row's file (`data-file`): each
    // thumbnail is drawn from the open PDF its path names.
    let locations = (!locs.is_empty()).then(|| {
        serde_json::Value::from(
            locs.iter()
                .map(|l| serde_json::json!([l.path, l.start.get(), l.end.get()]))
                .collect::<Vec<_>>(),
        )
        .to_string()
    });
    html! {
        <div class="window" data-testid="ranked-window" data-expected={format::pages(&rec.expected_pages)}
             data-files={(!locs.is_empty()).then_some("true")} data-locations={locations}>
            <p class="muted small">
                { format!("{} returned; {} recorded. Expected: {}. Ranks 4–5 count only for page_hit_at_5.",
                    format::counted(rec.matches_returned as usize, "match", "matches"),
                    if rec.top.len() == 1 { "the top one is".to_string() } else { format!("the top {} are", rec.top.len()) },
                    if locs.is_empty() { format::pages(&rec.expected_pages) } else {
                        locs.iter().map(|l| format!("{} {}", l.path, format::cited(Some(l.start.get()), Some(l.end.get()))))
                            .collect::<Vec<_>>().join("; ")
                    }) }
            </p>
            if props.said.is_none() && !rec.top.is_empty() {
                <p class="muted small" data-testid="no-snippets">
                    { "What each match said is not kept in a report: this one was opened from a file or a link, so the window shows chunk ids and cited pages only. Score its capture here to see the matches' text." }
                </p>
            }
            if rec.top.is_empty() {
                <p class="muted">{ "The deployment returned no matches for this question." }</p>
            } else {
                { table_scroll("ranked window", html! {
                    <table class="window-table">
                        <thead><tr>
                            // Rank, cited pages, kind and verdict first: on a phone they are
                            // what shows without scrolling the table (style.css).
                            <th scope="col" class="num">{ "rank" }</th><th scope="col">{ "cited pages" }</th>
                            <th scope="col">{ "kind" }</th><th scope="col">{ "on an expected page" }</th>
                            <th scope="col">{ "span" }</th><th scope="col">{ "chunk" }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                }) }
            }
            if !rec.figure_summaries_at_3.is_empty() {
                <div class="summaries">
                    <h3>{ "Figure summaries in the top 3" }</h3>
                    <ul>
                        { for rec.figure_summaries_at_3.iter().map(|s| html! { <li data-testid="figure-summary">{ summary(s) }</li> }) }
                    </ul>
                </div>
            }
        </div>
    }
}
