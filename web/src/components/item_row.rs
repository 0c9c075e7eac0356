//! One item of the report (`item-row`): outcome, question, and on demand its ranked window.

use figeval::{Metric, Report};
use yew::prelude::*;

use crate::components::ranked_window::RankedWindow;
use crate::format;
use crate::shared::Shared;

/// Props of [`ItemRow`].
#[derive(Properties, PartialEq)]
pub struct ItemRowProps {
    /// The report.
    pub report: Shared<Report>,
    /// The item's index in `per_item`.
    pub index: usize,
}

const PIPS: [(Metric, &str); 4] = [
    (Metric::PageHitAt3, "@3"),
    (Metric::PrecisePageHitAt3, "precise"),
    (Metric::FigureChunkAt3, "figure"),
    (Metric::PageHitAt5, "@5"),
];

/// The row.
#[function_component(ItemRow)]
pub fn item_row(props: &ItemRowProps) -> Html {
    let open = use_state(|| false);
    let rec = &props.report.per_item[props.index];
    let hit = rec.hit(Metric::PageHitAt3);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let rank = match rec.first_hit_rank {
        Some(r) => format!("first hit at rank {r}"),
        None => "no match on an expected page".to_string(),
    };
    html! {
        <li class={classes!("item", if hit { "is-hit" } else { "is-miss" })} data-testid="item-row"
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
                    { for PIPS.iter().map(|(m, label)| {
                        let h = rec.hit(*m);
                        html! {
                            <span class={classes!("pip", if h { "hit" } else { "miss" })} title={m.name()}
                                  data-metric={m.name()} data-hit={h.to_string()}>
                                { if h { "✓ " } else { "✗ " } }{ *label }</span>
                        }
                    }) }
                </span>
                <span class="chevron" aria-hidden="true">{ if *open { "▾" } else { "▸" } }</span>
            </button>
            if *open {
                <RankedWindow report={props.report.clone()} index={props.index} />
            }
        </li>
    }
}
