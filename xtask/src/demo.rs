//! `cargo xtask demo`: the main job on a local default. `refsearch` over the Octave manual,
//! the Octave eval with figures off and on, both summaries, the comparison, and the browser
//! app serving the figures-on report.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use figeval::{render, share, Report};

use crate::serve;
use crate::setup::{self, OCTAVE_PDF};
use crate::sh::{self, cmd, exec, Guard};

const DATASET: &str = "data/eval_datasets/octave-manual-figures.json";
const NOTES: &str = "data/corpora/octave-manual/figure-notes.json";

/// Starts the release `refsearch` and waits for its "listening on" line; returns the guard
/// and the base URL it printed.
fn start_refsearch(figures: &str, listen: &str) -> Result<(Guard, String), String> {
    let bin = sh::target_dir().join("release/refsearch");
    // The same command both times but for `--figures`: with figures off refsearch checks the
    // notes and builds no figure chunk.
    let args = [
        "--pdf",
        OCTAVE_PDF,
        "--corpus-id",
        "octave-manual",
        "--figure-notes",
        NOTES,
        "--figures",
        figures,
        "--listen",
        listen,
    ];
    let mut c = cmd(bin.to_str().expect("a UTF-8 path"), &args);
    let mut child = c
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let stderr = child.stderr.take().expect("stderr is piped");
    let guard = Guard(child);
    let mut lines = BufReader::new(stderr).lines();
    let url = loop {
        let Some(Ok(line)) = lines.next() else {
            return Err("refsearch exited before it listened (see its messages above)".into());
        };
        eprintln!("{line}");
        if let Some(url) = line.strip_prefix("refsearch: listening on ") {
            break url.trim().to_string();
        }
    };
    // Keep draining its stderr so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    Ok((guard, url))
}

fn figeval_run(base_url: &str, name: &str) -> Result<PathBuf, String> {
    let out_dir = sh::root().join("out/demo");
    let report = out_dir.join(format!("{name}.json"));
    let capture = out_dir.join(format!("{name}.capture.jsonl"));
    let bin = sh::target_dir().join("release/figeval");
    let mut c = cmd(
        bin.to_str().expect("a UTF-8 path"),
        &[
            "run",
            "--dataset",
            DATASET,
            "--base-url",
            base_url,
            "--capture",
            capture.to_str().expect("a UTF-8 path"),
            "--out",
            report.to_str().expect("a UTF-8 path"),
        ],
    );
    c.stdout(Stdio::null());
    exec(c)?;
    Ok(report)
}

fn read_report(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Report::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs the demo; `--no-serve` stops after the comparison.
pub fn run(args: &[String]) -> Result<(), String> {
    let serve_app = !args.iter().any(|a| a == "--no-serve");
    setup::for_search()?;
    exec(cmd(
        "cargo",
        &["build", "--release", "-p", "figeval-cli", "-p", "refsearch"],
    ))?;
    let off = {
        let (_server, url) = start_refsearch("off", "127.0.0.1:0")?;
        figeval_run(&url, "octave-figures-off")?
    };
    let (server, on_url) = start_refsearch("on", "127.0.0.1:58012")?;
    let on = figeval_run(&on_url, "octave-figures-on")?;
    let (before, after) = (read_report(&off)?, read_report(&on)?);
    println!();
    print!("{}", render::report_text(&before, "figures off"));
    println!();
    print!("{}", render::report_text(&after, "figures on"));
    println!();
    let comparison = figeval::compare(&before, &after);
    print!(
        "{}",
        render::comparison_text(
            &comparison,
            &off.display().to_string(),
            &on.display().to_string()
        )
    );
    println!("\nreports: {} and {}", off.display(), on.display());
    if !serve_app {
        return Ok(());
    }
    setup::web_tools()?;
    exec(cmd("trunk", &["build", "--release", "--offline"]))?;
    let listener = serve::bind(8080)?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let url = match share::fragment(&after) {
        Ok(fragment) => format!("http://127.0.0.1:{port}/#{fragment}"),
        Err(e) => {
            eprintln!("{e}");
            format!("http://127.0.0.1:{port}/")
        }
    };
    println!("\nThe browser app, with the figures-on report open:\n\n  {url}\n");
    println!("refsearch (figures on) keeps serving at {on_url} for live runs from the page.");
    println!("Press Ctrl-C to stop.");
    serve::serve(listener, sh::root().join("dist"));
    drop(server);
    Ok(())
}
