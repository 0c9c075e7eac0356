//! The app: one state, four pages (workbench, report, compare, runs), the banner, and the button
//! of the document tools (the Document view, drawn outside the app: index.html). The
//! workbench's page holds `#work-app`, where the workbench module (web/work) renders once it is
//! loaded; the Compare and Runs pages `#compare-app` and `#runs-app`, where the runs module
//! (web/runs) renders the comparison and the runs stored by the team server or kept here.
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

use yew::prelude::*;

use crate::browser;
use crate::checked;
use crate::components::error_banner::ErrorBanner;
use crate::components::report_view::ReportView;
use crate::state::{Action, AppState, View};
use crate::{runs, work};

/// Opens the report of a `#report=` fragment or the stored run of a `#run=ID` one (read from
/// the team server, contract §15.5), or the Compare view for a `#compare=` or `#runs=` one (the
/// runs module reads its reports), when the page has one.
fn open_fragment(dispatch: &UseReducerDispatcher<AppState>) {
    let Some(f) = browser::fragment() else {
        return;
    };
    let dispatch = dispatch.clone();
    match (View::of_link(&f), f.strip_prefix("#run=")) {
        (_, Some(id)) => {
            let id = id.split('&').next().unwrap_or_default().to_string();
            wasm_bindgen_futures::spawn_local(async move {
                let answer = figeval_web_common::api::run(&id).await;
                dispatch.dispatch(Action::OpenRun { id, answer });
            });
        }
        (Some(View::Report), _) => wasm_bindgen_futures::spawn_local(async move {
            dispatch.dispatch(Action::OpenShareLink(browser::open_link(&f).await));
        }),
        (Some(view), _) => dispatch.dispatch(Action::Show(view)),
        (None, _) => {}
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
const VIEWS: [ViewIds; 4] = [
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
    ViewIds {
        view: View::Runs,
        tab: "tab-runs",
        panel: "view-runs",
        heading: "#view-runs h2",
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
}

/// Moves focus after a change the focused control did not show itself: a failure focuses the
/// banner; a view opened by anything but its tab (a report was scored, sent to Compare)
/// focuses that view's first heading. (The workbench moves focus when a run starts or stops.)
fn move_focus(was: FocusCues, now: FocusCues) {
    if now.banner && !was.banner {
        browser::focus("[data-testid=error-banner]");
    } else if now.view != was.view && !browser::focused_is(".tab") {
        browser::focus(ids(now.view).heading);
    }
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| AppState::new(View::at_start(browser::fragment().as_deref())));

    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            work::attach(dispatch.clone());
            open_fragment(&dispatch);
            let window = web_sys::window().expect("the app runs in a window");
            let listener = gloo_events::EventListener::new(&window, "hashchange", move |_| {
                open_fragment(&dispatch)
            });
            move || drop(listener)
        });
    }
    // The document module checks the dataset of what is on screen (crate::checked): the report's
    // items, the comparison's baseline (the runs module announces it), or, with neither on
    // show, the workbench's dataset, which the workbench announces. The workbench is loaded
    // while its view is on show, or the Document view reads its dataset; the runs module while
    // the Compare view is, and it is told the view and whether a report is on show. One effect:
    // each hook costs the main bundle its own copy.
    use_effect_with(
        (
            checked::target(&state),
            state.view,
            state.document,
            state.report.clone(),
        ),
        |(t, view, document, report)| {
            let on_show = *view == View::Workbench;
            match t {
                checked::Target::Workbench { report_corpus } => {
                    work::tell(on_show || *document, true, report_corpus.as_deref());
                }
                _ => {
                    if let Some(a) = t.announced() {
                        figeval_web_common::checked::announce(&a);
                    }
                    work::tell(on_show, false, None);
                }
            }
            runs::tell(*view, report.as_ref());
        },
    );
    {
        let cues = FocusCues {
            view: state.view,
            banner: state.banner.is_some(),
        };
        let was = use_mut_ref(|| cues);
        use_effect_with(cues, move |now| move_focus(was.replace(*now), *now));
    }
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
                        { tab(View::Runs, "Runs") }
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
                // The workbench module (web/work) renders into #work-app once loaded.
                { panel(View::Workbench, Some("workbench"), html! {
                    <div id="work-app" class="work-app"></div>
                }) }
                { panel(View::Report, None, html! {
                    <ReportView open={state.report.clone()} files={state.report_files.clone()}
                                may_push={state.may_push} dispatch={state.dispatcher()} />
                }) }
                // The runs module (web/runs) renders the comparison into #compare-app, and the
                // runs stored or kept here into #runs-app.
                { panel(View::Compare, None, html! {
                    <div id="compare-app" class="compare-app"></div>
                }) }
                { panel(View::Runs, None, html! {
                    <div id="runs-app" class="runs-app"></div>
                }) }
            </main>
            <footer class="muted small">
                { format!("figeval {} · scoring runs in this page (WebAssembly); reports never leave the browser unless you share them.", figeval::VERSION) }
            </footer>
        </>
    }
}
