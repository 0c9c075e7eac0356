//! A corpus of several files (contract §1.5), end to end: two PDFs cut from the Octave manual
//! (pages 330-355 as `part1.pdf`, 820-840 as `part2.pdf`, made at test time with qpdf),
//! `figeval ground` with `--pdf` repeated, `refsearch` serving both files, `figeval run`
//! against it, and `figeval score` of the same capture against datasets that name the wrong
//! file or no file, and with the provenance audit of each file in its own PDF.
//!
//! Page 3 of each part carries a figure (Figure 15.1 and Figure 28.1), so a match on page 3 of
//! the wrong file is the "right page, wrong file" case.

use std::path::{Path, PathBuf};
use std::process::Command;

use figeval_e2e::{bin, expect, octave_pdf, repo_root, report, write};
use serde_json::Value;

const DATASET: &str = "tests/fixtures/two-files.json";

/// `dir/manual/part1.pdf` and `dir/manual/part2.pdf`, cut from the manual.
fn cut_parts(dir: &Path) -> [PathBuf; 2] {
    let manual = dir.join("manual");
    std::fs::create_dir_all(&manual).unwrap();
    let parts = [
        (manual.join("part1.pdf"), "330-355"),
        (manual.join("part2.pdf"), "820-840"),
    ];
    for (out, pages) in &parts {
        let status = Command::new("qpdf")
            .args(["--empty", "--pages", octave_pdf(), pages, "--"])
            .arg(out)
            .status()
            .expect("qpdf runs (apt-get install qpdf)");
        assert!(status.success(), "qpdf cut {pages}: {status}");
    }
    parts.map(|(p, _)| p)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn the_ground_check_matches_each_pdf_to_its_locations() {
    let dir = tempfile::tempdir().unwrap();
    let [one, two] = cut_parts(dir.path());
    let out = expect(&[
        "ground",
        "--dataset",
        DATASET,
        "--pdf",
        s(&one),
        "--pdf",
        s(&two),
    ]);
    out.exit(0);
    let text = out.stdout();
    assert!(
        text.contains(&format!("{DATASET} against {} (26 pages)", s(&one)))
            && text.contains(&format!("{DATASET} against {} (21 pages)", s(&two))),
        "{text}"
    );
    // Items keep their dataset numbers: part2.pdf holds items 2 and 4.
    assert!(
        text.contains("  item 4   ok          Figure 29.1"),
        "{text}"
    );
    let json = expect(&[
        "ground",
        "--dataset",
        DATASET,
        "--pdf",
        s(&one),
        "--pdf",
        s(&two),
        "--format",
        "json",
    ]);
    json.exit(0);
    let v: Value = serde_json::from_str(&json.stdout()).unwrap();
    let numbers: Vec<&Value> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["item_numbers"])
        .collect();
    assert_eq!(
        numbers,
        [&serde_json::json!([1, 3]), &serde_json::json!([2, 4])]
    );
    assert_eq!(v["files"][1]["ground"]["counts"]["ok"], 2);

    // One PDF short: the location it would hold says which path found no PDF.
    let out = expect(&["ground", "--dataset", DATASET, "--pdf", s(&one)]);
    out.exit(2);
    assert!(
        out.stderr().contains(
            "item 2 (\"Which figure contrasts a piecewise polynomial fi…\"): expected_locations[0].path \"manual/part2.pdf\" is none of the PDFs given"
        ),
        "{}",
        out.stderr()
    );
    // A dataset of one file takes one PDF.
    let out = expect(&[
        "ground",
        "--dataset",
        "data/eval_datasets/octave-manual-figures.json",
        "--pdf",
        s(&one),
        "--pdf",
        s(&two),
    ]);
    out.exit(2);
    assert!(
        out.stderr().contains("--pdf is given 2 times"),
        "{}",
        out.stderr()
    );
}

