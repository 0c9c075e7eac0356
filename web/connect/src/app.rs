//! The connector dialog: a preset picker, the mapping (checked as it is typed), the header
//! values it needs, *Try one question*, and putting the connector in use.

use std::collections::BTreeMap;

use figeval::connector::probe_text;
use figeval::{CacheMode, Connector};
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::ask::{self, InUse};
use crate::state::{self, Asked};

thread_local! {
    /// Re-renders the dialog when boot.js opens it (what the app's settings say may have changed).
    static REFRESH: std::cell::RefCell<Option<Callback<()>>> = const { std::cell::RefCell::new(None) };
}

/// Re-renders the dialog.
pub fn refresh() {
    if let Some(cb) = REFRESH.with(|r| r.borrow().clone()) {
        cb.emit(());
    }
}

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the module runs in a page")
}

/// The value of one of the app's settings fields (`data-testid`), `""` when it is not on show.
fn app_field(testid: &str) -> String {
    let Ok(Some(e)) = document().query_selector(&format!("[data-testid={testid}]")) else {
        return String::new();
    };
    if let Some(i) = e.dyn_ref::<HtmlInputElement>() {
        return i.value();
    }
    e.dyn_ref::<HtmlSelectElement>()
        .map(|s| s.value())
        .unwrap_or_default()
}

/// Sets one of the app's settings fields (`data-testid`) as typing would, so the app takes the
/// value (its `input` event).
fn set_app_field(testid: &str, value: &str) {
    let Ok(Some(e)) = document().query_selector(&format!("[data-testid={testid}]")) else {
        return;
    };
    let Some(i) = e.dyn_ref::<HtmlInputElement>() else {
        return;
    };
    if i.value() != value {
        i.set_value(value);
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        if let Ok(ev) = web_sys::Event::new_with_event_init_dict("input", &init) {
            let _ = i.dispatch_event(&ev);
        }
    }
}

/// The base URL typed in the dialog, checked.
fn checked_base(base: &str) -> Result<String, String> {
    figeval::live::check_base_url(base).map_err(|e| format!("the base URL: {e}"))
}

/// What a *Try one question* asks: the base URL of the dialog, the app's top_k and cache mode,
/// and the question typed here.
fn try_asked(base: &str, question: &str) -> Result<Asked, String> {
    let base = checked_base(base)?;
    let top_k = app_field("top-k").trim().parse::<u32>().unwrap_or(5);
    let cache_mode = app_field("cache-mode")
        .parse::<CacheMode>()
        .unwrap_or(CacheMode::Bypass);
    if question.trim().is_empty() {
        return Err("type a question to try".into());
    }
    Ok(Asked {
        base_url: base,
        question: question.to_string(),
        corpus_id: String::new(),
        top_k,
        cache_mode,
    })
}

/// The status line at the top of the page (web/index.html, `connect-status`): the URL live runs
/// ask, while a connector other than ragweld is in use.
fn write_status(c: Option<(&Connector, &str)>) {
    let Ok(Some(s)) = document().query_selector("[data-testid=connect-status]") else {
        return;
    };
    let Some(s) = s.dyn_ref::<web_sys::HtmlElement>() else {
        return;
    };
    match c {
        None => s.set_hidden(true),
        Some((c, base)) => {
            s.set_text_content(Some(&format!(
                "Live runs ask through the connector {:?}: {} {}. Change it in the Deployment \
                 settings (another search API…).",
                c.name,
                c.request.method.name(),
                ask::url_for(c, base)
            )));
            s.set_hidden(false);
        }
    }
}

