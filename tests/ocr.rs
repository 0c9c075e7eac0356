//! figeval over the project's scanned test corpus (the Octave manual's pages 325-370 as a scan,
//! some pages turned, blurred or noisy, beside the same pages with text; made by
//! `xtask/scanned_excerpt.py`): OCR finds the captions the text layer has, a dataset of those
//! figures grounds `ok`, `--ocr never` makes every item `unreadable` (never `absent`), and a
//! second run is served from the OCR cache. OCR runs once for the whole file: every test shares
//! one cache folder (XDG_CACHE_HOME), made fresh by the first.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use figeval_e2e::{bin, repo_root, scanned_excerpt, write, ScannedExcerpt};
use serde_json::{json, Value};

struct Shared {
    corpus: ScannedExcerpt,
    cache_home: PathBuf,
    /// `figeval captions --format json` on the scan, the first run (the cache empty).
    first_scan: Value,
    /// The same on the text version.
    text: Value,
}

fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let corpus = scanned_excerpt();
        let cache_home = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("ocr-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&cache_home);
        std::fs::create_dir_all(&cache_home).unwrap();
        let first_scan = captions(&cache_home, &corpus.scanned, &[]);
        let text = captions(&cache_home, &corpus.text, &[]);
        Shared {
            corpus,
            cache_home,
            first_scan,
            text,
        }
    })
}

fn run(cache_home: &Path, args: &[&str]) -> Output {
    Command::new(bin("figeval"))
        .args(args)
        .current_dir(repo_root())
        .env("XDG_CACHE_HOME", cache_home)
        .output()
        .expect("figeval runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&o.stdout),
            stderr(o)
        )
    })
}

fn captions(cache_home: &Path, pdf: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "captions",
        "--pdf",
        pdf.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let o = run(cache_home, &args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    json_of(&o)
}

fn labels(v: &Value) -> Vec<(String, u64)> {
    v["captions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["page"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A dataset with one item per caption of the text version, on its page.
fn figures_dataset(dir: &Path) -> String {
    let items: Vec<Value> = labels(&shared().text)
        .into_iter()
        .map(|(label, page)| {
            json!({"question": format!("What does {label} show?"), "expected_pages": [page],
                   "figure_ref": label, "kind": "locate"})
        })
        .collect();
    write(
        dir,
        "scanned-figures.json",
        &json!({"corpus_id": "octave-325-370", "items": items}).to_string(),
    )
}

fn ground(dataset: &str, pdf: &Path, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec![
        "ground",
        "--dataset",
        dataset,
        "--pdf",
        pdf.to_str().unwrap(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let o = run(&shared().cache_home, &args);
    (o.status.code(), json_of(&o))
}

#[test]
fn ocr_finds_at_least_90_percent_of_the_text_versions_captions_on_the_same_pages() {
    let s = shared();
    let text = labels(&s.text);
    assert_eq!(
        text.len(),
        4,
        "Figures 15.1-15.4 on the text version: {text:?}"
    );
    assert_eq!(s.text["ocr_pages"], 0);
    let scanned = labels(&s.first_scan);
    let found = text.iter().filter(|c| scanned.contains(c)).count();
    assert!(
        found * 10 >= text.len() * 9,
        "OCR found {found} of {} captions: {scanned:?}",
        text.len()
    );
    assert_eq!(s.first_scan["ocr_pages"], 46);
    assert_eq!(s.first_scan["ocr_cached_pages"], 0);
    for c in s.first_scan["captions"].as_array().unwrap() {
        assert_eq!(c["source"], "ocr", "{c}");
        let confidence = c["confidence"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&confidence), "{c}");
    }
}

#[test]
fn a_dataset_of_the_figures_grounds_ok_on_the_scan() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = figures_dataset(dir.path());
    let (code, v) = ground(&dataset, &shared().corpus.scanned, &[]);
    let items = v["items"].as_array().unwrap();
    let ok = items.iter().filter(|i| i["verdict"] == "ok").count();
    assert!(
        ok * 10 >= items.len() * 9,
        "{ok} of {} ok: {v}",
        items.len()
    );
    assert_eq!(v["ocr_pages"], 46);
    assert_eq!(code, Some(if ok == items.len() { 0 } else { 1 }));
}

#[test]
fn with_ocr_never_every_figure_item_is_unreadable_not_absent() {
    let dir = tempfile::tempdir().unwrap();
    let dataset = figures_dataset(dir.path());
    let (code, v) = ground(&dataset, &shared().corpus.scanned, &["--ocr", "never"]);
    assert_eq!(code, Some(1));
    for item in v["items"].as_array().unwrap() {
        assert_eq!(item["verdict"], "unreadable", "{item}");
        assert_eq!(item["unreadable_pages"], item["expected_pages"], "{item}");
    }
    assert_eq!(v["ocr_pages"], 0);
    assert_eq!(v["unreadable_pages"].as_array().unwrap().len(), 46);
    let o = run(
        &shared().cache_home,
        &[
            "ground",
            "--dataset",
            &dataset,
            "--pdf",
            shared().corpus.scanned.to_str().unwrap(),
            "--ocr",
            "never",
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("0 of 46 pages read by OCR; 46 pages could not be read"),
        "{text}"
    );
    assert!(text.contains("could not be read (a scanned page"), "{text}");
    assert!(
        stderr(&o).contains("page 1 unreadable: no text layer, and OCR is off"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_second_run_is_served_from_the_cache() {
    let s = shared();
    let second = captions(&s.cache_home, &s.corpus.scanned, &[]);
    assert_eq!(second["ocr_pages"], 46);
    assert_eq!(second["ocr_cached_pages"], 46);
    assert_eq!(second["captions"], s.first_scan["captions"]);
    let o = run(
        &s.cache_home,
        &["captions", "--pdf", s.corpus.scanned.to_str().unwrap()],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("46 of 46 pages read by OCR (46 from the OCR cache)"),
        "{text}"
    );
    assert!(text.contains("(OCR, confidence "), "{text}");
}
