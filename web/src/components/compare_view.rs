//! Before/after comparison (contract §7), side by side, as `figeval::compare` computes it.

use figeval::compare::{Comparison, ScopeComparison};
use figeval::{Group, Metric, Scope};
use yew::prelude::*;

use crate::components::file_drop::FileDrop;
use crate::components::file_picker::FilePicker;
use crate::components::share_panel::SharePanel;
use crate::components::table_scroll::table_scroll;
use crate::format;
use crate::state::{Action, AppState, OpenReport, Slot};

/// How many gained/lost questions are listed before "and N more".
const LISTED: usize = 25;

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareViewProps {
    /// The baseline.
    pub before: Option<OpenReport>,
    /// The change.
    pub after: Option<OpenReport>,
    /// Reports a `#compare=` link held beyond the first two (kept in the share link).
    pub rest: std::rc::Rc<Vec<OpenReport>>,
    /// Whether a report is on show (it can fill a slot).
    pub has_current: bool,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<AppState>,
}

fn slot_card(
    slot: Slot,
    open: &Option<OpenReport>,
    has_current: bool,
    dispatch: &UseReducerDispatcher<AppState>,
) -> Html {
    let (title, id) = match slot {
        Slot::Before => ("Before", "before"),
        Slot::After => ("After", "after"),
    };
    let d = dispatch.clone();
    let on_file = Callback::from(move |(name, text): (String, String)| {
        d.dispatch(Action::SetCompare {
            slot,
            name,
            text: Some(text),
        })
    });
    let d = dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Error {
            title: "The report could not be read".into(),
            detail,
        })
    });
    let d = dispatch.clone();
    let use_current = Callback::from(move |_: MouseEvent| {
        d.dispatch(Action::SetCompare {
            slot,
            name: "current report".into(),
            text: None,
        })
    });
    let summary = match open {
        Some(o) => html! {
            <p data-testid={format!("compare-{id}-name")}>
                <strong>{ o.name.to_string() }</strong>
                { format!(" — corpus {}, n {}, page_hit_at_3 {}", o.report.corpus_id, o.report.summary.n,
                    format::rate(o.report.summary.rate(Metric::PageHitAt3))) }
            </p>
        },
        None => html! { <p class="muted">{ "No report yet." }</p> },
    };
    html! {
        <section class="card slot">
            <h2>{ title }</h2>
            { summary }
            <FileDrop on_file={on_file.clone()} on_error={on_error.clone()}>
                <div class="row wrap">
                    <FilePicker testid={format!("compare-{id}-input")} label="Open a report file…"
                                accept=".json,application/json" {on_file} {on_error} />
                    <button data-testid={format!("compare-{id}-current")} onclick={use_current}
                            disabled={!has_current}>{ "Use the current report" }</button>
                </div>
            </FileDrop>
        </section>
    }
}

fn question_list(what: &str, qs: &[String], class: &str) -> Html {
    if qs.is_empty() {
        return html! {};
    }
    html! {
        <details class={classes!("movers", class.to_string())}>
            <summary>{ format!("{what}: {}", qs.len()) }</summary>
            <ul>
                { for qs.iter().take(LISTED).map(|q| html! { <li>{ q.clone() }</li> }) }
                if qs.len() > LISTED { <li class="muted">{ format!("… and {} more", qs.len() - LISTED) }</li> }
            </ul>
        </details>
    }
}

