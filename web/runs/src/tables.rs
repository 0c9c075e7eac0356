//! The comparison's tables, by scope (contract §7, §7.1): with two reports, each scope's rates
//! before and after with their intervals, the paired change and its interval, the questions
//! gained and lost and McNemar's p; with three or more, every run against the baseline, a table
//! per scope with a row per report and its verdict. Each cell is worded by `figeval::render`
//! as `figeval compare` prints it. Rendered into the Compare view's `#runs-app`, below the
//! finding and the reports compared.

use figeval::compare::{Comparison, ScopeComparison};
use figeval::matrix::{Cell, Matrix, RowVerdict};
use figeval::render;
use figeval::{Group, Metric, Scope};
use figeval_web_common::table_scroll::table_scroll;
use yew::prelude::*;

/// How many unpaired questions are listed before "and N more".
const LISTED: usize = 25;

/// An interval as a `data-ci` attribute carries it (`0.6695,0.9863`); none without one.
fn ci_attr(ci: Option<figeval::stats::Interval>) -> Option<String> {
    ci.map(render::interval_data)
}

/// The tables of a comparison: the two-report view, or the matrix of three reports or more.
pub fn tables(m: &Matrix) -> Html {
    match &m.comparisons[..] {
        [c] => comparison(c),
        _ => matrix_view(m),
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

/// A before or after cell: the rate, then its hits and interval as the text comparison prints
/// them (`0.5833 (7/12; 95% CI 0.32–0.81)`), or a value and its interval (MRR); `data-ci` the
/// interval (`lo,hi`). The hits and interval wrap at their spaces, never inside the interval's
/// last word (a break after its en dash would split it).
fn value_cell(value: f64, rest: Option<String>, ci: Option<figeval::stats::Interval>) -> Html {
    let rest = rest.map(|text| match text.rsplit_once(' ') {
        Some((head, last)) => {
            html! { <>{ format!("{head} ") }<span class="nowrap">{ last.to_string() }</span></> }
        }
        None => html! { { text } },
    });
    html! {
        <td class="num value" data-ci={ci_attr(ci)}>
            <span class="rate">{ render::rate(value) }</span>
            if let Some(rest) = rest { { " " }<span class="hits">{ rest }</span> }
        </td>
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
                <th scope="row">{ render::metric_label(m.metric) }<br /><code>{ m.metric.name() }</code>
                    if m.regressed { <span class="badge miss">{ "regressed" }</span> }</th>
                { value_cell(m.before, Some(render::hits_with_ci(m.before_hits, s.n_before, m.before_ci)), m.before_ci) }
                { value_cell(m.after, Some(render::hits_with_ci(m.after_hits, s.n_after, m.after_ci)), m.after_ci) }
                <td class={classes!("num", "delta", dir)} data-testid="delta">{ render::signed(m.delta) }</td>
                <td class="num delta-ci" data-delta-ci={ci_attr(m.delta_ci)}
                    title="Newcombe's paired 95% interval of the change">{ render::delta_interval(m.delta_ci) }</td>
                // Only a count above 0 takes the gained or lost colour.
                <td class={classes!("num", (!m.gained.is_empty()).then_some("gained"))}>{ render::count_with_sign(m.gained.len(), '+') }</td>
                <td class={classes!("num", (!m.lost.is_empty()).then_some("lost"))}>{ render::count_with_sign(m.lost.len(), '−') }</td>
                <td class="num" title="exact two-sided McNemar p-value on (gained, lost)">{ render::p_value(m.p_value) }</td>
            </tr>
        }
    });
    html! {
        <section class="card scope" data-testid="compare-scope" data-scope={s.scope.name()}>
            <h3>{ s.scope.name() }<span class="muted small">
                { format!("  n {} → {}, {} paired", s.n_before, s.n_after, s.paired) }</span></h3>
            { table_scroll(format!("{} before and after", s.scope), html! {
                <table class="compare-table">
                    <thead><tr>
                        <th scope="col">{ "metric" }</th><th scope="col" class="num">{ "before" }</th>
                        <th scope="col" class="num">{ "after" }</th><th scope="col" class="num">{ "delta" }</th>
                        <th scope="col" class="num delta-ci">{ "delta 95% CI" }</th>
                        <th scope="col" class="num">{ "gained" }</th><th scope="col" class="num">{ "lost" }</th>
                        <th scope="col" class="num">{ "p" }</th>
                    </tr></thead>
                    <tbody>
                        { for rows }
                        <tr data-metric="page_mrr">
                            <th scope="row">{ "MRR" }<br /><code>{ "page_mrr" }</code></th>
                            { value_cell(s.page_mrr.before, render::interval_note(s.page_mrr.before_ci), s.page_mrr.before_ci) }
                            { value_cell(s.page_mrr.after, render::interval_note(s.page_mrr.after_ci), s.page_mrr.after_ci) }
                            <td class="num delta">{ render::signed(s.page_mrr.delta) }</td>
                            <td></td><td></td><td></td><td></td>
                        </tr>
                    </tbody>
                </table>
            }) }
            if let Some(note) = &s.note { <p class="note">{ note.clone() }</p> }
        </section>
    }
}

