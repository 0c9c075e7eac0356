//! `figeval ground` and `figeval captions` on the real Octave manual: the native extraction
//! finds the 29 figure captions on their pages, the bundled dataset is all `ok`, planted errors
//! get their verdicts and `--write-fixed` repairs them; bad PDFs exit 2 with a clear message.
//!
//! The manual's 1158 pages are extracted once per run (about 4 s of CPU each time), not once per
//! `figeval` started: [`manual_pages`] reads them in this process, and every `figeval` run on the
//! manual finds first on its `PATH` a `pdftotext` that prints those pages (checked against the
//! real one by `the_cached_pdftotext_prints_what_pdftotext_prints`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use figeval_e2e::{bin, expect, octave_pdf, repo_root, OCTAVE_DATASET, OCTAVE_NOTES};
use serde_json::{json, Value};

/// The manual's page texts, extracted once per run of these tests.
fn manual_pages() -> &'static [String] {
    static PAGES: OnceLock<Vec<String>> = OnceLock::new();
    PAGES.get_or_init(|| {
        pagetext::extract_pages(Path::new(octave_pdf()))
            .unwrap_or_else(|e| panic!("cannot extract the manual's text: {e}"))
    })
}

/// A folder under the target folder whose `pdftotext` prints pages of the manual from
/// [`manual_pages`] (each ended by a form feed, as poppler prints them) when asked exactly as
/// `pagetext` asks, and hands any other call to the real `pdftotext`.
fn cached_pdftotext() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let real = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|d| d.join("pdftotext"))
            .find(|p| p.is_file())
            .expect("pdftotext is on PATH (apt-get install poppler-utils)");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ground-manual-pdftotext");
        std::fs::create_dir_all(&dir).unwrap();
        let pages = dir.join("pages.txt");
        let text: String = manual_pages().iter().map(|p| format!("{p}\u{c}")).collect();
        write_atomically(&pages, &text, false);
        let script = format!(
            "#!/bin/sh\n\
             # pagetext's call: pdftotext -layout -enc UTF-8 -f FIRST -l LAST PDF -\n\
             if [ $# -eq 9 ] && [ \"$1\" = -layout ] && [ \"$2 $3 $4 $6 $9\" = '-enc UTF-8 -f -l -' ] \\\n\
                && [ \"$8\" = '{manual}' ]; then\n\
               exec awk -v RS='\\f' -v ORS='\\f' -v a=\"$5\" -v b=\"$7\" \\\n\
                 'NR >= a + 0 && NR <= b + 0' '{pages}'\n\
             fi\n\
             exec '{real}' \"$@\"\n",
            manual = octave_pdf(),
            pages = pages.display(),
            real = real.display(),
        );
        write_atomically(&dir.join("pdftotext"), &script, true);
        dir
    })
}

/// Writes `text` to `path` through a temporary file and a rename, so that a second run of
/// these tests beside this one never reads half a file.
fn write_atomically(path: &Path, text: &str, executable: bool) {
    use std::os::unix::fs::PermissionsExt;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, text).unwrap();
    if executable {
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::rename(&tmp, path).unwrap();
}

