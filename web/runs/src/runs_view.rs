//! The Runs view (contract §10.1, §15.5), rendered into the app's `#runs-app`: with the page
//! served by `figeval serve`, the runs it stores, filtered by dataset, corpus and label, newest
//! first, a page at a time; and, with or without a server, the runs kept in this browser (the
//! last 50 reports made or opened here, each deletable). With one dataset chosen, the trend of
//! a metric over its runs. Runs picked (two or more; the first picked is the baseline) open in
//! the Compare view, a run's name opens it in the report view. Every name and label is text.

use figeval::Metric;
use figeval_web_common::api;
use figeval_web_common::open_report::{read_report, OpenReport};
use figeval_web_common::table_scroll::table_scroll;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::bridge;
use crate::compared::{Action as CompareAction, Banner};
use crate::history::{self, short_key, Filters, Page, Run, Session, Source, TrendMetric};
use crate::kept;
use crate::listing::{Action, Loaded, Picked, RunsState, Server, PAGE_SIZE, TREND_RUNS};
use crate::trend;

type Dispatch = UseReducerDispatcher<RunsState>;

/// Signs in with a token (`POST api/session`, which answers with the session cookie), or out
/// (`DELETE api/session`); the page's session is asked again either way. `Err`: the server's
/// words.
async fn sign(token: Option<&str>) -> Result<(), String> {
    let a = match token {
        Some(t) => {
            let body = serde_json::json!({ "token": t }).to_string();
            api::call("POST", "api/session", Some(&body)).await?
        }
        None => api::call("DELETE", "api/session", None).await?,
    };
    bridge::session_changed().await;
    match a.status {
        200 | 204 => Ok(()),
        _ => Err(a.refusal()),
    }
}

/// The sign-in card: a `read` or `admin` token, exchanged for the server's session cookie. The
/// token is read from its field once, sent, and the field emptied: it is kept nowhere.
fn sign_in_card(token: &NodeRef, error: &UseStateHandle<Option<String>>) -> Html {
    let on_submit = {
        let (token, error) = (token.clone(), error.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let Some(input) = token.cast::<HtmlInputElement>() else {
                return;
            };
            let value = input.value();
            input.set_value("");
            let error = error.clone();
            wasm_bindgen_futures::spawn_local(async move {
                error.set(sign(Some(value.trim())).await.err());
            });
        })
    };
    html! {
        <section class="card" aria-labelledby="history-sign-in-h" data-testid="history-sign-in">
            <h2 id="history-sign-in-h">{ "Sign in" }</h2>
            <p class="muted small">{ "This server lists its runs to those signed in. Give a read or admin token (figeval serve token create): the server answers with a session cookie this page cannot read, for 12 hours. The token itself is not kept." }</p>
            <form class="row wrap" onsubmit={on_submit}>
                <label>{ "Token " }
                    <input type="password" autocomplete="off" spellcheck="false" ref={token.clone()}
                           data-testid="history-token" placeholder="figeval_…" />
                </label>
                <button type="submit" data-testid="history-sign-in-submit">{ "Sign in" }</button>
            </form>
            if let Some(e) = &**error {
                <p class="field-error" role="alert" data-testid="history-sign-in-error">{ e.clone() }</p>
            }
        </section>
    }
}

/// A page of the server's list, or why not in words.
async fn list(query: String) -> Result<Page, String> {
    let a = api::call("GET", &query, None).await?;
    match a.status {
        200 => history::read_page(&a.text),
        _ => Err(a.refusal()),
    }
}

/// Reads the runs kept here.
fn read_kept(d: &Dispatch) {
    let d = d.clone();
    wasm_bindgen_futures::spawn_local(async move { d.dispatch(Action::Kept(kept::list().await)) });
}

/// A run's report, open: a stored run read from the server, a kept one from this browser.
async fn report_of(p: &Picked) -> Result<OpenReport, String> {
    match p.source {
        Source::Server => api::open_run(&p.id, api::run(&p.id).await),
        Source::Kept => {
            let text = kept::text(&p.id)
                .await
                .ok_or_else(|| format!("{:?} is no longer kept in this browser", p.name))?;
            read_report(&p.name, &text)
                .map(|r| OpenReport::new(&p.name, r))
                .map_err(|e| format!("{}: {}", e.title, e.detail))
        }
    }
}

