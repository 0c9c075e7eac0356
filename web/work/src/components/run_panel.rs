//! The live run: start, progress, cancel, and after a stop the kept capture and resume.

use std::rc::Rc;

use yew::prelude::*;

use crate::state::{LiveRun, RunStatus};

/// Props of [`RunPanel`].
#[derive(Properties, PartialEq)]
pub struct RunPanelProps {
    /// The run.
    pub run: LiveRun,
    /// Why a run cannot start now, if it cannot.
    pub blocked: Option<String>,
    /// Start a new run.
    pub on_run: Callback<()>,
    /// Ask only for the items not answered yet.
    pub on_resume: Callback<()>,
    /// Stop the run.
    pub on_cancel: Callback<()>,
    /// Download what was received.
    pub on_download_capture: Callback<()>,
    /// Forget the stopped run.
    pub on_discard: Callback<()>,
    /// The corpus the deployment serves and the dataset's, when they differ.
    pub mismatch: Option<(Rc<str>, String)>,
    /// The bundled dataset of the served corpus (its title), when there is one.
    pub matching: Option<&'static str>,
    /// Load that dataset.
    pub on_load_matching: Callback<()>,
}

/// The run card.
#[function_component(RunPanel)]
pub fn run_panel(props: &RunPanelProps) -> Html {
    let run = &props.run;
    let running = run.is_running();
    let (done, total) = (run.done(), run.total());
    let click = |cb: &Callback<()>| cb.reform(|_: MouseEvent| ());
    let status = run.status.word();
    let status_class = match run.status {
        RunStatus::Failed(_) => "miss",
        RunStatus::Finished => "hit",
        RunStatus::Cancelled(_) => "warn",
        _ => "neutral",
    };
    html! {
        <section class="card" aria-labelledby="run-h">
            <h2 id="run-h"><span class="step">{"3"}</span>{ "Run live" }</h2>
            if let Some((served, dataset)) = &props.mismatch {
                <div class="notice row wrap" data-testid="corpus-mismatch">
                    <p>{ format!("The deployment serves {served}, but this dataset is for {dataset}, so its searches would find nothing.") }</p>
                    if let Some(title) = props.matching {
                        <button type="button" data-testid="load-matching" onclick={click(&props.on_load_matching)}
                                disabled={running}>{ format!("Load {title}") }</button>
                    }
                </div>
            }
            <div class="row wrap">
                <button class="primary" data-testid="run-live" onclick={click(&props.on_run)}
                        disabled={running || props.blocked.is_some()}>{ "Run live" }</button>
                <button data-testid="cancel-run" onclick={click(&props.on_cancel)} disabled={!running}>
                    { "Cancel" }</button>
                if run.can_resume() {
                    <button data-testid="resume-run" onclick={click(&props.on_resume)}
                            disabled={props.blocked.is_some()}>
                        { format!("Resume ({} left)", total - done) }</button>
                }
                if run.has_capture() && !running {
                    <button data-testid="download-capture" onclick={click(&props.on_download_capture)}>
                        { "Download capture (.jsonl)" }</button>
                }
                if run.can_resume() {
                    <button class="ghost" data-testid="discard-run" onclick={click(&props.on_discard)}>
                        { "Discard" }</button>
                }
            </div>
            if let Some(why) = &props.blocked {
                if !running {
                    <p class="field-error" data-testid="run-blocked">{ format!("Cannot run: {why}.") }</p>
                }
            }
            <div class="progress" data-testid="progress" data-done={done.to_string()}
                 data-total={total.to_string()} data-hits={run.hits.to_string()}
                 data-status={status}>
                <progress max={total.max(1).to_string()} value={done.to_string()}
                          aria-labelledby="progress-text"></progress>
                <span class="progress-text" id="progress-text" role="status">
                    <strong>{ format!("{done}/{total}") }</strong>{ " answered · " }
                    <strong>{ run.hits }</strong>{ " hit at 3 so far" }
                    if run.retries > 0 { { format!(" · {} retried", run.retries) } }
                    { " · " }<span class={classes!("badge", status_class)}>{ status }</span>
                </span>
            </div>
            if matches!(run.status, RunStatus::Cancelled(_) | RunStatus::Failed(_)) && done < total {
                <p class="muted small">{ format!(
                    "{done} of {total} responses are kept. Resume asks only for the other {}; \
                     the capture can be scored offline later.", total - done) }</p>
            }
        </section>
    }
}