/// `figeval` with `args` that name the manual: its page texts come from [`manual_pages`].
fn on_manual(args: &[&str]) -> testkit::Outcome {
    let path = std::env::join_paths(std::iter::once(cached_pdftotext().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    testkit::expect(
        Command::new(bin("figeval"))
            .args(args)
            .env("PATH", path)
            .current_dir(repo_root()),
    )
}

#[test]
fn the_cached_pdftotext_prints_what_pdftotext_prints() {
    let range = |program: &Path| {
        let o = Command::new(program)
            .args(["-layout", "-enc", "UTF-8", "-f", "330", "-l", "340"])
            .args([octave_pdf(), "-"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    let cached = range(&cached_pdftotext().join("pdftotext"));
    assert_eq!(cached.iter().filter(|&&b| b == b'\x0c').count(), 11);
    assert!(
        cached == range(Path::new("pdftotext")),
        "pages 330-340 differ"
    );
}

fn stdout_json(o: &testkit::Outcome) -> Value {
    serde_json::from_slice(&o.output.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            o.stdout(),
            o.stderr()
        )
    })
}

fn ground_json(dataset: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mut args = vec![
        "ground",
        "--dataset",
        dataset.to_str().unwrap(),
        "--pdf",
        octave_pdf(),
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let o = on_manual(&args);
    (o.code(), stdout_json(&o), o.stderr())
}

#[test]
fn native_extraction_finds_the_29_figure_captions_on_their_pages() {
    let o = on_manual(&["captions", "--pdf", octave_pdf(), "--format", "json"]);
    o.exit(0);
    let v = stdout_json(&o);
    assert_eq!(v["pdf_pages"], 1158);
    let mut figures: Vec<(String, u64)> = v["captions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["label"].as_str().unwrap().starts_with("Figure "))
        .map(|c| {
            (
                c["label"].as_str().unwrap().to_string(),
                c["page"].as_u64().unwrap(),
            )
        })
        .collect();
    let notes: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join(OCTAVE_NOTES)).unwrap())
            .unwrap();
    let mut expected: Vec<(String, u64)> = notes
        .iter()
        .map(|n| {
            (
                n["figure_ref"].as_str().unwrap().to_string(),
                n["page"].as_u64().unwrap(),
            )
        })
        .collect();
    figures.sort();
    expected.sort();
    assert_eq!(expected.len(), 29);
    assert_eq!(figures, expected);
    let first = &v["captions"][0];
    assert_eq!(
        (
            first["label"].as_str(),
            first["page"].as_u64(),
            first["text"].as_str()
        ),
        (
            Some("Figure 15.1"),
            Some(332),
            Some("Simple Two-Dimensional Plot.")
        )
    );
}

#[test]
fn the_bundled_octave_dataset_is_all_ok_against_the_manual() {
    let o = on_manual(&["ground", "--dataset", OCTAVE_DATASET, "--pdf", octave_pdf()]);
    o.exit(0).stdout_has("No findings").stdout_has(
        "ok 33, moved 0, mention_only 0, absent 0, beyond_end 0, not_checked 0, unreadable 0",
    );
}

fn item(q: &str, page: u32, figure_ref: &str, kind: &str) -> Value {
    json!({"question": q, "expected_pages": [page], "figure_ref": figure_ref, "kind": kind})
}

/// Planted errors over the manual (physical page = printed page + 16 in the body).
fn planted() -> Value {
    let mut prose = item(
        "How can a caller ask a function for the default value of an argument?",
        210,
        "Section 11.8 Default Arguments",
        "locate",
    );
    prose["tags"] = json!(["prose"]);
    json!({"corpus_id": "octave-manual", "items": [
        item("Which figure shows the convex hull of a simple set of points?", 855, "Figure 30.5", "locate"),
        item("Which figure shows a simple two-dimensional plot of a sine wave?", 316, "Figure 15.1", "content"),
        item("Which figure shows a simple use of the gplot command?", 668, "Figure 22.2", "content"),
        item("Which figure compares clamped and hinged periodic cubic fits?", 809, "Figure 28.4", "locate"),
        item("What does the histogram of 10,000 normal numbers look like?", 336, "Figure 15.2", "content"),
        item("Which figure shows the vortex of the sparse solver?", 700, "Figure 99.1", "content"),
        item("Which figure shows scattered data interpolated onto a grid?", 1200, "Figure 30.6", "locate"),
        prose,
        item("Which figure does print -f1 write?", 427, "Figure 1", "content"),
        item("What does the sombrero plot show?", 373, "the sombrero plot", "content"),
        item("Which figure compares pchip and spline on a step function?", 833, "Figure 29.1", "locate"),
        item("Which figure shows the permuted Cholesky factorization?", 690, "Figure 22.5", "locate"),
        item("What shape do the unpermuted Cholesky nonzeros form?", 690, "Figure 22.4", "content"),
    ]})
}

fn verdicts(v: &Value) -> Vec<(String, Vec<u64>)> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            let found = i["found_pages"].as_array().unwrap();
            (
                i["verdict"].as_str().unwrap().to_string(),
                found.iter().map(|p| p.as_u64().unwrap()).collect(),
            )
        })
        .collect()
}

