//! The whole loop on a real PDF: `refsearch` over the Octave manual, `figeval run` against it,
//! `figeval score` on the capture, and `figeval compare` of figures off → on.

use std::path::Path;

use figeval_e2e::{bin, expect, repo_root, report, Refsearch, OCTAVE_DATASET};
use serde_json::Value;

/// The flags of a `figeval run` of the Octave eval against `server` into `capture`.
fn run_args<'a>(server: &'a Refsearch, capture: &'a str, concurrency: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        "--dataset",
        OCTAVE_DATASET,
        "--base-url",
        &server.base_url,
        "--concurrency",
        concurrency,
        "--capture",
        capture,
    ]
}

/// Runs the Octave eval against `server`, writing the report and capture into `dir`.
fn eval(server: &Refsearch, dir: &Path, name: &str) -> Value {
    let out = dir.join(format!("{name}.json"));
    let capture = dir.join(format!("{name}.capture.jsonl"));
    let mut args = run_args(server, capture.to_str().unwrap(), "4");
    args.extend(["--out", out.to_str().unwrap()]);
    let o = expect(&args);
    o.exit(0);
    let items = report(&o.stdout())["per_item"].as_array().unwrap().len();
    assert_eq!(
        o.stderr().lines().filter(|l| l.starts_with('[')).count(),
        items,
        "one progress line per item"
    );
    report(&std::fs::read_to_string(&out).unwrap())
}

fn top_rows(r: &Value) -> impl Iterator<Item = &Value> {
    r["per_item"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["top"].as_array().unwrap())
}

