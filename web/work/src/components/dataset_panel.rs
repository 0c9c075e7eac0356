//! Loading a dataset: bundled examples, a file (picker or drop), a URL, or pasted JSON; and
//! every validation error, worded by `figeval::Dataset::parse`.

use std::rc::Rc;

use figeval::Dataset;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::browser;
use crate::components::code_area::CodeArea;
use crate::components::file_drop::FileDrop;
use crate::components::file_picker::FilePicker;
use crate::datasets::{Bundled, BUNDLED};
use crate::shared::Shared;
use crate::state::{Action, WorkState};

/// Props of [`DatasetPanel`].
#[derive(Properties, PartialEq)]
pub struct DatasetPanelProps {
    /// The dataset's JSON text.
    pub text: Rc<str>,
    /// Where it came from.
    pub source: Rc<str>,
    /// The dataset, when valid.
    pub dataset: Option<Shared<Dataset>>,
    /// The validation errors.
    pub errors: Rc<Vec<String>>,
    /// A run is in progress: the dataset cannot change.
    pub locked: bool,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<WorkState>,
}

/// A bundled dataset's text, fetched from beside the page.
pub async fn bundled_text(b: &'static Bundled) -> Result<Rc<str>, String> {
    browser::fetch_text(b.file).await.map(Into::into)
}

/// Fetches a bundled dataset and dispatches what `arrived` makes of its source and text (or
/// says why it could not be fetched).
pub fn fetch_bundled(
    b: &'static Bundled,
    d: UseReducerDispatcher<WorkState>,
    arrived: fn(String, Rc<str>) -> Action,
) {
    wasm_bindgen_futures::spawn_local(async move {
        d.dispatch(match bundled_text(b).await {
            Ok(text) => arrived(bundled_source(b), text),
            Err(detail) => Action::Error {
                title: format!("The bundled dataset {} could not be fetched", b.file),
                detail,
            },
        })
    });
}

/// Loads a bundled dataset as the user's choice.
pub fn load_bundled(b: &'static Bundled, d: UseReducerDispatcher<WorkState>) {
    fetch_bundled(b, d, |source, text| Action::LoadDataset { source, text });
}

/// The dataset source a bundled dataset is loaded as.
pub fn bundled_source(b: &Bundled) -> String {
    format!("bundled: {}", b.file)
}

/// The dataset card.
#[function_component(DatasetPanel)]
pub fn dataset_panel(props: &DatasetPanelProps) -> Html {
    let url = use_state(String::new);
    let loading = use_state(|| false);
    let d = props.dispatch.clone();
    let on_file = Callback::from(move |(name, text): (String, String)| {
        d.dispatch(Action::LoadDataset {
            source: format!("file: {name}"),
            text: text.into(),
        })
    });
    let d = props.dispatch.clone();
    let on_error = Callback::from(move |detail: String| {
        d.dispatch(Action::Error {
            title: "The dataset could not be loaded".into(),
            detail,
        })
    });
    let d = props.dispatch.clone();
    let on_input = Callback::from(move |text: String| d.dispatch(Action::EditDataset(text)));
    let on_url_input = {
        let url = url.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            url.set(input.value());
        })
    };
    let load_url = {
        let url = url.clone();
        let loading = loading.clone();
        let d = props.dispatch.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let address = url.trim().to_string();
            if address.is_empty() {
                return;
            }
            let d = d.clone();
            let loading = loading.clone();
            loading.set(true);
            wasm_bindgen_futures::spawn_local(async move {
                match browser::fetch_text(&address).await {
                    Ok(text) => d.dispatch(Action::LoadDataset {
                        source: format!("URL: {address}"),
                        text: text.into(),
                    }),
                    Err(detail) => d.dispatch(Action::Error {
                        title: "The dataset could not be fetched".into(),
                        detail,
                    }),
                }
                loading.set(false);
            });
        })
    };
    let bundled = BUNDLED.iter().map(|b| {
        let d = props.dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| load_bundled(b, d.clone()));
        let active = props.source.ends_with(b.file) && props.source.starts_with("bundled");
        html! {
            <button type="button" class={classes!("chip-button", active.then_some("active"))}
                    data-testid="load-bundled" data-dataset={b.id} disabled={props.locked}
                    {onclick}>{ b.title }</button>
        }
    });
    html! {
        <section class="card" aria-labelledby="dataset-h">
            <h2 id="dataset-h"><span class="step">{"1"}</span>{ "Dataset" }</h2>
            <div class="row wrap">
                <span class="muted">{ "Examples:" }</span>
                { for bundled }
            </div>
            <div class="row wrap">
                <FilePicker testid="dataset-file" label="Open a dataset file…" accept=".json,application/json"
                            on_file={on_file.clone()} on_error={on_error.clone()} disabled={props.locked} />
                <form class="url-form" onsubmit={load_url}>
                    <input type="url" placeholder="or a dataset URL (https://…/dataset.json)" aria-label="Dataset URL"
                           data-testid="dataset-url" value={(*url).clone()} oninput={on_url_input}
                           disabled={props.locked} />
                    <button type="submit" data-testid="load-dataset-url"
                            disabled={props.locked || *loading}>{ if *loading { "Loading…" } else { "Load" } }</button>
                </form>
            </div>
            <FileDrop {on_file} {on_error} disabled={props.locked}>
                <CodeArea testid="dataset-input" label="Dataset JSON" rows={10} text={props.text.clone()}
                          {on_input} readonly={props.locked}
                          placeholder="Paste a dataset's JSON here, or drop a file." />
            </FileDrop>
            <p class="muted small">{ "Source: " }{ props.source.to_string() }</p>
            <DatasetStatus dataset={props.dataset.clone()} errors={props.errors.clone()} />
        </section>
    }
}

/// Props of [`DatasetStatus`].
#[derive(Properties, PartialEq)]
pub struct DatasetStatusProps {
    /// The dataset, when valid.
    pub dataset: Option<Shared<Dataset>>,
    /// The validation errors.
    pub errors: Rc<Vec<String>>,
}

/// "valid: N items by group", or every error.
#[function_component(DatasetStatus)]
pub fn dataset_status(props: &DatasetStatusProps) -> Html {
    if let Some(d) = &props.dataset {
        let groups = d
            .group_counts()
            .into_iter()
            .map(|(g, n)| format!("{n} {g}"))
            .collect::<Vec<_>>()
            .join(" · ");
        return html! {
            <p class="status ok" data-testid="dataset-status">
                <span class="badge hit">{ "valid" }</span>
                { format!(" corpus {} — {} items ({groups})", d.corpus_id, d.items.len()) }
            </p>
        };
    }
    let n = props.errors.len();
    html! {
        <div class="status errors" data-testid="dataset-errors">
            <p><span class="badge miss">{ "invalid" }</span>
               { format!(" {n} error{} in the dataset:", if n == 1 { "" } else { "s" }) }</p>
            <ul>
                { for props.errors.iter().map(|e| html! { <li data-testid="dataset-error">{ e.clone() }</li> }) }
            </ul>
        </div>
    }
}