/// Opens the picked runs in the Compare view: stored runs by their `#runs=` link (which the
/// address bar keeps), runs kept here by handing their reports to it.
fn compare(picked: Vec<Picked>) {
    if picked.iter().all(|p| p.source == Source::Server) {
        let ids: Vec<&str> = picked.iter().map(|p| p.id.as_str()).collect();
        set_hash(&format!("#runs={}", ids.join(",")));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let mut list = Vec::with_capacity(picked.len());
        for p in &picked {
            match report_of(p).await {
                Ok(o) => list.push(o),
                Err(detail) => {
                    return bridge::send(CompareAction::Failed(Banner {
                        title: "These runs cannot be compared".into(),
                        detail,
                        more: None,
                    }))
                }
            }
        }
        bridge::send(CompareAction::Open(list, true));
    });
}

fn set_hash(hash: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(hash);
    }
}

/// Opens a run in the report view: a stored run by its `#run=` link, a kept one handed over.
fn open(r: &Run) {
    match r.source {
        Source::Server => set_hash(&format!("#run={}", r.id)),
        Source::Kept => {
            let (id, name) = (r.id.clone(), r.name.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match kept::text(&id).await {
                    Some(text) => bridge::show_report(&name, &text),
                    None => bridge::banner(Some(&Banner {
                        title: "This run cannot be opened".into(),
                        detail: format!("{name:?} is no longer kept in this browser"),
                        more: None,
                    })),
                }
            });
        }
    }
}

/// A time as the list shows it: `2026-12-07 10:03:11 UTC`.
fn when(t: &str) -> String {
    match t.get(..19) {
        Some(s) => format!("{} UTC", s.replace('T', " ")),
        None => t.to_string(),
    }
}

/// The list's table: each run with its pick box, its name (opens it), when, dataset, corpus,
/// size, page hit @3 and labels; a kept run with its *Delete*.
fn table(runs: &[Run], state: &RunsState, d: &Dispatch, caption: &'static str) -> Html {
    let rows = runs.iter().map(|r| {
        let picked = state.is_picked(r);
        let pick = {
            let (d, p) = (d.clone(), Picked { id: r.id.clone(), source: r.source, name: r.name.clone() });
            Callback::from(move |e: Event| {
                let on = e.target_unchecked_into::<HtmlInputElement>().checked();
                d.dispatch(Action::Pick(p.clone(), on))
            })
        };
        let opened = { let r = r.clone(); Callback::from(move |_: MouseEvent| open(&r)) };
        let filter = {
            let (d, f, key) = (d.clone(), state.filters.clone(), r.dataset.clone());
            Callback::from(move |_: MouseEvent| d.dispatch(Action::Filter(Filters { dataset: key.clone(), ..f.clone() })))
        };
        let headline = r.summary.as_ref().map_or_else(|| "—".to_string(), |s| TrendMetric::Rate(Metric::PageHitAt3).words(s));
        let labels = r.labels.iter().map(|(k, v)| html! { <span class="tag">{ format!("{k}={v}") }</span> });
        html! {
            <tr data-testid="history-row" data-id={r.id.clone()} data-dataset={r.dataset.clone()}
                data-source={if r.source == Source::Kept { "kept" } else { "server" }}>
                <td><input type="checkbox" data-testid="history-pick" checked={picked} onchange={pick}
                           aria-label={format!("Pick {} to compare", r.name)} /></td>
                <th scope="row" class="q">
                    <button type="button" class="link" data-testid="history-open" onclick={opened}
                            title="Open its report">{ r.name.clone() }</button>
                </th>
                <td>{ when(&r.when) }</td>
                <td><button type="button" class="ghost small-button" data-testid="history-dataset" onclick={filter}
                            aria-label={format!("{}: only this dataset", short_key(&r.dataset))}>
                    <code>{ short_key(&r.dataset).to_string() }</code></button></td>
                <td>{ r.corpus.clone() }</td>
                <td class="num">{ r.n }</td>
                <td data-testid="history-headline">{ headline }</td>
                <td>{ for labels }</td>
                <td>
                    if r.source == Source::Kept {
                        <button type="button" class="ghost" data-testid="history-delete"
                                aria-label={format!("Delete {} from this browser", r.name)}
                                onclick={let (d, id) = (d.clone(), r.id.clone()); Callback::from(move |_: MouseEvent| {
                                    let (d, id) = (d.clone(), id.clone());
                                    wasm_bindgen_futures::spawn_local(async move {
                                        kept::remove(&id).await;
                                        d.dispatch(Action::Deleted(id));
                                    });
                                })}>{ "Delete" }</button>
                    }
                </td>
            </tr>
        }
    });
    table_scroll(
        caption,
        html! {
            <table class="runs-table history-table">
                <thead><tr>
                    <th scope="col"><span class="visually-hidden">{ "Pick" }</span></th>
                    <th scope="col">{ "Run" }</th>
                    <th scope="col">{ "When" }</th>
                    <th scope="col">{ "Dataset" }</th>
                    <th scope="col">{ "Corpus" }</th>
                    <th scope="col" class="num">{ "n" }</th>
                    <th scope="col">{ "page hit @3" }<br /><code>{ "page_hit_at_3" }</code></th>
                    <th scope="col">{ "Labels" }</th>
                    <th scope="col"><span class="visually-hidden">{ "Delete" }</span></th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        },
    )
}

