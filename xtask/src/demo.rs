//! `cargo xtask demo`: the main job on a local default. `figeval ground` (does every item's
//! page carry its caption in the manual?), `refsearch` over the Octave manual, the Octave eval
//! with figures off and on, both summaries, the comparison, then `figeval serve` (a SQLite
//! store under `--out`) with the browser app and the manual beside it: both runs are pushed,
//! and the demo prints their comparison's short link (`/c/OFF,ON`) and a link that opens the
//! figures-on report and offers to load the manual (`&pdf=<url>`), which draws the cited pages.
//!
//! Flags (for a second demo beside the first, or a test): `--listen ADDR` where the figures-on
//! `refsearch` listens (default `127.0.0.1:58012`; `127.0.0.1:0` picks a free port),
//! `--web-port PORT` where the app is served (default 8080, or the next free port above it; 0
//! picks a free one), `--out DIR` for reports and captures (default `out/demo`), `--bins DIR`
//! to use the `figeval` and `refsearch` already built in DIR instead of building release ones,
//! `--no-serve` to stop after the comparison, `--scanned` to run the same before/after over the
//! scanned excerpt of the manual (pages 325–370 as images, made by `cargo xtask setup` under
//! `target/scanned/`), read through OCR, with the dataset's and the notes' items on those pages
//! renumbered into `out/demo/scanned-excerpt-*.json`: figure chunks on a scanned report.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use figeval::{render, share, Report};
use serde_json::{json, Value};

use crate::setup;
use crate::sh::{self, cmd, exec, Guard};

const DATASET: &str = "data/eval_datasets/octave-manual-figures.json";
/// Where the demo's server serves the manual, beside the app.
const MANUAL_PATH: &str = "/octave.pdf";
const NOTES: &str = "data/corpora/octave-manual/figure-notes.json";

/// What the demo was asked to do.
#[derive(Debug, PartialEq)]
struct Options {
    /// Serve the browser app at the end.
    serve: bool,
    /// Where the figures-on `refsearch` listens.
    listen: String,
    /// Where the app is served (the next free port above it when taken; 0 for any).
    web_port: u16,
    /// Reports and captures.
    out: PathBuf,
    /// `figeval` and `refsearch` already built here; `None` builds release ones.
    bins: Option<PathBuf>,
    /// Over the scanned excerpt of the manual (pages 325–370 as images), read through OCR.
    scanned: bool,
}

const USAGE: &str = "usage: cargo xtask demo [--scanned] [--no-serve] [--listen ADDR] [--web-port PORT] [--out DIR] [--bins DIR]";

/// The scanned excerpt's first page in the manual: excerpt page `p` is the manual's `p + 324`.
const EXCERPT_FIRST: u32 = 325;
/// The scanned excerpt's last page in the manual.
const EXCERPT_LAST: u32 = 370;

/// What a demo runs over: the PDF, the dataset and figure notes for it, the corpus id.
struct Corpus {
    pdf: PathBuf,
    dataset: PathBuf,
    notes: PathBuf,
    corpus_id: String,
}

impl Corpus {
    /// The Octave manual with its dataset and notes, or (`scanned`) the scanned excerpt with
    /// slices of them written into `out`: the items and notes on pages 325–370, renumbered.
    fn of(o: &Options) -> Result<Corpus, String> {
        if !o.scanned {
            return Ok(Corpus {
                pdf: testkit::manual::path(),
                dataset: sh::root().join(DATASET),
                notes: sh::root().join(NOTES),
                corpus_id: testkit::manual::CORPUS_ID.into(),
            });
        }
        let pdf = sh::target_dir().join("scanned/octave-325-370-scanned.pdf");
        if !pdf.is_file() {
            setup::scanned_excerpt()?;
        }
        let corpus_id = "octave-manual-scanned-excerpt".to_string();
        std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
        let read = |path: &str| -> Result<Value, String> {
            let text = std::fs::read_to_string(sh::root().join(path))
                .map_err(|e| format!("{path}: {e}"))?;
            serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))
        };
        let (dataset, notes) = excerpt_slices(&read(DATASET)?, &read(NOTES)?, &corpus_id)?;
        let write = |name: &str, v: &Value| -> Result<PathBuf, String> {
            let path = o.out.join(name);
            let text = serde_json::to_string_pretty(v).expect("JSON values serialize");
            std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
            Ok(path)
        };
        Ok(Corpus {
            pdf,
            dataset: write("scanned-excerpt-dataset.json", &dataset)?,
            notes: write("scanned-excerpt-figure-notes.json", &notes)?,
            corpus_id,
        })
    }
}

