//! Before/after comparison (contract §7), side by side, as `figeval::compare` computes it, each
//! rate with its interval and each change with its paired interval as the text `figeval compare
//! A B` prints them; with
//! three reports or more, every run against the baseline as `figeval::matrix` computes it
//! (contract §7.1): one table per scope, a row per report, each cell worded by
//! `figeval::render` as the text matrix prints it.

use figeval::compare::{Comparison, ScopeComparison};
use figeval::matrix::{compare_many, movers, Cell, Matrix, Mover, RowVerdict};
use figeval::render;
use figeval::{Group, Metric, Scope};
use yew::prelude::*;

use crate::browser;
use crate::components::file_drop::FileDrop;
use crate::components::file_picker::FilePicker;
use crate::components::group_table::metric_label;
use crate::components::ranked_window::RankedWindow;
use crate::components::share_panel::SharePanel;
use crate::components::table_scroll::table_scroll;
use crate::format;
use crate::shared::Shared;
use crate::state::{Action, AppState, Compared, OpenReport, Slot};
use figeval::Report;

/// How many gained/lost questions are listed before "and N more".
const LISTED: usize = 25;

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareViewProps {
    /// The reports compared, in order (the baseline first).
    pub compared: Compared,
    /// Whether a report is on show (it can fill a slot).
    pub has_current: bool,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<AppState>,
}

fn slot_card(
    slot: Slot,
    open: Option<&OpenReport>,
    has_current: bool,
    dispatch: &UseReducerDispatcher<AppState>,
) -> Html {
    let (title, id) = match slot {
        Slot::Before => ("Before", "before"),
        Slot::After => ("After", "after"),
    };
    let d = dispatch.clone();
    let to =
        Callback::from(move |(name, text)| d.dispatch(Action::SetCompare { slot, name, text }));
    let summary = match open {
        Some(o) => html! {
            <p data-testid={format!("compare-{id}-name")}>
                <strong>{ o.name.to_string() }</strong>
                { format!(" — corpus {}, n {}, page_hit_at_3 {}", o.report.corpus_id, o.report.summary.n,
                    rate_with_ci(&o.report.summary, Metric::PageHitAt3)) }
            </p>
        },
        None => html! { <p class="muted">{ "No report yet." }</p> },
    };
    html! {
        <section class="card slot">
            <h2>{ title }</h2>
            { summary }
            { report_picker(&format!("compare-{id}"), ["Open a report file…", "Use the current report"], to, has_current, dispatch) }
        </section>
    }
}

