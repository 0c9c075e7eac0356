//! The module's root: follows the page (the PDF strip, the main app's dataset, `data-doc-view`
//! clicks — all through boot.js's bridge), reads the page texts once per opened PDF, and shows
//! its views. Every view reads [`crate::state::Doc`] from the context.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

use crate::bridge;
use crate::caption_list::CaptionList;
use crate::draft::Editor;
use crate::editor::{saved_draft, EditorHandle, EditorPanel};
use crate::ground_panel::GroundPanel;
use crate::provenance_panel::ProvenancePanel;
use crate::state::{Action, DatasetIn, Pdf, State, Texts, View};

/// How long the dataset must stay unchanged before it is checked again (typing in the main
/// app's text area announces every valid keystroke).
const DATASET_SETTLE_MS: u32 = 300;

/// A view's button label and content.
fn view_parts(view: View, state: &State) -> (String, Html) {
    match view {
        View::Check => (
            "Dataset check".to_string(),
            html! { <><GroundPanel /><ProvenancePanel /></> },
        ),
        View::Editor => ("Dataset editor".to_string(), html! { <EditorPanel /> }),
        View::Captions => {
            let n = state
                .doc
                .pages()
                .map(|p| format!(" ({})", p.captions.len()));
            (
                format!("Captions{}", n.unwrap_or_default()),
                html! { <CaptionList /> },
            )
        }
    }
}

thread_local! {
    /// The running app's dispatcher, for what boot.js calls.
    static DISPATCH: RefCell<Option<UseReducerDispatcher<State>>> = const { RefCell::new(None) };
    /// A view asked for before the app was running.
    static REQUESTED: RefCell<Option<View>> = const { RefCell::new(None) };
}

/// Called by boot.js after each attempt to open PDFs, and when another open PDF is shown: reads
/// the strip's state.
#[wasm_bindgen]
pub fn pdf_changed() {
    DISPATCH.with(|d| {
        if let Some(d) = d.borrow().as_ref() {
            report_strip(d);
        }
    });
}

/// Tells the state what the strip says: the open set, then the PDF on show.
fn report_strip(d: &UseReducerDispatcher<State>) {
    let (set, names) = bridge::pdf_set();
    d.dispatch(Action::Set { set, names });
    d.dispatch(Action::Pdf(bridge::pdf_now()));
}

/// The pages the check needs first in the open PDF `name` (the one on show: `None`): the
/// dataset's expected pages, or of a dataset of several files, those of its locations in it.
fn first_pages(dataset: &DatasetIn, name: Option<&str>) -> Vec<u32> {
    let pages = |d: &figeval::Dataset| -> Vec<u32> {
        d.items
            .iter()
            .flat_map(|i| i.expected_pages.iter().map(|p| p.get()))
            .collect()
    };
    match (dataset, name) {
        (DatasetIn::Valid(d), None) => pages(d),
        (DatasetIn::SeveralFiles(d), Some(name)) => {
            pages(&figeval_document::ground::in_file(d, name, usize::MAX).0)
        }
        _ => Vec::new(),
    }
}

/// Called by boot.js when a `data-doc-view` element is clicked: shows the view it names.
#[wasm_bindgen]
pub fn show(name: &str) {
    let Some(view) = View::from_name(name) else {
        return;
    };
    DISPATCH.with(|d| match d.borrow().as_ref() {
        Some(d) => d.dispatch(Action::Show(view)),
        None => REQUESTED.with(|r| *r.borrow_mut() = Some(view)),
    });
    // Asked for from elsewhere in the page (a button outside the module): keyboard and screen
    // reader users land on the view, once it is drawn.
    Timeout::new(0, bridge::focus_view_heading).forget();
}

/// Starts following the page: boot.js's calls, the main app's announcements (after they
/// settle); returns what must stay alive.
fn follow_page(dispatch: UseReducerDispatcher<State>) -> impl Drop {
    DISPATCH.with(|d| *d.borrow_mut() = Some(dispatch.clone()));
    let settle: Rc<RefCell<Option<Timeout>>> = Rc::default();
    let d = dispatch.clone();
    let announce = bridge::take_announce(move |announced| {
        let d = d.clone();
        let timer = Timeout::new(DATASET_SETTLE_MS, move || {
            d.dispatch(Action::Dataset(announced))
        });
        settle.borrow_mut().replace(timer);
    });
    // What happened before the module was running.
    dispatch.dispatch(Action::Dataset(bridge::announced()));
    if let Some(v) = REQUESTED.with(|r| r.borrow_mut().take()) {
        dispatch.dispatch(Action::Show(v));
    }
    report_strip(&dispatch);
    announce
}