#[test]
fn figures_off_returns_no_figure_chunk_and_figures_on_finds_figure_pages() {
    let dir = tempfile::tempdir().unwrap();
    let off = {
        let server = Refsearch::start(&["--figures", "off"]);
        eval(&server, dir.path(), "off")
    };
    assert!(
        top_rows(&off).all(|m| m["chunk_kind"] != "figure"),
        "no figure chunk with figures off"
    );
    assert_eq!(off["figure_chunk_at_3"], 0.0);
    assert_eq!(off["figure_chunk_at_3_hits"], 0);
    assert_eq!(off["top_k"], 5);
    assert_eq!(off["cache_mode"], "bypass");

    let server = Refsearch::start(&["--figures", "on"]);
    let on = eval(&server, dir.path(), "on");
    let figure_hits: Vec<&Value> = on["per_item"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["figure_chunk_at_3"] == true)
        .collect();
    assert!(
        !figure_hits.is_empty(),
        "figure chunks come back on expected pages"
    );
    for item in &figure_hits {
        let row = item["top"]
            .as_array()
            .unwrap()
            .iter()
            .take(3)
            .find(|m| m["chunk_kind"] == "figure" && m["on_expected_page"] == true)
            .expect("a top-3 figure chunk on an expected page");
        let page = row["page_start"].as_u64().unwrap();
        assert!(item["expected_pages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p.as_u64() == Some(page)));
        assert!(
            !item["figure_summaries_at_3"].as_array().unwrap().is_empty(),
            "its summary is kept"
        );
    }
    let locate_on = on["by_group"]["locate"]["figure_chunk_at_3_hits"]
        .as_u64()
        .unwrap();
    let locate_n = on["by_group"]["locate"]["n"].as_u64().unwrap();
    assert!(
        locate_on * 2 >= locate_n,
        "captions find most locate figures: {locate_on}/{locate_n}"
    );

    // Before/after: the gain and its p-value.
    let o = expect(&[
        "compare",
        dir.path().join("off.json").to_str().unwrap(),
        dir.path().join("on.json").to_str().unwrap(),
        "--format",
        "json",
    ]);
    o.exit(0);
    let c: Value = serde_json::from_slice(&o.output.stdout).unwrap();
    let overall = &c["scopes"][0];
    let figure = overall["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["metric"] == "figure_chunk_at_3")
        .unwrap();
    assert_eq!(
        figure["gained"].as_array().unwrap().len() as u64,
        on["figure_chunk_at_3_hits"].as_u64().unwrap()
    );
    assert!(figure["lost"].as_array().unwrap().is_empty());
    assert!(figure["p_value"].as_f64().unwrap() < 0.05, "{figure}");
    assert!(figure["delta"].as_f64().unwrap() > 0.0);
    assert!(
        c["warnings"].as_array().unwrap().is_empty(),
        "{}",
        c["warnings"]
    );
}

#[test]
fn a_live_report_equals_scoring_its_own_capture_apart_from_run() {
    let dir = tempfile::tempdir().unwrap();
    let server = Refsearch::start(&[]);
    let mut live = eval(&server, dir.path(), "live");
    let o = expect(&[
        "score",
        "--dataset",
        OCTAVE_DATASET,
        "--responses",
        dir.path().join("live.capture.jsonl").to_str().unwrap(),
    ]);
    o.exit(0);
    let mut offline = report(&o.stdout());
    assert_eq!(offline["run"]["source"], "live.capture.jsonl");
    assert_eq!(live["run"]["source"], "live");
    live.as_object_mut().unwrap().remove("run");
    offline.as_object_mut().unwrap().remove("run");
    assert_eq!(live, offline);
}

#[test]
fn a_first_run_without_a_dataset_from_any_folder_runs_the_corpus_the_deployment_serves() {
    let dir = tempfile::tempdir().unwrap();
    let server = Refsearch::start(&[]);
    let capture = dir.path().join("first.jsonl");
    let o = testkit::expect(
        std::process::Command::new(bin("figeval"))
            .args(["run", "--base-url", &server.base_url, "--capture"])
            .arg(&capture)
            .current_dir(dir.path()),
    );
    o.exit(0).stderr_has(
        "figeval: note: no --dataset given; the deployment serves the corpus octave-manual, so \
         this runs the bundled dataset octave-manual-figures (33 items)",
    );
    let r = report(&o.stdout());
    assert_eq!(r["corpus_id"], "octave-manual");
    // Named after the deployment's host and the minute the run started.
    let host = server.base_url["http://".len()..].trim_end_matches("/api");
    let name = r["run"]["name"].as_str().unwrap();
    let when = name
        .strip_prefix(&format!("{host} "))
        .unwrap_or_else(|| panic!("{name}"));
    assert!(
        when.len() == "2026-12-07 07:30 UTC".len() && when.ends_with(" UTC"),
        "{name}"
    );
    // Offline, named by --name; a capture that recorded no top_k would take --top-k.
    let o = expect(&[
        "score",
        "--dataset",
        "octave-manual-figures",
        "--responses",
        capture.to_str().unwrap(),
        "--name",
        "figures on",
    ]);
    o.exit(0);
    assert_eq!(report(&o.stdout())["run"]["name"], "figures on");
    // A dataset of another corpus: the deployment's 404 names the corpus it serves.
    expect(&[
        "run",
        "--dataset",
        "nasa-apollo-11-figures",
        "--base-url",
        &server.base_url,
    ])
    .exit(3)
    .stderr_has("HTTP 404 Not Found: unknown corpus \"nasa-apollo-11\"; this deployment serves \"octave-manual\"");
}

#[test]
fn section_chunking_gives_wide_spans_that_are_page_hits_but_not_precise() {
    let dir = tempfile::tempdir().unwrap();
    let server = Refsearch::start(&["--chunking", "section", "--figures", "off"]);
    let r = eval(&server, dir.path(), "section");
    assert!(
        top_rows(&r).any(|m| m["span_pages"].as_u64().unwrap_or(0) > 3),
        "section chunks run across pages"
    );
    let plain = r["page_hit_at_3_hits"].as_u64().unwrap();
    let precise = r["precise_page_hit_at_3_hits"].as_u64().unwrap();
    assert!(
        precise < plain,
        "precise {precise} must be below plain {plain} with section chunks"
    );
}

#[test]
fn a_run_killed_while_answers_stream_in_resumes_to_the_report_of_a_clean_run() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    // A delay per search, so answers stream in over a few seconds and the kill lands mid-run.
    let server = Refsearch::start(&["--latency-ms", "100"]);
    let mut clean = eval(&server, dir.path(), "clean");
    let items = clean["per_item"].as_array().unwrap().len();

    let capture = dir.path().join("killed.capture.jsonl");
    let cap = capture.to_str().unwrap();
    let args = run_args(&server, cap, "2");
    let mut child = Command::new(bin("figeval"))
        .args(&args)
        .current_dir(repo_root())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("figeval runs");
    let answered = |p: &Path| {
        std::fs::read_to_string(p)
            .map(|t| t.matches('\n').count())
            .unwrap_or(0)
    };
    let started = Instant::now();
    while answered(&capture) < 3 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "killed, not finished: {status:?}");
    let kept = answered(&capture);
    assert!(
        (3..items).contains(&kept),
        "killed mid-run: {kept} of {items} answers kept"
    );

    let out = dir.path().join("resumed.json");
    let o = expect(&[&args[..], &["--resume", "--out", out.to_str().unwrap()]].concat());
    let err = o.stderr();
    o.exit(0);
    assert_eq!(
        err.lines()
            .filter(|l| l.ends_with("(from capture)"))
            .count(),
        kept,
        "every whole answer of the killed run is reused:\n{err}"
    );
    let mut resumed = report(&std::fs::read_to_string(&out).unwrap());
    clean.as_object_mut().unwrap().remove("run");
    resumed.as_object_mut().unwrap().remove("run");
    assert_eq!(resumed, clean);
    assert_eq!(answered(&capture), items, "the capture is complete");
}