/// Writes the dataset with item 1's location moved to `path` (or, with `None`, replaced by
/// `expected_pages: [3]`, as in a dataset of one file).
fn variant(dir: &Path, name: &str, path: Option<&str>) -> String {
    let mut d: Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join(DATASET)).unwrap()).unwrap();
    let item = d["items"][0].as_object_mut().unwrap();
    match path {
        Some(p) => item["expected_locations"][0]["path"] = p.into(),
        None => {
            item.remove("expected_locations");
            item.insert("expected_pages".into(), serde_json::json!([3]));
        }
    }
    write(dir, name, &d.to_string())
}

#[test]
fn refsearch_serves_two_files_and_a_page_of_the_wrong_file_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let [one, two] = cut_parts(dir.path());
    let mut command = Command::new(bin("refsearch"));
    command
        .args(["--pdf", s(&one), "--pdf", s(&two)])
        .args(["--corpus-id", "octave-two-files", "--listen", "127.0.0.1:0"])
        .current_dir(repo_root());
    let mut lines = Vec::new();
    let server = testkit::refsearch::Server::start(&mut command, |l| lines.push(l.to_string()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("refsearch: indexed 47 pages")
                && l.contains(&format!("from {}, {}", s(&one), s(&two)))),
        "{lines:?}"
    );
    let capture = dir.path().join("run.jsonl");
    let out = expect(&[
        "run",
        "--dataset",
        DATASET,
        "--base-url",
        &server.base_url,
        "--capture",
        s(&capture),
    ]);
    out.exit(0);
    let r = report(&out.stdout());
    for it in r["per_item"].as_array().unwrap() {
        assert_eq!(it["expected_pages"], serde_json::json!([]));
        for t in it["top"].as_array().unwrap() {
            let (file, id) = (
                t["file_path"].as_str().unwrap(),
                t["chunk_id"].as_str().unwrap(),
            );
            assert!(
                ["part1.pdf", "part2.pdf"].contains(&file) && id.starts_with(&format!("{file}#")),
                "{t}"
            );
        }
    }
    let hits: Vec<bool> = r["per_item"]
        .as_array()
        .unwrap()
        .iter()
        .map(|it| it["page_hit_at_3"].as_bool().unwrap())
        .collect();
    assert_eq!(hits, [true, true, true, true], "{}", out.stdout());

    // The TREC files name the file and the page: the qrels by each location's path, the run
    // by the path of the location a match's file is (`part2.pdf` is `manual/part2.pdf`).
    let (qrels, run) = (dir.path().join("qrels.txt"), dir.path().join("run.txt"));
    let out = expect(&[
        "export",
        "--dataset",
        DATASET,
        "--responses",
        s(&capture),
        "--qrels",
        s(&qrels),
        "--run",
        s(&run),
    ]);
    out.exit(0);
    assert_eq!(
        std::fs::read_to_string(&qrels).unwrap(),
        "q1 0 part1.pdf#p3 1\nq2 0 manual/part2.pdf#p3 1\nq3 0 part1.pdf#p24 1\n\
         q4 0 part2.pdf#p14 1\n"
    );
    let run = std::fs::read_to_string(&run).unwrap();
    for (qid, doc) in [("q2", "manual/part2.pdf#p3"), ("q4", "part2.pdf#p14")] {
        assert!(
            run.lines()
                .any(|l| l.starts_with(&format!("{qid} Q0 {doc} "))),
            "{run}"
        );
    }
    assert!(
        run.lines().all(|l| l
            .split(' ')
            .nth(2)
            .is_some_and(|d| d.starts_with("part1.pdf#p")
                || d.starts_with("part2.pdf#p")
                || d.starts_with("manual/part2.pdf#p"))),
        "{run}"
    );

    // The capture scored against a dataset that puts Figure 15.1 in part2.pdf: the matches on
    // page 3 of part1.pdf are on the right page of the wrong file, a miss that says so.
    let wrong = variant(dir.path(), "wrong.json", Some("part2.pdf"));
    let out = expect(&["score", "--dataset", &wrong, "--responses", s(&capture)]);
    let r = report(&out.stdout());
    let item = &r["per_item"][0];
    let top = item["top"].as_array().unwrap();
    let flagged: Vec<bool> = top.iter().map(|t| t["wrong_file"] == true).collect();
    let on_p3_of_part1: Vec<bool> = top
        .iter()
        .map(|t| t["page_start"] == 3 && t["file_path"] == "part1.pdf")
        .collect();
    assert!(on_p3_of_part1.iter().any(|&b| b), "{item}");
    assert_eq!(flagged, on_p3_of_part1, "{item}");
    assert!(top.iter().all(|t| t["on_expected_page"] == false), "{item}");
    assert_eq!(item["page_hit_at_3"], false);

    // A live run of that dataset says so on the item's progress line.
    let out = expect(&["run", "--dataset", &wrong, "--base-url", &server.base_url]);
    out.exit(0);
    let line = out
        .stderr()
        .lines()
        .find(|l| l.starts_with("[1/4]"))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("{}", out.stderr()));
    let rank = top
        .iter()
        .take(3)
        .find(|t| t["wrong_file"] == true)
        .map(|t| &t["rank"])
        .unwrap_or_else(|| panic!("{item}"));
    assert!(
        line.starts_with("[1/4] miss content p.part2.pdf:3")
            && line.ends_with(&format!("(right page, wrong file at rank {rank})")),
        "{line}"
    );

    // The same capture against the item as a dataset of one file: page 3 is page 3.
    let single = variant(dir.path(), "single.json", None);
    let out = expect(&["score", "--dataset", &single, "--responses", s(&capture)]);
    let r = report(&out.stdout());
    let item = &r["per_item"][0];
    assert_eq!(item["page_hit_at_3"], true);
    assert!(item.get("expected_locations").is_none(), "{item}");
    assert!(
        item["top"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("file_path").is_none() && t.get("wrong_file").is_none()),
        "{item}"
    );

    // The provenance audit with one --pdf per file: each hit is checked in the PDF that is its
    // file, and refsearch cites the pages its chunks are printed on.
    let score = |dataset: &str, more: &[&str]| {
        let mut args = vec!["score", "--dataset", dataset, "--responses", s(&capture)];
        args.extend_from_slice(more);
        expect(&args)
    };
    let audited = |more: &[&str]| {
        let out = score(DATASET, more);
        out.exit(0);
        (report(&out.stdout())["provenance"].clone(), out.stderr())
    };
    let both = ["--pdf", s(&one), "--pdf", s(&two)];
    let (p, stderr) = audited(&both);
    let checked = p["checked"].as_u64().unwrap();
    assert!(checked >= 15, "{p}");
    assert_eq!(p["on_cited_page"], checked, "{p}");
    assert!(p.get("other_file").is_none(), "{p}");
    assert!(
        stderr.contains(&format!("provenance: {checked} of {checked} hits checked")),
        "{stderr}"
    );
    // With part1.pdf alone, the hits in part2.pdf are not checked, and the line says so.
    let (p1, stderr) = audited(&both[..2]);
    let other = p1["other_file"].as_u64().unwrap();
    assert!(other > 0, "{p1}");
    assert!(p1["checked"].as_u64().unwrap() < checked, "{p1}");
    assert_eq!(p1["on_cited_page"], p1["checked"], "{p1}");
    assert!(
        stderr.contains(&format!(
            "{other} hits in a file none of the PDFs given is, not checked"
        )),
        "{stderr}"
    );
    // Two PDFs for a dataset of one file: refused, saying why.
    let mut one_file: Value =
        serde_json::from_str(&std::fs::read_to_string(&single).unwrap()).unwrap();
    one_file["items"].as_array_mut().unwrap().truncate(1);
    let one_file = write(dir.path(), "one-file.json", &one_file.to_string());
    let out = score(&one_file, &both);
    out.exit(2);
    assert!(
        out.stderr()
            .contains("--pdf is given 2 times, but the dataset gives expected_pages"),
        "{}",
        out.stderr()
    );
    // Printed page labels are read from one PDF: a connector that reads labels takes one.
    let out = score(
        DATASET,
        &[&["--connector", "llamaindex"], &both[..]].concat(),
    );
    out.exit(2);
    assert!(
        out.stderr()
            .contains("reads the printed page labels of one PDF, and --pdf is given 2 times"),
        "{}",
        out.stderr()
    );
    drop(server);
}
