//! The browser shell: clock, storage, files, downloads, the URL fragment, plain fetches.
//! Thin wrappers; nothing here decides a number.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestCredentials, RequestInit, RequestMode};

use crate::settings::Settings;
use figeval::share::{self, Link, ShareError};

const SETTINGS_KEY: &str = "figeval.settings.v1";

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a window")
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = figevalDoc, js_name = announce)]
    fn announce(text: &str, what: &str, note: &str, hits: &str);
    #[wasm_bindgen(js_namespace = figevalRuns, js_name = announce)]
    fn announce_reports(names: &js_sys::Array, reports: &js_sys::Array);
}

/// Hands the compared reports to the runs module (web/runs, web/README.md "The runs module"):
/// their names and their JSON, in the compare view's order; both empty while fewer than two are
/// compared.
pub fn announce_runs(list: &[crate::state::OpenReport]) {
    let (names, reports) = (js_sys::Array::new(), js_sys::Array::new());
    if list.len() > 1 {
        for o in list {
            names.push(&JsValue::from_str(&o.name));
            reports.push(&JsValue::from_str(&o.report.to_json_pretty()));
        }
    }
    announce_reports(&names, &reports);
}

/// Hands the dataset of what is on screen to the document module's check, through boot.js's
/// bridge (web/README.md, "The document module"): its text (`""`: none), which one it is, a
/// warning (`""`: none) and the hits of the report on show for the provenance audit (`""`:
/// none). Called by the app's effect when what is on screen changes.
pub fn announce_checked(a: &crate::checked::Announced) {
    announce(&a.text, &a.what, &a.note, &a.hits);
}

/// The connector module's hand-over (web/connect, contract §14.9): `globalThis.figevalConnect`
/// while a connector other than ragweld is in use, with `ask(url, body, signal)` and `url(url)`.
fn connect_call(name: &str, args: &js_sys::Array) -> Option<JsValue> {
    let c = Reflect::get(&js_sys::global(), &"figevalConnect".into()).ok()?;
    let f: js_sys::Function = Reflect::get(&c, &name.into()).ok()?.dyn_into().ok()?;
    f.apply(&c, args).ok()
}

/// Starts one search: `request` fetched, or, while a connector is in use, its module's `ask`
/// with the same URL, body and signal (it asks the deployment its way and answers in the
/// contract's shape).
pub fn search(request: &web_sys::Request, url: &str, body: &str) -> js_sys::Promise {
    let args = js_sys::Array::of3(&url.into(), &body.into(), &request.signal());
    match connect_call("ask", &args) {
        Some(p) => p.unchecked_into(),
        None => window().fetch_with_request(request),
    }
}

/// The URL a run's messages name: the connector's, while one is in use.
pub fn shown_url(url: &str) -> String {
    connect_call("url", &js_sys::Array::of1(&url.into()))
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

pub use crate::files::{download, first_file, js_error_text, read_file};

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

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `boot.js`: raw DEFLATE of bytes by the browser's `CompressionStream("deflate-raw")`.
    #[wasm_bindgen(js_name = figevalDeflate)]
    fn deflate_raw(bytes: &[u8]) -> js_sys::Promise;
    /// `boot.js`: bytes inflated by `DecompressionStream("deflate-raw")`; `null` past `limit`.
    #[wasm_bindgen(js_name = figevalInflate)]
    fn inflate_raw(bytes: &[u8], limit: u32) -> js_sys::Promise;
}

/// What a share link's fragment holds: the core unwraps it and reads the payload, the browser
/// inflates it within the core's limit (the page carries no inflater of its own).
pub async fn open_link(fragment: &str) -> Result<Link, ShareError> {
    let (kind, deflated) = share::unwrap_link(fragment)?;
    let out = JsFuture::from(inflate_raw(&deflated, share::MAX_INFLATED_BYTES as u32))
        .await
        .map_err(|e| ShareError::NotDeflate(js_error_text(&e)))?;
    if out.is_null() {
        return Err(ShareError::InflatesTooLarge);
    }
    share::open_inflated(kind, js_sys::Uint8Array::new(&out).to_vec())
}

/// The raw DEFLATE of `bytes`, made by the browser (the page carries no compressor of its own).
pub async fn deflate(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let out = JsFuture::from(deflate_raw(bytes)).await.map_err(|e| {
        format!(
            "the browser could not compress the link: {}",
            js_error_text(&e)
        )
    })?;
    Ok(js_sys::Uint8Array::new(&out).to_vec())
}

/// The page's fragment (`#…`), when it has one.
pub fn fragment() -> Option<String> {
    let hash = window().location().hash().ok()?;
    (!hash.is_empty()).then_some(hash)
}

/// The page's address without its fragment, for building share links.
pub fn page_address() -> String {
    let href = window().location().href().unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// Copies text to the clipboard when the browser allows it.
pub fn copy_text(text: &str) {
    let navigator = window().navigator();
    let Ok(clipboard) = Reflect::get(&navigator, &JsValue::from_str("clipboard")) else {
        return;
    };
    let Ok(write) = Reflect::get(&clipboard, &JsValue::from_str("writeText")) else {
        return;
    };
    if let Some(f) = write.dyn_ref::<js_sys::Function>() {
        let _ = f.call1(&clipboard, &JsValue::from_str(text));
    }
}

/// Whether the focused element matches `selector` (also when nothing has focus).
pub fn focused_is(selector: &str) -> bool {
    let doc = window().document().expect("the app has a document");
    doc.active_element()
        .is_none_or(|el| el.matches(selector).unwrap_or(false))
}

/// Moves keyboard focus to the element with `selector` (a heading, the banner), letting
/// script focus it first when it is not focusable. Screen readers then read it. Whether there
/// was such an element.
pub fn focus(selector: &str) -> bool {
    let doc = window().document().expect("the app has a document");
    let Some(el) = doc.query_selector(selector).ok().flatten() else {
        return false;
    };
    if !el.has_attribute("tabindex") {
        let _ = el.set_attribute("tabindex", "-1");
    }
    let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    true
}
