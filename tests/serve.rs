//! `figeval serve` end to end (contract §15): real server processes over a SQLite file and over
//! a real PostgreSQL 15 (a cluster of the test binary's own, `testkit::postgres`), real HTTP.
//! Every case runs against both stores (`sqlite` and `postgres` in its name).

use std::collections::BTreeSet;
use std::io::Write;
use std::net::TcpStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use figeval_e2e::serve::{
    app_dir, call, create_token, fixture_capture, fixture_report, new_store, push_body, serve,
    try_serve, Kind, Served,
};
use figeval_e2e::{expect, repo_root};

/// Runs a case against each store.
macro_rules! on_both_stores {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[test] fn $case() { super::$case(super::Kind::Sqlite) })*
        }
        mod postgres {
            $(#[test] fn $case() { super::$case(super::Kind::Postgres) })*
        }
    };
}

on_both_stores!(
    a_pushed_report_is_listed_read_linked_and_renamed_but_never_changed,
    a_capture_and_its_dataset_are_scored_as_figeval_score_scores_them,
    listing_pages_newest_first_through_the_cursor_and_filters,
    bad_input_is_refused_with_its_status_and_its_words,
    tokens_have_scopes_and_the_page_signs_in_for_a_session_cookie,
    two_hundred_concurrent_pushes_are_each_stored_once,
    a_server_killed_mid_push_keeps_every_answered_run_and_nothing_half_written,
    a_store_that_cannot_be_written_refuses_pushes_and_still_serves_reads,
    a_store_of_a_newer_schema_is_refused_with_the_reason,
    push_prints_the_short_link_and_compare_takes_the_newest_matching_baseline,
);

fn push(s: &Served, token: Option<&str>, body: &str) -> serde_json::Value {
    let a = call("POST", &s.url("/api/runs"), token, Some(body), &[]);
    assert_eq!(a.status, 201, "{}", a.body);
    a.json()
}

fn a_pushed_report_is_listed_read_linked_and_renamed_but_never_changed(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let report = fixture_report(dir.path());
    let markup = "<img src=x onerror=alert(1)> & \"quoted\"";
    let pushed = push(
        &s,
        None,
        &push_body(
            &report,
            markup,
            &[("branch", "main"), ("sha", "<b>1a2b</b>")],
        ),
    );
    let id = pushed["id"].as_str().unwrap().to_string();
    assert_eq!(id.len(), 22, "128 random bits, base64url");
    assert_eq!(pushed["url"], s.url(&format!("/r/{id}")));
    let key = figeval::Report::parse(&report).unwrap().dataset_key();
    assert_eq!(pushed["dataset"], key.as_str());

    // Listed with its metadata; names and labels come back as the exact text given.
    let list = call("GET", &s.url("/api/runs"), None, None, &[]).json();
    let run = &list["runs"][0];
    assert_eq!(run["name"], markup);
    assert_eq!(run["labels"]["sha"], "<b>1a2b</b>");
    assert_eq!(run["corpus_id"], "octave-manual");
    assert_eq!(run["n"], 3);
    assert!(run["summary"]["page_hit_at_3"].is_number(), "{run}");
    assert!(run["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(list["next"], serde_json::Value::Null);

    // Read back: the report as pushed, byte for byte once parsed.
    let got = call("GET", &s.url(&format!("/api/runs/{id}")), None, None, &[]);
    assert_eq!(got.header("content-type"), Some("application/json"));
    let v = got.json();
    let stored = serde_json::to_string(&v["report"]).unwrap();
    assert_eq!(
        figeval::Report::parse(&stored).unwrap(),
        figeval::Report::parse(&report).unwrap()
    );
    assert_eq!(v["name"], markup);

    // The short links lead the browser to the app with the run in the fragment.
    let r = call("GET", &s.url(&format!("/r/{id}")), None, None, &[]);
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some(format!("../#run={id}").as_str()));
    let c = call("GET", &s.url(&format!("/c/{id},{id}")), None, None, &[]);
    assert_eq!(
        c.header("location"),
        Some(format!("../#runs={id},{id}").as_str())
    );
    assert_eq!(
        call("GET", &s.url("/r/not-an-id"), None, None, &[]).status,
        404
    );
    // The app itself, for every other path.
    let index = call("GET", &s.url("/"), None, None, &[]);
    assert_eq!(index.status, 200);
    assert!(index.body.contains("<title>figeval</title>"));

    // Name and labels change; the report does not.
    let url = s.url(&format!("/api/runs/{id}"));
    let patched = call(
        "PATCH",
        &url,
        None,
        Some(r#"{"name": "nightly", "labels": {"branch": "dev"}}"#),
        &[],
    );
    assert_eq!(patched.status, 200, "{}", patched.body);
    assert_eq!(
        patched.json()["labels"],
        serde_json::json!({"branch": "dev"})
    );
    call("PATCH", &url, None, Some(r#"{"report": {}}"#), &[]).is_error(
        409,
        "immutable",
        "never changes",
    );
    let after = call("GET", &url, None, None, &[]).json();
    assert_eq!(after["name"], "nightly");
    assert_eq!(after["report"], v["report"]);
    let by_label = call(
        "GET",
        &s.url("/api/runs?label=branch:main"),
        None,
        None,
        &[],
    )
    .json();
    assert_eq!(by_label["runs"].as_array().unwrap().len(), 0, "relabelled");

    // Deleted: gone.
    assert_eq!(call("DELETE", &url, None, None, &[]).status, 204);
    call("GET", &url, None, None, &[]).is_error(404, "not_found", &id);
    call("DELETE", &url, None, None, &[]).is_error(404, "not_found", &id);

    // One log line per request: method, path, status, milliseconds; never the name given.
    let lines = s.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("figeval serve: PATCH /api/runs/")
                && l.contains(" 200 ")
                && l.ends_with(" ms")),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("onerror")), "{lines:#?}");
}