/// The dialog.
#[function_component(App)]
pub fn app() -> Html {
    let preset = use_state(|| "langserve".to_string());
    let text = use_state(|| state::preset_text("langserve"));
    let secrets = use_state(BTreeMap::<String, String>::new);
    let question = use_state(String::new);
    // The base URL the connector asks: the Deployment settings' until edited here.
    let base = use_state(|| None::<String>);
    let base_shown = (*base).clone().unwrap_or_else(|| app_field("base-url"));
    let probe = use_state(|| None::<Result<String, String>>);
    let note = use_state(String::new);
    let busy = use_state(|| false);
    let tick = use_state(|| 0u32);
    {
        let tick = tick.clone();
        REFRESH.with(|r| *r.borrow_mut() = Some(Callback::from(move |()| tick.set(*tick + 1))));
    }
    let checked = state::check(&text);
    let names = checked
        .as_ref()
        .map(state::secret_names)
        .unwrap_or_default();

    let on_preset = {
        let (preset, text) = (preset.clone(), text.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            text.set(state::preset_text(&v));
            preset.set(v);
        })
    };
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let on_base = {
        let base = base.clone();
        Callback::from(move |e: InputEvent| {
            base.set(Some(e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    let on_question = {
        let question = question.clone();
        Callback::from(move |e: InputEvent| {
            question.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let secret_input = |name: &String| {
        let value = secrets.get(name).cloned().unwrap_or_default();
        let secrets = secrets.clone();
        let name2 = name.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let mut s = (*secrets).clone();
            s.insert(
                name2.clone(),
                e.target_unchecked_into::<HtmlInputElement>().value(),
            );
            secrets.set(s);
        });
        html! {
            <label class="connect-secret">{ format!("{name} ") }
                <input type="password" autocomplete="off" data-testid="connect-secret" data-name={name.clone()}
                       {value} {oninput} />
            </label>
        }
    };
    // A connector ready to ask (page labels read from the open PDF when the mapping needs them).
    let prepare = {
        let secrets = secrets.clone();
        move |c: Connector| {
            let secrets = (*secrets).clone();
            async move {
                let labels = match c.response.numbering {
                    figeval::connector::Numbering::Label => ask::page_labels().await,
                    _ => None,
                };
                InUse::new(c, labels, |n| secrets.get(n).cloned().unwrap_or_default())
            }
        }
    };
    let on_try = {
        let (checked, probe, busy, question, base_shown) = (
            checked.clone(),
            probe.clone(),
            busy.clone(),
            question.clone(),
            base_shown.clone(),
        );
        let prepare = prepare.clone();
        Callback::from(move |_: MouseEvent| {
            let Ok(c) = checked.clone() else { return };
            let (probe, busy, question) = (probe.clone(), busy.clone(), (*question).clone());
            let (prepare, base_shown) = (prepare.clone(), base_shown.clone());
            busy.set(true);
            spawn_local(async move {
                let result = async {
                    let asked = try_asked(&base_shown, &question)?;
                    let c = prepare(c).await?;
                    let x = ask::exchange(&c, &asked, &wasm_bindgen::JsValue::NULL)
                        .await
                        .map_err(|e| {
                            js_sys::Reflect::get(&e, &"message".into())
                                .ok()
                                .and_then(|m| m.as_string())
                                .unwrap_or_else(|| "the request failed".into())
                        })?;
                    if !(200..300).contains(&x.status) {
                        return Err(format!(
                            "{} answered HTTP {} {}: {}",
                            c.connector.url(&asked.as_core()),
                            x.status,
                            x.status_text,
                            figeval::describe::start(&x.text, 500)
                        ));
                    }
                    let read = c.reader.read_answer(&x.text, true).map_err(|e| {
                        let e = figeval::describe::json_error(&e);
                        format!("the answer is not JSON ({e})")
                    })?;
                    Ok(probe_text(&c.reader, &read))
                }
                .await;
                probe.set(Some(result));
                busy.set(false);
            });
        })
    };
    let on_use = {
        let (checked, note, base_shown) = (checked.clone(), note.clone(), base_shown.clone());
        let prepare = prepare.clone();
        Callback::from(move |_: MouseEvent| {
            let Ok(c) = checked.clone() else { return };
            let note = note.clone();
            // Live runs ask the base URL shown here: the Deployment settings take it.
            let base = match checked_base(&base_shown) {
                Ok(b) => b,
                Err(e) => return note.set(e),
            };
            set_app_field("base-url", &base);
            let prepare = prepare.clone();
            spawn_local(async move {
                if c.is_ragweld() {
                    ask::set_in_use(None);
                    write_status(None);
                    note.set("Live runs ask ragweld's /search again.".into());
                    return;
                }
                match prepare(c).await {
                    Ok(c) => {
                        write_status(Some((&c.connector, &base)));
                        note.set(format!(
                            "Live runs now ask through {:?}. The header values stay in this \
                             page's memory: never saved, shared or written into a capture.",
                            c.connector.name
                        ));
                        ask::set_in_use(Some(c));
                    }
                    Err(e) => note.set(e),
                }
            });
        })
    };
    let on_close = Callback::from(|_: MouseEvent| {
        if let Some(d) = crate::dialog() {
            d.close();
        }
    });
    let in_use = ask::in_use().map(|c| c.connector.name.clone());
    html! {
        <div class="connect">
            <h2 id="connect-h">{ "Another search API" }</h2>
            <p class="muted small">{ "A connector says how to ask a deployment and where its answer keeps its pages (docs/contract.md §14). Live runs then ask through it, with the base URL below (the Deployment settings' unless you edit it), and the settings' top_k and cache mode." }</p>
            <p data-testid="connect-in-use">{ match &in_use {
                Some(n) => format!("In use: {n:?}."),
                None => "In use: ragweld (POST {base}/search).".to_string(),
            } }</p>
            <label class="connect-base">{ "Base URL " }
                <input type="url" data-testid="connect-base-url" spellcheck="false" value={base_shown.clone()} oninput={on_base} />
                <span class="hint" data-testid="connect-asks">{ match &checked {
                    Ok(c) => format!("Live runs will ask {} {}", c.request.method.name(), ask::url_for(c, &base_shown)),
                    Err(_) => "The base URL live runs ask (the Deployment settings take it when you use the connector)".to_string(),
                } }</span>
            </label>
            <label>{ "Preset " }
                <select data-testid="connect-preset" onchange={on_preset}>
                    { for Connector::preset_names().into_iter().map(|n| html! {
                        <option value={n} selected={*preset == n}>{ n }</option>
                    }) }
                </select>
            </label>
            <label class="connect-mapping">{ "The mapping (JSON; edit it for your deployment)" }
                <textarea data-testid="connect-mapping" rows="14" spellcheck="false" value={(*text).clone()} oninput={on_text} />
            </label>
            { match &checked {
                Ok(c) => html! { <p class="ok small" data-testid="connect-check">{ format!("A valid connector: {:?}, pages at {} (numbering \"{}\").", c.name, c.response.page_start, c.response.numbering.name()) }</p> },
                Err(problems) => html! {
                    <ul class="field-error" data-testid="connect-problems">
                        { for problems.iter().map(|p| html! { <li>{ p.clone() }</li> }) }
                    </ul>
                },
            } }
            { if names.is_empty() { html! {} } else { html! {
                <fieldset class="connect-secrets"><legend>{ "Header values (kept in this page's memory only)" }</legend>
                    { for names.iter().map(secret_input) }
                </fieldset>
            } } }
            <div class="row wrap">
                <label>{ "Question " }
                    <input type="text" data-testid="connect-question" value={(*question).clone()} oninput={on_question} />
                </label>
                <button type="button" data-testid="connect-try" onclick={on_try} disabled={checked.is_err() || *busy}>{ "Try one question" }</button>
            </div>
            { match &*probe {
                None => html! {},
                Some(Ok(t)) => html! { <pre class="connect-probe" data-testid="connect-probe">{ t.clone() }</pre> },
                Some(Err(e)) => html! { <p class="field-error" role="alert" data-testid="connect-error">{ e.clone() }</p> },
            } }
            <div class="row wrap">
                <button type="button" class="primary" data-testid="connect-use" onclick={on_use} disabled={checked.is_err()}>{ "Use it for live runs" }</button>
                <button type="button" class="ghost" data-testid="connect-close" onclick={on_close}>{ "Close" }</button>
            </div>
            { if note.is_empty() { html! {} } else { html! { <p role="status" data-testid="connect-note">{ (*note).clone() }</p> } } }
        </div>
    }
}