fn pages_of(dataset: &Value) -> Vec<u64> {
    dataset["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["expected_pages"][0].as_u64().unwrap())
        .collect()
}

#[test]
fn planted_errors_get_their_verdicts_and_write_fixed_repairs_them() {
    let dir = tempfile::tempdir().unwrap();
    let planted_path = dir.path().join("planted.json");
    std::fs::write(&planted_path, planted().to_string()).unwrap();
    let fixed_path = dir.path().join("fixed.json");
    let (code, v, err) = ground_json(
        &planted_path,
        &["--write-fixed", fixed_path.to_str().unwrap()],
    );
    assert_eq!(code, Some(1), "{err}");
    let verdict = |v: &str, found: &[u64]| (v.to_string(), found.to_vec());
    assert_eq!(
        verdicts(&v),
        [
            verdict("moved", &[854]),      // off by one
            verdict("moved", &[332]),      // printed page 316
            verdict("moved", &[684]),      // printed page 668
            verdict("moved", &[825]),      // printed page 809
            verdict("moved", &[337]),      // the mention on the page before the caption
            verdict("absent", &[]),        // no such label
            verdict("beyond_end", &[857]), // past the last page
            verdict("moved", &[218]),      // a prose title on the wrong page
            verdict("mention_only", &[]),  // `print figure 1`, never captioned
            verdict("not_checked", &[]),   // names no label or section
            verdict("ok", &[833]),
            verdict("ok", &[690]),
            verdict("ok", &[690]),
        ]
    );
    assert_eq!(v["items"][4]["mention_pages"], json!([336]));
    assert_eq!(v["items"][8]["mention_pages"], json!([427]));
    assert_eq!(
        v["offset"],
        json!({"pages": 16, "items": 3, "cause": "printed_page_numbers"})
    );
    assert_eq!(v["warnings"][0]["code"], "shared_pages");
    assert_eq!(v["warnings"][0]["pages"], json!([690]));
    assert_eq!(
        v["counts"],
        json!({"ok": 3, "moved": 6, "mention_only": 1, "absent": 1, "beyond_end": 1, "not_checked": 1, "unreadable": 0})
    );
    assert!(
        err.contains("wrote") && err.contains("7 items changed"),
        "{err}"
    );

    let fixed: Value =
        serde_json::from_str(&std::fs::read_to_string(&fixed_path).unwrap()).unwrap();
    assert_eq!(
        pages_of(&fixed),
        [854, 332, 684, 825, 337, 700, 857, 218, 427, 373, 833, 690, 690]
    );
    let (code, again, _) = ground_json(&fixed_path, &[]);
    assert_eq!(code, Some(1), "the absent and mention-only items remain");
    let left: Vec<String> = verdicts(&again).into_iter().map(|(v, _)| v).collect();
    assert_eq!(
        left,
        [
            "ok",
            "ok",
            "ok",
            "ok",
            "ok",
            "absent",
            "ok",
            "ok",
            "mention_only",
            "not_checked",
            "ok",
            "ok",
            "ok"
        ]
    );
    assert_eq!(again["offset"], Value::Null);

    // Without the two items no page can fix, the repaired dataset passes.
    let mut repaired = fixed.clone();
    let items = repaired["items"].as_array_mut().unwrap();
    items.retain(|i| !["Figure 99.1", "Figure 1"].contains(&i["figure_ref"].as_str().unwrap()));
    let repaired_path = dir.path().join("repaired.json");
    std::fs::write(&repaired_path, repaired.to_string()).unwrap();
    let o = on_manual(&[
        "ground",
        "--dataset",
        repaired_path.to_str().unwrap(),
        "--pdf",
        octave_pdf(),
    ]);
    o.exit(0);
}

#[test]
fn text_and_markdown_put_the_findings_first_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("planted.json");
    std::fs::write(&path, planted().to_string()).unwrap();
    let o = on_manual(&[
        "ground",
        "--dataset",
        path.to_str().unwrap(),
        "--pdf",
        octave_pdf(),
        "--format",
        "markdown",
    ]);
    o.exit(1);
    let md = o.stdout();
    let findings = md.find("### Findings").expect(&md);
    assert!(findings < md.find("### All items").unwrap(), "{md}");
    assert!(md.contains("**Offset +16 pages (3 items):**"), "{md}");
    assert!(
        md.contains("| 2 | moved | Figure 15\\.1 | 316 | 332 | 331 | the caption of Figure 15\\.1 is on p\\.332"),
        "{md}"
    );
}

