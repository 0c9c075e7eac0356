//! The reports kept in this browser (boot.js's `figevalKept`, IndexedDB `figeval-runs`): the
//! last 50 made or opened here, which the app keeps as it shows them. The Runs view lists them,
//! reads one to open or compare it, and deletes them. A kept report's facts (its dataset key,
//! corpus, size and summary) are read from it once and stored beside it, so listing never reads
//! the reports again.

use figeval::Report;
use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::history::{facts_of, kept_run, Run};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = figevalKept, js_name = list)]
    fn js_list() -> js_sys::Promise;
    #[wasm_bindgen(js_namespace = figevalKept, js_name = text)]
    fn js_text(id: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_namespace = figevalKept, js_name = facts)]
    fn js_facts(id: &str, facts: JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_namespace = figevalKept, js_name = remove)]
    fn js_remove(id: &str) -> js_sys::Promise;
}

fn field(o: &JsValue, k: &str) -> JsValue {
    Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
}

/// A kept report's text, when it is still there.
pub async fn text(id: &str) -> Option<String> {
    JsFuture::from(js_text(id)).await.ok()?.as_string()
}

/// The kept reports, newest first. One whose facts are not stored yet is read once (its JSON,
/// as the page kept it) and its facts stored; one that cannot be read is left out. A browser
/// that keeps nothing (no IndexedDB) lists nothing.
pub async fn list() -> Vec<Run> {
    let Ok(all) = JsFuture::from(js_list()).await else {
        return Vec::new();
    };
    let mut metas: Vec<(f64, JsValue)> = js_sys::Array::from(&all)
        .iter()
        .map(|m| (field(&m, "at").as_f64().unwrap_or(0.0), m))
        .collect();
    metas.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut runs = Vec::with_capacity(metas.len());
    for (at, m) in metas {
        let id = field(&m, "id").as_string().unwrap_or_default();
        let name = field(&m, "name").as_string().unwrap_or_default();
        let stored = field(&m, "facts").as_string();
        let facts = match stored.and_then(|f| serde_json::from_str(&f).ok()) {
            Some(f) => f,
            None => {
                let Some(r) = text(&id)
                    .await
                    .and_then(|t| serde_json::from_str::<Report>(&t).ok())
                else {
                    continue;
                };
                let f = facts_of(&r);
                let _ = JsFuture::from(js_facts(&id, JsValue::from_str(&f.to_string()))).await;
                f
            }
        };
        let when: String = js_sys::Date::new(&JsValue::from_f64(at))
            .to_iso_string()
            .into();
        runs.push(kept_run(id, name, when, &facts));
    }
    runs
}

/// Deletes a kept report.
pub async fn remove(id: &str) {
    let _ = JsFuture::from(js_remove(id)).await;
}
