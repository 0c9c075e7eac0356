//! The real router over the real GNU Octave manual, on 127.0.0.1:0, through HTTP.

mod common;

use std::time::{Duration, Instant};

use common::*;
use refsearch::{Chunking, Corpus};
use serde_json::{json, Value};

#[tokio::test]
async fn health_counts_every_page_and_the_29_captions_with_figures_on() {
    let server = TestServer::start(options(Chunking::Page, true, vec![])).await;
    let health = server.health().await;
    assert_eq!(health["status"], "ok");
    assert_eq!(health["corpus_id"], CORPUS_ID);
    assert_eq!(health["pages"], MANUAL_PAGES);
    assert_eq!(health["figures"], MANUAL_FIGURES);
    assert_eq!(health["chunking"], "page");
    assert_eq!(health["figures_enabled"], true);
    let blank_pages = manual_pages()
        .iter()
        .filter(|p| p.trim().is_empty())
        .count();
    assert!(
        blank_pages > 0,
        "the manual has blank pages, which are not chunks"
    );
    assert_eq!(
        health["chunks"],
        MANUAL_PAGES - blank_pages + MANUAL_FIGURES
    );
    server.stop().await;
}

#[tokio::test]
async fn with_figures_off_no_figure_chunk_is_indexed_or_returned() {
    let server = TestServer::start(options(Chunking::Page, false, vec![])).await;
    let health = server.health().await;
    assert_eq!(health["figures"], 0);
    assert_eq!(health["figures_enabled"], false);
    let matches = server.search("Simple use of the gplot command", 20).await;
    assert!(!matches.is_empty());
    assert!(
        matches
            .iter()
            .all(|m| m["metadata"].get("chunk_kind").is_none()),
        "text chunks carry no chunk_kind, as Ragweld's do not"
    );
    server.stop().await;
}

#[tokio::test]
async fn page_text_is_numbered_like_pdftotext_on_a_single_page() {
    let pages = manual_pages();
    assert_eq!(pages.len(), MANUAL_PAGES);
    for page in [1, 2, 332, 684, 717, 1158] {
        assert_eq!(pages[page - 1], pdftotext_single_page(page), "page {page}");
    }
    assert!(pdftotext_single_page(332).contains("Figure 15.1: Simple Two-Dimensional Plot."));
}

#[tokio::test]
async fn a_search_for_a_captions_words_returns_that_figure_chunk_on_its_page() {
    let server = TestServer::start(options(Chunking::Page, true, vec![])).await;
    let captions = refsearch::figures::parse_captions(manual_pages());
    assert_eq!(captions.len(), MANUAL_FIGURES);
    for caption in &captions {
        let words = caption.text.as_str();
        let matches = server.search(words, 5).await;
        let found = matches.iter().take(3).find(|m| {
            m["metadata"]["chunk_kind"] == "figure"
                && m["metadata"]["caption"] == caption.text.as_str()
        });
        let Some(found) = found else {
            panic!(
                "{} not in the top 3 for {words:?}: {matches:#?}",
                caption.figure_ref
            );
        };
        let (start, end) = pages_of(found);
        assert_eq!(
            (start, end),
            (caption.page as u64, caption.page as u64),
            "{} cites its caption's page only",
            caption.figure_ref
        );
        let page_text = pdftotext_single_page(caption.page as usize);
        assert!(page_text.contains(&format!("{}:", caption.figure_ref)));
        assert_eq!(found["chunk_id"], format!("fig-{}", caption.number));
    }
    let matches = server.search("Simple use of the gplot command", 5).await;
    assert_eq!(matches[0]["chunk_id"], "fig-22.2");
    assert_eq!(pages_of(&matches[0]), (684, 684));
    assert_eq!(matches[0]["metadata"]["figure_ref"], "Figure 22.2");
    assert_eq!(matches[0]["metadata"]["figure"]["kind"], "figure");
    assert_eq!(
        matches[0]["metadata"]["figure"]["summary"],
        "Figure 22.2: Simple use of the gplot command."
    );
    server.stop().await;
}

#[tokio::test]
async fn a_notes_summary_is_indexed_and_returned_with_its_kind() {
    let server = TestServer::start(options(Chunking::Page, true, fixture_figure_notes())).await;
    let matches = server
        .search(
            "Which figure is a bar chart histogram of normally distributed random numbers?",
            5,
        )
        .await;
    let first = &matches[0];
    assert_eq!(first["chunk_id"], "fig-15.2", "{matches:#?}");
    assert_eq!(pages_of(first), (337, 337));
    assert_eq!(first["metadata"]["figure"]["kind"], "chart");
    let summary = first["metadata"]["figure"]["summary"].as_str().unwrap();
    assert!(summary.starts_with("Bar chart histogram"), "{summary}");
    assert!(first["content"]
        .as_str()
        .unwrap()
        .starts_with("Figure 15.2: Histogram.\nBar chart"));
    server.stop().await;
}