fn a_capture_and_its_dataset_are_scored_as_figeval_score_scores_them(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let (capture, dataset) = fixture_capture();
    let body = serde_json::json!({"capture": capture, "dataset": serde_json::from_str::<serde_json::Value>(&dataset).unwrap(), "name": "scored here"});
    let pushed = push(&s, None, &body.to_string());
    let id = pushed["id"].as_str().unwrap();
    let got = call("GET", &s.url(&format!("/api/runs/{id}")), None, None, &[]).json();
    let server = figeval::Report::parse(&got["report"].to_string()).unwrap();
    let cli = figeval::Report::parse(&fixture_report(dir.path())).unwrap();
    assert_eq!(server.per_item, cli.per_item);
    assert_eq!(server.summary, cli.summary);
    assert_eq!(server.by_group, cli.by_group);
    assert_eq!(got["dataset"], cli.dataset_key().as_str());
    // The capture is kept, as it was pushed.
    let c = call(
        "GET",
        &s.url(&format!("/api/runs/{id}/capture")),
        None,
        None,
        &[],
    );
    assert_eq!(c.status, 200);
    assert_eq!(c.body, capture);
    assert_eq!(got["capture_bytes"], capture.len());

    // A capture that does not pair with its dataset is refused with the core's words.
    let bad = serde_json::json!({"capture": "{\"question\": \"not in the dataset\", \"response\": {\"matches\": []}}\n", "dataset": serde_json::from_str::<serde_json::Value>(&dataset).unwrap()});
    call(
        "POST",
        &s.url("/api/runs"),
        None,
        Some(&bad.to_string()),
        &[],
    )
    .is_error(422, "refused", "not in the dataset");
    // A run pushed without its capture has none to give.
    let plain = push(
        &s,
        None,
        &push_body(&fixture_report(dir.path()), "plain", &[]),
    );
    let pid = plain["id"].as_str().unwrap();
    call(
        "GET",
        &s.url(&format!("/api/runs/{pid}/capture")),
        None,
        None,
        &[],
    )
    .is_error(404, "not_found", "without its capture");
}