/// A report file's picker (and drop zone) and a button for the current report, both sending
/// `to` the report's name and text (`None` for the current report); test ids `{id}-input` and
/// `{id}-current`.
fn report_picker(
    id: &str,
    [file_label, current_label]: [&'static str; 2],
    to: Callback<(String, Option<String>)>,
    has_current: bool,
    dispatch: &UseReducerDispatcher<AppState>,
) -> Html {
    let on_file = to.reform(|(name, text): (String, String)| (name, Some(text)));
    let d = dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Error {
            title: "The report could not be read".into(),
            detail,
        })
    });
    let use_current = to.reform(|_: MouseEvent| ("current report".to_string(), None));
    html! {
        <FileDrop on_file={on_file.clone()} on_error={on_error.clone()}>
            <div class="row wrap">
                <FilePicker testid={format!("{id}-input")} label={file_label}
                            accept=".json,application/json" {on_file} {on_error} />
                <button data-testid={format!("{id}-current")} onclick={use_current}
                        disabled={!has_current}>{ current_label }</button>
            </div>
        </FileDrop>
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

/// A rate of a summary as every rendering shows it (`render::rate_with_ci`).
fn rate_with_ci(s: &figeval::Summary, m: Metric) -> String {
    render::rate_with_ci(s.rate(m), s.hits(m), s.n, s.ci(m))
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
        <td class="num value" data-ci={format::ci_attr(ci)}>
            <span class="rate">{ format::rate(value) }</span>
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
                <th scope="row">{ metric_label(m.metric) }<br /><code>{ m.metric.name() }</code>
                    if m.regressed { <span class="badge miss">{ "regressed" }</span> }</th>
                { value_cell(m.before, Some(format::hits_with_ci(m.before_hits, s.n_before, m.before_ci)), m.before_ci) }
                { value_cell(m.after, Some(format::hits_with_ci(m.after_hits, s.n_after, m.after_ci)), m.after_ci) }
                <td class={classes!("num", "delta", dir)} data-testid="delta">{ format::signed(m.delta) }</td>
                <td class="num delta-ci" data-delta-ci={format::ci_attr(m.delta_ci)}
                    title="Newcombe's paired 95% interval of the change">{ render::delta_interval(m.delta_ci) }</td>
                // Only a count above 0 takes the gained or lost colour.
                <td class={classes!("num", (!m.gained.is_empty()).then_some("gained"))}>{ format::count_with_sign(m.gained.len(), '+') }</td>
                <td class={classes!("num", (!m.lost.is_empty()).then_some("lost"))}>{ format::count_with_sign(m.lost.len(), '−') }</td>
                <td class="num" title="exact two-sided McNemar p-value on (gained, lost)">{ format::p_value(m.p_value) }</td>
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
                            { value_cell(s.page_mrr.before, format::interval_note(s.page_mrr.before_ci), s.page_mrr.before_ci) }
                            { value_cell(s.page_mrr.after, format::interval_note(s.page_mrr.after_ci), s.page_mrr.after_ci) }
                            <td class="num delta">{ format::signed(s.page_mrr.delta) }</td>
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

/// Where focus goes after a move: the moved report's row (its key) and the button pressed.
type Refocus = std::rc::Rc<std::cell::RefCell<Option<(u64, &'static str)>>>;

/// After a move, focuses the button that was pressed in the moved report's row, or, when that
/// is now disabled (the row reached an end of the list), the other arrow; after a removal, the
/// Remove of the report that took its place (or of the one before it, at the end); when the
/// list went away with it (two reports left), the card's heading.
fn refocus(pending: &Refocus) {
    if let Some((key, pressed)) = pending.borrow_mut().take() {
        let other = if pressed == "down" { "up" } else { "down" };
        let found = [pressed, other].into_iter().any(|b| {
            browser::focus(&format!(
                "[data-run=\"{key}\"] [data-testid=compare-run-{b}]:not(:disabled)"
            ))
        });
        if !found && pressed == "remove" {
            browser::focus("[data-testid=compare-runs] h2");
        }
    }
}

/// The reports compared (with three or more), each with its controls; and a way to add one.
/// The rows are keyed by report ([`OpenReport::key`]), so a moved report keeps its row.
fn runs_card(
    list: &[(AttrValue, Shared<Report>)],
    keys: &[u64],
    has_current: bool,
    dispatch: &UseReducerDispatcher<AppState>,
    pending: &Refocus,
) -> Html {
    // An action, and the row (by key) and button focus goes to after it.
    let press = |a: Action, then: Option<(u64, &'static str)>| {
        let (d, pending) = (dispatch.clone(), pending.clone());
        Callback::from(move |_: MouseEvent| {
            *pending.borrow_mut() = then;
            d.dispatch(a.clone())
        })
    };
    let last = list.len().saturating_sub(1);
    let rows = list.iter().zip(keys).enumerate().map(|(i, ((name, _), &key))| {
        let move_to = |to: usize, pressed| press(Action::MoveCompare { from: i, to }, Some((key, pressed)));
        // Removed, focus goes to the Remove of the report after it (or before it, at the end).
        let next = keys.get(i + 1).or(i.checked_sub(1).and_then(|j| keys.get(j)));
        html! {
            <li key={key.to_string()} data-run={key.to_string()}
                data-testid="compare-run" data-index={i.to_string()} data-base={(i == 0).to_string()}>
                <span>
                    // Renamed here, the report keeps the name in every view and the share link.
                    <input type="text" class="run-name" data-testid="compare-run-name" value={name.clone()}
                           aria-label={format!("Name of report {}", i + 1)}
                           onchange={let (d, name) = (dispatch.clone(), name.clone()); Callback::from(move |e: Event| {
                               let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                               // A blank name is not taken: the field shows the name again.
                               match input.value().trim() {
                                   "" => input.set_value(&name),
                                   v => d.dispatch(Action::RenameCompare(i, v.to_string())),
                               }
                           })} />
                    if i == 0 { { " " }<span class="badge">{ "baseline" }</span> }</span>
                <span class="row wrap" role="group" aria-label={name.clone()}>
                    <button data-testid="compare-run-baseline" disabled={i == 0}
                            onclick={move_to(0, "baseline")}>{ "Make baseline" }</button>
                    <button data-testid="compare-run-up" disabled={i == 0} aria-label="Move up"
                            onclick={move_to(i.saturating_sub(1), "up")}>{ "↑" }</button>
                    <button data-testid="compare-run-down" disabled={i == last} aria-label="Move down"
                            onclick={move_to(i + 1, "down")}>{ "↓" }</button>
                    <button data-testid="compare-run-remove"
                            onclick={press(Action::RemoveCompare(i), next.map(|&k| (k, "remove")))}>{ "Remove" }</button>
                </span>
            </li>
        }
    });
    let d = dispatch.clone();
    let to = Callback::from(move |(name, text)| d.dispatch(Action::AddCompare { name, text }));
    html! {
        <section class="card" data-testid="compare-runs">
            if list.len() >= 3 {
                <h2>{ "Reports compared" }</h2>
                <p class="muted small">{ "The first is the baseline: every other report is compared with it." }</p>
                <ol class="runs">{ for rows }</ol>
            } else {
                <h2>{ "More reports" }</h2>
                <p class="muted small">{ "Add a third to see every run against the baseline (before), side by side." }</p>
            }
            { report_picker("compare-add", ["Add a report file…", "Add the current report"], to, has_current, dispatch) }
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
                if let Some(d) = delta { { " " }<span class="change">{ format::signed(d) }</span> }
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
                            { for cols.iter().map(|&i| html! { <th scope="col" class="num">{ metric_label(m.columns[i].metric) }<br /><code>{ m.columns[i].metric.name() }</code></th> }) }
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

/// The questions that moved (`figeval::matrix::movers`), each once with every run and metric
/// it moved on; each opens to the ranked windows of every report side by side
/// (`changed-question`, `side-by-side`).
fn movers_card(list: &[OpenReport], movers: &[Mover]) -> Html {
    if movers.is_empty() {
        return html! {};
    }
    let many = list.len() > 2;
    let rows = movers.iter().take(LISTED).map(|m| {
        let moves = m.moves.iter().map(|mv| {
            let run = if many { format!("{}: ", list[mv.run + 1].name) } else { String::new() };
            html! {
                <span class={classes!("pip", if mv.gained { "hit" } else { "miss" })}>
                    { format!("{run}{} {}", if mv.gained { "+ gained" } else { "− lost" }, mv.metric) }</span>
            }
        });
        html! {
            <li><details class="item" data-testid="changed-question" data-question={m.question.clone()}>
                <summary class="item-head"><span class="question">{ m.question.clone() }</span>
                    <span class="item-meta">{ for moves }</span></summary>
                <div class="side-by-side" data-testid="side-by-side">
                    { for list.iter().map(|o| html! {
                        <div class="side">
                            <h3>{ o.name.to_string() }</h3>
                            { match o.report.per_item.iter().position(|r| r.question == m.question) {
                                Some(index) => html! { <RankedWindow report={o.report.clone()} said={o.said.clone()} {index} /> },
                                None => html! { <p class="muted">{ "not in this report" }</p> },
                            } }
                        </div>
                    }) }
                </div>
            </details></li>
        }
    });
    html! {
        <section class="card" data-testid="changed-questions">
            <h2>{ format!("Questions that changed: {}", movers.len()) }</h2>
            <ul class="items">
                { for rows }
                if movers.len() > LISTED { <li class="muted">{ format!("… and {} more", movers.len() - LISTED) }</li> }
            </ul>
        </section>
    }
}

/// The view.
#[function_component(CompareView)]
pub fn compare_view(props: &CompareViewProps) -> Html {
    // The reports in order, the baseline first: two are before and after, more the matrix.
    let compared = props.compared.list();
    let named: Vec<(AttrValue, Shared<Report>)> = compared
        .iter()
        .map(|o| (AttrValue::from(o.name.clone()), o.report.clone()))
        .collect();
    let keys: Vec<u64> = compared.iter().map(|o| o.key).collect();
    let pending: Refocus = use_mut_ref(|| None);
    {
        let pending = pending.clone();
        use_effect(move || refocus(&pending));
    }
    let matrix = use_memo(named.clone(), |l| match &l[..] {
        [base, runs @ ..] if !runs.is_empty() => {
            let runs: Vec<(&str, &Report)> = runs.iter().map(|(n, r)| (&**n, &**r)).collect();
            Some(compare_many((base.0.as_str(), &base.1), &runs))
        }
        _ => None,
    });
    let moved = use_memo(matrix.clone(), |m| {
        m.as_ref()
            .as_ref()
            .map_or_else(Vec::new, |m| movers(&m.comparisons))
    });
    let d = props.dispatch.clone();
    let swap = Callback::from(move |_: MouseEvent| d.dispatch(Action::SwapCompare));
    let many = named.len() >= 3;
    html! {
        <div class="compare" data-testid="compare-view">
            if !many {
                <div class="slots">
                    { slot_card(Slot::Before, props.compared.slot(Slot::Before), props.has_current, &props.dispatch) }
                    <button class="swap" onclick={swap} title="Swap before and after" aria-label="Swap before and after" data-testid="compare-swap"
                            disabled={compared.is_empty()}>{ "⇄" }</button>
                    { slot_card(Slot::After, props.compared.slot(Slot::After), props.has_current, &props.dispatch) }
                </div>
            }
            if let Some(m) = &*matrix {
                // What changed leads, in the core's words (the CLI's first line too).
                <div class="compare-findings" data-testid="compare-findings">
                    { for m.comparisons.iter().zip(&named[1..]).map(|(c, (name, _))| html! {
                        <p class="compare-finding" data-testid="compare-finding">
                            if many { <strong>{ format!("{name}: ") }</strong> }
                            { render::comparison_finding(c) }
                        </p>
                    }) }
                </div>
                { runs_card(&named, &keys, props.has_current, &props.dispatch, &pending) }
                if many { { matrix_view(m) } } else { { for m.comparisons.first().map(comparison) } }
                { movers_card(compared, &moved) }
                <section class="card" data-testid="compare-share">
                    <h2>{ "Share this comparison" }</h2>
                    <SharePanel testid="compare-" reports={named.clone()} />
                </section>
            } else {
                <p class="muted">{ "Open two reports of the same dataset (files, or the current report) to compare them." }</p>
            }
        </div>
    }
}
