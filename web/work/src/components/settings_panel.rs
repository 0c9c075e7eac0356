//! The deployment settings (remembered across visits).

use figeval::CacheMode;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::browser;
use crate::settings::{Settings, SettingsError};
use crate::state::{Action, WorkState};

/// Props of [`SettingsPanel`].
#[derive(Properties, PartialEq)]
pub struct SettingsPanelProps {
    /// The form.
    pub settings: Settings,
    /// A run is in progress: the form is read-only.
    pub locked: bool,
    /// Where actions go.
    pub dispatch: UseReducerDispatcher<WorkState>,
}

type Field = fn(&mut Settings) -> &mut String;

/// The settings form.
#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let errors: Vec<SettingsError> = props.settings.validate().err().unwrap_or_default();
    let error_of = |field: &str| {
        errors
            .iter()
            .filter(|e| e.field == field)
            .map(|e| html! { <p class="field-error" data-testid="settings-error" data-field={e.field}>{ e.message.clone() }</p> })
            .collect::<Html>()
    };
    let update = |field: Field| {
        let settings = props.settings.clone();
        let d = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut s = settings.clone();
            *field(&mut s) = input.value();
            d.dispatch(Action::Settings(s));
        })
    };
    let on_cache = {
        let settings = props.settings.clone();
        let d = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let mut s = settings.clone();
            s.cache_mode = select.value();
            d.dispatch(Action::Settings(s));
        })
    };
    let reset = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.dispatch(Action::Settings(Settings::default())))
    };
    // Served by figeval serve: the deployments its proxy reaches (§15.7), asked at start and
    // after each sign-in or out.
    let deployments = use_state(Vec::<(String, String)>::new);
    {
        let deployments = deployments.clone();
        use_effect_with((), move |()| {
            let ask = move || {
                let deployments = deployments.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    deployments.set(browser::deployments().await);
                });
            };
            ask();
            let heard = web_sys::window()
                .map(|w| gloo_events::EventListener::new(&w, "figeval-session", move |_| ask()));
            move || drop(heard)
        });
    }
    let proxy = browser::proxy_prefix().unwrap_or_default();
    let on_proxy = {
        let settings = props.settings.clone();
        let d = props.dispatch.clone();
        let proxy = proxy.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let mut s = settings.clone();
            s.base_url = match select.value().as_str() {
                "" => Settings::default().base_url,
                name => format!("{proxy}{name}"),
            };
            d.dispatch(Action::Settings(s));
        })
    };
    let s = &props.settings;
    let locked = props.locked;
    let through = (!deployments.is_empty()).then(|| {
        let chosen = s.base_url.strip_prefix(&proxy).unwrap_or_default();
        html! {
            <label class="wide">{ "Through figeval serve" }
                <select data-testid="deployment-proxy" onchange={on_proxy} disabled={locked}>
                    <option value="" selected={chosen.is_empty()}>{ "— none: the base URL, asked from this browser" }</option>
                    { for deployments.iter().map(|(name, connector)| html! {
                        <option value={name.clone()} selected={chosen == name}>{ format!("{name} ({connector})") }</option>
                    }) }
                </select>
                <span class="hint">{ "asked by the server that serves this page, with the credentials it holds" }</span>
            </label>
        }
    });
    html! {
        <section class="card" aria-labelledby="deploy-h">
            <h2 id="deploy-h"><span class="step">{"2"}</span>{ "Deployment" }</h2>
            <div class="form-grid">
                { for through }
                <label class="wide">{ "Base URL" }
                    <input type="url" data-testid="base-url" value={s.base_url.clone()}
                           oninput={update(|s| &mut s.base_url)} disabled={locked} spellcheck="false" />
                    <span class="hint">{ "POST {base}/search is called for each question, or " }
                        <button type="button" class="link" data-connect-open="" data-testid="connect-open">{ "another search API…" }</button></span>
                    { error_of("base_url") }
                </label>
                <label>{ "top_k" }
                    <input type="number" min="5" step="1" data-testid="top-k" value={s.top_k.clone()}
                           oninput={update(|s| &mut s.top_k)} disabled={locked} />
                    <span class="hint" title={figeval::request::TOP_K_REASON}>{ "≥ 5: page_hit_at_5 reads rank 5" }</span>
                    { error_of("top_k") }
                </label>
                <label>{ "Cache mode" }
                    <select data-testid="cache-mode" onchange={on_cache} disabled={locked}>
                        { for CacheMode::ALL.iter().map(|m| html! {
                            <option value={m.name()} selected={s.cache_mode == m.name()}>{ m.name() }</option>
                        }) }
                    </select>
                    <span class="hint">{ "bypass keeps before/after runs from replaying a cache" }</span>
                    { error_of("cache_mode") }
                </label>
                <label>{ "Timeout (s)" }
                    <input type="number" min="0.1" step="any" data-testid="timeout" value={s.timeout_s.clone()}
                           oninput={update(|s| &mut s.timeout_s)} disabled={locked} />
                    { error_of("timeout_s") }
                </label>
                <label>{ "Concurrency" }
                    <input type="number" min="1" max="32" data-testid="concurrency" value={s.concurrency.clone()}
                           oninput={update(|s| &mut s.concurrency)} disabled={locked} />
                    { error_of("concurrency") }
                </label>
                <label>{ "Retries" }
                    <input type="number" min="0" max="10" data-testid="retries" value={s.retries.clone()}
                           oninput={update(|s| &mut s.retries)} disabled={locked} />
                    <span class="hint">{ "429, 502–504 and connection errors only" }</span>
                    { error_of("retries") }
                </label>
                <label>{ "Max precise span (pages)" }
                    <input type="number" min="1" data-testid="max-precise-span" value={s.max_precise_span.clone()}
                           oninput={update(|s| &mut s.max_precise_span)} disabled={locked} />
                    { error_of("max_precise_span") }
                </label>
            </div>
            <p class="muted small">{ "Remembered in this browser. " }
                <button type="button" class="link" onclick={reset} disabled={locked}>{ "Reset to defaults" }</button>
            </p>
        </section>
    }
}
