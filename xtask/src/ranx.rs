//! The independent check of `figeval export`: ranx (PyPI), in a venv under the target folder,
//! computes hit rate at 3 and 5, MRR, nDCG at 5 and 10 and recall at 5 and 10 from the
//! exported qrels and run, and they must equal the report's `page_hit_at_3`, `page_hit_at_5`,
//! `page_mrr`, `ndcg_at_5`, `ndcg_at_10`, `recall_at_5` and `recall_at_10`
//! (`tests/ranx/check_ranx.py`). ir_measures (PyPI, in the same venv) reads the same capture
//! exported in BEIR's layout (`figeval export --beir`) and its nDCG at 5 and 10 and recall at
//! 5 and 10 must equal the report's too (`tests/ranx/check_beir.py`).
//!
//! The capture is generated here, deterministically, so that the two definitions meet: every
//! match cites one page and no two matches of a response cite the same page. Its envelopes
//! record `top_k` 12, so the report states the metrics at 10 (contract §4.1).

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::sh::{self, cmd, exec};
use crate::venv;

/// The ranx release the check installs.
pub const RANX: &str = "ranx==0.3.21";

/// The ir_measures release the check installs, for the BEIR layout.
pub const IR_MEASURES: &str = "ir-measures==0.4.3";

/// Items in the generated dataset.
const ITEMS: usize = 240;

/// Matches per response (a tenth of the responses have none): more than 10, so that pages
/// found past rank 10 count for MRR but not at 10.
const MATCHES: u64 = 12;

/// Runs the check; the venv is created (and ranx installed) on first use and reused after.
pub fn check() -> Result<(), String> {
    let python = venv()?;
    let dir = sh::target_dir().join("ranx-check");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let (dataset, capture) = (dir.join("dataset.json"), dir.join("capture.jsonl"));
    let (dataset_text, capture_text) = generate();
    write(&dataset, &dataset_text)?;
    write(&capture, &capture_text)?;
    let figeval = sh::target_dir().join("debug").join("figeval");
    let report = dir.join("report.json");
    let (qrels, run, beir) = (dir.join("qrels.txt"), dir.join("run.txt"), dir.join("beir"));
    let read = |c: &str| {
        let mut c = cmd(&figeval, &[c]);
        c.arg("--dataset").arg(&dataset);
        c.arg("--responses").arg(&capture);
        c
    };
    let mut score = read("score");
    score.arg("--out").arg(&report);
    score.stdout(std::process::Stdio::null());
    exec(score)?;
    let mut export = read("export");
    export.arg("--qrels").arg(&qrels).arg("--run").arg(&run);
    export.arg("--beir").arg(&beir);
    exec(export)?;
    let mut ranx = cmd(&python, &["tests/ranx/check_ranx.py"]);
    ranx.arg(&qrels).arg(&run).arg(&report);
    exec(ranx)?;
    let mut beir_check = cmd(&python, &["tests/ranx/check_beir.py"]);
    beir_check.arg(&beir).arg(&report);
    exec(beir_check)
}

/// Makes the venv (and installs ranx) where it is missing, without running the check: `cargo
/// xtask test` does it beside the builds.
pub fn prepare() -> Result<(), String> {
    venv().map(|_| ())
}

/// The venv's python, with ranx and ir_measures importable.
fn venv() -> Result<PathBuf, String> {
    venv::python("ranx-venv", &venv::Packages::Pinned(&[RANX, IR_MEASURES]))
}

fn write(p: &Path, text: &str) -> Result<(), String> {
    fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
}

/// A dataset and a capture of it: items with one to four expected pages; responses of twelve
/// one-page matches on distinct pages, with some of the expected pages (none, one, or several)
/// at any ranks.
fn generate() -> (String, String) {
    let mut rng = testkit::Rng::new(0x7261_6e78); // "ranx"
    let mut items = Vec::new();
    let mut capture = String::new();
    for i in 0..ITEMS {
        let question = format!("Which page answers generated question {i}?");
        let first = 1 + rng.below(400) as u32;
        let mut expected = vec![first];
        for _ in 0..rng.below(4) {
            let last = expected[expected.len() - 1];
            expected.push(last + 1 + rng.below(3) as u32);
        }
        // Pages 500 and up are never expected: the misses.
        let mut pages: Vec<u32> = (0..MATCHES)
            .map(|k| 500 + 20 * i as u32 + k as u32)
            .collect();
        match rng.below(10) {
            0 => pages.clear(),
            1 | 2 => {} // no expected page at all
            _ => {
                // Each expected page found with probability 1/2 (the first always), at a rank
                // not yet taken.
                for (j, &p) in expected.iter().enumerate() {
                    if j > 0 && rng.below(2) == 0 {
                        continue;
                    }
                    let at = loop {
                        let at = rng.below(MATCHES) as usize;
                        if pages[at] >= 500 {
                            break at;
                        }
                    };
                    pages[at] = p;
                }
            }
        }
        let matches: Vec<serde_json::Value> = pages
            .iter()
            .enumerate()
            .map(|(k, &p)| {
                serde_json::json!({
                    "chunk_id": format!("c{i}-{k}"),
                    "content": "generated",
                    "provenance": {"page_start": p, "page_end": p},
                })
            })
            .collect();
        let line = serde_json::json!({
            "question": question,
            "request": {"base_url": "http://127.0.0.1:9/api", "top_k": MATCHES, "cache_mode": "bypass"},
            "response": {"query": question, "matches": matches},
        });
        let _ = writeln!(capture, "{line}");
        items.push(serde_json::json!({
            "question": question,
            "expected_pages": expected,
            "figure_ref": format!("Figure {i}"),
            "kind": if i % 2 == 0 { "locate" } else { "content" },
        }));
    }
    let dataset = serde_json::json!({"corpus_id": "ranx-check", "items": items});
    (dataset.to_string(), capture)
}
