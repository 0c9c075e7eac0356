//! The per-group table (`group-table`): one row per group and `overall`, one cell per metric.
//!
//! Testing convention: a row carries `data-group` (`content`, `locate`, `prose`, `overall`); a
//! cell carries `data-metric` (a report key such as `page_hit_at_3`) and its text *starts with
//! the rate*, then reads as the text report prints it (`figeval::render::rate_with_ci`):
//! `0.5833 (7/12; 95% CI 0.32–0.81)`, or `0.0000 (0/0)` without items. A rate's interval
//! follows from its hits and n (`Summary::ci`), so a report from before intervals shows it too.
//! The rate is also the cell's `.rate` child and its `data-rate`, with `data-hits`, `data-n`
//! and `data-ci` (`lo,hi`, the report's `<metric>_ci` to four decimals) beside it. The MRR cell
//! reads `0.4167 (95% CI 0.21–0.50)` (`render::value_with_ci`), or the value alone when the
//! report's `page_mrr_ci` is `null` or absent (a bootstrap is stated, not derived).
//!
//! A screen reader hears a cell as one sentence, its `aria-label`: "page hit at 3, locate:
//! 0.9231, 12 of 13, 95% CI 0.67 to 0.99" (the metric, the group, the rate, the hits out of n,
//! the interval when there is one).

use figeval::score::Ranking;
use figeval::stats::Interval;
use figeval::{Group, Metric, Report, Scope, Summary};
use yew::prelude::*;

use crate::components::table_scroll::table_scroll;
use crate::format;
use crate::shared::Shared;

/// What each metric asks, for headers and the legend.
pub fn metric_question(m: Metric) -> &'static str {
    match m {
        Metric::PageHitAt3 => "a top-3 match cites an expected page (the headline)",
        Metric::PrecisePageHitAt3 => {
            "the same, counting only matches of at most max_precise_span_pages pages (blobs left out)"
        }
        Metric::FigureChunkAt3 => "a top-3 figure chunk cites an expected page",
        Metric::PageHitAt5 => "a top-5 match cites an expected page",
    }
}

pub use figeval::render::{metric_label, ranking_label};

/// A metric's name as it is read aloud ("page hit at 3"), for cells' and charts' text
/// alternatives.
pub fn metric_spoken(m: Metric) -> &'static str {
    match m {
        Metric::PageHitAt3 => "page hit at 3",
        Metric::PrecisePageHitAt3 => "precise page hit at 3",
        Metric::FigureChunkAt3 => "figure chunk at 3",
        Metric::PageHitAt5 => "page hit at 5",
    }
}

/// Props of [`GroupTable`].
#[derive(Properties, PartialEq)]
pub struct GroupTableProps {
    /// The report.
    pub report: Shared<Report>,
}

/// One rate as a screen reader reads it: "page hit at 3, locate: 0.9231, 12 of 13, 95% CI 0.67
/// to 0.99" (a table cell's name, and a bar's in the chart's text alternative).
pub fn spoken_rate(m: Metric, scope: &str, s: &Summary) -> String {
    let (rate, hits) = (format::rate(s.rate(m)), s.hits(m));
    let mut text = format!("{}, {scope}: {rate}, {hits} of {}", metric_spoken(m), s.n);
    if let Some(ci) = s.ci(m) {
        text.push_str(", ");
        text.push_str(&format::interval_spoken(ci));
    }
    text
}

fn metric_cell(group: &str, s: &Summary, m: Metric) -> Html {
    let rate = s.rate(m);
    let hits = s.hits(m);
    // Prose items ask for no figure, so figure_chunk_at_3 on prose is a control that may well
    // be 0: it is never marked as a miss.
    let control = group == Group::Prose.name() && m == Metric::FigureChunkAt3;
    let level = if s.n == 0 {
        "none"
    } else if hits == s.n {
        "all"
    } else if control {
        "control"
    } else if hits == 0 {
        "zero"
    } else {
        "some"
    };
    html! {
        <td data-metric={m.name()} data-rate={format::rate(rate)} data-hits={hits.to_string()}
            aria-label={spoken_rate(m, group, s)}
            data-n={s.n.to_string()} data-ci={format::ci_attr(s.ci(m))}
            title={control.then_some("prose items ask for no figure: a low rate here is expected")}
            class={classes!("metric", level, (m == Metric::PageHitAt3).then_some("headline"))}>
            <span class="rate">{ format::rate(rate) }</span>{ " " }
            <span class="hits">{ format::hits_with_ci(hits, s.n, s.ci(m)) }</span>
            <svg class="cellbar" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
                <rect class="track" width="100" height="4" />
                <rect class="fill" width={format::fixed(rate * 100.0, 2)} height="4" />
            </svg>
        </td>
    }
}