/// The items of `dataset` and the notes of `notes` whose pages all lie in the scanned excerpt,
/// with their pages renumbered to the excerpt's; an error when none does.
fn excerpt_slices(
    dataset: &Value,
    notes: &Value,
    corpus_id: &str,
) -> Result<(Value, Value), String> {
    let inside = |p: &Value| {
        p.as_u64()
            .is_some_and(|p| (EXCERPT_FIRST as u64..=EXCERPT_LAST as u64).contains(&p))
    };
    let moved = |p: &Value| json!(p.as_u64().unwrap_or(0) - u64::from(EXCERPT_FIRST) + 1);
    let items: Vec<Value> = dataset["items"]
        .as_array()
        .ok_or("the dataset has no items array")?
        .iter()
        .filter(|i| {
            i["expected_pages"]
                .as_array()
                .is_some_and(|ps| !ps.is_empty() && ps.iter().all(inside))
        })
        .map(|i| {
            let mut i = i.clone();
            let pages: Vec<Value> = i["expected_pages"]
                .as_array()
                .into_iter()
                .flatten()
                .map(moved)
                .collect();
            i["expected_pages"] = Value::Array(pages);
            i
        })
        .collect();
    let notes: Vec<Value> = notes
        .as_array()
        .ok_or("the figure notes are not an array")?
        .iter()
        .filter(|n| inside(&n["page"]))
        .map(|n| {
            let mut n = n.clone();
            n["page"] = moved(&n["page"]);
            n
        })
        .collect();
    if items.is_empty() {
        return Err(format!(
            "no item of {DATASET} lies on pages {EXCERPT_FIRST}-{EXCERPT_LAST}"
        ));
    }
    Ok((
        json!({"corpus_id": corpus_id, "items": items}),
        Value::Array(notes),
    ))
}

impl Options {
    fn parse(args: &[OsString]) -> Result<Options, String> {
        let mut o = Options {
            serve: true,
            listen: "127.0.0.1:58012".into(),
            web_port: 8080,
            out: sh::root().join("out/demo"),
            bins: None,
            scanned: false,
        };
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            let flag = flag.to_string_lossy();
            let mut path = || {
                args.next()
                    .map(PathBuf::from)
                    .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))
            };
            // A path is taken as the OS gave it; an address or a port must be text.
            let text = |p: PathBuf| {
                p.into_os_string()
                    .into_string()
                    .map_err(|v| format!("{flag} {v:?}: not UTF-8 text\n{USAGE}"))
            };
            match &*flag {
                "--no-serve" => o.serve = false,
                "--scanned" => o.scanned = true,
                "--listen" => o.listen = text(path()?)?,
                "--web-port" => {
                    let v = text(path()?)?;
                    o.web_port = v
                        .parse()
                        .map_err(|_| format!("--web-port {v}: not a port number\n{USAGE}"))?;
                }
                "--out" => o.out = sh::root().join(path()?),
                "--bins" => o.bins = Some(sh::root().join(path()?)),
                _ => return Err(format!("unknown flag {flag}\n{USAGE}")),
            }
        }
        Ok(o)
    }

    /// The path of one of the binaries the demo runs.
    fn bin(&self, name: &str) -> PathBuf {
        match &self.bins {
            Some(dir) => dir.join(name),
            None => sh::target_dir().join("release").join(name),
        }
    }
}

