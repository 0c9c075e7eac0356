//! The Compare view (contract §7, §7.1), rendered into the app's `#compare-app`: the reports
//! compared and their pickers, the finding first (what changed, and whether it can be told from
//! chance, in `figeval::render`'s words), the comparison's tables by scope, the questions that
//! changed with every report's ranked window side by side, each scope's ranking metrics and the
//! items × runs table, and the share card last.

use figeval::matrix::{compare_many, movers, Mover};
use figeval::render;
use figeval::share::Link;
use figeval::{Metric, Report};
use figeval_web_common::file_drop::FileDrop;
use figeval_web_common::file_picker::FilePicker;
use figeval_web_common::focus;
use figeval_web_common::open_report::OpenReport;
use figeval_web_common::ranked_window::RankedWindow;
use figeval_web_common::share_panel::SharePanel;
use figeval_web_common::shared::Shared;
use figeval_web_common::short_link::ShortLink;
use figeval_web_common::{api, checked, link};
use yew::prelude::*;

use crate::bridge;
use crate::compared::{Action, Banner, CompareState, Slot};
use crate::more::More;
use crate::state::Runs;
use crate::tables;

/// How many gained/lost questions are listed before "and N more".
const LISTED: usize = 25;

type Dispatch = UseReducerDispatcher<CompareState>;

/// Puts the app's report on show in `slot` (`None`: after the others).
fn take_current(slot: Option<Slot>, d: &Dispatch) {
    match bridge::current() {
        Ok(current) => d.dispatch(Action::SetCurrent(slot, current)),
        Err(b) => d.dispatch(Action::Failed(b)),
    }
}

/// Opens the comparison of a `#compare=` fragment, or the stored runs of a `#runs=A,B,…` one
/// (read from the team server, A the baseline), when the page has one.
fn open_fragment() {
    let Some(f) = link::fragment() else {
        return;
    };
    if let Some(ids) = f.strip_prefix("#runs=") {
        let ids: Vec<String> = ids
            .split('&')
            .next()
            .unwrap_or_default()
            .split(',')
            .filter(|id| !id.is_empty())
            .map(str::to_string)
            .collect();
        wasm_bindgen_futures::spawn_local(async move {
            bridge::send(match stored_runs(&ids).await {
                Ok(list) => Action::Open(list, false),
                Err(detail) => Action::Failed(Banner {
                    title: "These runs cannot be compared".into(),
                    detail,
                    more: None,
                }),
            });
        });
        return;
    }
    if !f.starts_with("#compare=") {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        bridge::send(match link::open_link(&f).await {
            Ok(Link::Compare(reports)) => Action::Open(crate::compared::named(reports), false),
            // A report's link is the app's.
            Ok(Link::Report(_)) => return,
            Err(e) => {
                let (title, detail, more) = link::refused(&e);
                Action::Failed(Banner {
                    title: title.into(),
                    detail,
                    more,
                })
            }
        });
    });
}

/// The stored runs `ids`, read from the team server in order (contract §15.5), or why not in
/// words: at least two, each read by `Report::parse`.
pub async fn stored_runs(ids: &[String]) -> Result<Vec<OpenReport>, String> {
    if ids.len() < 2 {
        return Err(format!(
            "a #runs= link names at least 2 runs, this one {}",
            ids.len()
        ));
    }
    let mut list = Vec::with_capacity(ids.len());
    for id in ids {
        list.push(api::open_run(id, api::run(id).await)?);
    }
    Ok(list)
}

fn slot_card(
    slot: Slot,
    open: Option<&OpenReport>,
    has_current: bool,
    dispatch: &Dispatch,
) -> Html {
    let (title, id) = match slot {
        Slot::Before => ("Before", "before"),
        Slot::After => ("After", "after"),
    };
    let d = dispatch.clone();
    let to = Callback::from(move |(name, text): (String, Option<String>)| match text {
        Some(text) => d.dispatch(Action::SetFile { slot, name, text }),
        None => take_current(Some(slot), &d),
    });
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
    dispatch: &Dispatch,
) -> Html {
    let on_file = to.reform(|(name, text): (String, String)| (name, Some(text)));
    let d = dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Failed(Banner {
            title: "The report could not be read".into(),
            detail,
            more: None,
        }))
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

/// A rate of a summary as every rendering shows it (`render::rate_with_ci`).
fn rate_with_ci(s: &figeval::Summary, m: Metric) -> String {
    render::rate_with_ci(s.rate(m), s.hits(m), s.n, s.ci(m))
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
            focus::focus(&format!(
                "[data-run=\"{key}\"] [data-testid=compare-run-{b}]:not(:disabled)"
            ))
        });
        if !found && pressed == "remove" {
            focus::focus("[data-testid=compare-runs] h2");
        }
    }
}

