//! Files in and out of the page: reading a picked file's text, offering text as a download,
//! and JavaScript errors as words, the same way in both modules.

use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Blob, BlobPropertyBag, File, FileList, HtmlAnchorElement, Url};

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
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
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