/// Starts `refsearch` and waits for its "listening on" line; returns the guard and the base
/// URL it printed.
fn start_refsearch(
    o: &Options,
    corpus: &Corpus,
    figures: &str,
    listen: &str,
) -> Result<(Guard, String), String> {
    let bin = o.bin("refsearch");
    // The same command both times but for `--figures`: with figures off refsearch checks the
    // notes and builds no figure chunk. A scanned PDF is read through OCR (`--ocr auto`, the
    // default), the second time from the OCR cache.
    let mut c = cmd(&bin, &["--pdf"]);
    c.arg(&corpus.pdf)
        .args(["--corpus-id", &corpus.corpus_id, "--figure-notes"])
        .arg(&corpus.notes)
        .args(["--figures", figures, "--listen", listen]);
    let mut child = sh::spawn(c.stderr(Stdio::piped()))?;
    let started = testkit::refsearch::wait_until_listening(
        &mut child,
        testkit::refsearch::START_TIMEOUT,
        |line| eprintln!("{line}"),
    );
    // The guard stops it on every path, also when it never listened.
    let guard = Guard(child);
    Ok((guard, started?.base_url))
}

/// `figeval run` of the corpus's dataset against `base_url`, named `name` (`figures off`),
/// into `<file>.json` and `<file>.capture.jsonl` under `--out`.
fn figeval_run(
    o: &Options,
    corpus: &Corpus,
    base_url: &str,
    file: &str,
    name: &str,
) -> Result<PathBuf, String> {
    let report = o.out.join(format!("{file}.json"));
    let capture = o.out.join(format!("{file}.capture.jsonl"));
    let mut c = cmd(o.bin("figeval"), &["run", "--dataset"]);
    c.arg(&corpus.dataset)
        .args(["--base-url", base_url, "--name", name, "--capture"])
        .arg(&capture)
        .arg("--out")
        .arg(&report)
        .stdout(Stdio::null());
    exec(c)?;
    Ok(report)
}

/// `figeval ground` on the dataset and the manual: the pages are checked before any run, and a
/// finding stops the demo (a run on wrong pages would measure the dataset, not the search).
fn figeval_ground(o: &Options, corpus: &Corpus) -> Result<(), String> {
    let mut c = cmd(o.bin("figeval"), &["ground", "--dataset"]);
    c.arg(&corpus.dataset).arg("--pdf").arg(&corpus.pdf);
    exec(c).map_err(|e| format!("{e}: the dataset's pages do not match the PDF (findings above)"))
}