/// A cell of a mean with its bootstrap interval (MRR, a ranking metric): the value as the text
/// report prints it, `0.4167 (95% CI 0.21–0.50)`, or "not stated" where the report has `null`;
/// `data-rate` is the value or `null`, `data-ci` the interval.
fn mean_cell(
    metric: &'static str,
    value: Option<f64>,
    ci: Option<Interval>,
    class: Option<&'static str>,
) -> Html {
    html! {
        <td data-metric={metric} data-rate={value.map_or_else(|| "null".to_string(), format::rate)}
            data-ci={format::ci_attr(ci)} class={classes!("num", class, value.is_none().then_some("muted"))}>
            if let Some(v) = value {
                <span class="rate">{ format::rate(v) }</span>
                if let Some(note) = format::interval_note(ci) {
                    { " " }<span class="hits">{ note }</span>
                }
            } else {
                { "not stated" }
            }
        </td>
    }
}

fn row(name: &str, s: &Summary) -> Html {
    html! {
        <tr data-group={name.to_string()} class={classes!((name == Scope::Overall.name()).then_some("overall"))}>
            <th scope="row">{ name.to_string() }</th>
            <td data-metric="n" class="num">{ s.n }</td>
            { for Metric::ALL.into_iter().map(|m| metric_cell(name, s, m)) }
            { mean_cell("page_mrr", Some(s.page_mrr), s.page_mrr_ci, Some("mrr")) }
        </tr>
    }
}

/// The table.
#[function_component(GroupTable)]
pub fn group_table(props: &GroupTableProps) -> Html {
    let r = &props.report;
    let table = html! {
            <table class="group-table" data-testid="group-table">
                <thead>
                    <tr>
                        <th scope="col">{ "group" }</th>
                        <th scope="col" class="num">{ "n" }</th>
                        { for Metric::ALL.into_iter().map(|m| html! {
                            <th scope="col" title={metric_question(m)}
                                class={classes!((m == Metric::PageHitAt3).then_some("headline"))}>
                                { metric_label(m) }<br /><code>{ m.name() }</code>
                            </th>
                        }) }
                        <th scope="col" class="num" title="mean of 1 / rank of the first match on an expected page">
                            { "MRR" }<br /><code>{ "page_mrr" }</code></th>
                    </tr>
                </thead>
                <tbody>
                    { for r.groups().map(|(g, s)| row(g.name(), s)) }
                    { row(Scope::Overall.name(), &r.summary) }
                </tbody>
            </table>
    };
    table_scroll("per-group rates", table)
}

fn ranking_row(name: &str, s: &Summary) -> Html {
    html! {
        <tr data-group={name.to_string()} class={classes!((name == Scope::Overall.name()).then_some("overall"))}>
            <th scope="row">{ name.to_string() }</th>
            { for Ranking::ALL.into_iter().map(|m| mean_cell(m.name(), s.ranking(m), s.ranking_ci(m), None)) }
        </tr>
    }
}

/// The ranking metrics by group (`ranking-table`): nDCG and recall at 5 and 10, each mean with
/// its bootstrap interval as the text report prints it, "not stated" where the report has
/// `null`, and the report's `ranking_note` saying why.
#[function_component(RankingTable)]
pub fn ranking_table(props: &GroupTableProps) -> Html {
    let r = &props.report;
    let table = html! {
        <table class="group-table ranking-table" data-testid="ranking-table">
            <thead>
                <tr>
                    <th scope="col">{ "group" }</th>
                    { for Ranking::ALL.into_iter().map(|m| html! {
                        <th scope="col" class="num">{ ranking_label(m) }<br /><code>{ m.name() }</code></th>
                    }) }
                </tr>
            </thead>
            <tbody>
                { for r.groups().map(|(g, s)| ranking_row(g.name(), s)) }
                { ranking_row(Scope::Overall.name(), &r.summary) }
            </tbody>
        </table>
    };
    html! {
        <>
            { table_scroll("ranking metrics by group", table) }
            if let Some(note) = r.summary.ranking_note.clone() {
                <p class="muted small" data-testid="ranking-note">{ note }</p>
            }
        </>
    }
}
