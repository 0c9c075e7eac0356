//! The module's root: follows the page (the PDF strip, the main app's dataset, `data-doc-view`
//! clicks — all through boot.js's bridge), reads the page texts once per opened PDF, and shows
//! its views. Every view reads [`Doc`] from the context.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::bridge;
use crate::caption_list::CaptionList;
use crate::ground_panel::GroundPanel;
use crate::state::{Action, Pdf, State, Texts, View};

/// How long the dataset must stay unchanged before it is checked again (typing in the main
/// app's text area announces every valid keystroke).
const DATASET_SETTLE_MS: u32 = 300;

/// A view's button label and content.
fn view_parts(view: View, state: &State) -> (String, Html) {
    match view {
        View::Check => ("Dataset check".to_string(), html! { <GroundPanel /> }),
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

/// Listens to boot.js's events for as long as the module runs.
fn follow_page(dispatch: UseReducerDispatcher<State>) -> Vec<EventListener> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .expect("the module runs in a page");
    let settle: Rc<RefCell<Option<Timeout>>> = Rc::default();
    let on_pdf = {
        let d = dispatch.clone();
        EventListener::new(&document, bridge::PDF_EVENT, move |_| {
            d.dispatch(Action::Pdf(bridge::pdf_now()))
        })
    };
    let on_dataset = {
        let d = dispatch.clone();
        EventListener::new(&document, bridge::DATASET_EVENT, move |e| {
            let (d, text) = (d.clone(), bridge::detail(e));
            let timer = Timeout::new(DATASET_SETTLE_MS, move || d.dispatch(Action::Dataset(text)));
            settle.borrow_mut().replace(timer);
        })
    };
    let on_view = EventListener::new(&document, bridge::VIEW_EVENT, move |e| {
        if let Some(v) = View::from_name(&bridge::detail(e)) {
            dispatch.dispatch(Action::Show(v));
        }
    });
    vec![on_pdf, on_dataset, on_view]
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    {
        let dispatch = state.dispatcher();
        use_effect_with((), move |_| {
            let listeners = follow_page(dispatch.clone());
            // What happened before the module was loaded.
            dispatch.dispatch(Action::Dataset(bridge::dataset_text()));
            if let Some(v) = View::from_name(&bridge::requested_view()) {
                dispatch.dispatch(Action::Show(v));
            }
            dispatch.dispatch(Action::Pdf(bridge::pdf_now()));
            move || drop(listeners)
        });
    }
    {
        // Each opened PDF starts a generation: read its page texts once.
        let dispatch = state.dispatcher();
        let open = matches!(state.doc.pdf, Pdf::Open { .. });
        use_effect_with(state.doc.generation, move |&generation| {
            if open {
                wasm_bindgen_futures::spawn_local(async move {
                    let started = bridge::now_ms();
                    let d = dispatch.clone();
                    let texts = bridge::page_texts(move |done, total| {
                        d.dispatch(Action::Progress {
                            generation,
                            done,
                            total,
                        })
                    })
                    .await;
                    dispatch.dispatch(Action::Read {
                        generation,
                        texts,
                        ms: bridge::now_ms() - started,
                    });
                });
            }
        });
    }
    let read_ms = match &state.doc.texts {
        Texts::Ready(p) => Some(format!("{:.0}", p.read_ms)),
        _ => None,
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
            <section class="doc-area" aria-labelledby="doc-h" data-testid="doc-area"
                     data-generation={state.doc.generation.to_string()} data-texts-ms={read_ms}>
                <div class="row wrap doc-bar">
                    <h2 id="doc-h">{ "The PDF and the dataset" }</h2>
                    <nav aria-label="Document views">
                        <div class="doc-tabs">
                            { for views.iter().map(|(v, label, _)| {
                                let on = state.view == *v;
                                html! {
                                    // boot.js turns a click on any [data-doc-view] into a view event.
                                    <button type="button" class={classes!("chip-button", on.then_some("active"))}
                                            data-doc-view={v.name()} data-testid={format!("doc-view-{}", v.name())}
                                            aria-current={on.then_some("page")}>{ label.clone() }</button>
                                }
                            }) }
                        </div>
                    </nav>
                </div>
                { for views.into_iter().map(|(v, _, content)| html! {
                    <div class="doc-view" hidden={state.view != v}>{ content }</div>
                }) }
            </section>
        </ContextProvider<crate::state::Doc>>
    }
}
