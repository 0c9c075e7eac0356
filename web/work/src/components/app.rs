//! The workbench: one state, its two columns (the dataset and the card that opens a report
//! file; the deployment settings, the live run and offline scoring), and the effects that hand
//! what it makes to the app (web/README.md, "The workbench module").

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::bridge;
use crate::browser;
use crate::checked;
use crate::components::dataset_panel::{
    bundled_source, bundled_text, fetch_bundled, load_bundled, DatasetPanel,
};
use crate::components::offline_panel::OfflinePanel;
use crate::components::open_report_panel::OpenReportPanel;
use crate::components::run_panel::RunPanel;
use crate::components::settings_panel::SettingsPanel;
use crate::datasets;
use crate::format;
use crate::runner::{self, Job, RunHandle};
use crate::scoring;
use crate::shared::Shared;
use crate::state::{Action, WorkState};

/// How long the base URL must stay unchanged before the deployment is asked what it serves.
const SETTLE_MS: u32 = 400;

/// Asks the deployment at `base` what it serves; loads the bundled dataset of that corpus as
/// the default (the reducer keeps a dataset the user chose), then records the answer.
async fn ask_what_is_served(base: String, d: UseReducerDispatcher<WorkState>) {
    let corpus = browser::served_corpus(&base).await;
    if let Some(b) = corpus.as_deref().and_then(datasets::of_corpus) {
        if let Ok(text) = bundled_text(b).await {
            d.dispatch(Action::DefaultDataset {
                source: bundled_source(b),
                text,
            });
        }
    }
    d.dispatch(Action::Served {
        base_url: base,
        corpus_id: corpus,
    });
}

/// Looks for the bundled dataset a refused capture's questions belong to, and names it.
async fn name_foreign_capture(questions: Shared<Vec<String>>, d: UseReducerDispatcher<WorkState>) {
    for b in &datasets::BUNDLED {
        let Ok(text) = bundled_text(b).await else {
            continue;
        };
        if let Ok(dataset) = figeval::Dataset::parse(&text) {
            if scoring::is_capture_of(&dataset, &questions) {
                d.dispatch(Action::CaptureCorpus(dataset.corpus_id));
                return;
            }
        }
    }
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| WorkState::new(browser::load_settings()));
    let run_handle: Rc<RefCell<Option<Rc<RunHandle>>>> = use_mut_ref(|| None);

    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            // The first bundled dataset, loaded unless another is there by then.
            fetch_bundled(&datasets::BUNDLED[0], dispatch.clone(), |source, text| {
                Action::FirstDataset { source, text }
            });
            bridge::attach(dispatch);
        });
    }
    use_effect_with(state.settings.clone(), browser::save_settings);
    // Ask the deployment what it serves (after the base URL settles): until the user chooses a
    // dataset, the bundled one of that corpus replaces the one loaded at start.
    {
        let d = state.dispatcher();
        use_effect_with(state.settings.base_url.trim().to_string(), move |base| {
            let base = base.clone();
            let timer = gloo_timers::callback::Timeout::new(SETTLE_MS, move || {
                wasm_bindgen_futures::spawn_local(ask_what_is_served(base, d))
            });
            move || drop(timer)
        });
    }
    // A capture refused as another dataset's: find the bundled dataset it is for.
    {
        let d = state.dispatcher();
        use_effect_with(state.foreign_capture.clone(), move |questions| {
            if let Some(q) = questions.clone() {
                wasm_bindgen_futures::spawn_local(name_foreign_capture(q, d));
            }
        });
    }
    // What goes to the app: the banner's message, and each report scored here.
    use_effect_with(state.banner.clone(), |(n, b)| {
        if *n > 0 {
            bridge::banner(*n, b);
        }
    });
    use_effect_with(state.handed.clone(), |h| {
        if let Some(h) = h {
            bridge::hand(h);
        }
    });
    // The document module checks this dataset while the app has nothing with items on show.
    use_effect_with(
        (
            state.checked.clone(),
            state.dataset.clone(),
            state.dataset_source.clone(),
        ),
        {
            let state = state.clone();
            move |(c, _, _)| {
                if c.here {
                    figeval_web_common::checked::announce(&checked::announced(&state));
                }
            }
        },
    );
    // Starting or stopping a run disables the focused button: focus goes to cancel or run.
    {
        let running = state.run.is_running();
        let was = use_mut_ref(|| running);
        use_effect_with(running, move |&now| {
            if now != was.replace(now) && browser::focused_is("body, :disabled") {
                browser::focus(if now {
                    "[data-testid=cancel-run]"
                } else {
                    "[data-testid=run-live]"
                });
            }
        });
    }
    let start = |resume: bool| {
        let state = state.clone();
        let run_handle = run_handle.clone();
        Callback::from(move |_: ()| match state.plan_run(resume) {
            Err(detail) => state.dispatch(Action::Error {
                title: "The run cannot start".into(),
                detail,
            }),
            Ok((config, pending)) => {
                let Some(dataset) = state.dataset.clone() else {
                    return;
                };
                let id = state.run.id + 1;
                state.dispatch(Action::RunStarted {
                    id,
                    config: config.clone(),
                    resume,
                    started_at: browser::now_iso(),
                    now_ms: browser::now_ms(),
                });
                let handle = runner::start(Job {
                    id,
                    dataset,
                    pending,
                    config,
                    dispatch: state.dispatcher(),
                });
                *run_handle.borrow_mut() = Some(handle);
            }
        })
    };
    let on_cancel = {
        let state = state.clone();
        let run_handle = run_handle.clone();
        Callback::from(move |_: ()| {
            if let Some(h) = run_handle.borrow_mut().take() {
                h.stop();
            }
            state.dispatch(Action::RunCancelled {
                id: state.run.id,
                now_ms: browser::now_ms(),
            });
        })
    };
    let on_download_capture = {
        let state = state.clone();
        Callback::from(move |_: ()| {
            let corpus = state
                .dataset
                .as_ref()
                .map_or("capture".to_string(), |d| format::file_stem(&d.corpus_id));
            browser::download(
                &format!("figeval-capture-{corpus}.jsonl"),
                "application/x-ndjson",
                &state.run.capture_text(),
            );
        })
    };
    let on_discard = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| d.dispatch(Action::DiscardRun))
    };
    let running = state.run.is_running();
    let blocked = state.plan_run(false).err();
    let mismatch = state.corpus_mismatch();
    let matching = mismatch
        .as_ref()
        .and_then(|(served, _)| datasets::of_corpus(served));
    let on_load_matching = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| {
            if let Some(b) = matching {
                load_bundled(b, d.clone());
            }
        })
    };
    html! {
        <>
            <div class="col">
                <DatasetPanel text={state.dataset_text.clone()} source={state.dataset_source.clone()}
                              dataset={state.dataset.clone()} errors={state.dataset_errors.clone()}
                              locked={running} dispatch={state.dispatcher()} />
                <OpenReportPanel dispatch={state.dispatcher()} />
            </div>
            <div class="col">
                <SettingsPanel settings={state.settings.clone()} locked={running}
                               dispatch={state.dispatcher()} />
                <RunPanel run={state.run.clone()} {blocked} on_run={start(false)}
                          on_resume={start(true)} {on_cancel} {on_download_capture} {on_discard}
                          {mismatch} matching={matching.map(|b| b.title)} {on_load_matching} />
                <OfflinePanel text={state.responses_text.clone()} source={state.responses_source.clone()}
                              allow_missing={state.allow_missing} top_k={state.offline_top_k.clone()} has_dataset={state.dataset.is_some()}
                              dispatch={state.dispatcher()} />
            </div>
        </>
    }
}
