//! The proxy of `figeval serve` (contract §15.7): the page searches configured deployments
//! through the server. A real deployment (refsearch over the Octave manual) asked through the
//! default connector and through a connector object; a deliberately faulty deployment for what
//! must never leak (header values) and what must be loud (no pages, redirects).

use figeval_e2e::serve::{app_dir, call, new_store, try_serve_with, Kind, Served};
use figeval_e2e::{expect, FaultyServer, Refsearch, Reply, OCTAVE_DATASET};

/// The secret the deployments' `Authorization` header carries in these tests.
const SECRET: &str = "s3cr3t-7f1c9a-header-value";

/// A connector object that reads the contract's own answers (the ragweld preset's mapping under
/// another name): answers go through the mapping, as any other search API's would.
fn mapped_connector() -> serde_json::Value {
    serde_json::json!({
        "name": "contract-by-mapping",
        "request": {
            "method": "POST",
            "url": "{{base_url}}/search",
            "body": {"query": "{{question}}", "repo_id": "{{corpus_id}}", "top_k": "{{top_k}}", "cache_mode": "{{cache_mode}}"}
        },
        "response": {
            "hits": "/matches",
            "page_start": "/provenance/page_start",
            "page_end": "/provenance/page_end",
            "numbering": "1",
            "chunk_kind": "/metadata/chunk_kind",
            "figure_kinds": ["figure"],
            "summary": "/metadata/figure/summary",
            "chunk_id": "/chunk_id",
            "content": "/content"
        }
    })
}

fn deployments_file(dir: &std::path::Path, list: serde_json::Value) -> String {
    let path = dir.join("deployments.json");
    std::fs::write(
        &path,
        serde_json::json!({ "deployments": list }).to_string(),
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

fn search_body(question: &str) -> String {
    serde_json::json!({"query": question, "repo_id": "octave-manual", "top_k": 5, "cache_mode": "bypass"})
        .to_string()
}

/// `POST /api/deployments/{name}/search` with `body`.
fn search(s: &Served, name: &str, body: &str) -> figeval_e2e::serve::Answer {
    call(
        "POST",
        &s.url(&format!("/api/deployments/{name}/search")),
        None,
        Some(body),
        &[],
    )
}

fn start(dir: &std::path::Path, file: &str) -> Served {
    let store = new_store(Kind::Sqlite, dir);
    try_serve_with(
        &store,
        &app_dir(dir),
        &["--deployments", file],
        &[("DEPLOY_TOKEN", SECRET)],
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_page_searches_a_configured_deployment_and_gets_the_contracts_answer() {
    let refsearch = Refsearch::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    let file = deployments_file(
        dir.path(),
        serde_json::json!([
            {"name": "reference", "base_url": refsearch.base_url, "connector": "ragweld",
             "headers": {"Authorization": "Bearer {{env.DEPLOY_TOKEN}}"}},
            {"name": "mapped", "base_url": refsearch.base_url, "connector": mapped_connector()},
        ]),
    );
    let s = start(dir.path(), &file);

    // Listed by name and connector; never a base URL or a header value.
    let listed = call("GET", &s.url("/api/deployments"), None, None, &[]);
    assert_eq!(listed.status, 200);
    let v = listed.json();
    assert_eq!(v["deployments"][0]["name"], "reference");
    assert_eq!(v["deployments"][0]["connector"], "ragweld");
    assert_eq!(
        v["deployments"][0]["headers"],
        serde_json::json!(["Authorization"])
    );
    assert_eq!(
        v["deployments"][1]["connector"]["name"],
        "contract-by-mapping"
    );
    assert!(!listed.body.contains(SECRET) && !listed.body.contains(&refsearch.base_url));

    let dataset: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(figeval_e2e::repo_root().join(OCTAVE_DATASET)).unwrap(),
    )
    .unwrap();
    for item in dataset["items"].as_array().unwrap().iter().take(5) {
        let q = item["question"].as_str().unwrap();
        let direct = call(
            "POST",
            &format!("{}/search", refsearch.base_url),
            None,
            Some(&search_body(q)),
            &[],
        )
        .json();
        // The default connector: the deployment's own answer.
        let through = search(&s, "reference", &search_body(q));
        assert_eq!(through.status, 200, "{}", through.body);
        assert_eq!(through.json()["matches"], direct["matches"]);
        // Through a mapping: the answer as the mapping read it, in the contract's shape, the
        // same pages and chunks in the same order.
        let mapped = search(&s, "mapped", &search_body(q)).json();
        assert!(mapped["read_through"]
            .as_str()
            .unwrap()
            .contains("contract-by-mapping"));
        let pages = |v: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
            v["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    (
                        m["chunk_id"].as_str().unwrap().to_string(),
                        m["provenance"]["page_start"].clone(),
                    )
                })
                .collect()
        };
        assert_eq!(pages(&mapped), pages(&direct));
        assert!(mapped.get("no_page").is_none());
    }

    // Only configured deployments; no request chooses a URL.
    search(&s, "elsewhere", &search_body("x")).is_error(404, "not_found", "no deployment is named");
    let aimed = serde_json::json!({"query": "x", "repo_id": "", "top_k": 5, "cache_mode": "bypass", "url": "http://169.254.169.254/"});
    search(&s, "reference", &aimed.to_string()).is_error(400, "bad_request", "unknown field `url`");
    search(
        &s,
        "reference",
        &search_body("x").replace("\"top_k\":5", "\"top_k\":3"),
    )
    .is_error(400, "bad_request", "top_k");
}