fn read_report(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Report::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The link the demo prints: the app on `port` with the report of a share `fragment`
/// (`report=…`, none when empty) and the manual it serves offered as `pdf=<url>`, which the
/// page fetches only when the user says yes.
fn app_link(port: u16, fragment: &str) -> String {
    let manual = format!("http://127.0.0.1:{port}{MANUAL_PATH}");
    if fragment.is_empty() {
        format!("http://127.0.0.1:{port}/#pdf={manual}")
    } else {
        format!("http://127.0.0.1:{port}/#{fragment}&pdf={manual}")
    }
}

/// Runs the demo (flags: see the module's documentation).
pub fn run(args: &[OsString]) -> Result<(), String> {
    let o = Options::parse(args)?;
    setup::for_search()?;
    if o.bins.is_none() {
        exec(cmd(
            "cargo",
            &["build", "--release", "-p", "figeval-cli", "-p", "refsearch"],
        ))?;
    }
    let corpus = Corpus::of(&o)?;
    figeval_ground(&o, &corpus)?;
    let name = if o.scanned {
        "octave-scanned"
    } else {
        "octave"
    };
    let (off_name, on_name) = if o.scanned {
        ("scanned, figures off", "scanned, figures on")
    } else {
        ("figures off", "figures on")
    };
    let off = {
        let (_server, url) = start_refsearch(&o, &corpus, "off", "127.0.0.1:0")?;
        figeval_run(&o, &corpus, &url, &format!("{name}-figures-off"), off_name)?
    };
    let (server, on_url) = start_refsearch(&o, &corpus, "on", &o.listen)?;
    let on = figeval_run(&o, &corpus, &on_url, &format!("{name}-figures-on"), on_name)?;
    let (before, after) = (read_report(&off)?, read_report(&on)?);
    println!();
    print!("{}", render::report_text(&before, off_name));
    println!();
    print!("{}", render::report_text(&after, on_name));
    println!();
    let comparison = figeval::compare::compare_ranked(&before, &after);
    print!(
        "{}",
        render::comparison_text(&comparison, off_name, on_name)
    );
    println!("\nreports: {} and {}", off.display(), on.display());
    if !o.serve {
        return Ok(());
    }
    setup::web_tools()?;
    exec(cmd("trunk", &["build", "--release", "--offline"]))?;
    let app = app_beside_manual(&o.out, &sh::root().join("dist"), &corpus.pdf)?;
    let port = free_port(o.web_port)?;
    let (mut team, site) = start_serve(&o, &app, port)?;
    let ids = [
        push(&o, &site, &off, off_name)?,
        push(&o, &site, &on, on_name)?,
    ];
    let fragment = share::fragment(&after).unwrap_or_else(|e| {
        eprintln!("{e}");
        String::new()
    });
    println!(
        "\nThe two runs are stored in {site} (figeval serve, the store {}).",
        o.out.join("figeval.db").display()
    );
    println!("Their comparison, figures off as the baseline (the Runs view lists both):\n");
    println!("  {site}c/{},{}\n", ids[0], ids[1]);
    println!("The figures-on report with the manual ready to load (click \"Load it\" to see the");
    println!("cited pages):\n\n  {}\n", app_link(port, &fragment));
    println!("refsearch (figures on) keeps serving at {on_url} for live runs from the page.");
    println!("Press Ctrl-C to stop.");
    let _ = team.0.wait();
    drop(server);
    Ok(())
}

/// `port` if it is free on 127.0.0.1, or the next free one of the 20 above it (`0`: any).
fn free_port(port: u16) -> Result<u16, String> {
    (port..=port.saturating_add(20))
        .find_map(|p| std::net::TcpListener::bind(("127.0.0.1", p)).ok())
        .and_then(|l| l.local_addr().ok())
        .map(|a| a.port())
        .ok_or_else(|| {
            format!(
                "no free port in 127.0.0.1:{port}..{}",
                port.saturating_add(20)
            )
        })
}

/// The folder `figeval serve --app` serves, `OUT/app`: each entry of the built app `dist` and
/// the manual `pdf` at [`MANUAL_PATH`], as symbolic links (nothing is copied); made afresh.
fn app_beside_manual(out: &Path, dist: &Path, pdf: &Path) -> Result<PathBuf, String> {
    let app = out.join("app");
    let words = |e: std::io::Error| format!("{}: {e}", app.display());
    if app.exists() {
        std::fs::remove_dir_all(&app).map_err(words)?;
    }
    std::fs::create_dir_all(&app).map_err(words)?;
    let entries = std::fs::read_dir(dist).map_err(|e| format!("{}: {e}", dist.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dist.display()))?;
        std::os::unix::fs::symlink(entry.path(), app.join(entry.file_name())).map_err(words)?;
    }
    let pdf = std::path::absolute(pdf).map_err(words)?;
    std::os::unix::fs::symlink(pdf, app.join(MANUAL_PATH.trim_start_matches('/')))
        .map_err(words)?;
    Ok(app)
}

/// Starts `figeval serve` on `127.0.0.1:port` with `app` and a SQLite store under `--out`
/// (open: loopback, no token); returns it and its address (ending in `/`). Its request log
/// goes on to stderr.
fn start_serve(o: &Options, app: &Path, port: u16) -> Result<(Guard, String), String> {
    use std::io::BufRead;
    let store = format!("sqlite:{}", o.out.join("figeval.db").display());
    let mut c = cmd(
        o.bin("figeval"),
        &[
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--store",
            &store,
            "--app",
        ],
    );
    c.arg(app).stderr(Stdio::piped());
    let mut child = sh::spawn(&mut c)?;
    let stderr = child.stderr.take();
    let team = Guard(child);
    let mut lines = std::io::BufReader::new(stderr.ok_or("figeval serve has no stderr")?).lines();
    let site = loop {
        let Some(Ok(line)) = lines.next() else {
            return Err("figeval serve stopped before it listened (its words are above)".into());
        };
        eprintln!("{line}");
        if let Some(url) = line.strip_prefix("figeval serve: listening on ") {
            break format!("{}/", url.trim().trim_end_matches('/'));
        }
    };
    std::thread::spawn(move || lines.map_while(Result::ok).for_each(|l| eprintln!("{l}")));
    Ok((team, site))
}