/// The reports compared (with three or more), each with its controls; and a way to add one.
/// The rows are keyed by report ([`OpenReport::key`]), so a moved report keeps its row.
fn runs_card(
    list: &[(AttrValue, Shared<Report>)],
    keys: &[u64],
    has_current: bool,
    dispatch: &Dispatch,
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
        let move_to = |to: usize, pressed| press(Action::Move { from: i, to }, Some((key, pressed)));
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
                                   v => d.dispatch(Action::Rename(i, v.to_string())),
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
                            onclick={press(Action::Remove(i), next.map(|&k| (k, "remove")))}>{ "Remove" }</button>
                </span>
            </li>
        }
    });
    let d = dispatch.clone();
    let to = Callback::from(move |(name, text): (String, Option<String>)| match text {
        Some(text) => d.dispatch(Action::AddFile { name, text }),
        None => take_current(None, &d),
    });
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
                    { format!("{run}{} {}", if mv.gained { "+ gained" } else { "− lost" }, render::metric_label(mv.metric)) }</span>
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

/// Whether the next render moves focus to the view's first heading: the app put its report in
/// a slot, which opened the view by other means than its button.
static FOCUS_HEADING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The app put its report on show in `slot` (its *Compare: use as before/after*).
pub fn put(slot: Slot) {
    FOCUS_HEADING.store(true, std::sync::atomic::Ordering::Relaxed);
    match bridge::current() {
        Ok(current) => bridge::send(Action::SetCurrent(Some(slot), current)),
        Err(b) => bridge::send(Action::Failed(b)),
    }
}

/// The effects of the view: it registers its dispatcher and re-renders when the app says
/// something; opens a `#compare=` link, at start and when the fragment changes; hands each new
/// failure to the app's banner, tells the app how many reports it compares, and has the
/// document check read the baseline's items while the Compare view is on show.
#[hook]
fn use_bridge(state: &UseReducerHandle<CompareState>) {
    bridge::use_heard();
    {
        let d = state.dispatcher();
        use_effect_with((), move |()| {
            bridge::attach(d);
            open_fragment();
            let on_hash = web_sys::window()
                .map(|w| gloo_events::EventListener::new(&w, "hashchange", |_| open_fragment()));
            move || drop(on_hash)
        });
    }
    use_effect_with(state.banner.clone(), |(n, b)| {
        if *n > 0 {
            bridge::banner(b.as_ref());
        }
    });
    let list = state.compared.list();
    let on_show = bridge::view() == "compare";
    let n = list.len();
    use_effect_with(state.show, move |show| {
        if *show > 0 {
            bridge::compared(n, true);
        }
    });
    use_effect_with(
        (list.len(), list.first().cloned(), on_show),
        move |(n, base, on_show)| {
            bridge::compared(*n, false);
            if let (Some(base), true) = (base, on_show) {
                checked::announce(&checked::of_report(
                    base,
                    "the baseline report of the comparison",
                ));
            }
        },
    );
    use_effect(|| {
        if FOCUS_HEADING.swap(false, std::sync::atomic::Ordering::Relaxed) {
            focus::focus("#view-compare h2");
        }
    });
}

/// The view.
#[function_component(CompareView)]
pub fn compare_view() -> Html {
    let state = use_reducer(CompareState::default);
    use_bridge(&state);
    let has_current = bridge::has_current();
    let dispatch = state.dispatcher();
    // The reports in order, the baseline first: two are before and after, more the matrix.
    let compared = state.compared.list();
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
    let runs = use_memo(compared.to_vec(), |l| Shared::new(Runs::of(l)));
    let d = dispatch.clone();
    let swap = Callback::from(move |_: MouseEvent| d.dispatch(Action::Swap));
    let many = named.len() >= 3;
    html! {
        <div class="compare" data-testid="compare-view">
            if !many {
                <div class="slots">
                    { slot_card(Slot::Before, state.compared.slot(Slot::Before), has_current, &dispatch) }
                    <button class="swap" onclick={swap} title="Swap before and after" aria-label="Swap before and after" data-testid="compare-swap"
                            disabled={compared.is_empty()}>{ "⇄" }</button>
                    { slot_card(Slot::After, state.compared.slot(Slot::After), has_current, &dispatch) }
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
                { runs_card(&named, &keys, has_current, &dispatch, &pending) }
                <div class="runs-part">{ tables::tables(m) }</div>
                { movers_card(compared, &moved) }
                <div class="runs-part"><More runs={(*runs).clone()} /></div>
                <section class="card" data-testid="compare-share">
                    <h2>{ "Share this comparison" }</h2>
                    <SharePanel testid="compare-" reports={named.clone()} />
                    <ShortLink testid="compare-" reports={compared.to_vec()}
                               may_push={bridge::server_text().as_deref().and_then(api::may_push)} />
                </section>
            } else {
                <p class="muted">{ "Open two reports of the same dataset (files, or the current report) to compare them." }</p>
            }
        </div>
    }
}
