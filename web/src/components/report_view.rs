//! The report view: what was scored, the headline, the per-group table and chart, the items.

use figeval::{Metric, Report};
use yew::prelude::*;

use crate::browser;
use crate::components::bar_chart::BarChart;
use crate::components::group_table::{metric_label, metric_question, GroupTable, RankingTable};
use crate::components::items_list::ItemsList;
use crate::components::share_panel::SharePanel;
use crate::format;
use crate::state::{Action, AppState, OpenReport, View, WorkFiles};
use crate::{runs, work};

/// Props of [`ReportView`].
#[derive(Properties, PartialEq)]
pub struct ReportViewProps {
    /// The report on show.
    pub open: Option<OpenReport>,
    /// Its files kept by the workbench (a live run's capture, the standard run files, or why
    /// there are none), when the workbench scored it.
    pub files: Option<WorkFiles>,
    /// Whether `figeval serve` serves the page, and if so whether the session may push.
    pub may_push: Option<bool>,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<AppState>,
}

fn facts(r: &Report, open: &OpenReport) -> Html {
    let name = &*open.from;
    let fact = |k: &str, v: String| html! { <div class="fact"><dt>{ k.to_string() }</dt><dd>{ v }</dd></div> };
    html! {
        <dl class="facts" data-testid="report-facts">
            { fact("source", name.to_string()) }
            // A run read from the team server: its id and labels, as text.
            if let Some(st) = &open.stored {
                { fact("stored run", st.id.clone()) }
                { fact("labels", if st.labels.is_empty() { "none".to_string() } else {
                    st.labels.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", ")
                }) }
            }
            { fact("corpus", r.corpus_id.clone()) }
            { fact("deployment", r.base_url.clone().unwrap_or_else(|| "— (offline, not recorded)".into())) }
            { fact("top_k", r.top_k.map_or("—".into(), |k| k.to_string())) }
            { fact("cache mode", r.cache_mode.map_or("—".into(), |m| m.to_string())) }
            { fact("max precise span", format::span(r.max_precise_span_pages)) }
            { fact("scored", format::counted(r.summary.n as usize, "item", "items")) }
            if !r.unscored.is_empty() { { fact("unscored", format!("{} (no response)", r.unscored.len())) } }
            // A capture or a link has no run time of its own: no "0.0 s".
            { fact("run", match r.run.duration_s > 0.0 {
                true => format!("{} · {} · {} retried · figeval {}",
                    r.run.started_at.clone().unwrap_or_else(|| "start unknown".into()),
                    format::seconds(r.run.duration_s), r.run.retries, r.run.tool_version),
                false => format!("{} · figeval {}",
                    r.run.started_at.clone().unwrap_or_else(|| "start unknown".into()), r.run.tool_version),
            }) }
        </dl>
    }
}

/// The report's short link when `figeval serve` serves the page (`may_push` not `None`): its
/// run's, or a button that has the runs module push it (an admin session may), or why not.
fn short_link(open: &OpenReport, may_push: Option<bool>) -> Html {
    let Some(may_push) = may_push else {
        return html! {};
    };
    if let Some(st) = &open.stored {
        let url = figeval_web_common::short_link::short_link(
            &figeval_web_common::link::page_address(),
            std::slice::from_ref(&st.id),
        );
        return html! {
            <div class="share">
                <label class="grow">{ "Short link" }
                    <input type="text" readonly=true data-testid="short-link" value={url} />
                </label>
                <p class="muted small full">{ "The run stored on the figeval server that serves this page: whoever opens it needs access to that server." }</p>
            </div>
        };
    }
    if !may_push {
        return html! {
            <p class="muted small" data-testid="short-needs">
                { "A short link needs the report stored on this page's figeval server: sign in with an admin token under Runs to push it." }
            </p>
        };
    }
    html! {
        <div class="share">
            <button type="button" data-testid="short-push" onclick={Callback::from(|_: MouseEvent| runs::push_current())}>
                { "Push to this server for a short link" }</button>
            <span class="muted small">{ "The report is stored on the figeval server that serves this page, under its name." }</span>
        </div>
    }
}

