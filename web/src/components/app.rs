//! The app: one state, three pages (workbench, report, compare) and the banner.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::answers::Answers;
use crate::browser;
use crate::components::compare_view::CompareView;
use crate::components::dataset_panel::DatasetPanel;
use crate::components::error_banner::ErrorBanner;
use crate::components::offline_panel::OfflinePanel;
use crate::components::open_report_panel::OpenReportPanel;
use crate::components::pdf_panel::PdfPanel;
use crate::components::report_view::ReportView;
use crate::components::run_panel::RunPanel;
use crate::components::settings_panel::SettingsPanel;
use crate::format;
use crate::runner::{self, Job, RunHandle};
use crate::state::{Action, AppState, RunStatus, View};

/// The value of `key=` in a page fragment (`#pdf=…&report=…`); other keys are ignored.
fn fragment_param<'f>(fragment: &'f str, key: &str) -> Option<&'f str> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    f.split('&')
        .find_map(|p| p.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
}

/// Opens the report of a `report=` fragment.
fn open_fragment(dispatch: &UseReducerDispatcher<AppState>) {
    if let Some(f) = browser::fragment() {
        if let Some(r) = fragment_param(&f, "report") {
            dispatch.dispatch(Action::OpenShareLink(format!("#report={r}")));
        }
    }
}

/// The URL a `pdf=` fragment offers (percent-decoded), fetched only when the user says yes.
fn pdf_offer() -> Option<AttrValue> {
    let f = browser::fragment()?;
    let v = fragment_param(&f, "pdf")?;
    let url = String::from(js_sys::decode_uri_component(v).ok()?);
    (!url.trim().is_empty()).then(|| url.trim().to_string().into())
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState::new(browser::load_settings()));
    let offer = use_memo((), |_| pdf_offer());
    let run_handle: Rc<RefCell<Option<Rc<RunHandle>>>> = use_mut_ref(|| None);

    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            open_fragment(&dispatch);
            let window = web_sys::window().expect("the app runs in a window");
            let listener = gloo_events::EventListener::new(&window, "hashchange", move |_| {
                open_fragment(&dispatch)
            });
            move || drop(listener)
        });
    }
    use_effect_with(state.settings.clone(), browser::save_settings);

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
    let on_dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| d.dispatch(Action::DismissBanner))
    };
    let tab = |view: View, label: &str, testid: &str| {
        let d = state.dispatcher();
        let selected = state.view == view;
        html! {
            <button role="tab" class={classes!("tab", selected.then_some("selected"))}
                    aria-selected={selected.to_string()} data-testid={testid.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| d.dispatch(Action::Show(view)))}>
                { label.to_string() }
            </button>
        }
    };
    let running = state.run.status == RunStatus::Running;
    let answers = match (&state.report_capture, &state.report_responses) {
        (Some(lines), _) => Answers::Live(lines.clone()),
        (None, Some(text)) => Answers::Text(text.clone()),
        (None, None) => Answers::None,
    };
    let blocked = state.plan_run(false).err();
    html! {
        <ContextProvider<Answers> context={answers}>
            <header class="topbar">
                <div class="brand">
                    <span class="logo" aria-hidden="true">{ "◧" }</span>
                    <span class="name">{ "figeval" }</span>
                    <span class="tagline">{ "does the search bring back the page the figure is printed on?" }</span>
                </div>
                <nav role="tablist" class="tabs">
                    { tab(View::Workbench, "Run & score", "tab-workbench") }
                    { tab(View::Report, if state.report.is_some() { "Report ●" } else { "Report" }, "tab-report") }
                    { tab(View::Compare, "Compare", "tab-compare") }
                </nav>
            </header>
            <main>
                <ErrorBanner banner={state.banner.clone()} {on_dismiss} />
                <PdfPanel offer={(*offer).clone()} />
                <div class="page workbench" hidden={state.view != View::Workbench}>
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
                                  on_resume={start(true)} {on_cancel} {on_download_capture} {on_discard} />
                        <OfflinePanel text={state.responses_text.clone()} source={state.responses_source.clone()}
                                      allow_missing={state.allow_missing} has_dataset={state.dataset.is_some()}
                                      dispatch={state.dispatcher()} />
                    </div>
                </div>
                <div class="page" hidden={state.view != View::Report}>
                    <ReportView open={state.report.clone()} capture={state.report_capture.clone()}
                                dispatch={state.dispatcher()} />
                </div>
                <div class="page" hidden={state.view != View::Compare}>
                    <CompareView before={state.before.clone()} after={state.after.clone()}
                                 has_current={state.report.is_some()} dispatch={state.dispatcher()} />
                </div>
            </main>
            <footer class="muted small">
                { format!("figeval {} · scoring runs in this page (WebAssembly); reports never leave the browser unless you share them.", figeval::VERSION) }
            </footer>
        </ContextProvider<Answers>>
    }
}
