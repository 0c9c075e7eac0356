//! The browser shell: clock, storage, files, downloads, the URL fragment, plain fetches.
//! Thin wrappers; nothing here decides a number.

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Blob, BlobPropertyBag, File, FileList, HtmlAnchorElement, RequestCredentials, RequestInit,
    RequestMode, Url,
};

use crate::settings::Settings;

const SETTINGS_KEY: &str = "figeval.settings.v1";

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a window")
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// Hands the dataset's text (`""`: none) to the document module, through boot.js's bridge
    /// (web/README.md, "The document module"). Called by the reducer each time the dataset
    /// changes: no hook, which would cost the main bundle more bytes.
    #[wasm_bindgen(js_namespace = figevalDoc, js_name = announce)]
    pub fn announce_dataset(text: &str);
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

/// A human-readable description of a JavaScript error value.
pub fn js_error_text(e: &JsValue) -> String {
    if let Some(err) = e.dyn_ref::<js_sys::Error>() {
        let name = String::from(err.name());
        let message = String::from(err.message());
        if message.is_empty() {
            name
        } else {
            format!("{name}: {message}")
        }
    } else {
        e.as_string().unwrap_or_else(|| format!("{e:?}"))
    }
}

/// Offers `text` as a file download.
pub fn download(name: &str, mime: &str, text: &str) {
    let parts = Array::of1(&JsValue::from_str(text));
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = Url::create_object_url_with_blob(&blob) else {
        return;
    };
    let document = window().document().expect("a window has a document");
    if let Ok(a) = document.create_element("a") {
        let a: HtmlAnchorElement = a.unchecked_into();
        a.set_href(&url);
        a.set_download(name);
        a.click();
    }
    let _ = Url::revoke_object_url(&url);
}

/// The first file of a file list, when there is one.
pub fn first_file(files: Option<FileList>) -> Option<File> {
    files.and_then(|f| f.get(0))
}

/// Reads a file's text.
pub async fn read_file(file: &File) -> Result<String, String> {
    let text = JsFuture::from(file.text())
        .await
        .map_err(|e| format!("could not read {}: {}", file.name(), js_error_text(&e)))?;
    text.as_string()
        .ok_or_else(|| format!("could not read {} as text", file.name()))
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
/// script focus it first when it is not focusable. Screen readers then read it.
pub fn focus(selector: &str) {
    let doc = window().document().expect("the app has a document");
    if let Some(el) = doc.query_selector(selector).ok().flatten() {
        if !el.has_attribute("tabindex") {
            let _ = el.set_attribute("tabindex", "-1");
        }
        let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}
