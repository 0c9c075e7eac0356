//! One item of the report (`item-row`): outcome, question, and on demand its ranked window.
//!
//! A plain function, not a component: a page of the items list is 50 rows, and a component
//! per row (its hooks, its scheduler runs) doubled the time a filter change takes. Which rows
//! are open is the list's state.

use figeval::{Metric, Report};
use yew::prelude::*;

use crate::components::ranked_window::RankedWindow;
use crate::format;
use crate::said::Said;
use crate::shared::Shared;

/// The short label of a metric's pip.
fn pip_label(m: Metric) -> &'static str {
    match m {
        Metric::PageHitAt3 => "@3",
        Metric::PageHitAt5 => "@5",
        Metric::PrecisePageHitAt3 => "precise",
        Metric::FigureChunkAt3 => "figure",
    }
}

/// The row of `report.per_item[index]`, keyed by its question; `toggle` opens or closes it.
/// `said` is what the report's matches said, when the page read the responses.
pub fn item_row(
    report: &Shared<Report>,
    said: &Option<Said>,
    index: usize,
    open: bool,
    toggle: Callback<MouseEvent>,
) -> Html {
    let rec = &report.per_item[index];
    let hit = rec.hit(Metric::PageHitAt3);
    let rank = match rec.first_hit_rank {
        Some(r) => format!("first hit at rank {r}"),
        None => "no match on an expected page".to_string(),
    };
    html! {
        <li key={rec.question.clone()} class={classes!("item", if hit { "is-hit" } else { "is-miss" })} data-testid="item-row"
            data-question={rec.question.clone()} data-group={rec.group.name()}
            data-hit={hit.to_string()}>
            <button type="button" class="item-head" aria-expanded={open.to_string()} onclick={toggle}
                    data-testid="item-toggle">
                <span class={classes!("badge", "outcome", if hit { "hit" } else { "miss" })}>
                    { if hit { "HIT" } else { "MISS" } }</span>
                <span class="item-main">
                    <span class="question">{ rec.question.clone() }</span>
                    <span class="item-meta">
                        <span class="tag">{ rec.group.name() }</span>
                        <span>{ rec.figure_ref.clone() }</span>
                        <span>{ format!("expects {}", format::pages(&rec.expected_pages)) }</span>
                        <span>{ rank }</span>
                    </span>
                </span>
                <span class="pips">
                    { for Metric::ALL.into_iter().map(|m| {
                        let (h, label) = (rec.hit(m), pip_label(m));
                        html! {
                            <span class={classes!("pip", if h { "hit" } else { "miss" })} title={m.name()}
                                  data-metric={m.name()} data-hit={h.to_string()}>
                                { format!("{} {label}", if h { "✓" } else { "✗" }) }</span>
                        }
                    }) }
                </span>
                <span class="chevron" aria-hidden="true">{ if open { "▾" } else { "▸" } }</span>
            </button>
            if open {
                <RankedWindow report={report.clone()} said={said.clone()} index={index} />
            }
        </li>
    }
}
