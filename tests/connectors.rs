//! The `langserve` and `hayhooks` connectors against the real servers from PyPI: LangChain's
//! BM25 retriever behind LangServe and Haystack's BM25 retriever behind Hayhooks, over the
//! Octave manual (`tests/servers/`), each answer also scored by hand in Python
//! (`tests/servers/hand_score.py`).

use std::path::Path;

use figeval_e2e::servers::{hand_score, post_json, Kind, PyServer};
use figeval_e2e::{expect, octave_pdf, repo_root, report, write, OCTAVE_DATASET};
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

/// Runs `figeval run --connector <kind>` against `server` over the Octave dataset, writing its
/// capture to `capture`; the report.
fn run_through_figeval(kind: Kind, server: &PyServer, capture: &Path) -> Value {
    let dataset = repo_root().join(OCTAVE_DATASET);
    let o = expect(&[
        "run",
        "--connector",
        kind.name(),
        "--dataset",
        dataset.to_str().unwrap(),
        "--base-url",
        &server.base_url,
        "--concurrency",
        "2",
        "--capture",
        capture.to_str().unwrap(),
    ]);
    assert_eq!(o.code(), Some(0), "{}", o.stderr());
    report(&o.stdout())
}

/// figeval's report equals the hand-scoring of the same answers (figeval's own capture), item
/// by item and overall.
fn agrees_with_hand_scoring(kind: Kind, report: &Value, capture: &Path) {
    let hand = hand_score(kind, capture);
    let by_hand: Vec<&Value> = hand["per_item"].as_array().unwrap().iter().collect();
    let figeval = report["per_item"].as_array().unwrap();
    assert_eq!(figeval.len(), by_hand.len());
    for mine in figeval {
        let question = mine["question"].as_str().unwrap();
        let theirs = by_hand
            .iter()
            .find(|h| h["question"] == question)
            .unwrap_or_else(|| panic!("the hand-scoring has no {question:?}"));
        for key in [
            "matches_returned",
            "page_hit_at_3",
            "page_hit_at_5",
            "precise_page_hit_at_3",
            "figure_chunk_at_3",
            "first_hit_rank",
        ] {
            assert_eq!(mine[key], theirs[key], "{key} of {question:?}");
        }
    }
    let n = hand["n"].as_f64().unwrap();
    let rate = |hits: &str| (hand[hits].as_f64().unwrap() / n * 1e4).round() / 1e4;
    assert_eq!(report["n"], hand["n"]);
    assert_eq!(
        report["page_hit_at_3"].as_f64(),
        Some(rate("page_hit_at_3_hits"))
    );
    assert_eq!(
        report["page_hit_at_5"].as_f64(),
        Some(rate("page_hit_at_5_hits"))
    );
    assert_eq!(report["hits_without_page"], 0, "every hit cites a page");
}

/// `figeval probe --connector <kind>` against `server`: one question, what the mapping read of
/// each hit beside its keys.
fn probe(kind: Kind, server: &PyServer, keys: &str) {
    let o = expect(&[
        "probe",
        "--connector",
        kind.name(),
        "--base-url",
        &server.base_url,
        "Which figure shows a plot with error bars?",
    ]);
    assert_eq!(o.code(), Some(0), "{}", o.stderr());
    let text = o.stdout();
    assert!(text.contains("5 hits, 0 citing no page"), "{text}");
    assert!(text.contains("#1 p."), "{text}");
    assert!(text.contains(&format!("  keys: {keys}")), "{text}");
}

/// `figeval score --pdf` of `capture` through `connector` (a preset's name or a file): the
/// report's provenance audit.
fn audit(connector: &str, capture: &Path) -> Value {
    let dataset = repo_root().join(OCTAVE_DATASET);
    let o = expect(&[
        "score",
        "--connector",
        connector,
        "--dataset",
        dataset.to_str().unwrap(),
        "--responses",
        capture.to_str().unwrap(),
        "--pdf",
        octave_pdf(),
    ]);
    assert_eq!(o.code(), Some(0), "{}", o.stderr());
    assert!(
        o.stderr().contains("figeval: provenance: "),
        "{}",
        o.stderr()
    );
    let provenance = report(&o.stdout())["provenance"].clone();
    eprintln!("provenance through {connector}: {provenance}");
    provenance
}

/// The `langserve` preset with its page pointer and numbering replaced.
fn langserve_reading(dir: &Path, name: &str, page_start: &str, numbering: &str) -> String {
    let text = std::fs::read_to_string(
        repo_root().join("crates/figeval/src/connector/presets/langserve.json"),
    )
    .unwrap();
    let mut c: Value = serde_json::from_str(&text).unwrap();
    c["name"] = json!(name);
    c["response"]["page_start"] = json!(page_start);
    c["response"]["numbering"] = json!(numbering);
    write(dir, &format!("{name}.json"), &c.to_string())
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

    probe(Kind::LangServe, &server, "id, metadata, page_content, type");

    // The same server through figeval's `langserve` preset: 0-based pages read as such.
    let through = dir.path().join("figeval-langserve.jsonl");
    let report = run_through_figeval(Kind::LangServe, &server, &through);
    agrees_with_hand_scoring(Kind::LangServe, &report, &through);
    assert_eq!(report["page_hit_at_3"].as_f64(), Some(0.7576), "25 of 33");

    // The provenance audit against the manual: right with the preset, and naming the offset
    // of each wrong mapping of the same answers.
    let right = audit("langserve", &capture);
    assert!(right["offset"].is_null(), "{right}");
    assert!(right["checked"].as_u64().unwrap() >= 100, "{right}");
    assert!(right["rate"].as_f64().unwrap() >= 0.9, "{right}");
    let one_based = langserve_reading(dir.path(), "one-based", "/metadata/page", "1");
    let wrong = audit(&one_based, &capture);
    assert_eq!(wrong["offset"]["pages"], 1, "{wrong}");
    assert_eq!(
        wrong["offset"]["cause"],
        "0-based page numbers read as 1-based"
    );
    assert!(wrong["rate"].as_f64().unwrap() <= 0.1, "{wrong}");
    let labels = langserve_reading(dir.path(), "labels", "/metadata/page_label", "1");
    let wrong = audit(&labels, &capture);
    assert_eq!(wrong["offset"]["pages"], 16, "{wrong}");
    assert_eq!(
        wrong["offset"]["cause"],
        "printed page labels read as physical pages"
    );
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

    probe(Kind::Hayhooks, &server, "id, content");

    // The same server through figeval's `hayhooks` preset (`top_k` sent as a number).
    let through = dir.path().join("figeval-hayhooks.jsonl");
    let report = run_through_figeval(Kind::Hayhooks, &server, &through);
    agrees_with_hand_scoring(Kind::Hayhooks, &report, &through);
    assert_eq!(report["page_hit_at_3"].as_f64(), Some(0.8788), "29 of 33");
    assert_eq!(report["top_k"], 5);
}