/// The filters: the dataset (those seen so far), the corpus and, on a server, a label.
fn filters_form(state: &RunsState, seen: &[&Run], d: &Dispatch, refs: &[NodeRef; 2]) -> Html {
    let f = &state.filters;
    let mut datasets: Vec<(&str, &str, u64)> = Vec::new();
    for r in seen {
        if !datasets.iter().any(|(k, _, _)| *k == r.dataset) {
            datasets.push((&r.dataset, &r.corpus, r.n));
        }
    }
    let on_dataset = {
        let (d, f) = (d.clone(), f.clone());
        Callback::from(move |e: Event| {
            let dataset = e.target_unchecked_into::<HtmlSelectElement>().value();
            d.dispatch(Action::Filter(Filters {
                dataset,
                ..f.clone()
            }))
        })
    };
    let on_submit = {
        let (d, f, [corpus, label]) = (d.clone(), f.clone(), refs.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let value = |r: &NodeRef| {
                r.cast::<HtmlInputElement>()
                    .map(|i| i.value())
                    .unwrap_or_default()
            };
            d.dispatch(Action::Filter(Filters::trimmed(
                &f.dataset,
                &value(&corpus),
                &value(&label),
            )))
        })
    };
    let server = state.may_list();
    html! {
        <form class="row wrap history-filters" data-testid="history-filters" onsubmit={on_submit}>
            <label>{ "Dataset " }
                <select data-testid="history-filter-dataset" onchange={on_dataset}>
                    <option value="" selected={f.dataset.is_empty()}>{ "every dataset" }</option>
                    if !f.dataset.is_empty() && !datasets.iter().any(|(k, _, _)| *k == f.dataset) {
                        <option value={f.dataset.clone()} selected=true>{ short_key(&f.dataset).to_string() }</option>
                    }
                    { for datasets.iter().map(|(k, corpus, n)| html! {
                        <option value={k.to_string()} selected={f.dataset == *k}>{ format!("{corpus} · {n} items · {}", short_key(k)) }</option>
                    }) }
                </select>
            </label>
            <label>{ "Corpus " }
                <input type="text" data-testid="history-filter-corpus" ref={refs[0].clone()} value={f.corpus.clone()} placeholder="any" />
            </label>
            if server {
                <label>{ "Label " }
                    <input type="text" data-testid="history-filter-label" ref={refs[1].clone()} value={f.label.clone()} placeholder="key:value" />
                </label>
            }
            <button type="submit" data-testid="history-apply">{ "Filter" }</button>
        </form>
    }
}