fn listing_pages_newest_first_through_the_cursor_and_filters(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let report = fixture_report(dir.path());
    let mut pushed = Vec::new();
    for i in 0..7 {
        let parity = if i % 2 == 0 { "even" } else { "odd" };
        pushed.push(
            push(
                &s,
                None,
                &push_body(&report, &format!("run {i}"), &[("parity", parity)]),
            )["id"]
                .as_str()
                .unwrap()
                .to_string(),
        );
    }
    let mut seen = Vec::new();
    let mut url = s.url("/api/runs?limit=3");
    let mut pages = 0;
    loop {
        let page = call("GET", &url, None, None, &[]).json();
        pages += 1;
        seen.extend(
            page["runs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["name"].as_str().unwrap().to_string()),
        );
        match page["next"].as_str() {
            Some(c) => url = s.url(&format!("/api/runs?limit=3&cursor={c}")),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let newest_first: Vec<String> = (0..7).rev().map(|i| format!("run {i}")).collect();
    assert_eq!(seen, newest_first);

    let odd = call("GET", &s.url("/api/runs?label=parity:odd"), None, None, &[]).json();
    let names: Vec<&str> = odd["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["run 5", "run 3", "run 1"]);
    let key = figeval::Report::parse(&report).unwrap().dataset_key();
    let same = call(
        "GET",
        &s.url(&format!(
            "/api/runs?dataset={key}&corpus=octave-manual&limit=100"
        )),
        None,
        None,
        &[],
    )
    .json();
    assert_eq!(same["runs"].as_array().unwrap().len(), 7);
    let other = call(
        "GET",
        &s.url("/api/runs?corpus=nasa-apollo-11"),
        None,
        None,
        &[],
    )
    .json();
    assert_eq!(other["runs"].as_array().unwrap().len(), 0);

    call("GET", &s.url("/api/runs?limit=101"), None, None, &[]).is_error(
        400,
        "bad_request",
        "1 to 100",
    );
    call("GET", &s.url("/api/runs?cursor=xyz"), None, None, &[]).is_error(
        400,
        "bad_request",
        "not a cursor",
    );
    call("GET", &s.url("/api/runs?label=nocolon"), None, None, &[]).is_error(
        400,
        "bad_request",
        "KEY:VALUE",
    );
    call("GET", &s.url("/api/runs?colour=red"), None, None, &[]).is_error(
        400,
        "bad_request",
        "not a filter",
    );
}

fn bad_input_is_refused_with_its_status_and_its_words(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &["--max-body", "16KiB"]);
    let report = fixture_report(dir.path());
    let runs = s.url("/api/runs");

    // A forged report: one item's record turned into a hit, so the summary disagrees with its
    // own per_item.
    let mut forged: serde_json::Value = serde_json::from_str(&report).unwrap();
    forged["per_item"][1]["page_hit_at_3"] = serde_json::json!(true);
    call(
        "POST",
        &runs,
        None,
        Some(&push_body(&forged.to_string(), "forged", &[])),
        &[],
    )
    .is_error(422, "refused", "disagrees with itself");
    // Over --max-body: 413, told before the body is read.
    let big = push_body(&report, &"x".repeat(100), &[("pad", &"y".repeat(200))]);
    let huge = format!("{{\"capture\": \"{}\", {}", "z".repeat(20_000), &big[1..]);
    call("POST", &runs, None, Some(&huge), &[]).is_error(413, "too_large", "16384 bytes");
    // Not JSON: 400.
    call("POST", &runs, None, Some("{\"report\": nope"), &[]).is_error(400, "not_json", "line 1");
    // Not sent as JSON: 415.
    let form = call(
        "POST",
        &runs,
        None,
        None,
        &[("content-type", "application/x-www-form-urlencoded")],
    );
    form.is_error(415, "unsupported_media_type", "application/json");
    // An unknown key, a bad label, a name of control characters: 400, named.
    call(
        "POST",
        &runs,
        None,
        Some(&format!("{{\"report\": {report}, \"nmae\": \"x\"}}")),
        &[],
    )
    .is_error(400, "bad_request", "nmae");
    call(
        "POST",
        &runs,
        None,
        Some(&push_body(&report, "ok", &[("a:b", "c")])),
        &[],
    )
    .is_error(400, "bad_request", "without ':'");
    call(
        "POST",
        &runs,
        None,
        Some(&push_body(&report, "bell\u{7}", &[])),
        &[],
    )
    .is_error(400, "bad_request", "control character");
    // A report without per-item records cannot be checked: not stored.
    let mut bare: serde_json::Value = serde_json::from_str(&report).unwrap();
    bare["per_item"] = serde_json::json!([]);
    call(
        "POST",
        &runs,
        None,
        Some(&push_body(&bare.to_string(), "bare", &[])),
        &[],
    )
    .is_error(422, "refused", "cannot be checked");
    // Unknown API paths and methods.
    call("GET", &s.url("/api/nothing"), None, None, &[]).is_error(404, "not_found", "/api/nothing");
    call("PUT", &runs, None, Some("{}"), &[]).is_error(405, "method_not_allowed", "PUT");
    // Nothing was stored by any of them.
    assert_eq!(
        call("GET", &runs, None, None, &[]).json()["runs"],
        serde_json::json!([])
    );

    // With a token in the store: none or a wrong one is 401, a push token reading is 403.
    let push_token = create_token(&store, "ci", "push");
    call("GET", &runs, None, None, &[]).is_error(401, "unauthorized", "needs a token");
    call("GET", &runs, Some("figeval_wrong"), None, &[]).is_error(401, "unauthorized", "not known");
    call(
        "POST",
        &runs,
        None,
        Some(&push_body(&report, "x", &[])),
        &[],
    )
    .is_error(401, "unauthorized", "needs a token");
    call("GET", &runs, Some(&push_token), None, &[]).is_error(403, "forbidden", "push token");
    push(&s, Some(&push_token), &push_body(&report, "from ci", &[]));
}

fn tokens_have_scopes_and_the_page_signs_in_for_a_session_cookie(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let app = app_dir(dir.path());
    let report = fixture_report(dir.path());
    let ci = create_token(&store, "ci", "push");
    let reader = create_token(&store, "reader", "read");
    let admin = create_token(&store, "admin", "admin");
    assert!(ci.starts_with("figeval_") && ci.len() > 40);
    expect(&[
        "serve", "token", "create", "--store", &store, "--name", "ci", "--scope", "read",
    ])
    .exit(2)
    .stderr_has("exists already");
    let listed = expect(&["serve", "token", "list", "--store", &store]);
    listed
        .exit(0)
        .stdout_has("ci\tpush")
        .stdout_has("reader\tread");
    for t in [&ci, &reader, &admin] {
        assert!(
            !listed.stdout().contains(t.as_str()),
            "a token value was listed"
        );
    }

    let s = serve(&store, &app, &[]);
    let runs = s.url("/api/runs");
    // push: pushes, cannot read; read: reads, cannot push or delete; admin: everything.
    let id = push(&s, Some(&ci), &push_body(&report, "from ci", &[]))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let one = s.url(&format!("/api/runs/{id}"));
    call("GET", &one, Some(&ci), None, &[]).is_error(403, "forbidden", "push token");
    call(
        "POST",
        &runs,
        Some(&reader),
        Some(&push_body(&report, "x", &[])),
        &[],
    )
    .is_error(403, "forbidden", "read token");
    let listed = call("GET", &runs, Some(&reader), None, &[]).json();
    assert_eq!(listed["runs"][0]["pushed_by"], "ci");
    call("DELETE", &one, Some(&reader), None, &[]).is_error(403, "forbidden", "admin");
    // The push token may rename the run it pushed; a reader may not.
    assert_eq!(
        call(
            "PATCH",
            &one,
            Some(&ci),
            Some(r#"{"name": "renamed by ci"}"#),
            &[]
        )
        .status,
        200
    );
    call("PATCH", &one, Some(&reader), Some(r#"{"name": "no"}"#), &[]).is_error(
        403,
        "forbidden",
        "rename",
    );

    // The page signs in with a read token: an HttpOnly, SameSite=Strict session cookie.
    let signed = call(
        "POST",
        &s.url("/api/session"),
        None,
        Some(&serde_json::json!({"token": reader}).to_string()),
        &[("sec-fetch-site", "same-origin")],
    );
    assert_eq!(signed.status, 200, "{}", signed.body);
    let set = signed.header("set-cookie").unwrap().to_string();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict") && set.contains("Path=/"),
        "{set}"
    );
    assert!(!set.contains(&reader), "the cookie is not the token");
    let cookie = set.split(';').next().unwrap().to_string();
    let with_cookie = [
        ("cookie", cookie.as_str()),
        ("sec-fetch-site", "same-origin"),
    ];
    assert_eq!(call("GET", &runs, None, None, &with_cookie).status, 200);
    let me = call("GET", &s.url("/api/session"), None, None, &with_cookie).json();
    assert_eq!(me["scope"], "read");
    assert_eq!(me["signed_in"], true);
    // A push token cannot sign in; an unknown one is 401.
    call(
        "POST",
        &s.url("/api/session"),
        None,
        Some(&serde_json::json!({"token": ci}).to_string()),
        &[],
    )
    .is_error(403, "forbidden", "push token");
    call(
        "POST",
        &s.url("/api/session"),
        None,
        Some(r#"{"token": "figeval_nope"}"#),
        &[],
    )
    .is_error(401, "unauthorized", "not known");

    // An admin's session deletes; the same request from another site is refused (CSRF).
    let admin_cookie = sign_in(&s, &admin);
    let from_elsewhere = [
        ("cookie", admin_cookie.as_str()),
        ("sec-fetch-site", "cross-site"),
    ];
    call("DELETE", &one, None, None, &from_elsewhere).is_error(403, "forbidden", "another site");
    let foreign_origin = [
        ("cookie", admin_cookie.as_str()),
        ("origin", "http://evil.example"),
    ];
    call("DELETE", &one, None, None, &foreign_origin).is_error(403, "forbidden", "another site");
    let same_site = [
        ("cookie", admin_cookie.as_str()),
        ("sec-fetch-site", "same-origin"),
    ];
    assert_eq!(call("DELETE", &one, None, None, &same_site).status, 204);

    // Revoking the token ends its sessions.
    expect(&[
        "serve", "token", "revoke", "--store", &store, "--name", "reader",
    ])
    .exit(0);
    call("GET", &runs, None, None, &with_cookie).is_error(401, "unauthorized", "session has ended");
    call("GET", &runs, Some(&reader), None, &[]).is_error(401, "unauthorized", "revoked");
    // Signing out ends the admin's session.
    assert_eq!(
        call("DELETE", &s.url("/api/session"), None, None, &same_site).status,
        204
    );
    call("GET", &runs, None, None, &same_site).is_error(401, "unauthorized", "session has ended");

    // No token, cookie or session value in any log line.
    let (status, lines) = s.terminate().unwrap();
    assert!(status.success(), "{lines:#?}");
    for secret in [&ci, &reader, &admin, &cookie, &admin_cookie] {
        let value = secret.split('=').next_back().unwrap();
        assert!(
            !lines.iter().any(|l| l.contains(value)),
            "a secret in the log: {lines:#?}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l == "figeval serve: stopped; the store is closed"),
        "{lines:#?}"
    );
}

fn two_hundred_concurrent_pushes_are_each_stored_once(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let report = Arc::new(fixture_report(dir.path()));
    let url = Arc::new(s.url("/api/runs"));
    let threads: Vec<_> = (0..200)
        .map(|i| {
            let (report, url) = (report.clone(), url.clone());
            std::thread::spawn(move || {
                let a = call(
                    "POST",
                    &url,
                    None,
                    Some(&push_body(
                        &report,
                        &format!("push {i}"),
                        &[("i", &i.to_string())],
                    )),
                    &[],
                );
                assert_eq!(a.status, 201, "{}", a.body);
                a.json()["id"].as_str().unwrap().to_string()
            })
        })
        .collect();
    let ids: Vec<String> = threads
        .into_iter()
        .map(|t| t.join().expect("a push"))
        .collect();
    let unique: BTreeSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), 200);
    let stored = all_runs(&s, None);
    assert_eq!(stored.len(), 200, "none lost, none twice");
    let names: BTreeSet<String> = stored
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = (0..200).map(|i| format!("push {i}")).collect();
    assert_eq!(names, expected);
    let listed: BTreeSet<String> = stored
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, ids.into_iter().collect());
}

/// Signs in with `token`: the session cookie (`figeval_session=…`).
fn sign_in(s: &Served, token: &str) -> String {
    let a = call(
        "POST",
        &s.url("/api/session"),
        None,
        Some(&serde_json::json!({ "token": token }).to_string()),
        &[],
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let set = a.header("set-cookie").expect("a session cookie");
    set.split(';').next().unwrap_or_default().to_string()
}

/// Every stored run, through the cursor.
fn all_runs(s: &Served, token: Option<&str>) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let mut url = s.url("/api/runs?limit=100");
    loop {
        let page = call("GET", &url, token, None, &[]).json();
        out.extend(page["runs"].as_array().unwrap().iter().cloned());
        match page["next"].as_str() {
            Some(c) => url = s.url(&format!("/api/runs?limit=100&cursor={c}")),
            None => return out,
        }
    }
}

fn a_server_killed_mid_push_keeps_every_answered_run_and_nothing_half_written(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let app = app_dir(dir.path());
    let s = serve(&store, &app, &[]);
    // Pushes with a capture, so each write is several rows and a few hundred kilobytes.
    let (capture, _) = fixture_capture();
    let body = serde_json::json!({
        "report": serde_json::from_str::<serde_json::Value>(&fixture_report(dir.path())).unwrap(),
        "capture": capture.repeat(40),
        "labels": {"a": "1", "b": "2", "c": "3"},
    })
    .to_string();
    let body = Arc::new(body);
    let answered = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let url = s.url("/api/runs");
    let pushers: Vec<_> = (0..8)
        .map(|_| {
            let (body, answered, stop, url) =
                (body.clone(), answered.clone(), stop.clone(), url.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new()
                    .timeout(Duration::from_secs(30))
                    .build();
                while !stop.load(Ordering::SeqCst) {
                    match agent
                        .post(&url)
                        .set("Content-Type", "application/json")
                        .send_string(&body)
                    {
                        Ok(r) if r.status() == 201 => {
                            let v: serde_json::Value =
                                serde_json::from_reader(r.into_reader()).unwrap();
                            answered
                                .lock()
                                .unwrap()
                                .push(v["id"].as_str().unwrap().to_string());
                        }
                        Ok(r) => panic!("HTTP {}", r.status()),
                        // The server died mid-request: this push was never answered.
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    while answered.lock().unwrap().len() < 20 {
        std::thread::sleep(Duration::from_millis(20));
    }
    s.kill9();
    stop.store(true, Ordering::SeqCst);
    for p in pushers {
        p.join().expect("a pusher");
    }
    let answered = answered.lock().unwrap().clone();

    let s = serve(&store, &app, &[]);
    let stored = all_runs(&s, None);
    let stored_ids: BTreeSet<String> = stored
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    for id in &answered {
        assert!(stored_ids.contains(id), "the answered push {id} was lost");
    }
    // Every stored run is whole: its report reads and checks, its labels and capture are there.
    for r in &stored {
        let id = r["id"].as_str().unwrap();
        assert_eq!(
            r["labels"],
            serde_json::json!({"a": "1", "b": "2", "c": "3"})
        );
        let got = call("GET", &s.url(&format!("/api/runs/{id}")), None, None, &[]).json();
        figeval::Report::parse(&got["report"].to_string()).expect("a whole report");
        let c = call(
            "GET",
            &s.url(&format!("/api/runs/{id}/capture")),
            None,
            None,
            &[],
        );
        assert_eq!(c.body.len(), capture.len() * 40);
        let by_label = call(
            "GET",
            &s.url("/api/runs?label=c:3&limit=100"),
            None,
            None,
            &[],
        )
        .json();
        assert!(!by_label["runs"].as_array().unwrap().is_empty());
    }
    assert!(stored.len() >= answered.len());
}

fn a_store_that_cannot_be_written_refuses_pushes_and_still_serves_reads(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let app = app_dir(dir.path());
    let report = fixture_report(dir.path());
    let s = serve(&store, &app, &[]);
    let id = push(&s, None, &push_body(&report, "before", &[]))["id"]
        .as_str()
        .unwrap()
        .to_string();
    drop(s);
    let _undo = make_read_only(kind, &store, dir.path());
    let s = serve(&store, &app, &[]);
    let refused = call(
        "POST",
        &s.url("/api/runs"),
        None,
        Some(&push_body(&report, "after", &[])),
        &[],
    );
    refused.is_error(503, "store_unwritable", "cannot be written");
    assert!(refused.json()["detail"]
        .as_str()
        .unwrap()
        .contains("reads still work"));
    call(
        "PATCH",
        &s.url(&format!("/api/runs/{id}")),
        None,
        Some(r#"{"name": "x"}"#),
        &[],
    )
    .is_error(503, "store_unwritable", "cannot be written");
    let list = call("GET", &s.url("/api/runs"), None, None, &[]).json();
    assert_eq!(list["runs"].as_array().unwrap().len(), 1);
    assert_eq!(
        call("GET", &s.url(&format!("/api/runs/{id}")), None, None, &[]).status,
        200
    );
}

/// Makes the store read-only (a SQLite file: immutable as root, mode 0444 otherwise; a
/// PostgreSQL database: read-only transactions by default); undone on drop.
fn make_read_only(kind: Kind, store: &str, dir: &Path) -> impl Drop {
    struct Undo(Option<std::path::PathBuf>);
    impl Drop for Undo {
        fn drop(&mut self) {
            if let Some(p) = &self.0 {
                let _ = std::process::Command::new("chattr")
                    .arg("-i")
                    .arg(p)
                    .status();
            }
        }
    }
    match kind {
        Kind::Sqlite => {
            let file = dir.join("runs.db");
            let root = std::process::Command::new("id")
                .arg("-u")
                .output()
                .map(|o| o.stdout == b"0\n")
                .unwrap_or(false);
            if root {
                let ok = std::process::Command::new("chattr")
                    .arg("+i")
                    .arg(&file)
                    .status()
                    .unwrap()
                    .success();
                assert!(ok, "chattr +i (root ignores file modes)");
                Undo(Some(file))
            } else {
                let mut p = std::fs::metadata(&file).unwrap().permissions();
                p.set_readonly(true);
                std::fs::set_permissions(&file, p).unwrap();
                Undo(None)
            }
        }
        Kind::Postgres => {
            let db = store.rsplit('/').next().unwrap();
            testkit::postgres::Cluster::shared()
                .sql(
                    "postgres",
                    &format!("ALTER DATABASE {db} SET default_transaction_read_only = on"),
                )
                .unwrap();
            Undo(None)
        }
    }
}

fn a_store_of_a_newer_schema_is_refused_with_the_reason(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let app = app_dir(dir.path());
    drop(serve(&store, &app, &[]));
    match kind {
        Kind::Sqlite => {
            let ok = std::process::Command::new("/usr/bin/python3")
                .args(["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE figeval_schema SET version = 99'); c.commit()"])
                .arg(dir.path().join("runs.db"))
                .status()
                .unwrap()
                .success();
            assert!(ok);
        }
        Kind::Postgres => {
            let db = store.rsplit('/').next().unwrap();
            testkit::postgres::Cluster::shared()
                .sql(db, "UPDATE figeval_schema SET version = 99")
                .unwrap();
        }
    }
    let e = try_serve(&store, &app, &[]).err().expect("refused");
    assert!(
        e.contains("schema is version 99") && e.contains("newer figeval"),
        "{e}"
    );
    assert!(e.contains("exit status: 2"), "{e}");
}

fn push_prints_the_short_link_and_compare_takes_the_newest_matching_baseline(kind: Kind) {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(kind, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let report = fixture_report(dir.path());
    let file = dir.path().join("report.json");
    std::fs::write(&file, &report).unwrap();
    let file = file.to_string_lossy();
    let (capture, _) = fixture_capture();
    let capture_file = dir.path().join("run.jsonl");
    std::fs::write(&capture_file, &capture).unwrap();
    let capture_file = capture_file.to_string_lossy();
    let pushed = expect(&[
        "push",
        &file,
        "--server",
        &s.base,
        "--label",
        "branch=main",
        "--name",
        "main run",
        "--capture",
        &capture_file,
    ]);
    pushed.exit(0).stderr_has("pushed \"main run\"");
    let link = pushed.stdout().trim().to_string();
    assert!(link.starts_with(&format!("{}/r/", s.base)), "{link}");
    let id = link.rsplit('/').next().unwrap();
    assert_eq!(
        call("GET", &s.url(&format!("/api/runs/{id}")), None, None, &[]).json()["labels"]["branch"],
        "main"
    );
    // The capture went with it.
    let kept = call(
        "GET",
        &s.url(&format!("/api/runs/{id}/capture")),
        None,
        None,
        &[],
    );
    assert_eq!(kept.body, capture);

    // The newest run on main is the baseline; the dataset is the report's own.
    let from = format!("{}?label=branch:main", s.base);
    let compared = expect(&[
        "compare",
        "--baseline-from",
        &from,
        &file,
        "--format",
        "markdown",
    ]);
    compared.exit(0).stdout_has("main run");
    expect(&[
        "compare",
        "--baseline-from",
        &format!("{}?label=branch:nope", s.base),
        &file,
    ])
    .exit(2)
    .stderr_has("no stored run matches");
    // One report alone is not a comparison.
    expect(&["compare", &file])
        .exit(2)
        .stderr_has("--baseline-from");

    // A token-guarded server: the push takes FIGEVAL_TOKEN; without it, 401 is exit 2.
    let ci = create_token(&store, "ci", "push");
    expect(&["push", &file, "--server", &s.base])
        .exit(2)
        .stderr_has("HTTP 401")
        .stderr_has("FIGEVAL_TOKEN");
    let out = testkit::expect(
        std::process::Command::new(figeval_e2e::bin("figeval"))
            .args(["push", &file, "--server", &s.base])
            .env("FIGEVAL_TOKEN", &ci)
            .current_dir(repo_root()),
    );
    out.exit(0).stdout_has("/r/");
    // A report that disagrees with itself is refused before any request.
    let bad = dir.path().join("bad.json");
    let mut v: serde_json::Value = serde_json::from_str(&report).unwrap();
    v["per_item"][1]["page_hit_at_3"] = serde_json::json!(true);
    std::fs::write(&bad, v.to_string()).unwrap();
    expect(&[
        "push",
        &bad.to_string_lossy(),
        "--server",
        "http://127.0.0.1:9",
    ])
    .exit(2)
    .stderr_has("disagrees with itself");
}

#[test]
fn two_servers_on_one_postgres_store_share_runs_and_sessions() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Postgres, dir.path());
    let app = app_dir(dir.path());
    let admin = create_token(&store, "admin", "admin");
    let a = serve(&store, &app, &[]);
    let b = serve(&store, &app, &[]);
    let report = fixture_report(dir.path());
    let id = push(&a, Some(&admin), &push_body(&report, "pushed to a", &[]))["id"]
        .as_str()
        .unwrap()
        .to_string();
    let listed = call("GET", &b.url("/api/runs"), Some(&admin), None, &[]).json();
    assert_eq!(listed["runs"][0]["id"], id.as_str());
    let got = call(
        "GET",
        &b.url(&format!("/api/runs/{id}")),
        Some(&admin),
        None,
        &[],
    )
    .json();
    assert_eq!(got["name"], "pushed to a");
    push(&b, Some(&admin), &push_body(&report, "pushed to b", &[]));
    assert_eq!(all_runs(&a, Some(&admin)).len(), 2);
    // A session made on one server is good on the other.
    let cookie = sign_in(&a, &admin);
    assert_eq!(
        call(
            "GET",
            &b.url("/api/runs"),
            None,
            None,
            &[("cookie", &cookie)]
        )
        .status,
        200
    );
}

#[test]
fn a_missing_app_says_how_to_build_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Sqlite, dir.path());
    let e = try_serve(&store, &dir.path().join("no-dist"), &[])
        .err()
        .expect("refused");
    assert!(
        e.contains("trunk build --release --offline") && e.contains("no-dist"),
        "{e}"
    );
}

#[test]
fn a_non_loopback_address_without_a_token_is_refused_and_insecure_no_auth_says_what_it_means() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Sqlite, dir.path());
    let app = app_dir(dir.path());
    // Refused before it listens (a test server never listens beyond loopback).
    expect(&[
        "serve",
        "--listen",
        "0.0.0.0:0",
        "--store",
        &store,
        "--app",
        &app.to_string_lossy(),
    ])
    .exit(2)
    .stderr_has("not a loopback address")
    .stderr_has("--insecure-no-auth");
    // With tokens in the store, --insecure-no-auth still lets anyone in, and says so.
    create_token(&store, "admin", "admin");
    let s = serve(&store, &app, &["--insecure-no-auth"]);
    assert!(s
        .lines()
        .iter()
        .any(|l| l.contains("WARNING: --insecure-no-auth") && l.contains("delete every run")));
    assert_eq!(
        call("GET", &s.url("/api/runs"), None, None, &[]).status,
        200
    );
}

#[test]
fn an_open_loopback_server_answers_only_to_loopback_host_names() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Sqlite, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let rebound = call(
        "GET",
        &s.url("/api/runs"),
        None,
        None,
        &[("host", "rebind.evil.example")],
    );
    rebound.is_error(403, "forbidden", "loopback host");
    // A change sent by another site's page is refused even on an open server.
    let report = fixture_report(dir.path());
    call(
        "POST",
        &s.url("/api/runs"),
        None,
        Some(&push_body(&report, "x", &[])),
        &[("sec-fetch-site", "cross-site")],
    )
    .is_error(403, "forbidden", "another site");
    // The page learns it may do anything without signing in.
    let me = call("GET", &s.url("/api/session"), None, None, &[]).json();
    assert_eq!(
        me,
        serde_json::json!({"signed_in": false, "open": true, "name": null, "scope": "admin"})
    );
}

#[test]
fn the_public_url_makes_the_short_links_and_a_secure_session_cookie() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Sqlite, dir.path());
    let admin = create_token(&store, "admin", "admin");
    let s = serve(
        &store,
        &app_dir(dir.path()),
        &["--public-url", "https://figeval.example/"],
    );
    let report = fixture_report(dir.path());
    let pushed = push(&s, Some(&admin), &push_body(&report, "x", &[]));
    let id = pushed["id"].as_str().unwrap();
    assert_eq!(pushed["url"], format!("https://figeval.example/r/{id}"));
    let a = call(
        "POST",
        &s.url("/api/session"),
        None,
        Some(&serde_json::json!({"token": admin}).to_string()),
        &[],
    );
    let set = a.header("set-cookie").unwrap();
    assert!(set.ends_with("; Secure"), "{set}");
}

#[test]
fn sigterm_lets_a_request_in_flight_finish_then_closes_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = new_store(Kind::Sqlite, dir.path());
    let s = serve(&store, &app_dir(dir.path()), &[]);
    let body = push_body(&fixture_report(dir.path()), "in flight", &[]);
    let addr = s.base.trim_start_matches("http://").to_string();
    let mut stream = TcpStream::connect(&addr).unwrap();
    let head = format!(
        "POST /api/runs HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    let (first, rest) = body.split_at(body.len() / 2);
    stream.write_all(first.as_bytes()).unwrap();
    stream.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let pid = s.pid().to_string();
    std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stream.write_all(rest.as_bytes()).unwrap();
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut stream, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
    let (status, lines) = s.terminate().unwrap();
    assert!(status.success(), "{lines:#?}");
    assert!(lines
        .iter()
        .any(|l| l.contains("letting the requests in flight finish")));
    assert_eq!(
        lines.last().map(String::as_str),
        Some("figeval serve: stopped; the store is closed")
    );
}