#[test]
fn header_values_never_leave_the_server_and_failures_are_loud() {
    // A deployment that echoes the credentials it refuses, one that answers hits citing no
    // page, and one that redirects.
    let echo = FaultyServer::start(|_, _| {
        Reply::Status(
            401,
            format!("{{\"detail\": \"bad credentials: Bearer {SECRET}\"}}"),
        )
    });
    let pageless = FaultyServer::start(|_, q| {
        Reply::Status(
            200,
            serde_json::json!({"matches": [{"chunk_id": "a", "content": q}, {"chunk_id": "b"}]})
                .to_string(),
        )
    });
    let moved = FaultyServer::start(|_, _| Reply::Status(302, "{}".into()));
    let dir = tempfile::tempdir().unwrap();
    let auth = serde_json::json!({"Authorization": "Bearer {{env.DEPLOY_TOKEN}}"});
    let file = deployments_file(
        dir.path(),
        serde_json::json!([
            {"name": "echo", "base_url": echo.base_url, "connector": mapped_connector(), "headers": auth},
            {"name": "pageless", "base_url": pageless.base_url, "connector": mapped_connector(), "headers": auth},
            {"name": "moved", "base_url": moved.base_url, "headers": auth},
        ]),
    );
    let s = start(dir.path(), &file);

    let refused = search(&s, "echo", &search_body("q"));
    refused.is_error(502, "deployment_failed", "HTTP 401");
    assert!(refused.body.contains("[redacted]"), "{}", refused.body);
    assert!(!refused.body.contains(SECRET), "{}", refused.body);
    assert_eq!(refused.json()["status"], 401);
    assert_eq!(refused.json()["retryable"], false);
    // The header was sent, with its value, to the deployment and nowhere else.
    assert!(
        echo.headers()
            .iter()
            .any(|h| h == &format!("authorization: Bearer {SECRET}")
                || h == &format!("Authorization: Bearer {SECRET}")),
        "{:?}",
        echo.headers()
    );

    let none = search(&s, "pageless", &search_body("q")).json();
    let reason = none["no_page"]
        .as_str()
        .expect("hits citing no page are named");
    assert!(reason.contains("page"), "{reason}");
    assert_eq!(none["matches"].as_array().unwrap().len(), 2);

    search(&s, "moved", &search_body("q")).is_error(502, "deployment_failed", "HTTP 302");
    assert_eq!(moved.asked().len(), 1, "a redirect is not followed");

    let (_, lines) = s.terminate().unwrap();
    assert!(!lines.iter().any(|l| l.contains(SECRET)), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("POST /api/deployments/echo/search 502")),
        "{lines:#?}"
    );
}

#[test]
fn a_deployment_whose_header_variable_is_unset_refuses_the_start_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = deployments_file(
        dir.path(),
        serde_json::json!([{"name": "staging", "base_url": "http://127.0.0.1:9/api",
                            "headers": {"Authorization": "Bearer {{env.FIGEVAL_TEST_UNSET_TOKEN}}"}}]),
    );
    let store = new_store(Kind::Sqlite, dir.path());
    let app = app_dir(dir.path());
    expect(&[
        "serve",
        "--store",
        &store,
        "--app",
        &app.to_string_lossy(),
        "--deployments",
        &file,
    ])
    .exit(2)
    .stderr_has("FIGEVAL_TEST_UNSET_TOKEN")
    .stderr_has("staging");
    let bad = deployments_file(
        dir.path(),
        serde_json::json!([{"name": "x", "base_url": "ftp://nowhere", "connector": "nope"}]),
    );
    expect(&[
        "serve",
        "--store",
        &store,
        "--app",
        &app.to_string_lossy(),
        "--deployments",
        &bad,
    ])
    .exit(2)
    .stderr_has("deployment \"x\"");
}