#[tokio::test]
async fn the_repositorys_octave_figure_notes_fit_the_manual() {
    let notes =
        refsearch::figures::load_notes(&repo_figure_notes()).unwrap_or_else(|err| panic!("{err}"));
    let corpus = Corpus::build(manual_pages(), &options(Chunking::Page, true, notes))
        .unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(corpus.figure_count, MANUAL_FIGURES);
}

#[tokio::test]
async fn matches_follow_the_contract_shape_and_score_order() {
    let server = TestServer::start(options(Chunking::Page, true, vec![])).await;
    let body = json!({"query": "sparse matrix Cholesky", "repo_id": CORPUS_ID, "top_k": 7});
    let (status, response) = server.post_json(&body).await;
    assert_eq!(status, 200);
    assert_eq!(response["query"], "sparse matrix Cholesky");
    assert_eq!(response["repo_id"], CORPUS_ID);
    assert_eq!(response["top_k"], 7);
    assert!(response["latency_ms"].is_number());
    let matches = response["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 7);
    let scores: Vec<f64> = matches
        .iter()
        .map(|m| m["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    for m in matches {
        assert!(m["chunk_id"].is_string());
        assert!(m["content"].as_str().unwrap().chars().count() <= 1500);
        let provenance = &m["provenance"];
        assert_eq!(provenance["extraction"], "direct");
        assert_eq!(m["source"], "sparse");
        assert!(m["file_path"].is_string());
        let (start, end) = pages_of(m);
        let regions = provenance["regions"].as_array().unwrap();
        assert_eq!(regions.len() as u64, end - start + 1);
        assert_eq!(regions[0]["page"], start);
        assert_eq!(
            regions[0],
            json!({"page": start, "left": 0.0, "top": 0.0, "right": 1.0, "bottom": 1.0})
        );
        if m["metadata"]["chunk_kind"].is_null() {
            assert_eq!(m["chunk_id"], format!("p{start:04}"));
        }
    }
    let again = server.post_json(&body).await.1;
    let ids = |r: &Value| {
        r["matches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["chunk_id"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ids(&response),
        ids(&again),
        "the same query ranks the same way"
    );
    server.stop().await;
}

#[tokio::test]
async fn bad_requests_get_400_404_and_422_with_a_detail() {
    let server = TestServer::start(options(Chunking::Page, false, vec![])).await;
    let cases: Vec<(String, u16)> = vec![
        (
            json!({"query": "  \n", "repo_id": CORPUS_ID}).to_string(),
            400,
        ),
        (
            json!({"query": "plot", "repo_id": "nasa-apollo-11"}).to_string(),
            404,
        ),
        ("this is not json".into(), 422),
        ("".into(), 422),
        ("[1, 2]".into(), 422),
        (json!({"repo_id": CORPUS_ID}).to_string(), 422),
        (json!({"query": "plot"}).to_string(), 422),
        (json!({"query": 5, "repo_id": CORPUS_ID}).to_string(), 422),
        (
            json!({"query": "plot", "repo_id": CORPUS_ID, "top_k": "5"}).to_string(),
            422,
        ),
        (
            json!({"query": "plot", "repo_id": CORPUS_ID, "top_k": 0}).to_string(),
            422,
        ),
        (
            json!({"query": "plot", "repo_id": CORPUS_ID, "top_k": 101}).to_string(),
            422,
        ),
        (
            json!({"query": "plot", "repo_id": CORPUS_ID, "top_k": 2.5}).to_string(),
            422,
        ),
        (
            json!({"query": "plot", "repo_id": CORPUS_ID, "cache_mode": "never"}).to_string(),
            422,
        ),
    ];
    for (body, expected) in cases {
        let (status, response) = server.post_raw(body.clone()).await;
        assert_eq!(status, expected, "{body} -> {response}");
        assert!(
            response["detail"].as_str().is_some_and(|d| !d.is_empty()),
            "{body} -> {response}"
        );
    }
    let response = server
        .client
        .get(format!("{}/nowhere", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 404);
    assert!(response.json::<Value>().await.unwrap()["detail"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn any_query_text_is_searchable_without_a_parse_error() {
    let server = TestServer::start(options(Chunking::Page, true, vec![])).await;
    for query in [
        r#""():*?^~"#,
        r#"title:"plot" AND (x OR y) NOT -z +w^2 ~1 [a TO b} \ / ! {}"#,
        "Quelle figure montre l'histogramme ? 図 15.2 📊",
        "?",
    ] {
        let (status, response) = server
            .post_json(&json!({"query": query, "repo_id": CORPUS_ID, "top_k": 5}))
            .await;
        assert_eq!(status, 200, "{query} -> {response}");
        assert!(response["matches"].is_array());
    }
    server.stop().await;
}

#[tokio::test]
async fn cors_allows_localhost_origins_and_refuses_others() {
    let server = TestServer::start(options(Chunking::Page, false, vec![])).await;
    let url = format!("{}/search", server.base);
    let body = json!({"query": "plot", "repo_id": CORPUS_ID}).to_string();
    for (origin, allowed) in [
        ("http://localhost:8080", true),
        ("http://127.0.0.1:5173", true),
        ("http://[::1]:3000", true),
        ("http://evil.example", false),
        ("http://localhost.evil.example", false),
    ] {
        let response = server
            .client
            .post(&url)
            .header("origin", origin)
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let acao = response
            .headers()
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(acao.as_deref(), allowed.then_some(origin), "{origin}");
        assert!(response
            .headers()
            .get("access-control-allow-credentials")
            .is_none());

        let preflight = server
            .client
            .request(reqwest::Method::OPTIONS, &url)
            .header("origin", origin)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type")
            .send()
            .await
            .unwrap();
        assert!(
            preflight.status().is_success(),
            "{origin}: {}",
            preflight.status()
        );
        let headers = preflight.headers();
        let acao = headers
            .get("access-control-allow-origin")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(
            acao.as_deref(),
            allowed.then_some(origin),
            "preflight {origin}"
        );
        if allowed {
            let allow_headers = headers["access-control-allow-headers"]
                .to_str()
                .unwrap()
                .to_ascii_lowercase();
            assert!(allow_headers.contains("content-type"), "{allow_headers}");
            let allow_methods = headers["access-control-allow-methods"].to_str().unwrap();
            assert!(allow_methods.contains("POST"), "{allow_methods}");
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn section_chunks_span_pages_so_precise_and_plain_hits_differ() {
    let corpus = Corpus::build(manual_pages(), &options(Chunking::Section, false, vec![])).unwrap();
    let spans: Vec<u32> = corpus
        .chunks
        .iter()
        .map(|c| c.page_end - c.page_start + 1)
        .collect();
    let long = spans.iter().filter(|&&s| s >= 4).count();
    eprintln!(
        "section chunking: {} text chunks, {long} span 4+ pages, longest {} pages",
        spans.len(),
        spans.iter().max().unwrap_or(&0)
    );
    assert!(
        long * 4 >= spans.len(),
        "{long} of {} section chunks span 4+ pages",
        spans.len()
    );
    assert!(corpus
        .chunks
        .iter()
        .all(|c| c.page_start >= 1 && c.page_end as usize <= MANUAL_PAGES));

    let server = TestServer::start(options(Chunking::Section, true, vec![])).await;
    let health = server.health().await;
    assert_eq!(health["chunking"], "section");
    assert_eq!(health["figures"], MANUAL_FIGURES);
    let matches = server
        .search("sparse matrix Cholesky factorization", 10)
        .await;
    let wide = matches
        .iter()
        .filter(|m| m["metadata"]["chunk_kind"].is_null())
        .find(|m| {
            let (start, end) = pages_of(m);
            end > start + 3
        });
    assert!(
        wide.is_some(),
        "no section match spans more than 4 pages: {matches:#?}"
    );
    let wide = wide.unwrap();
    assert!(wide["chunk_id"].as_str().unwrap().starts_with('s'));
    assert!(wide["metadata"]["section"].is_string());
    server.stop().await;
}

#[tokio::test]
async fn latency_is_slept_per_search_without_blocking_concurrent_ones() {
    // Long enough that the five searches' own work, on a loaded 2-core machine, stays far below
    // what sleeping one after another would add.
    let latency = Duration::from_millis(1500);
    let server =
        TestServer::start_with_latency(options(Chunking::Page, false, vec![]), latency).await;
    let started = Instant::now();
    let searches = (0..5).map(|i| server.search(if i % 2 == 0 { "plot" } else { "matrix" }, 5));
    let results = futures::future::join_all(searches).await;
    let elapsed = started.elapsed();
    assert!(results.iter().all(|m| !m.is_empty()));
    assert!(elapsed >= latency, "{elapsed:?}");
    assert!(
        elapsed < latency * 5,
        "5 searches of {latency:?} took {elapsed:?}: they ran one after another"
    );
    let (_, response) = server
        .post_json(&json!({"query": "plot", "repo_id": CORPUS_ID}))
        .await;
    assert!(
        response["latency_ms"].as_f64().unwrap() >= 1500.0,
        "{}",
        response["latency_ms"]
    );
    server.stop().await;
}