/// `figeval push REPORT --server SITE --name NAME --label demo=…`: the stored run's id, read
/// from the short link it prints (`SITE/r/ID`).
fn push(o: &Options, site: &str, report: &Path, name: &str) -> Result<String, String> {
    let mut c = cmd(o.bin("figeval"), &["push"]);
    c.arg(report).args([
        "--server",
        site,
        "--name",
        name,
        "--label",
        "source=cargo xtask demo",
    ]);
    let out = String::from_utf8_lossy(&sh::stdout_of(c)?).into_owned();
    run_id(&out)
}

/// The run id of the short link `figeval push` printed (`SITE/r/ID`).
fn run_id(printed: &str) -> Result<String, String> {
    printed
        .trim()
        .rsplit_once("/r/")
        .map(|(_, id)| id.to_string())
        .filter(|id| !id.is_empty() && !id.contains(['/', ',']))
        .ok_or_else(|| format!("figeval push printed {printed:?}, not a short link /r/ID"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        Options::parse(&args.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn paths_that_are_not_utf8_are_taken_as_given_and_an_address_must_be_text() {
        use std::os::unix::ffi::OsStringExt;
        let odd = OsString::from_vec(b"out/d\xffmo".to_vec());
        let o = Options::parse(&[OsString::from("--out"), odd.clone()]).unwrap();
        assert_eq!(o.out, sh::root().join(&odd));
        let o = Options::parse(&[OsString::from("--bins"), odd.clone()]).unwrap();
        assert_eq!(o.bins, Some(sh::root().join(&odd)));
        let e = Options::parse(&[OsString::from("--listen"), odd]).unwrap_err();
        assert!(
            e.starts_with("--listen \"out/d\\xFFmo\": not UTF-8 text"),
            "{e}"
        );
    }

    #[test]
    fn the_demo_defaults_to_the_fixed_local_ports() {
        let o = parse(&[]).unwrap();
        assert!(o.serve);
        assert_eq!((o.listen.as_str(), o.web_port), ("127.0.0.1:58012", 8080));
        assert_eq!(o.out, sh::root().join("out/demo"));
        assert_eq!(
            o.bin("refsearch"),
            sh::target_dir().join("release/refsearch")
        );
    }

    #[test]
    fn the_scanned_slices_keep_the_excerpts_items_and_notes_renumbered() {
        let dataset = json!({"corpus_id": "octave-manual", "items": [
            {"question": "a", "expected_pages": [332], "figure_ref": "Figure 15.1"},
            {"question": "b", "expected_pages": [324, 325]},
            {"question": "c", "expected_pages": [370, 353]},
            {"question": "d", "expected_pages": [371]}]});
        let notes = json!([{"figure_ref": "Figure 15.1", "page": 332}, {"figure_ref": "Figure 1.1", "page": 30}]);
        let (d, n) = excerpt_slices(&dataset, &notes, "x").unwrap();
        assert_eq!(d["corpus_id"], "x");
        let kept: Vec<(&str, &Value)> = d["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["question"].as_str().unwrap(), &i["expected_pages"]))
            .collect();
        assert_eq!(kept, [("a", &json!([8])), ("c", &json!([46, 29]))]);
        assert_eq!(n, json!([{"figure_ref": "Figure 15.1", "page": 8}]));
        let none = json!({"corpus_id": "c", "items": [{"question": "d", "expected_pages": [1]}]});
        assert!(excerpt_slices(&none, &notes, "x").is_err());
    }

    #[test]
    fn the_demo_takes_its_ports_folders_and_binaries_from_flags() {
        let o = parse(&[
            "--listen",
            "127.0.0.1:0",
            "--web-port",
            "0",
            "--out",
            "/tmp/x",
            "--bins",
            "/b",
            "--no-serve",
            "--scanned",
        ])
        .unwrap();
        assert!(!o.serve && o.scanned);
        assert_eq!((o.listen.as_str(), o.web_port), ("127.0.0.1:0", 0));
        assert_eq!(o.out, PathBuf::from("/tmp/x"));
        assert_eq!(o.bin("figeval"), PathBuf::from("/b/figeval"));
    }

    #[test]
    fn the_served_folder_links_the_built_app_and_the_manual_and_is_made_afresh() {
        let tmp = tempfile::tempdir().unwrap();
        let dist = tmp.path().join("dist");
        std::fs::create_dir_all(dist.join("runs")).unwrap();
        std::fs::write(dist.join("index.html"), "<!doctype html>").unwrap();
        let pdf = tmp.path().join("manual.pdf");
        std::fs::write(&pdf, "%PDF-1.4").unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(out.join("app/stale")).unwrap();
        let app = app_beside_manual(&out, &dist, &pdf).unwrap();
        assert_eq!(app, out.join("app"));
        let mut names: Vec<_> = std::fs::read_dir(&app)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["index.html", "octave.pdf", "runs"]);
        assert_eq!(
            std::fs::read_to_string(app.join("octave.pdf")).unwrap(),
            "%PDF-1.4"
        );
        assert_eq!(
            std::fs::read_link(app.join("runs")).unwrap(),
            dist.join("runs")
        );
        let missing = app_beside_manual(&out, &tmp.path().join("no-dist"), &pdf).unwrap_err();
        assert!(missing.contains("no-dist"), "{missing}");
    }

    #[test]
    fn a_pushed_runs_id_is_read_from_its_short_link_and_anything_else_is_refused() {
        assert_eq!(
            run_id("http://127.0.0.1:8080/r/ZSu3tbkG_wmp2jixykedrg\n").unwrap(),
            "ZSu3tbkG_wmp2jixykedrg"
        );
        for printed in [
            "",
            "http://127.0.0.1:8080/",
            "http://h/r/",
            "http://h/c/A,B",
        ] {
            let e = run_id(printed).unwrap_err();
            assert!(e.contains("not a short link"), "{e}");
        }
    }

    #[test]
    fn the_link_opens_the_report_and_offers_the_manual_served_beside_the_app() {
        let text = std::fs::read_to_string(sh::root().join(DATASET)).unwrap();
        let dataset = figeval::Dataset::parse(&text).unwrap();
        let item = &dataset.items[0];
        let page = item.expected_pages[0].get();
        let body = serde_json::json!({"query": item.question, "matches": [
            {"chunk_id": "c1", "provenance": {"page_start": page, "page_end": page}}]});
        let config = figeval::ScoreConfig::default();
        let read = figeval::CaptureReader::read_str(
            figeval::Pairing::new(&dataset, config),
            &body.to_string(),
        );
        let report = figeval::Report::build(
            read.pairing.finish(true).unwrap(),
            figeval::RunInfo::default(),
        );
        let fragment = share::fragment(&report).unwrap();
        let link = app_link(8081, &fragment);
        let (page, params) = link.split_once('#').unwrap();
        assert_eq!(page, "http://127.0.0.1:8081/");
        let (report_param, pdf) = params.split_once('&').unwrap();
        assert_eq!(report_param, fragment);
        assert_eq!(pdf, "pdf=http://127.0.0.1:8081/octave.pdf");
        // The page reads the report from the whole fragment, the pdf= after it.
        let shared = share::decode_link(params).unwrap();
        assert!(matches!(shared, share::Link::Report(r) if *r == report));
        assert_eq!(
            app_link(9, ""),
            "http://127.0.0.1:9/#pdf=http://127.0.0.1:9/octave.pdf"
        );
    }

    #[test]
    fn an_unknown_flag_or_a_missing_value_is_refused_with_the_usage() {
        for args in [&["--port", "1"][..], &["--listen"], &["--web-port", "x"]] {
            let err = parse(args).unwrap_err();
            assert!(err.ends_with(USAGE), "{args:?}: {err}");
        }
    }
}
