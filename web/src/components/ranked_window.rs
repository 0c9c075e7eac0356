//! An item's ranked window: the top-5 matches as the report recorded them, and the figure
//! summaries of the top 3.

use figeval::Report;
use yew::prelude::*;

use crate::answers::Answers;
use crate::components::page_thumb::{page_thumb, thumb_cell};
use crate::format::{self, Chip};
use crate::shared::Shared;

/// Chips shown per match before a wide span is abbreviated.
const MAX_CHIPS: u32 = 8;
/// The span, in pages, that fills the span bar.
const SPAN_BAR_FULL: u32 = 20;

/// Props of [`RankedWindow`].
#[derive(Properties, PartialEq)]
pub struct RankedWindowProps {
    /// The report.
    pub report: Shared<Report>,
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
                    { page }</span>
            },
            Chip::Gap(n) => html! { <span class="page-gap" title={format!("{n} more pages")}>{ format!("…{n}…") }</span> },
        })
        .collect()
}

fn span_bar(span: u32, max_precise: u32) -> Html {
    let wide = span > max_precise;
    let w = f64::from(span.min(SPAN_BAR_FULL)) / f64::from(SPAN_BAR_FULL) * 100.0;
    html! {
        <span class={classes!("span", wide.then_some("wide"))}>
            <svg class="spanbar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
                <rect class="track" width="100" height="8" rx="2" />
                <rect class="fill" width={format!("{w:.2}")} height="8" rx="2" />
            </svg>
            <span>{ format::span(span) }</span>
            if wide { <span class="badge warn" title={format!("wider than max_precise_span_pages ({max_precise}): not a precise hit")}>{ "wide blob" }</span> }
        </span>
    }
}

/// The window.
#[function_component(RankedWindow)]
pub fn ranked_window(props: &RankedWindowProps) -> Html {
    let answers = use_context::<Answers>().unwrap_or(Answers::None);
    let said = use_memo((props.report.clone(), props.index, answers), |(r, i, a)| {
        let rec = &r.per_item[*i];
        a.said(&rec.question, *i, rec.top.len())
    });
    let report = &props.report;
    let rec = &report.per_item[props.index];
    let max_precise = report.max_precise_span_pages;
    let rows = rec.top.iter().map(|row| {
        let pages = match (row.page_start, row.page_end) {
            (Some(s), Some(e)) => chips(s, e, &rec.expected_pages),
            _ => html! { <span class="muted">{ "cites no page" }</span> },
        };
        let span = row
            .span_pages
            .map_or_else(|| html! { <span class="muted">{ "—" }</span> }, |s| span_bar(s, max_precise));
        let kind = match row.chunk_kind.as_deref() {
            Some("figure") => html! { <span class="badge figure">{ "figure" }</span> },
            Some(k) => html! { <span class="badge neutral">{ k.to_string() }</span> },
            None => html! { <span class="muted">{ "—" }</span> },
        };
        let snippet = said.get(row.rank as usize - 1).map(|text| html! {
            <tr class="snippet-row">
                <td colspan="7" data-testid="match-snippet" data-rank={row.rank.to_string()}>{ text.clone() }</td>
            </tr>
        });
        html! {
            <>
            <tr class={classes!(if row.on_expected_page { "on" } else { "off" }, (row.rank > 3).then_some("beyond3"))}
                data-testid="window-row" data-rank={row.rank.to_string()}>
                <td class="num">{ row.rank }</td>
                { thumb_cell(row.page_start, row.page_end, &rec.expected_pages, row.rank) }
                <td><code class="chunk">{ if row.chunk_id.is_empty() { "—".to_string() } else { row.chunk_id.clone() } }</code></td>
                <td class="pages" title={format::cited(row.page_start, row.page_end)}>{ pages }</td>
                <td>{ span }</td>
                <td>{ kind }</td>
                <td data-testid="on-expected" data-on={row.on_expected_page.to_string()}>
                    if row.on_expected_page {
                        <span class="badge hit">{ "✓ expected page" }</span>
                    } else {
                        <span class="badge miss-soft">{ "✗ off page" }</span>
                    }
                </td>
            </tr>
            { for snippet }
            </>
        }
    });
    html! {
        <div class="window" data-testid="ranked-window">
            <p class="muted small">
                { format!("{} match(es) returned; the top {} are recorded. Expected: {}. Ranks 4–5 count only for page_hit_at_5.",
                    rec.matches_returned, rec.top.len(), format::pages(&rec.expected_pages)) }
            </p>
            <div class="expected-thumbs" aria-label="Expected pages">
                <span class="muted small">{ "Expected:" }</span>
                { for rec.expected_pages.iter().map(|&p| page_thumb(p, 0, true, "expected page")) }
                <span class="muted small no-pdf">{ "open the PDF (top of the page) to see the pages" }</span>
            </div>
            if rec.top.is_empty() {
                <p class="muted">{ "The deployment returned no matches for this question." }</p>
            } else {
                <div class="table-wrap">
                    <table class="window-table with-thumbs">
                        <thead><tr>
                            <th class="num">{ "rank" }</th>
                            <th class="thumb-col needs-pdf">{ "page" }</th>
                            <th>{ "chunk" }</th><th>{ "cited pages" }</th>
                            <th>{ "span" }</th><th>{ "kind" }</th><th>{ "on an expected page" }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
            if !rec.figure_summaries_at_3.is_empty() {
                <div class="summaries">
                    <h4>{ "Figure summaries in the top 3" }</h4>
                    <ul>
                        { for rec.figure_summaries_at_3.iter().map(|s| html! { <li data-testid="figure-summary">{ s.clone() }</li> }) }
                    </ul>
                </div>
            }
        </div>
    }
}