#[test]
fn bad_pdfs_exit_2_with_a_message_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let not_pdf = dir.path().join("notes.pdf");
    std::fs::write(&not_pdf, "plain text, not a PDF\n").unwrap();
    let encrypted = repo_root().join("tests/fixtures/password.pdf");
    let cases = [
        (dir.path().join("missing.pdf"), "PDF not found"),
        (not_pdf, "is not a readable PDF"),
        (encrypted, "is encrypted and needs a password"),
    ];
    for (pdf, message) in &cases {
        for command in ["ground", "captions"] {
            let mut args = vec![command, "--pdf", pdf.to_str().unwrap()];
            if command == "ground" {
                args.extend(["--dataset", OCTAVE_DATASET]);
            }
            // No partial output.
            expect(&args).exit(2).stderr_has(message).stdout_is_empty();
        }
    }
}

#[test]
fn write_fixed_refuses_to_rewrite_the_dataset_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.json");
    std::fs::copy(repo_root().join(OCTAVE_DATASET), &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    for out in [&path, &link] {
        let o = on_manual(&[
            "ground",
            "--dataset",
            path.to_str().unwrap(),
            "--pdf",
            octave_pdf(),
            "--write-fixed",
            out.to_str().unwrap(),
        ]);
        o.exit(2).stderr_has("never rewrites a dataset in place");
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// The editor's core on the manual's own text: a draft made from its captions and a section
/// heading exports a dataset that `figeval validate` and `figeval ground` pass;
/// the caption warnings fall where the thresholds say on the bundled questions.
#[test]
fn a_draft_from_the_manuals_captions_and_headings_passes_validate_and_ground() {
    use figeval::Kind;
    use figeval_document::editor::{Code, Draft, DraftItem};
    let pages = manual_pages();
    let captions = figeval_document::find_captions(pages);
    let by_label = |label: &str| captions.iter().find(|c| c.label == label).unwrap();
    let mut draft = Draft::new("octave-manual");
    for (label, question) in [
        (
            "Figure 15.3",
            "Which figure marks the spread of each data point with vertical whiskers?",
        ),
        (
            "Figure 15.4",
            "Which figure draws a curve against angle and radius?",
        ),
    ] {
        let mut item = DraftItem::from_caption(by_label(label));
        assert!(item.question.is_empty());
        item.question = question.into();
        draft.add(item);
    }
    let mut content = DraftItem::from_caption(by_label("Figure 15.2"));
    content.kind = Kind::Content;
    content.question =
        "In the histogram example, roughly what count does the tallest bar reach?".into();
    draft.add(content);
    let headings = figeval_document::headings::section_headings(&pages[186]);
    assert!(
        headings.contains(&"Section 8.7 Increment Operators".to_string()),
        "{headings:?}"
    );
    let mut prose = DraftItem::prose(187, "Section 8.7 Increment Operators");
    prose.question = "If x equals 2, what does x++ return?".into();
    draft.add(prose);
    assert_eq!(draft.check(&captions), [], "no error and no warning");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("draft.json");
    std::fs::write(&path, draft.export().unwrap()).unwrap();
    let o = expect(&["validate", path.to_str().unwrap()]);
    o.exit(0);
    let (code, v, err) = ground_json(&path, &[]);
    assert_eq!(code, Some(0), "{v}\n{err}");
    assert_eq!(v["counts"]["ok"], 4, "{v}");

    let bundled =
        Draft::import(&std::fs::read_to_string(repo_root().join(OCTAVE_DATASET)).unwrap()).unwrap();
    let problems = bundled.check(&captions);
    let warned: Vec<(Code, &str)> = problems
        .iter()
        .map(|p| (p.code, bundled.items[p.items[0]].figure_ref.as_str()))
        .collect();
    let locate = [
        "Figure 15.4",
        "Figure 15.6",
        "Figure 28.3",
        "Figure 29.1",
        "Figure 29.2",
        "Figure 29.3",
        "Figure 30.4",
        "Figure 30.5",
        "Figure 30.6",
    ];
    let expected: Vec<(Code, &str)> = locate.iter().map(|l| (Code::RepeatsCaption, *l)).collect();
    assert_eq!(
        warned, expected,
        "no content question is answerable from its caption"
    );
}