/// The view.
#[function_component(ReportView)]
pub fn report_view(props: &ReportViewProps) -> Html {
    let Some(open) = &props.open else {
        return html! {
            <section class="card empty" data-testid="no-report">
                <h2>{ "No report yet" }</h2>
                <p>{ "Run live against a deployment, score saved responses, open a report file, or open a share link." }</p>
            </section>
        };
    };
    let report = open.report.clone();
    let r = &*report;
    let stem = format::file_stem(&r.corpus_id);
    let download_report = {
        let report = report.clone();
        let name = format!("figeval-report-{stem}.json");
        Callback::from(move |_: MouseEvent| {
            browser::download(&name, "application/json", &(report.to_json_pretty() + "\n"))
        })
    };
    // The workbench keeps a report's capture and makes its run files on the first click; a
    // capture that cannot give them then shows the core's reason instead of the buttons.
    let ask =
        |key: u32, which: &'static str| Callback::from(move |_: MouseEvent| work::file(key, which));
    let download_capture = props
        .files
        .as_ref()
        .filter(|f| f.capture)
        .map(|f| ask(f.key, "capture"));
    let trec_files = props.files.as_ref().map(|f| match &f.unavailable {
        Some(reason) => html! {
            <p class="muted small" data-testid="trec-unavailable" role="status">
                { format!("No TREC run files for these responses: {reason}") }
            </p>
        },
        None => html! {
            <>
                <button data-testid="download-trec-run" onclick={ask(f.key, "run")}>{ "Download TREC run (.txt)" }</button>
                <button data-testid="download-trec-qrels" onclick={ask(f.key, "qrels")}>{ "Download qrels (.txt)" }</button>
                <button data-testid="download-trec-queries" onclick={ask(f.key, "queries")}>{ "Download query map (.jsonl)" }</button>
            </>
        },
    });
    // The comparison is the runs module's: it takes the report on show.
    let compare_as = |slot: &'static str| {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            runs::put(slot);
            d.dispatch(Action::Show(View::Compare))
        })
    };
    // The run's name, above the headline: Enter or leaving the field renames the run; a blank
    // name is not taken (the field shows the name again).
    let rename = {
        let (d, name) = (props.dispatch.clone(), open.name.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            match input.value().trim() {
                "" => input.set_value(&name),
                v => d.dispatch(Action::RenameReport(v.to_string())),
            }
        })
    };
    let s = &r.summary;
    let headline = Metric::PageHitAt3;
    html! {
        <div class="report" data-testid="report-view">
            if let Some(w) = r.unchecked_warning() {
                <section class="card warn-card" data-testid="unchecked-warning" role="status">
                    <h2>{ "These numbers cannot be checked" }</h2>
                    <p>{ format!("This report is shown as it states itself: {w}.") }</p>
                </section>
            }
            <section class="card">
                <input type="text" class="run-name report-name" data-testid="report-name" value={open.name.to_string()}
                       aria-label="Run name" onchange={rename} />
                <div class="report-top">
                    <div class="headline-block" data-testid="headline" data-ci={format::ci_attr(s.ci(headline))}>
                        <h2 class="headline-label">{ "page hit @3 (overall)" }</h2>
                        <div class="headline-value">{ format::rate(s.rate(headline)) }</div>
                        <div class="headline-ci">{ format::hits_with_ci(s.hits(headline), s.n, s.ci(headline)) }</div>
                        <div class="headline-hits">{ format!("{} of {} questions had a top-3 match on an expected page", s.hits(headline), s.n) }</div>
                    </div>
                    <div class="side-metrics" data-testid="side-metrics">
                        { for Metric::ALL.into_iter().filter(|&m| m != headline).map(|m| html! {
                            <div class="side-metric" title={metric_question(m)} data-metric={m.name()} data-ci={format::ci_attr(s.ci(m))}>
                                <span class="side-label">{ metric_label(m) }</span>
                                <span class="side-value">{ format::rate(s.rate(m)) }</span>
                                <span class="hits">{ format::hits_with_ci(s.hits(m), s.n, s.ci(m)) }</span>
                            </div>
                        }) }
                        <div class="side-metric" title="mean of 1 / rank of the first match on an expected page"
                             data-metric="page_mrr" data-ci={format::ci_attr(s.page_mrr_ci)}>
                            <span class="side-label">{ "MRR" }</span>
                            <span class="side-value">{ format::rate(s.page_mrr) }</span>
                            if let Some(note) = format::interval_note(s.page_mrr_ci) { <span class="hits">{ note }</span> }
                        </div>
                    </div>
                </div>
                { facts(r, open) }
                <div class="row wrap actions">
                    <button data-testid="download-report" onclick={download_report}>{ "Download report (.json)" }</button>
                    if let Some(cb) = download_capture {
                        <button data-testid="download-report-capture" onclick={cb}>{ "Download capture (.jsonl)" }</button>
                    }
                    if let Some(t) = trec_files { { t } }
                    <button data-testid="compare-as-before" onclick={compare_as("before")}>{ "Compare: use as before" }</button>
                    <button data-testid="compare-as-after" onclick={compare_as("after")}>{ "Compare: use as after" }</button>
                </div>
                if props.files.is_some() {
                    <p class="muted small" data-testid="trec-note">
                        { "The TREC run, qrels and query map (q1…qN; pages as p<page>) are what figeval export writes, for ranx, ir_measures or trec_eval to compute other metrics." }
                    </p>
                }
                <SharePanel reports={vec![(AttrValue::from(open.name.clone()), report.clone())]} />
                { short_link(open, props.may_push) }
            </section>
            <section class="card" aria-labelledby="groups-h">
                <h2 id="groups-h">{ "By group" }</h2>
                <GroupTable report={report.clone()} />
                <p class="muted small legend-text">
                    { "Each cell: rate (hits/n; its 95% interval). page_hit_at_3 is the headline; precise_page_hit_at_3 leaves out matches wider than " }
                    { format::span(r.max_precise_span_pages) }
                    { "; figure_chunk_at_3 counts only described figure chunks; the prose group is the non-figure control, whose figure_chunk_at_3 is not marked as a miss (prose items ask for no figure)." }
                </p>
                <BarChart report={report.clone()} />
            </section>
            <section class="card" aria-labelledby="ranking-h">
                <h2 id="ranking-h">{ "Ranking" }</h2>
                <RankingTable report={report.clone()} />
                <p class="muted small legend-text">
                    { "nDCG and recall at 5 and 10 over the expected pages, as the benchmarks report them (binary gains, each page counted once at the rank where a match first covers it), each with its bootstrap 95% interval." }
                </p>
            </section>
            if !r.unscored.is_empty() {
                <section class="card warn-card" data-testid="unscored">
                    <h2>{ format!("Unscored: {} had no response", format::counted(r.unscored.len(), "item", "items")) }</h2>
                    <ul>{ for r.unscored.iter().map(|q| html! { <li>{ q.clone() }</li> }) }</ul>
                </section>
            }
            <ItemsList report={report.clone()} said={open.said.clone()} />
        </div>
    }
}
