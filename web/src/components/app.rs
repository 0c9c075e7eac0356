//! The app: one state, three pages (workbench, report, compare), the banner, and the button of
//! the document tools (the Document view, drawn outside the app: index.html).
//!
//! The document outline every view shares: the header holds the one `h1` and the `nav` of view
//! buttons (the one on show is `aria-current`); each view is a `section` in `main`, named by
//! its button, whose cards start at `h2`. When a view opens by something other than its button
//! (a report was scored, a report was sent to Compare), focus moves to the view's first heading,
//! so keyboard and screen reader users land where the change happened.
//!
//! The views are a `nav` of buttons, not an ARIA tab list: they switch the page's whole
//! content, as site navigation does, and a tab list's arrow-key handling cost more bundle bytes
//! than the budget had left.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::browser;
use crate::checked;
use crate::components::compare_view::CompareView;
use crate::components::dataset_panel::{
    bundled_source, bundled_text, fetch_bundled, load_bundled, DatasetPanel,
};
use crate::components::error_banner::ErrorBanner;
use crate::components::offline_panel::OfflinePanel;
use crate::components::open_report_panel::OpenReportPanel;
use crate::components::report_view::ReportView;
use crate::components::run_panel::RunPanel;
use crate::components::settings_panel::SettingsPanel;
use crate::datasets;
use crate::format;
use crate::runner::{self, Job, RunHandle};
use crate::scoring;
use crate::shared::Shared;
use crate::state::{Action, AppState, View};

/// Opens the report of a `#report=` fragment or the comparison of a `#compare=` one, when the
/// page has one.
fn open_fragment(dispatch: &UseReducerDispatcher<AppState>) {
    if let Some(f) = browser::fragment() {
        if f.starts_with("#report=") || f.starts_with("#compare=") {
            let dispatch = dispatch.clone();
            wasm_bindgen_futures::spawn_local(async move {
                dispatch.dispatch(Action::OpenShareLink(browser::open_link(&f).await));
            });
        }
    }
}

/// How long the base URL must stay unchanged before the deployment is asked what it serves.
const SETTLE_MS: u32 = 400;

