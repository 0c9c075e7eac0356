//! The browser shell: files, downloads, the URL fragment, share links' compression, the
//! clipboard, focus, and what the runs module is told. Thin wrappers; nothing here decides a
//! number.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use figeval::share::{self, Link, ShareError};

fn window() -> web_sys::Window {
    web_sys::window().expect("the app runs in a window")
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
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

pub use crate::files::{download, js_error_text};

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

pub use figeval_web_common::focus::{focus, focused_is};
