//! A small dataset and search answers for the modules' unit tests (the app's and the
//! workbench's), so both score the same things. Nothing in the page calls it.

use serde_json::{json, Value};

/// The demo dataset's JSON: three items (two figures, one prose), expected on pages 4, 9, 2.
pub fn dataset_json() -> String {
    json!({
        "corpus_id": "demo",
        "items": [
            {"question": "Where is the chart?", "expected_pages": [4],
             "figure_ref": "Figure 1", "kind": "locate", "tags": ["figure"]},
            {"question": "What does the curve show?", "expected_pages": [9],
             "figure_ref": "Figure 2", "kind": "content", "tags": ["figure"]},
            {"question": "Where is the prose?", "expected_pages": [2],
             "figure_ref": "Section 1", "kind": "locate", "tags": ["prose"]}
        ]
    })
    .to_string()
}

/// A search answer to `query` with one text match per span of `pages`, in rank order.
pub fn body(query: &str, pages: &[(u32, u32)]) -> Value {
    let matches: Vec<_> = pages
        .iter()
        .enumerate()
        .map(|(i, (s, e))| {
            json!({"chunk_id": i, "content": "…", "score": 1.0,
                   "metadata": {"chunk_kind": "text"},
                   "provenance": {"page_start": s, "page_end": e}})
        })
        .collect();
    json!({"query": query, "matches": matches})
}
