//! The `langserve` and `hayhooks` connectors against the real servers from PyPI: LangChain's
//! BM25 retriever behind LangServe and Haystack's BM25 retriever behind Hayhooks, over the
//! Octave manual (`tests/servers/`), each answer also scored by hand in Python
//! (`tests/servers/hand_score.py`).

use std::path::Path;

use figeval_e2e::servers::{hand_score, post_json, Kind, PyServer};
use figeval_e2e::{repo_root, OCTAVE_DATASET};
use serde_json::{json, Value};

/// The Octave dataset's questions.
fn questions() -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join(OCTAVE_DATASET)).unwrap();
    let dataset: Value = serde_json::from_str(&text).unwrap();
    dataset["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["question"].as_str().unwrap().to_string())
        .collect()
}

/// Asks `server` every question of the Octave dataset directly (as its documentation says,
/// without figeval) and writes the answers as a capture of envelopes into `capture`.
fn ask_directly(kind: Kind, server: &PyServer, capture: &Path) {
    let mut lines = String::new();
    for question in questions() {
        let (url, body) = match kind {
            Kind::LangServe => (
                format!("{}/invoke", server.base_url),
                json!({"input": question}),
            ),
            Kind::Hayhooks => (
                format!("{}/run", server.base_url),
                json!({"query": question, "top_k": 5}),
            ),
        };
        let (status, answer) = post_json(&url, &body);
        assert_eq!(status, 200, "{url}: {answer}");
        lines.push_str(&json!({"question": question, "response": answer}).to_string());
        lines.push('\n');
    }
    std::fs::write(capture, lines).unwrap();
}

#[test]
fn langserve_answers_with_zero_based_pages_and_its_bm25_finds_25_of_33_in_the_top_3() {
    let server = PyServer::start(Kind::LangServe);
    let (status, answer) = post_json(
        &format!("{}/invoke", server.base_url),
        &json!({"input": "Which figure shows a plot with error bars?"}),
    );
    assert_eq!(status, 200, "{answer}");
    let hits = answer["output"].as_array().expect("an output array");
    assert_eq!(hits.len(), 5, "the retriever's k");
    for hit in hits {
        let page = hit["metadata"]["page"].as_u64().expect("a page number");
        let label = hit["metadata"]["page_label"].as_str().expect("a label");
        // The manual's front matter is numbered in roman numerals; its body's printed page is
        // the 1-based physical page less 16, so the 0-based page less 15.
        if page >= 16 {
            assert_eq!(label, (page - 15).to_string(), "{hit}");
        }
        assert!(hit["page_content"].as_str().is_some_and(|c| !c.is_empty()));
    }

    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("langserve.jsonl");
    ask_directly(Kind::LangServe, &server, &capture);
    let hand = hand_score(Kind::LangServe, &capture);
    assert_eq!(hand["n"], 33);
    assert_eq!(hand["page_hit_at_3_hits"], 25, "{hand}");
}

#[test]
fn hayhooks_answers_with_one_based_page_numbers_and_its_bm25_finds_29_of_33_in_the_top_3() {
    let server = PyServer::start(Kind::Hayhooks);
    let (status, answer) = post_json(
        &format!("{}/run", server.base_url),
        &json!({"query": "Which figure shows a plot with error bars?", "top_k": 3}),
    );
    assert_eq!(status, 200, "{answer}");
    let hits = answer["result"].as_array().expect("a result array");
    assert_eq!(hits.len(), 3, "top_k is the request's");
    for hit in hits {
        let page = hit["meta"]["page_number"].as_u64().expect("a page number");
        assert!((1..=1158).contains(&page), "{hit}");
        assert!(hit["content"].as_str().is_some_and(|c| !c.is_empty()));
    }

    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("hayhooks.jsonl");
    ask_directly(Kind::Hayhooks, &server, &capture);
    let hand = hand_score(Kind::Hayhooks, &capture);
    assert_eq!(hand["n"], 33);
    assert_eq!(hand["page_hit_at_3_hits"], 29, "{hand}");
}
