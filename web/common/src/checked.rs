//! What the document module's dataset check is told (web/README.md, "The document module"):
//! the app announces the items of the report on show, the workbench its dataset when nothing
//! with items of its own is on show. Both go through boot.js's `figevalDoc.announce`.

/// What the module is told: the dataset's text (`""`: none), which one it is, and a warning
/// (`""`: none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Announced {
    /// The dataset as JSON (`""`: nothing to check).
    pub text: String,
    /// Which dataset it is, as the check names it.
    pub what: String,
    /// A warning to show above the check.
    pub note: String,
    /// The hits of the report on show whose responses were read in this page, for the
    /// module's provenance audit (contract §14.8): a JSON array of `[page_start, page_end,
    /// cut, content]`, one per ranked-window match with content and pages (`""`: none).
    pub hits: String,
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = figevalDoc, js_name = announce)]
    fn announce_to_doc(text: &str, what: &str, note: &str, hits: &str);
}

/// Hands what is checked to the document module through boot.js's bridge.
pub fn announce(a: &Announced) {
    announce_to_doc(&a.text, &a.what, &a.note, &a.hits);
}