fn scope_card(s: &ScopeComparison) -> Html {
    let rows = s.metrics.values().map(|m| {
        let dir = if m.delta > 0.0 {
            "up"
        } else if m.delta < 0.0 {
            "down"
        } else {
            "flat"
        };
        html! {
            <tr data-metric={m.metric.name()} class={classes!(m.regressed.then_some("regressed"), (m.metric == Metric::PageHitAt3).then_some("headline"))}>
                <th scope="row"><code>{ m.metric.name() }</code>
                    if m.regressed { <span class="badge miss">{ "regressed" }</span> }</th>
                <td class="num">{ format::rate(m.before) }{ " " }<span class="hits">{ format!("({})", m.before_hits) }</span></td>
                <td class="num">{ format::rate(m.after) }{ " " }<span class="hits">{ format!("({})", m.after_hits) }</span></td>
                <td class={classes!("num", "delta", dir)} data-testid="delta">{ format::signed(m.delta) }</td>
                <td class="num gained">{ format::count_with_sign(m.gained.len(), '+') }</td>
                <td class="num lost">{ format::count_with_sign(m.lost.len(), '−') }</td>
                <td class="num" title="exact two-sided McNemar p-value on (gained, lost)">{ format::p_value(m.p_value) }</td>
            </tr>
        }
    });
    let headline = s.metric(Metric::PageHitAt3);
    html! {
        <section class="card scope" data-testid="compare-scope" data-scope={s.scope.name()}>
            <h3>{ s.scope.name() }<span class="muted small">
                { format!("  n {} → {}, {} paired", s.n_before, s.n_after, s.paired) }</span></h3>
            { table_scroll(format!("{} before and after", s.scope), html! {
                <table class="compare-table">
                    <thead><tr>
                        <th scope="col">{ "metric" }</th><th scope="col" class="num">{ "before (hits)" }</th>
                        <th scope="col" class="num">{ "after (hits)" }</th><th scope="col" class="num">{ "delta" }</th>
                        <th scope="col" class="num">{ "gained" }</th><th scope="col" class="num">{ "lost" }</th>
                        <th scope="col" class="num">{ "p" }</th>
                    </tr></thead>
                    <tbody>
                        { for rows }
                        <tr data-metric="page_mrr">
                            <th scope="row"><code>{ "page_mrr" }</code></th>
                            <td class="num">{ format::rate(s.page_mrr.before) }</td>
                            <td class="num">{ format::rate(s.page_mrr.after) }</td>
                            <td class="num delta">{ format::signed(s.page_mrr.delta) }</td>
                            <td></td><td></td><td></td>
                        </tr>
                    </tbody>
                </table>
            }) }
            if let Some(note) = &s.note { <p class="note">{ note.clone() }</p> }
            { question_list("page_hit_at_3 gained", &headline.gained, "gained") }
            { question_list("page_hit_at_3 lost", &headline.lost, "lost") }
            { for s.metrics.values().filter(|m| m.metric != Metric::PageHitAt3).map(|m| html! {
                <>
                    { question_list(&format!("{} gained", m.metric), &m.gained, "gained") }
                    { question_list(&format!("{} lost", m.metric), &m.lost, "lost") }
                </>
            }) }
        </section>
    }
}

fn comparison(c: &Comparison) -> Html {
    let prose_held = c
        .scope(Scope::Group(Group::Prose))
        .map(|s| s.regressions().is_empty());
    html! {
        <div class="comparison" data-testid="comparison">
            if !c.warnings.is_empty() {
                <section class="card warn-card" data-testid="compare-warnings">
                    <h2>{ "Warnings" }</h2>
                    <ul>{ for c.warnings.iter().map(|w| html! { <li>{ w.clone() }</li> }) }</ul>
                </section>
            }
            if let Some(v) = &c.prose_verdict {
                <p class={classes!("verdict", if prose_held == Some(true) { "good" } else { "bad" })}
                   data-testid="prose-verdict">{ v.clone() }</p>
            }
            <h2 class="visually-hidden">{ "Before and after, by scope" }</h2>
            <div class="scopes">{ for c.scopes.iter().map(scope_card) }</div>
            if !c.unpaired_before.is_empty() || !c.unpaired_after.is_empty() {
                <section class="card" data-testid="unpaired">
                    <h2>{ "Unpaired questions" }</h2>
                    { question_list("only in the before report", &c.unpaired_before, "") }
                    { question_list("only in the after report", &c.unpaired_after, "") }
                </section>
            }
            <section class="card">
                <h2>{ "How to read this" }</h2>
                <ul data-testid="reading-guide">{ for c.reading_guide.iter().map(|l| html! { <li>{ *l }</li> }) }</ul>
            </section>
        </div>
    }
}

/// The view.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareViewProps) -> Html {
    let pair = match (&props.before, &props.after) {
        (Some(b), Some(a)) => Some((b.report.clone(), a.report.clone())),
        _ => None,
    };
    let result = use_memo(pair, |p| p.as_ref().map(|(b, a)| figeval::compare(b, a)));
    let d = props.dispatch.clone();
    let swap = Callback::from(move |_: MouseEvent| d.dispatch(Action::SwapCompare));
    html! {
        <div class="compare" data-testid="compare-view">
            <div class="slots">
                { slot_card(Slot::Before, &props.before, props.has_current, &props.dispatch) }
                <button class="swap" onclick={swap} title="Swap before and after" aria-label="Swap before and after" data-testid="compare-swap"
                        disabled={props.before.is_none() && props.after.is_none()}>{ "⇄" }</button>
                { slot_card(Slot::After, &props.after, props.has_current, &props.dispatch) }
            </div>
            if let (Some(c), Some(b), Some(a)) = (&*result, &props.before, &props.after) {
                <section class="card" data-testid="compare-share">
                    <h2>{ "Share this comparison" }</h2>
                    if !props.rest.is_empty() {
                        <p class="note">{ format!(
                            "The link that opened this comparison holds {} reports: the first two are compared here, and the share link keeps all of them.",
                            props.rest.len() + 2) }</p>
                    }
                    <SharePanel testid="compare-" reports={
                        [b, a].into_iter().chain(props.rest.iter())
                            .map(|o| (AttrValue::from(o.name.clone()), o.report.clone()))
                            .collect::<Vec<_>>()
                    } />
                </section>
                { comparison(c) }
            } else {
                <p class="muted">{ "Open two reports of the same dataset (files, or the current report) to compare them." }</p>
            }
        </div>
    }
}
