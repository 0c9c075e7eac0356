//! The compare view's cards below the questions that changed: each scope's ranking metrics
//! for every compared report with each run's change from the baseline, and the items × runs
//! table, which sorts and filters the questions by group, by hit or miss on a metric in each
//! run, and by first-hit rank.

use figeval::{render, Group, Metric, Scope};
use figeval_web_common::shared::Shared;
use figeval_web_common::table_scroll::table_scroll;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::state::{self, Order, Runs, Show};

/// Props of [`More`].
#[derive(Properties, PartialEq)]
pub struct MoreProps {
    /// The reports compared, in order (the baseline first).
    pub runs: Shared<Runs>,
}

/// A select's change as its value.
fn on_select(set: impl Fn(String) + 'static) -> Callback<Event> {
    Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
}

/// The ranking metrics of every scope and the items × runs table.
#[function_component(More)]
pub fn more(props: &MoreProps) -> Html {
    let metric = use_state(|| Metric::PageHitAt3);
    let group = use_state(|| None::<Group>);
    let show = use_state(|| Show::All);
    let order = use_state(|| Order::Dataset);
    let runs = &*props.runs;
    let controls = {
        let (m, g, s, o) = (metric.clone(), group.clone(), show.clone(), order.clone());
        html! {
            <div class="row wrap runs-controls">
                <label>{ "Metric " }
                    <select data-testid="runs-metric" onchange={on_select(move |v| if let Some(x) = Metric::from_name(&v) { m.set(x) })}>
                        { for Metric::ALL.iter().map(|x| html! { <option value={x.name()} selected={*metric == *x}>{ render::metric_label(*x) }</option> }) }
                    </select>
                </label>
                <label>{ "Group " }
                    <select data-testid="runs-group" onchange={on_select(move |v| g.set(Group::ALL.into_iter().find(|x| x.name() == v)))}>
                        <option value="" selected={group.is_none()}>{ "every group" }</option>
                        { for Group::ALL.iter().map(|x| html! { <option value={x.name()} selected={*group == Some(*x)}>{ x.name() }</option> }) }
                    </select>
                </label>
                <label>{ "Show " }
                    <select data-testid="runs-show" onchange={on_select(move |v| if let Some((x, _, _)) = Show::ALL.iter().find(|(_, n, _)| *n == v) { s.set(*x) })}>
                        { for Show::ALL.iter().map(|(x, n, words)| html! { <option value={*n} selected={*show == *x}>{ *words }</option> }) }
                    </select>
                </label>
                <label>{ "Order " }
                    <select data-testid="runs-order" onchange={on_select(move |v| if let Some((x, _, _)) = Order::ALL.iter().find(|(_, n, _)| *n == v) { o.set(*x) })}>
                        { for Order::ALL.iter().map(|(x, n, words)| html! { <option value={*n} selected={*order == *x}>{ *words }</option> }) }
                    </select>
                </label>
            </div>
        }
    };
    let rows = state::item_rows(runs, *metric, *group, *show, *order);
    html! {
        <>
            { ranking_card(runs) }
            <section class="card" aria-labelledby="runs-items-h" data-testid="runs-items">
                <h2 id="runs-items-h">{ "Items × runs" }</h2>
                <p class="muted small">{ format!("Each question in each run: a hit or a miss on {}, and the rank of its first match on an expected page.", render::metric_label(*metric)) }</p>
                { controls }
                <p class="small" data-testid="runs-count">{ format!("{} of the questions", rows.len()) }</p>
                { table_scroll("Items × runs, the table", html! {
                    <table class="runs-table">
                        <thead><tr>
                            <th scope="col">{ "Question" }</th>
                            <th scope="col">{ "Group" }</th>
                            { for runs.names.iter().map(|n| html! { <th scope="col">{ n.clone() }</th> }) }
                        </tr></thead>
                        <tbody>
                            { for rows.iter().map(|row| html! {
                                <tr data-testid="runs-item">
                                    <th scope="row" class="q">{ row.question.clone() }</th>
                                    <td>{ row.group.name() }</td>
                                    { for row.cells.iter().map(|c| match c {
                                        None => html! { <td data-cell="absent">{ "—" }</td> },
                                        Some((hit, rank)) => html! {
                                            <td data-cell={if *hit { "hit" } else { "miss" }} data-rank={rank.map(|r| r.to_string())}>
                                                { if *hit { "hit" } else { "miss" } }
                                                { rank.map(|r| format!(" · first at {r}")).unwrap_or_default() }
                                            </td>
                                        },
                                    }) }
                                </tr>
                            }) }
                        </tbody>
                    </table>
                }) }
            </section>
        </>
    }
}

/// The ranking metrics of every scope: each report's value and each run's change.
fn ranking_card(runs: &Runs) -> Html {
    html! {
        <section class="card" aria-labelledby="runs-ranking-h" data-testid="runs-ranking">
            <h2 id="runs-ranking-h">{ "Ranking metrics" }</h2>
            <p class="muted small">{ "nDCG and recall at 5 and 10 on the expected pages (contract §7), with their 95% intervals; each run's change from the baseline with the interval of the paired change, as figeval compare prints them. null: the report does not state it (fewer than 10 matches asked for)." }</p>
            { table_scroll("Ranking metrics, the table", html! {
                <table class="runs-table">
                    <thead><tr>
                        <th scope="col">{ "Scope" }</th>
                        <th scope="col">{ "Metric" }</th>
                        { for runs.names.iter().map(|n| html! { <th scope="col">{ n.clone() }</th> }) }
                        { for runs.names[1..].iter().map(|n| html! { <th scope="col">{ format!("{n}: change") }</th> }) }
                    </tr></thead>
                    <tbody>
                        { for state::ranking_rows(runs).into_iter().flat_map(|(scope, rows)| rows.into_iter().map(move |r| html! {
                            <tr data-testid="runs-ranking-row" data-scope={scope_name(scope)} data-metric={r.metric.name()}>
                                <th scope="row">{ scope_name(scope) }</th>
                                <td>{ render::ranking_label(r.metric) }<br /><code>{ r.metric.name() }</code></td>
                                { for r.values.iter().map(|v| html! { <td data-cell="value">{ v.clone() }</td> }) }
                                { for r.changes.iter().zip(&r.fell).map(|((d, ci), fell)| html! {
                                    <td data-cell="change" class={classes!(fell.then_some("fell"))}>{ format!("{d} ({ci})") }</td>
                                }) }
                            </tr>
                        })) }
                    </tbody>
                </table>
            }) }
        </section>
    }
}

fn scope_name(s: Scope) -> &'static str {
    s.name()
}
