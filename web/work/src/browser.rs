//! The workbench's browser shell: clock, storage, files, downloads, plain fetches, and the
//! searches of a live run (through the connector module while one is in use). Thin wrappers;
//! nothing here decides a number.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestCredentials, RequestInit, RequestMode};

use crate::settings::Settings;

const SETTINGS_KEY: &str = "figeval.settings.v1";

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a window")
}

/// The connector module's hand-over (web/connect, contract §14.9): `globalThis.figevalConnect`
/// while a connector other than ragweld is in use, with `ask(url, body, signal)` and `url(url)`.
fn connect_call(name: &str, args: &js_sys::Array) -> Option<JsValue> {
    let c = Reflect::get(&js_sys::global(), &"figevalConnect".into()).ok()?;
    let f: js_sys::Function = Reflect::get(&c, &name.into()).ok()?.dyn_into().ok()?;
    f.apply(&c, args).ok()
}

/// boot.js's `figevalServer` (the team server serving the page, contract §15.5).
fn server() -> Option<JsValue> {
    Reflect::get(&js_sys::global(), &"figevalServer".into()).ok()
}

/// Where the team server's proxy to its deployments answers (`…/api/deployments/`, §15.7).
pub fn proxy_prefix() -> Option<String> {
    Reflect::get(&server()?, &"proxy".into()).ok()?.as_string()
}

/// Whether `url` is the team server's proxy (a deployment it names, asked on the page's own
/// origin): the server asks the deployment its connector's way and answers in the contract's
/// shape, so no connector module is asked.
pub fn proxied(url: &str) -> bool {
    proxy_prefix().is_some_and(|p| url.starts_with(&p))
}

/// The deployments the team server serving the page proxies (`GET api/deployments`): `(name,
/// connector)`, the connector a preset's name or `a connector of its own`. Empty when the page
/// is not served by `figeval serve`, or may not list them.
pub async fn deployments() -> Vec<(String, String)> {
    let Some(f) = server()
        .and_then(|s| Reflect::get(&s, &"deployments".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return Vec::new();
    };
    let Some(Ok(p)) = server().map(|s| f.call0(&s)) else {
        return Vec::new();
    };
    let text = JsFuture::from(js_sys::Promise::from(p))
        .await
        .ok()
        .and_then(|t| t.as_string())
        .unwrap_or_default();
    let listed: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    let Some(list) = listed["deployments"].as_array() else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|d| {
            let name = d["name"].as_str()?.to_string();
            let connector = d["connector"]
                .as_str()
                .unwrap_or("a connector of its own")
                .to_string();
            Some((name, connector))
        })
        .collect()
}

/// Starts one search: `request` fetched, or, while a connector is in use, its module's `ask`
/// with the same URL, body and signal (it asks the deployment its way and answers in the
/// contract's shape). The team server's proxy is always fetched: it answers in that shape.
pub fn search(request: &web_sys::Request, url: &str, body: &str) -> js_sys::Promise {
    let args = js_sys::Array::of3(&url.into(), &body.into(), &request.signal());
    match (!proxied(url))
        .then(|| connect_call("ask", &args))
        .flatten()
    {
        Some(p) => p.unchecked_into(),
        None => window().fetch_with_request(request),
    }
}

/// The URL a run's messages name: the connector's, while one is in use (not for the proxy).
pub fn shown_url(url: &str) -> String {
    (!proxied(url))
        .then(|| connect_call("url", &js_sys::Array::of1(&url.into())))
        .flatten()
        .and_then(|u| u.as_string())
        .unwrap_or_else(|| url.to_string())
}

/// The words of a connector module's refusal (an error named `FigevalConnector`): what its
/// mapping could not read, shown as it is.
pub fn connector_refusal(e: &JsValue) -> Option<String> {
    let get = |k: &str| Reflect::get(e, &k.into()).ok()?.as_string();
    (get("name")? == "FigevalConnector").then(|| get("message"))?
}

/// Milliseconds since the epoch.
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// Now, RFC 3339 in UTC.
pub fn now_iso() -> String {
    js_sys::Date::new_0()
        .to_iso_string()
        .as_string()
        .unwrap_or_default()
}

/// The remembered settings (defaults when there are none or storage is blocked).
pub fn load_settings() -> Settings {
    let stored = window()
        .local_storage()
        .ok()
        .flatten()
        .and_then(|s| s.get_item(SETTINGS_KEY).ok().flatten());
    Settings::from_stored(stored.as_deref())
}

/// Remembers the settings (silently does nothing when storage is blocked).
pub fn save_settings(settings: &Settings) {
    if let Some(storage) = window().local_storage().ok().flatten() {
        let _ = storage.set_item(SETTINGS_KEY, &settings.to_stored());
    }
}

pub use crate::files::{download, js_error_text};

/// Why a search of `url` got no answer the page may read (`error`, the browser's): asked again
/// without CORS (an opaque `GET` the page cannot read), an answer means the deployment runs
/// but does not answer this page; none means it is not running there. Both say what to do
/// instead (the core's words, as the connector module says them).
pub async fn unreachable(url: &str, error: &JsValue) -> String {
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(RequestMode::NoCors);
    init.set_credentials(RequestCredentials::Omit);
    match JsFuture::from(window().fetch_with_str_and_init(url, &init)).await {
        Ok(_) => {
            let origin = window().location().origin().unwrap_or_default();
            figeval::live::cors_words(url, &origin, &[])
        }
        Err(_) => figeval::live::unreachable_words(url, &js_error_text(error)),
    }
}

/// Fetches a URL's text (no credentials), for a dataset given by URL.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_credentials(RequestCredentials::Omit);
    init.set_mode(RequestMode::Cors);
    let response = JsFuture::from(window().fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| format!("could not fetch {url}: {}", js_error_text(&e)))?;
    let response: web_sys::Response = response.unchecked_into();
    let status = response.status();
    let text = match response.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    };
    if !(200..300).contains(&status) {
        return Err(format!(
            "{url} answered HTTP {status}: {}",
            crate::format::start(&text, 300)
        ));
    }
    Ok(text)
}

/// The corpus the deployment at `base_url` serves, as its `GET {base_url}/health` says
/// (`corpus_id`, as refsearch gives it); `None` when it does not answer or does not say.
pub async fn served_corpus(base_url: &str) -> Option<String> {
    let url = format!("{}/health", base_url.trim_end_matches('/'));
    let text = fetch_text(&url).await.ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some(value.get("corpus_id")?.as_str()?.to_string()).filter(|c| !c.is_empty())
}

pub use figeval_web_common::focus::{focus, focused_is};
