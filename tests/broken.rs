//! Broken and hostile PDFs (SECURITY.md, "Broken and hostile PDFs"): `figeval captions`, `figeval ground`
//! and `refsearch`'s start-up each give a clear error (exit 2, stderr naming the file and what
//! is wrong) or a clean result, never a hang or a crash, on: an empty file, a file that is not a
//! PDF, a PDF cut short, a header alone, a PDF with no pages, 20,000 blank pages, a page count
//! that lies (too large to be true, and plausible), one page that is a single 12000×12000
//! image, a PDF that needs a user password, one with an owner password only, and a broken
//! cross-reference table.
//!
//! The set is built here, never checked in: the small PDFs are written by [`Pdf`] (objects and
//! a cross-reference table, byte offsets counted), the encrypted ones by `qpdf --encrypt`, the
//! big image by Pillow and `img2pdf` (cached under `target/broken-pdfs`, as is the 20,000-page
//! PDF). Every command runs under a hang detector ([`LIMIT`]), not a timing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use figeval_e2e::{bin, repo_root, target_dir};
use serde_json::{json, Value};
use testkit::{expect_within, Outcome};

/// How long one command may run before it is called hung: generous for a loaded 2-core
/// machine (the slowest case, OCR of the 12000×12000 page, takes about 5 s alone).
const LIMIT: Duration = Duration::from_secs(120);

/// A PDF written object by object: `objects[i]` is object `i + 1`, object 1 the catalog.
struct Pdf {
    objects: Vec<Vec<u8>>,
}

impl Pdf {
    /// `pages` letter pages (their page tree's `/Count` says `count`), page `n` carrying
    /// `Figure n.1: …` when `text` is true, else nothing.
    fn pages(pages: usize, count: usize, text: bool) -> Pdf {
        let kid = |i: usize| format!("{} 0 R", 4 + i);
        let kids: Vec<String> = (0..pages).map(kid).collect();
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            format!(
                "<< /Type /Pages /Count {count} /Kids [{}] >>",
                kids.join(" ")
            )
            .into_bytes(),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        ];
        let resources = if text {
            " /Resources << /Font << /F1 3 0 R >> >>"
        } else {
            ""
        };
        for i in 0..pages {
            objects.push(
                format!(
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]{resources} /Contents {} 0 R >>",
                    4 + pages + i
                )
                .into_bytes(),
            );
        }
        for i in 0..pages {
            let content = if text {
                format!(
                    "BT /F1 12 Tf 72 700 Td (Figure {n}.1: The plot of page {n}, drawn for this test.) Tj ET",
                    n = i + 1
                )
            } else {
                String::new()
            };
            objects.push(
                format!(
                    "<< /Length {} >>\nstream\n{content}\nendstream",
                    content.len()
                )
                .into_bytes(),
            );
        }
        Pdf { objects }
    }

    /// The file: header, objects, cross-reference table with each object's byte offset,
    /// trailer, `startxref`.
    fn bytes(&self) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n".to_vec();
        let mut offsets = Vec::with_capacity(self.objects.len());
        for (i, object) in self.objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n", i + 1).bytes());
            out.extend(object);
            out.extend(b"\nendobj\n");
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", offsets.len() + 1).bytes());
        for offset in offsets {
            out.extend(format!("{offset:010} 00000 n \n").bytes());
        }
        out.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                self.objects.len() + 1
            )
            .bytes(),
        );
        out
    }
}

/// The PDF every "readable" case starts from: three pages, `Figure n.1: …` on page n.
fn three_pages() -> Vec<u8> {
    Pdf::pages(3, 3, true).bytes()
}

/// `bytes` with every cross-reference offset pointing at byte 99 and `startxref` past the end:
/// nothing of the table can be trusted, the objects are all there.
fn with_broken_xref(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(bytes.to_vec()).expect("the writer writes ASCII");
    let mut out = String::new();
    let mut after_startxref = false;
    for line in text.lines() {
        let entry = line.len() == 19 && line.ends_with(" 00000 n ");
        if entry {
            out.push_str("0000000099 00000 n ");
        } else if after_startxref {
            out.push_str("99999999");
        } else {
            out.push_str(line);
        }
        after_startxref = line == "startxref";
        out.push('\n');
    }
    assert!(out.contains("0000000099 00000 n \n") && out.contains("startxref\n99999999\n"));
    out.into_bytes()
}