/// The trend card: the metric picker and the chart of the filtered dataset's runs.
fn trend_card(state: &RunsState, runs: &[Run], d: &Dispatch) -> Html {
    let dataset = &state.filters.dataset;
    let m = state.metric;
    let on_metric = {
        let d = d.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(m) = TrendMetric::all().into_iter().find(|m| m.key() == v) {
                d.dispatch(Action::Metric(m))
            }
        })
    };
    let points = history::trend(runs, dataset, m);
    html! {
        <section class="card" aria-labelledby="history-trend-h" data-testid="history-trend">
            <h2 id="history-trend-h">{ format!("Trend of dataset {}", short_key(dataset)) }</h2>
            <p class="muted small">{ format!(
                "Each of its newest {TREND_RUNS} runs, oldest on the left, with its 95% interval as a whisker.") }</p>
            <label>{ "Metric " }
                <select data-testid="history-trend-metric" onchange={on_metric}>
                    { for TrendMetric::all().into_iter().map(|x| html! {
                        <option value={x.key()} selected={x == m}>{ x.label() }</option>
                    }) }
                </select>
            </label>
            { trend::chart(&points, m.label(), m.key(), dataset) }
        </section>
    }
}

/// The picked runs and the button that compares them.
fn compare_bar(state: &RunsState) -> Html {
    let picked = state.picked.clone();
    let n = picked.len();
    let go = Callback::from(move |_: MouseEvent| compare(picked.clone()));
    html! {
        <div class="history-compare" data-testid="history-picked">
            <button type="button" data-testid="history-compare" disabled={n < 2} onclick={go}>
                { format!("Compare the {n} picked") }</button>
            <span class="muted small">
                if n == 0 { { "Pick two runs or more to compare them; the first picked is the baseline." } }
                else { { format!("Baseline: {}", state.picked[0].name) } }
            </span>
        </div>
    }
}