/// Asks the deployment at `base` what it serves; loads the bundled dataset of that corpus as
/// the default (the reducer keeps a dataset the user chose), then records the answer.
async fn ask_what_is_served(base: String, d: UseReducerDispatcher<AppState>) {
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
async fn name_foreign_capture(questions: Shared<Vec<String>>, d: UseReducerDispatcher<AppState>) {
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

/// A view's tab and panel.
struct ViewIds {
    view: View,
    /// The view button's `id` and `data-testid`.
    tab: &'static str,
    /// The panel's `id`.
    panel: &'static str,
    /// The panel's first heading, where focus goes when the view opens by other means.
    heading: &'static str,
}

/// The views in tab order.
const VIEWS: [ViewIds; 3] = [
    ViewIds {
        view: View::Workbench,
        tab: "tab-workbench",
        panel: "view-workbench",
        heading: "#view-workbench h2",
    },
    ViewIds {
        view: View::Report,
        tab: "tab-report",
        panel: "view-report",
        heading: "#view-report h2",
    },
    ViewIds {
        view: View::Compare,
        tab: "tab-compare",
        panel: "view-compare",
        heading: "#view-compare h2",
    },
];

fn ids(view: View) -> &'static ViewIds {
    VIEWS.iter().find(|v| v.view == view).unwrap_or(&VIEWS[0])
}

/// What decides where keyboard focus goes when the page changes under it.
#[derive(Clone, Copy, PartialEq)]
struct FocusCues {
    view: View,
    banner: bool,
    running: bool,
}

/// Moves focus after a change the focused control did not show itself: a failure focuses the
/// banner; a view opened by anything but its tab (a report was scored, sent to Compare)
/// focuses that view's first heading; starting or stopping a run, which disables the focused
/// button, focuses cancel or run.
fn move_focus(was: FocusCues, now: FocusCues) {
    if now.banner && !was.banner {
        browser::focus("[data-testid=error-banner]");
    } else if now.view != was.view {
        if !browser::focused_is(".tab") {
            browser::focus(ids(now.view).heading);
        }
    } else if now.running != was.running && browser::focused_is("body, :disabled") {
        browser::focus(if now.running {
            "[data-testid=cancel-run]"
        } else {
            "[data-testid=run-live]"
        });
    }
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState::new(browser::load_settings()));
    let run_handle: Rc<RefCell<Option<Rc<RunHandle>>>> = use_mut_ref(|| None);

    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            // The first bundled dataset, loaded unless another is there by then.
            fetch_bundled(&datasets::BUNDLED[0], dispatch.clone(), |source, text| {
                Action::FirstDataset { source, text }
            });
            open_fragment(&dispatch);
            let window = web_sys::window().expect("the app runs in a window");
            let listener = gloo_events::EventListener::new(&window, "hashchange", move |_| {
                open_fragment(&dispatch)
            });
            move || drop(listener)
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
    // The document module checks the dataset of what is on screen (crate::checked); the runs
    // module shows the compared reports' ranking metrics and items × runs (web/runs). One effect:
    // a second would cost the main bundle its own copy of the hook.
    use_effect_with(
        (checked::target(&state), state.compared.clone()),
        |(t, c)| {
            browser::announce_checked(&t.announced());
            browser::announce_runs(c.list());
        },
    );
    {
        let cues = FocusCues {
            view: state.view,
            banner: state.banner.is_some(),
            running: state.run.is_running(),
        };
        let was = use_mut_ref(|| cues);
        use_effect_with(cues, move |now| move_focus(was.replace(*now), *now));
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
    let on_dismiss = {
        let d = state.dispatcher();
        Callback::from(move |_: ()| d.dispatch(Action::DismissBanner))
    };
    let tab = |view: View, label: &str| {
        let d = state.dispatcher();
        let selected = !state.document && state.view == view;
        let ids = ids(view);
        html! {
            <button type="button" id={ids.tab} class={classes!("tab", selected.then_some("selected"))}
                    aria-current={selected.then_some("page")} aria-controls={ids.panel} data-testid={ids.tab}
                    onclick={Callback::from(move |_: MouseEvent| d.dispatch(Action::Show(view)))}>
                { label.to_string() }
                // A report is open (the tab's name stays "Report").
                if view == View::Report && state.report.is_some() { <span aria-hidden="true">{ " ●" }</span> }
            </button>
        }
    };
    let panel = |view: View, class: Option<&'static str>, content: Html| {
        let ids = ids(view);
        html! {
            <section class={classes!("page", class)} id={ids.panel}
                     aria-labelledby={ids.tab} hidden={state.document || state.view != view}>
                { content }
            </section>
        }
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
            <header class="topbar">
                <div class="brand">
                    <span class="logo" aria-hidden="true">{ "◧" }</span>
                    <h1 class="name">{ "figeval" }</h1>
                    <span class="tagline">{ "does the search bring back the page the figure is printed on?" }</span>
                </div>
                <nav aria-label="Views">
                    <div class="tabs">
                        { tab(View::Workbench, "Run & score") }
                        { tab(View::Report, "Report") }
                        { tab(View::Compare, "Compare") }
                        // The document tools (index.html's #doc-side, shown by style.css while
                        // this button is current): the PDF, its check, captions and editor.
                        <button type="button" id="tab-document" data-testid="tab-document"
                                class={classes!("tab", state.document.then_some("selected"))}
                                aria-current={state.document.then_some("page")} aria-controls="doc-side"
                                onclick={let d = state.dispatcher(); Callback::from(move |_: MouseEvent| d.dispatch(Action::ShowDocument))}>
                            { "Document" }
                        </button>
                    </div>
                </nav>
            </header>
            <main>
                <ErrorBanner banner={state.banner.clone()} {on_dismiss} />
                { panel(View::Workbench, Some("workbench"), html! {
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
                                      allow_missing={state.allow_missing} has_dataset={state.dataset.is_some()}
                                      dispatch={state.dispatcher()} />
                    </div>
                    </>
                }) }
                { panel(View::Report, None, html! {
                    <ReportView open={state.report.clone()} capture={state.report_capture.clone()} trec={state.report_trec.clone()}
                                dispatch={state.dispatcher()} />
                }) }
                { panel(View::Compare, None, html! {
                    <CompareView compared={state.compared.clone()}
                                 has_current={state.report.is_some()} dispatch={state.dispatcher()} />
                }) }
            </main>
            <footer class="muted small">
                { format!("figeval {} · scoring runs in this page (WebAssembly); reports never leave the browser unless you share them.", figeval::VERSION) }
            </footer>
        </>
    }
}