/// A read's texts apart from their sources.
fn split(
    read: Result<(Vec<String>, Vec<crate::state::Source>), String>,
) -> (Result<Vec<String>, String>, Vec<crate::state::Source>) {
    match read {
        Ok((texts, sources)) => (Ok(texts), sources),
        Err(why) => (Err(why), Vec::new()),
    }
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let editor = use_reducer(|| Editor::restore(saved_draft().as_deref()));
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let alive = follow_page(dispatch);
            move || drop(alive)
        });
    }
    {
        // Each PDF opened or shown starts a generation: read its page texts once (the viewer
        // keeps a read, so showing a PDF again takes no time), then those of the other PDFs
        // open beside it (a drawing set), one after another.
        let dispatch = state.dispatcher();
        let open = matches!(state.doc.pdf, Pdf::Open { .. });
        let set = state.doc.set;
        let (names, dataset) = (state.doc.open.clone(), state.doc.dataset.clone());
        use_effect_with(state.doc.generation, move |&generation| {
            if open {
                // Worked out once a generation, not on every render.
                let shown = bridge::pdf_name();
                let others: Vec<(std::rc::Rc<str>, Vec<u32>)> = names
                    .iter()
                    .filter(|n| ***n != *shown)
                    .map(|n| (n.clone(), first_pages(&dataset, Some(n))))
                    .collect();
                // A scanned page the dataset expects is read by OCR before the others.
                let first = match &dataset {
                    DatasetIn::SeveralFiles(_) => first_pages(&dataset, Some(&shown)),
                    d => first_pages(d, None),
                };
                wasm_bindgen_futures::spawn_local(async move {
                    let started = bridge::now_ms();
                    let d = dispatch.clone();
                    let read = bridge::page_texts(
                        move |done, total, so_far| match so_far {
                            Some((texts, sources)) => d.dispatch(Action::Partial {
                                generation,
                                texts,
                                sources,
                            }),
                            None => d.dispatch(Action::Progress {
                                generation,
                                done,
                                total,
                            }),
                        },
                        &first,
                        None,
                    )
                    .await;
                    let (texts, sources) = split(read);
                    dispatch.dispatch(Action::Read {
                        generation,
                        name: shown.into(),
                        texts,
                        sources,
                        ms: bridge::now_ms() - started,
                    });
                    for (name, first) in others {
                        let read = bridge::page_texts(|_, _, _| {}, &first, Some(&name)).await;
                        let (texts, sources) = split(read);
                        dispatch.dispatch(Action::ReadOther {
                            set,
                            name,
                            texts,
                            sources,
                        });
                    }
                });
            }
        });
    }
    let read_ms = match &state.doc.texts {
        Texts::Ready(p) => Some(format!("{:.0}", p.read_ms)),
        _ => None,
    };
    let fold = {
        let (d, folded) = (state.dispatcher(), state.folded);
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Fold(!folded)))
    };
    let views: Vec<(View, String, Html)> = View::ALL
        .iter()
        .map(|&v| {
            let (label, content) = view_parts(v, &state);
            (v, label, content)
        })
        .collect();
    html! {
        <ContextProvider<crate::state::Doc> context={state.doc.clone()}>
        <ContextProvider<EditorHandle> context={editor}>
            <section class="doc-area" aria-labelledby="doc-h" data-testid="doc-area"
                     data-generation={state.doc.generation.to_string()} data-texts-ms={read_ms}>
                <div class="row wrap doc-bar">
                    <h2 id="doc-h">{ "The PDF and the dataset" }</h2>
                    <nav aria-label="Document views">
                        <div class="doc-tabs">
                            { for views.iter().map(|(v, label, _)| {
                                let on = state.view == *v;
                                html! {
                                    // boot.js turns a click on any [data-doc-view] into a call of show().
                                    <button type="button" class={classes!("chip-button", on.then_some("active"))}
                                            data-doc-view={v.name()} data-testid={format!("doc-view-{}", v.name())}
                                            aria-current={on.then_some("page")}>{ label.clone() }</button>
                                }
                            }) }
                        </div>
                    </nav>
                    <button type="button" class="ghost" data-testid="doc-fold" aria-expanded={(!state.folded).to_string()}
                            aria-controls="doc-views" onclick={fold}>{ if state.folded { "Show ▾" } else { "Hide ▴" } }</button>
                </div>
                <div id="doc-views" hidden={state.folded}>
                    { for views.into_iter().map(|(v, _, content)| html! {
                        <div class="doc-view" hidden={state.view != v}>{ content }</div>
                    }) }
                </div>
            </section>
        </ContextProvider<EditorHandle>>
        </ContextProvider<crate::state::Doc>>
    }
}