/// The view.
#[function_component(RunsView)]
pub fn runs_view() -> Html {
    bridge::use_heard();
    let state = use_reducer(RunsState::default);
    let d = state.dispatcher();
    let token = use_node_ref();
    let sign_error = use_state(|| None::<String>);
    {
        let d = d.clone();
        use_effect_with((), move |()| read_kept(&d));
    }
    {
        // What serves the page, as boot.js last heard it (at start, after a sign-in or out).
        let d = d.clone();
        use_effect_with(bridge::server_text(), move |text| {
            if let Some(t) = text {
                d.dispatch(Action::Server(Session::read(t)));
            }
        });
    }
    {
        // The server's list, and the filtered dataset's trend, for each ask.
        let (d, ask, may, filters, cursor) = (
            d.clone(),
            state.ask,
            state.may_list(),
            state.filters.clone(),
            state.cursors.last().cloned().flatten(),
        );
        use_effect_with(ask, move |ask| {
            let ask = *ask;
            if may {
                let query = filters.query(PAGE_SIZE, cursor.as_deref());
                let d2 = d.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    d2.dispatch(Action::Page(ask, list(query).await))
                });
                if !filters.dataset.is_empty() {
                    let query = filters.query(TREND_RUNS, None);
                    wasm_bindgen_futures::spawn_local(async move {
                        d.dispatch(Action::Trend(ask, list(query).await.map(|p| p.runs)))
                    });
                }
            }
        });
    }
    {
        // A report shown here is kept: read the list again when the view is shown.
        let d = d.clone();
        let on_show = bridge::view() == "runs";
        use_effect_with(on_show, move |on| {
            if *on {
                read_kept(&d);
            }
        });
    }
    let refs = use_memo((), |()| [NodeRef::default(), NodeRef::default()]);
    let kept: Vec<Run> = state
        .kept
        .as_deref()
        .unwrap_or_default()
        .iter()
        .filter(|r| state.filters.keeps(r))
        .cloned()
        .collect();
    let listed: &[Run] = match &state.page {
        Loaded::Ready(p) => &p.runs,
        _ => &[],
    };
    let mut seen: Vec<&Run> = listed.iter().collect();
    seen.extend(state.kept.as_deref().unwrap_or_default());
    let source = match &state.server {
        Server::Asking => {
            html! { <p class="muted" data-testid="history-source">{ "Asking whether a figeval server serves this page…" }</p> }
        }
        Server::None => {
            html! { <p class="muted" data-testid="history-source">{ "This page is not served by figeval serve: the runs below are the last 50 reports made or opened in this browser, kept here only (IndexedDB). Nothing is uploaded." }</p> }
        }
        Server::Serve(s) => {
            html! { <p class="muted" data-testid="history-source">{ match (s.open, &s.name, &s.scope) {
                (true, _, _) => "Stored by the figeval server that serves this page (open on this machine: no token is asked for).".to_string(),
                (false, Some(name), Some(scope)) => format!("Stored by the figeval server that serves this page; signed in as {name} ({scope})."),
                _ => "Stored by the figeval server that serves this page; you are not signed in.".to_string(),
            } }
                if s.signed_in {
                    { " " }
                    <button type="button" class="link" data-testid="history-sign-out"
                            onclick={let e = sign_error.clone(); Callback::from(move |_: MouseEvent| {
                                let e = e.clone();
                                wasm_bindgen_futures::spawn_local(async move { e.set(sign(None).await.err()) });
                            })}>{ "Sign out" }</button>
                }
            </p> }
        }
    };
    let sign_in = matches!(&state.server, Server::Serve(s) if !s.may_read())
        .then(|| sign_in_card(&token, &sign_error));
    let server_card = state.may_list().then(|| {
        let body = match &state.page {
            Loaded::Loading => html! { <p class="muted" role="status">{ "Loading the runs…" }</p> },
            Loaded::Failed(e) => html! { <p class="field-error" role="alert" data-testid="history-error">{ e.clone() }</p> },
            Loaded::Ready(p) if p.runs.is_empty() => html! { <p class="muted" data-testid="history-empty">{ "No stored run matches." }</p> },
            Loaded::Ready(p) => table(&p.runs, &state, &d, "stored runs"),
        };
        let older = matches!(&state.page, Loaded::Ready(Page { next: Some(_), .. }));
        html! {
            <section class="card" aria-labelledby="history-stored-h" data-testid="history-stored">
                <h2 id="history-stored-h">{ "Stored runs" }</h2>
                <p class="muted small" role="status" data-testid="history-page">{ format!("Newest first, {PAGE_SIZE} a page; page {}.", state.cursors.len()) }</p>
                { body }
                <div class="row">
                    <button type="button" data-testid="history-newer" disabled={state.cursors.len() < 2}
                            onclick={let d = d.clone(); Callback::from(move |_: MouseEvent| d.dispatch(Action::Newer))}>{ "← Newer" }</button>
                    <button type="button" data-testid="history-older" disabled={!older}
                            onclick={let d = d.clone(); Callback::from(move |_: MouseEvent| d.dispatch(Action::Older))}>{ "Older →" }</button>
                </div>
            </section>
        }
    });
    let trend = (!state.filters.dataset.is_empty()).then(|| {
        let runs: Vec<Run> = match (&state.trend_runs, state.may_list()) {
            (Loaded::Ready(r), true) => r.iter().chain(&kept).cloned().collect(),
            _ => kept.clone(),
        };
        trend_card(&state, &runs, &d)
    });
    html! {
        <div class="history" data-testid="history-view">
            <section class="card" aria-labelledby="history-h">
                <h2 id="history-h">{ "Find and compare runs" }</h2>
                { source }
                { filters_form(&state, &seen, &d, &refs) }
                { compare_bar(&state) }
            </section>
            { sign_in }
            { trend }
            { server_card }
            <section class="card" aria-labelledby="history-kept-h" data-testid="history-kept">
                <h2 id="history-kept-h">{ "Kept in this browser" }</h2>
                <p class="muted small">{ "The last 50 reports made or opened in this page, newest first: kept in this browser only, never uploaded. Delete one to forget it." }</p>
                { match &state.kept {
                    None => html! { <p class="muted" role="status">{ "Reading them…" }</p> },
                    Some(_) if kept.is_empty() => html! { <p class="muted" data-testid="history-kept-empty">{ "None kept here that matches." }</p> },
                    Some(_) => table(&kept, &state, &d, "runs kept in this browser"),
                } }
            </section>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::when;

    #[test]
    fn a_time_is_shown_to_the_second_in_utc() {
        assert_eq!(when("2026-12-07T10:03:11.123Z"), "2026-12-07 10:03:11 UTC");
        assert_eq!(when("soon"), "soon");
    }
}
