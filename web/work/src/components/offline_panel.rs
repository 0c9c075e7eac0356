//! Scoring saved responses: any capture form of contract §6, pasted or dropped.

use std::rc::Rc;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser;
use crate::components::code_area::CodeArea;
use crate::components::file_drop::FileDrop;
use crate::components::file_picker::FilePicker;
use crate::format;
use crate::state::{Action, WorkState};

/// Props of [`OfflinePanel`].
#[derive(Properties, PartialEq)]
pub struct OfflinePanelProps {
    /// The responses text.
    pub text: Rc<str>,
    /// Where it came from.
    pub source: Rc<str>,
    /// Score the answered items, list the rest as unscored.
    pub allow_missing: bool,
    /// The depth the searches asked for, as typed (blank: read from the answers).
    pub top_k: Rc<str>,
    /// Whether a dataset is loaded.
    pub has_dataset: bool,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<WorkState>,
}

/// The offline scoring card.
#[function_component(OfflinePanel)]
pub fn offline_panel(props: &OfflinePanelProps) -> Html {
    let d = props.dispatch.clone();
    let on_file = Callback::from(move |(name, text): (String, String)| {
        d.dispatch(Action::LoadResponses {
            source: name,
            text: text.into(),
        })
    });
    let d = props.dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Error {
            title: "The responses could not be read".into(),
            detail,
        })
    });
    let d = props.dispatch.clone();
    let on_input = Callback::from(move |text: String| d.dispatch(Action::EditResponses(text)));
    let d = props.dispatch.clone();
    let on_allow = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        d.dispatch(Action::AllowMissing(input.checked()));
    });
    let d = props.dispatch.clone();
    let on_top_k = Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        d.dispatch(Action::OfflineTopK(input.value()));
    });
    let d = props.dispatch.clone();
    let score = Callback::from(move |_: MouseEvent| {
        d.dispatch(Action::ScoreOffline {
            started_at: browser::now_iso(),
        })
    });
    // Counted once per text (a capture can be ~100 MB), not on every render.
    let lines = *use_memo(props.text.clone(), |t| {
        t.lines().filter(|l| !l.trim().is_empty()).count()
    });
    html! {
        <section class="card" aria-labelledby="offline-h">
            <h2 id="offline-h"><span class="step">{"4"}</span>{ "Or score saved responses" }</h2>
            <p class="muted small">
                { "A capture (JSON Lines of {\"question\", \"response\"}), bare response bodies one per \
                   line (paired by their query), a JSON array of bodies, or a single body." }
            </p>
            <div class="row wrap">
                <FilePicker testid="responses-file" label="Open a capture…" accept=".jsonl,.json,.ndjson,application/json"
                            on_file={on_file.clone()} on_error={on_error.clone()} />
                <span class="muted small">{ format!("{} · {}", props.source, format::counted(lines, "non-blank line", "non-blank lines")) }</span>
            </div>
            <FileDrop {on_file} {on_error}>
                <CodeArea testid="responses-input" label="Responses" rows={8} text={props.text.clone()}
                          {on_input} placeholder="Paste responses here, or drop a capture file." />
            </FileDrop>
            <div class="row wrap">
                <label class="check">
                    <input type="checkbox" data-testid="allow-missing" checked={props.allow_missing}
                           onchange={on_allow} />
                    { " Allow missing responses (score the rest, list those as unscored)" }
                </label>
                <label class="top-k-field">{ "top_k " }
                    <input type="text" inputmode="numeric" data-testid="offline-top-k" size="4" value={props.top_k.to_string()}
                           oninput={on_top_k} aria-describedby="offline-top-k-hint" />
                    <span class="hint" id="offline-top-k-hint">{ " the depth the searches asked for, when the responses do not record it (blank: read from the answers; nDCG and recall at k are stated when it is k or more)" }</span>
                </label>
                <button class="primary" data-testid="score-offline" onclick={score}
                        disabled={!props.has_dataset || props.text.trim().is_empty()}>{ "Score" }</button>
            </div>
        </section>
    }
}
