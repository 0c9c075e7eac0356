//! Share links in the browser (contract §10.2): the core unwraps and reads them, the browser
//! compresses and inflates them (boot.js's `figevalDeflate` and `figevalInflate`, on
//! `CompressionStream`), so no module carries a codec of its own; and the page's address and
//! the clipboard, which a link is made from and copied to.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use figeval::share::{self, Link, ShareError};

use crate::files::js_error_text;

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
/// inflates it within the core's limit.
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

/// The raw DEFLATE of `bytes`, made by the browser.
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
    let hash = web_sys::window()?.location().hash().ok()?;
    (!hash.is_empty()).then_some(hash)
}

/// The page's address without its fragment, for building share links.
pub fn page_address() -> String {
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    match href.find('#') {
        Some(i) => href[..i].to_string(),
        None => href,
    }
}

/// Copies text to the clipboard when the browser allows it.
pub fn copy_text(text: &str) {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return;
    };
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

/// The banner of a share link that cannot be opened: its title, its words, and the decoder's
/// words folded away (`more`) when the link is damaged, which says so in words.
pub fn refused(e: &ShareError) -> (&'static str, String, Option<String>) {
    let title = "This share link cannot be opened";
    match e {
        ShareError::NotBase64(_) | ShareError::NotDeflate(_) => (
            title,
            "this link is damaged (it was cut or changed)".into(),
            Some(e.to_string()),
        ),
        _ => (title, e.to_string(), None),
    }
}