/// Where the heavy inputs are kept between runs: `target/broken-pdfs`.
fn cache_dir() -> PathBuf {
    let dir = target_dir().join("broken-pdfs");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `path`, made by `make` (into a temporary name, then renamed, so a second run beside this
/// one never sees half a file) when it is not there yet.
fn cached(path: PathBuf, make: impl FnOnce(&Path)) -> PathBuf {
    if !path.is_file() {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        make(&tmp);
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

fn run_ok(command: &mut Command) {
    let o = expect_within(command, LIMIT);
    o.exit(0);
}

/// One page that is a single 12000×12000 grey image (Pillow draws a few black bars on white;
/// `img2pdf` makes it a 9000×9000-point page, at its 96 dpi).
fn big_image() -> PathBuf {
    cached(cache_dir().join("image-12000.pdf"), |pdf| {
        let png = pdf.with_extension("png");
        let script = "import sys\n\
            from PIL import Image, ImageDraw\n\
            Image.MAX_IMAGE_PIXELS = None\n\
            im = Image.new('L', (12000, 12000), 255)\n\
            d = ImageDraw.Draw(im)\n\
            for i in range(0, 12000, 1500):\n\
            \x20   d.rectangle([i + 100, i + 100, i + 900, i + 400], fill=0)\n\
            im.save(sys.argv[1], 'PNG')\n";
        run_ok(
            Command::new("/usr/bin/python3")
                .args(["-c", script])
                .arg(&png),
        );
        run_ok(Command::new("img2pdf").arg(&png).arg("-o").arg(pdf));
        std::fs::remove_file(&png).unwrap();
    })
}

/// 20,000 blank pages.
fn blank_pages() -> PathBuf {
    cached(cache_dir().join("blank-20000.pdf"), |pdf| {
        std::fs::write(pdf, Pdf::pages(20_000, 20_000, false).bytes()).unwrap();
    })
}

/// The small inputs, written once per run into `target/tmp/broken-pdfs-<pid>` (the folders of
/// earlier runs, whose process is gone, are removed); the cache of OCR readings beside them, so
/// the big image is read through tesseract once per run.
struct Inputs {
    dir: PathBuf,
    dataset: PathBuf,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
        for entry in std::fs::read_dir(tmp).unwrap().map_while(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let pid = name.strip_prefix("broken-pdfs-");
            if pid.is_some_and(|pid| !Path::new("/proc").join(pid).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        let dir = tmp.join(format!("broken-pdfs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let at = |name: &str| dir.join(name);
        let text = three_pages();
        std::fs::write(at("three-pages.pdf"), &text).unwrap();
        std::fs::write(at("empty.pdf"), "").unwrap();
        std::fs::write(at("notes.pdf"), "plain text, not a PDF\n").unwrap();
        std::fs::write(at("cut-short.pdf"), &text[..text.len() / 2]).unwrap();
        std::fs::write(at("header-only.pdf"), "%PDF-1.7\n").unwrap();
        std::fs::write(at("no-pages.pdf"), Pdf::pages(0, 0, false).bytes()).unwrap();
        std::fs::write(
            at("count-1000000.pdf"),
            Pdf::pages(3, 1_000_000, true).bytes(),
        )
        .unwrap();
        std::fs::write(at("count-5-of-3.pdf"), Pdf::pages(3, 5, true).bytes()).unwrap();
        std::fs::write(at("broken-xref.pdf"), with_broken_xref(&text)).unwrap();
        let encrypt = |user: &str, restrictions: &[&str], out: &str| {
            run_ok(
                Command::new("qpdf")
                    .args(["--encrypt", user, "the-owner-password", "256"])
                    .args(restrictions)
                    .arg("--")
                    .arg(at("three-pages.pdf"))
                    .arg(at(out)),
            );
        };
        encrypt("the-user-password", &[], "user-password.pdf");
        encrypt(
            "",
            &["--print=none", "--modify=none", "--extract=n"],
            "owner-password.pdf",
        );
        let dataset = at("dataset.json");
        let item = |n: u32| {
            json!({"question": format!("What does Figure {n}.1 show?"),
                   "expected_pages": [n], "figure_ref": format!("Figure {n}.1"), "kind": "locate"})
        };
        std::fs::write(
            &dataset,
            json!({"corpus_id": "broken", "items": [item(1), item(2)]}).to_string(),
        )
        .unwrap();
        Inputs { dir, dataset }
    })
}

fn input(name: &str) -> PathBuf {
    let path = inputs().dir.join(name);
    assert!(path.is_file(), "{} was not made", path.display());
    path
}

/// `figeval` with `args`, its OCR cache beside the inputs, under the hang detector.
fn figeval(args: &[&str]) -> Outcome {
    let started = Instant::now();
    let o = expect_within(
        Command::new(bin("figeval"))
            .args(args)
            .current_dir(repo_root())
            .env("XDG_CACHE_HOME", inputs().dir.join("cache")),
        LIMIT,
    );
    eprintln!(
        "figeval {} ({:?}): {:.2} s",
        args[..3].join(" "),
        o.code(),
        started.elapsed().as_secs_f64()
    );
    o.stderr_lacks("panicked");
    o
}

/// `figeval COMMAND --pdf PDF [EXTRA] --format json`.
fn on_pdf(command: &str, pdf: &Path, extra: &[&str]) -> Outcome {
    let mut args = vec![command, "--pdf", pdf.to_str().unwrap()];
    args.extend_from_slice(extra);
    args.extend(["--format", "json"]);
    figeval(&args)
}

fn captions(pdf: &Path) -> Outcome {
    on_pdf("captions", pdf, &[])
}

fn ground(pdf: &Path) -> Outcome {
    on_pdf(
        "ground",
        pdf,
        &["--dataset", inputs().dataset.to_str().unwrap()],
    )
}

fn refsearch_command(pdf: &Path) -> Command {
    let mut command = Command::new(bin("refsearch"));
    command
        .args(["--pdf", pdf.to_str().unwrap()])
        .args(["--corpus-id", "broken", "--listen", "127.0.0.1:0"])
        .env("XDG_CACHE_HOME", inputs().dir.join("cache"));
    command
}

/// `refsearch` on `pdf`, which must fail to start: what it did.
fn refsearch_fails(pdf: &Path) -> Outcome {
    let started = Instant::now();
    let o = expect_within(&mut refsearch_command(pdf), LIMIT);
    eprintln!(
        "refsearch {} ({:?}): {:.2} s",
        pdf.display(),
        o.code(),
        started.elapsed().as_secs_f64()
    );
    o.stderr_lacks("panicked").stderr_lacks("listening on");
    o
}

/// Kills and reaps a started refsearch, also when a check fails.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `refsearch` on `pdf`, which must start and listen: its start-up lines.
fn refsearch_listens(pdf: &Path) -> Vec<String> {
    let started = Instant::now();
    let child = refsearch_command(pdf)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("refsearch starts");
    let mut running = Running(child);
    let lines = testkit::refsearch::wait_until_listening(&mut running.0, LIMIT, |_| {})
        .unwrap_or_else(|e| panic!("refsearch on {}: {e}", pdf.display()))
        .lines;
    eprintln!(
        "refsearch {} listens: {:.2} s",
        pdf.display(),
        started.elapsed().as_secs_f64()
    );
    lines
}

fn stdout_json(o: &Outcome) -> Value {
    serde_json::from_str(&o.stdout())
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", o.stdout()))
}

/// A PDF every command refuses: exit 2, no partial output, stderr naming the file and saying
/// `what` is wrong (refsearch after `refsearch: error:`).
fn refused_everywhere(pdf: &Path, what: &str) {
    let name = pdf.to_str().unwrap();
    for o in [captions(pdf), ground(pdf)] {
        o.exit(2)
            .stdout_is_empty()
            .stderr_has(&format!("figeval: {name}"))
            .stderr_has(what);
    }
    refsearch_fails(pdf)
        .exit(2)
        .stderr_has(&format!("refsearch: error: {name}"))
        .stderr_has(what);
}

/// A PDF that reads as the three pages of [`three_pages`]: its three captions, the dataset all
/// `ok`, refsearch indexing 3 pages with 3 figures.
fn read_as_three_pages(pdf: &Path) {
    let o = captions(pdf);
    o.exit(0);
    let v = stdout_json(&o);
    assert_eq!(v["pdf_pages"], 3, "{v}");
    let labels: Vec<&str> = v["captions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["Figure 1.1", "Figure 2.1", "Figure 3.1"], "{v}");
    let o = ground(pdf);
    o.exit(0);
    let v = stdout_json(&o);
    assert_eq!(v["counts"]["ok"], 2, "{v}");
    let lines = refsearch_listens(pdf);
    let indexed = format!(
        "refsearch: indexed 3 pages, 6 chunks (3 figures, chunking page) from {}",
        pdf.display()
    );
    assert!(
        lines.iter().any(|l| l.starts_with(&indexed)),
        "{indexed:?} in {lines:?}"
    );
}

#[test]
fn the_readable_base_pdf_reads_as_three_pages() {
    read_as_three_pages(&input("three-pages.pdf"));
}

#[test]
fn an_empty_file_is_refused_as_empty() {
    refused_everywhere(
        &input("empty.pdf"),
        "is not a readable PDF: the file is empty (0 bytes)",
    );
}

#[test]
fn a_text_file_is_refused_as_not_a_pdf() {
    refused_everywhere(
        &input("notes.pdf"),
        "is not a readable PDF: Syntax Warning: May not be a PDF file",
    );
}

#[test]
fn a_pdf_cut_in_half_is_refused_as_cut_short() {
    refused_everywhere(
        &input("cut-short.pdf"),
        "Couldn't find trailer dictionary; Syntax Error: Couldn't read xref table (the file is cut short or damaged)",
    );
}

#[test]
fn a_header_alone_is_refused_as_cut_short() {
    refused_everywhere(
        &input("header-only.pdf"),
        "is not a readable PDF: Syntax Error: Couldn't find trailer dictionary; Syntax Error: Couldn't read xref table (the file is cut short or damaged)",
    );
}

#[test]
fn a_pdf_with_no_pages_is_refused_as_such() {
    refused_everywhere(&input("no-pages.pdf"), "no-pages.pdf has no pages");
}

#[test]
fn a_page_count_too_large_to_be_true_is_refused_quoting_poppler() {
    refused_everywhere(
        &input("count-1000000.pdf"),
        "is not a readable PDF: Syntax Error: Page count (1000000) larger than number of objects",
    );
}

#[test]
fn a_plausible_lying_page_count_is_refused_before_pages_are_misnumbered() {
    refused_everywhere(
        &input("count-5-of-3.pdf"),
        "has a damaged page count: `pdftotext -f ",
    );
}

#[test]
fn a_pdf_that_needs_a_user_password_is_refused_saying_how_to_decrypt_it() {
    refused_everywhere(
        &input("user-password.pdf"),
        "is encrypted and needs a password to open; decrypt it first",
    );
}

#[test]
fn a_pdf_with_an_owner_password_only_is_read() {
    let pdf = input("owner-password.pdf");
    let info = expect_within(Command::new("pdfinfo").arg(&pdf), LIMIT);
    info.exit(0)
        .stdout_has("Encrypted:       yes (print:no copy:no");
    read_as_three_pages(&pdf);
}

#[test]
fn a_broken_xref_table_is_rebuilt_by_poppler_and_read() {
    read_as_three_pages(&input("broken-xref.pdf"));
}

#[test]
fn twenty_thousand_blank_pages_give_no_caption_and_no_index() {
    let pdf = blank_pages();
    let o = captions(&pdf);
    o.exit(0);
    let v = stdout_json(&o);
    assert_eq!(
        (&v["pdf_pages"], &v["ocr_pages"], &v["captions"]),
        (&json!(20_000), &json!(0), &json!([])),
        "{v}"
    );
    // Findings, not an error: neither figure is anywhere.
    let o = ground(&pdf);
    o.exit(1);
    let v = stdout_json(&o);
    assert_eq!(v["counts"]["absent"], 2, "{v}");
    refsearch_fails(&pdf).exit(2).stderr_has(&format!(
        "refsearch: error: {} has no text on any of its 20000 pages",
        pdf.display()
    ));
}

#[test]
fn a_page_that_is_one_12000_pixel_image_is_read_by_ocr_at_a_capped_resolution() {
    let pdf = big_image();
    let info = expect_within(Command::new("pdfimages").arg("-list").arg(&pdf), LIMIT);
    info.exit(0).stdout_has("image   12000 12000  gray");
    let o = captions(&pdf);
    o.exit(0);
    let v = stdout_json(&o);
    assert_eq!(
        (&v["pdf_pages"], &v["captions"]),
        (&json!(1), &json!([])),
        "{v}"
    );
    // Read through OCR, or (on a machine too slow for the page time limit) unreadable with
    // why: never an error, never a hang.
    let unreadable = v["unreadable_pages"].as_array().unwrap().len();
    assert_eq!(
        v["ocr_pages"].as_u64().unwrap() + unreadable as u64,
        1,
        "{v}"
    );
    if unreadable == 1 {
        o.stderr_has("page 1 unreadable: OCR took longer");
    }
    let o = ground(&pdf);
    o.exit(1);
    let v = stdout_json(&o);
    let counts = &v["counts"];
    assert_eq!(counts["beyond_end"], 1, "{v}");
    assert_eq!(
        counts["absent"].as_u64().unwrap() + counts["unreadable"].as_u64().unwrap(),
        1,
        "{v}"
    );
    refsearch_fails(&pdf).exit(2).stderr_has(&format!(
        "refsearch: error: {} has no text on any of its 1 pages",
        pdf.display()
    ));
}