/// The comparison's warnings, when it has any.
fn warnings(list: &[String]) -> Html {
    if list.is_empty() {
        return html! {};
    }
    html! {
        <section class="card warn-card" data-testid="compare-warnings">
            <h2>{ "Warnings" }</h2>
            <ul>{ for list.iter().map(|w| html! { <li>{ w.clone() }</li> }) }</ul>
        </section>
    }
}

fn comparison(c: &Comparison) -> Html {
    let prose_held = c
        .scope(Scope::Group(Group::Prose))
        .map(|s| s.regressions().is_empty());
    html! {
        <div class="comparison" data-testid="comparison">
            { warnings(&c.warnings) }
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
            { guide(&c.reading_guide, None, &c.too_small_to_tell) }
        </div>
    }
}

/// "How to read this": the guide's lines, a note, and per scope how small a change cannot be
/// told from chance (`Comparison::too_small_to_tell`).
fn guide(lines: &[&str], note: Option<String>, too_small: &[String]) -> Html {
    html! {
        <section class="card">
            <h2>{ "How to read this" }</h2>
            <ul data-testid="reading-guide">{ for lines.iter().map(|l| html! { <li>{ *l }</li> }) }</ul>
            if let Some(note) = note { <p>{ note }</p> }
            <h3>{ render::TOO_SMALL_TO_TELL }</h3>
            <ul data-testid="too-small-to-tell">{ for too_small.iter().map(|l| html! { <li>{ l.clone() }</li> }) }</ul>
        </section>
    }
}

fn matrix_cell(metric: Metric, cell: Option<&Cell>) -> Html {
    match cell {
        Some(c) => html! {
            // A lower rate is marked as regressed, a higher one as gained.
            <td data-metric={metric.name()} class={classes!("num", c.regressed.then_some("regressed"),
                                                      (c.delta > Some(0.0)).then_some("gained-cell"))}>
                <span class="rate">{ render::rate_with_ci(c.rate, c.hits, c.n, c.ci) }</span>
                if c.delta.is_some() { { " " }<span class="change">{ render::change(c) }</span> }
            </td>
        },
        None => html! { <td data-metric={metric.name()} class="muted">{ "no items" }</td> },
    }
}

/// A row's MRR in one scope: the base's, or a run's with its change (`None`: no items).
fn matrix_mrr(m: &Matrix, scope: Scope, row: usize) -> Html {
    // Every comparison's before is the base; a run's row is its comparison's after.
    let value = match row.checked_sub(1) {
        None => m
            .comparisons
            .first()
            .and_then(|c| c.scope(scope))
            .map(|s| (s.page_mrr.before, s.page_mrr.before_ci, None)),
        Some(run) => m
            .comparisons
            .get(run)
            .and_then(|c| c.scope(scope))
            .map(|s| {
                (
                    s.page_mrr.after,
                    s.page_mrr.after_ci,
                    Some(s.page_mrr.delta),
                )
            }),
    };
    match value {
        Some((v, ci, delta)) => html! {
            <td data-metric="page_mrr" class="num">
                <span class="rate">{ render::value_with_ci(v, ci) }</span>
                if let Some(d) = delta { { " " }<span class="change">{ render::signed(d) }</span> }
            </td>
        },
        None => html! { <td data-metric="page_mrr" class="muted">{ "no items" }</td> },
    }
}

/// Every run against the baseline: per scope a table, one row per report, with its verdict.
fn matrix_view(m: &Matrix) -> Html {
    let tables = render::matrix_scopes(m).into_iter().map(|(scope, cols)| {
        let rows = m.rows.iter().enumerate().map(|(r, row)| {
            let verdict = RowVerdict::of(cols.iter().filter_map(|&i| row.cells[i].as_ref()));
            html! {
            <tr data-testid="matrix-row" data-base={row.base.to_string()}>
                <th scope="row">{ row.label.clone() }</th>
                <td data-testid="matrix-verdict"
                    class={classes!(match verdict { RowVerdict::Fell => "lost", RowVerdict::Rose => "gained", _ => "muted" })}>
                    { verdict.words() }</td>
                { for cols.iter().map(|&i| matrix_cell(m.columns[i].metric, row.cells[i].as_ref())) }
                { matrix_mrr(m, scope, r) }
            </tr>
        }});
        html! {
            <section class="card" data-testid="matrix-scope" data-scope={scope.name()}>
                <h3>{ scope.name() }</h3>
                { table_scroll(format!("{scope}: every report against the baseline"), html! {
                    <table class="compare-table matrix-table">
                        <thead><tr>
                            <th scope="col">{ "report" }</th><th scope="col">{ "verdict" }</th>
                            { for cols.iter().map(|&i| html! { <th scope="col" class="num">{ render::metric_label(m.columns[i].metric) }<br /><code>{ m.columns[i].metric.name() }</code></th> }) }
                            <th scope="col" class="num">{ "MRR" }<br /><code>{ "page_mrr" }</code></th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                }) }
            </section>
        }
    });
    html! {
        <div class="comparison" data-testid="compare-matrix">
            { warnings(&m.warnings) }
            <h2 class="visually-hidden">{ "Every report against the baseline, by scope" }</h2>
            { for tables }
            { guide(&figeval::compare::READING_GUIDE, Some(render::matrix_p_note(m)), &m.too_small_to_tell) }
        </div>
    }
}
