//! `figeval compare BEFORE AFTER`: before/after comparison and the CI gates; with more reports,
//! `figeval compare BASE A B …`: every run against the base, as a matrix.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use figeval::Report;
use std::process::ExitCode;

use figeval::gate::{significance_gate, SignificanceGate};
use figeval::{matrix, render, Comparison, Gate};

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// The names compare shows for these reports: each report's `run.name`, else its label (its
/// path, or where it was fetched: a report written before names); a name that two reports
/// share is followed by the report's label, so no two rows read alike.
fn shown_names(reports: &[&Labeled]) -> Vec<String> {
    let names: Vec<String> = reports
        .iter()
        .map(|r| r.report.shown_name(Some(&r.label)))
        .collect();
    names
        .iter()
        .zip(reports)
        .map(|(name, r)| {
            if names.iter().filter(|n| *n == name).count() > 1 && *name != r.label {
                format!("{name} ({})", r.label)
            } else {
                name.clone()
            }
        })
        .collect()
}

/// The gates of one `figeval compare`.
pub struct Gates<'a> {
    /// `--fail-on-regression`: trips on any lower rate.
    pub any_drop: &'a [Gate],
    /// `--fail-on-significant-regression`: trips on a drop the exact McNemar test calls
    /// significant, Holm-adjusted across every gated test.
    pub significant_drop: &'a [Gate],
}

const ANY_FLAG: &str = "--fail-on-regression";
const SIGNIFICANT_FLAG: &str = "--fail-on-significant-regression";

/// A report to compare and what the comparison calls it (its file, or where it was fetched).
pub struct Labeled {
    /// What the comparison calls it.
    pub label: String,
    /// The report.
    pub report: Report,
}

/// Reads the report files, each labelled with its path.
pub fn read_all(paths: &[PathBuf]) -> Result<Vec<Labeled>, Failure> {
    paths
        .iter()
        .map(|p| {
            Ok(Labeled {
                label: p.display().to_string(),
                report: files::read_report(p)?,
            })
        })
        .collect()
}

/// Compares the reports (two: before and after; more: every run against the first), prints the
/// comparison (and appends it as Markdown to `summary_file`), and applies the gates to every
/// run.
pub fn run(
    reports: &[Labeled],
    format: Format,
    gates: &Gates,
    summary_file: Option<&Path>,
) -> Outcome {
    match reports {
        [before, after] => run_two(before, after, format, gates, summary_file),
        [base, runs @ ..] if !runs.is_empty() => run_many(base, runs, format, gates, summary_file),
        _ => Err(Failure::Input("compare needs at least two reports".into())),
    }
}

/// Several runs against a base: the matrix, and the gates applied to each run.
fn run_many(
    base: &Labeled,
    runs: &[Labeled],
    format: Format,
    gates: &Gates,
    summary_file: Option<&Path>,
) -> Outcome {
    let all: Vec<&Labeled> = std::iter::once(base).chain(runs).collect();
    let mut labels = shown_names(&all);
    let base_label = labels.remove(0);
    let pairs: Vec<(&str, &figeval::Report)> = labels
        .iter()
        .map(String::as_str)
        .zip(runs.iter().map(|r| &r.report))
        .collect();
    let m = matrix::compare_many((&base_label, &base.report), &pairs);
    for c in &m.comparisons {
        check_gates(c, gates)?;
    }
    let gated: Vec<(Option<&str>, &Comparison)> = labels
        .iter()
        .map(|l| Some(l.as_str()))
        .zip(&m.comparisons)
        .collect();
    let sig = significance(&gated, gates);
    let text = match format {
        Format::Text => render::matrix_text(&m) + &gate_text(sig.as_ref(), render::gate_text),
        Format::Markdown => {
            render::matrix_markdown(&m) + &gate_text(sig.as_ref(), render::gate_markdown)
        }
        Format::Json => {
            let mut v = serde_json::to_value(&m).expect("a matrix always serializes");
            if let Some(g) = &sig {
                v["significance_gate"] = serde_json::to_value(g).expect("a gate serializes");
            }
            serde_json::to_string_pretty(&v).expect("a value always serializes") + "\n"
        }
    };
    files::print_text(&text)?;
    for w in &m.warnings {
        eprintln!("figeval: WARNING: {w}");
    }
    if let Some(path) = summary_file {
        let md = render::matrix_markdown(&m) + &gate_text(sig.as_ref(), render::gate_markdown);
        append_summary(path, &md)?;
    }
    let tripped: Vec<String> = labels
        .iter()
        .zip(&m.comparisons)
        .flat_map(|(label, c)| {
            tripped(c, gates.any_drop)
                .into_iter()
                .map(move |t| format!("{label}: {t}"))
        })
        .collect();
    verdict(&tripped, sig.as_ref())
}

/// The significance gate over these comparisons, when one is asked for.
fn significance(runs: &[(Option<&str>, &Comparison)], gates: &Gates) -> Option<SignificanceGate> {
    (!gates.significant_drop.is_empty()).then(|| significance_gate(runs, gates.significant_drop))
}

/// The gate's rendering, or nothing without a gate.
fn gate_text(g: Option<&SignificanceGate>, render: fn(&SignificanceGate) -> String) -> String {
    g.map(render).unwrap_or_default()
}

/// Appends `markdown` to the summary file (created when missing), as GitHub's
/// `$GITHUB_STEP_SUMMARY` is written: each step adds its part.
fn append_summary(path: &Path, markdown: &str) -> Result<(), Failure> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(markdown.as_bytes()).and_then(|_| f.flush()))
        .map_err(|e| {
            Failure::Output(format!(
                "cannot append the summary to {}: {}",
                path.display(),
                files::io_words(&e)
            ))
        })
}

/// The gates' scopes must be ones the comparison has.
fn check_gates(c: &Comparison, gates: &Gates) -> Result<(), Failure> {
    let scopes = c.scope_list();
    for (flag, list) in [
        (ANY_FLAG, gates.any_drop),
        (SIGNIFICANT_FLAG, gates.significant_drop),
    ] {
        let unknown: Vec<&str> = list
            .iter()
            .filter(|g| !scopes.contains(&g.scope))
            .map(|g| g.scope.name())
            .collect();
        if !unknown.is_empty() {
            let known: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
            return Err(Failure::Input(format!(
                "{flag} names {} that neither report has; known: {}",
                unknown.join(", "),
                known.join(", ")
            )));
        }
    }
    Ok(())
}

/// What each `--fail-on-regression` gate trips on in `c`: `prose (page_hit_at_3, …)`.
fn tripped(c: &Comparison, gates: &[Gate]) -> Vec<String> {
    gates
        .iter()
        .filter_map(|g| {
            let fell = g.tripped_by(c);
            (!fell.is_empty()).then(|| format!("{} ({})", g.scope, figeval::compare::names(&fell)))
        })
        .collect()
}

/// Exit 1 when either gate tripped, each naming what tripped it on stderr.
fn verdict(tripped: &[String], significant: Option<&SignificanceGate>) -> Outcome {
    let mut code = ExitCode::SUCCESS;
    if !tripped.is_empty() {
        eprintln!("figeval: regression gate tripped: {}", tripped.join("; "));
        code = ExitCode::from(1);
    }
    if let Some(g) = significant.filter(|g| g.tripped) {
        let drops: Vec<String> = g
            .significant()
            .map(|c| {
                format!(
                    "{} ({}, exact McNemar p {}, Holm {})",
                    c.name(),
                    render::signed(c.delta),
                    render::p_value(c.p_value),
                    render::p_value(c.p_holm)
                )
            })
            .collect();
        eprintln!(
            "figeval: significant regression gate tripped: {}",
            drops.join("; ")
        );
        code = ExitCode::from(1);
    }
    Ok(code)
}

/// Two reports: the before/after comparison.
fn run_two(
    before: &Labeled,
    after: &Labeled,
    format: Format,
    gates: &Gates,
    summary_file: Option<&Path>,
) -> Outcome {
    let c = figeval::compare::compare_ranked(&before.report, &after.report);
    check_gates(&c, gates)?;
    let sig = significance(&[(None, &c)], gates);
    let names = shown_names(&[before, after]);
    let (bl, al) = (names[0].clone(), names[1].clone());
    let markdown = || {
        render::comparison_markdown(&c, &bl, &al) + &gate_text(sig.as_ref(), render::gate_markdown)
    };
    let text = match format {
        Format::Text => {
            render::comparison_text(&c, &bl, &al) + &gate_text(sig.as_ref(), render::gate_text)
        }
        Format::Markdown => markdown(),
        Format::Json => {
            let mut v = serde_json::to_value(&c).expect("a comparison always serializes");
            v["before"] = before.label.clone().into();
            v["after"] = after.label.clone().into();
            v["before_name"] = bl.clone().into();
            v["after_name"] = al.clone().into();
            if let Some(g) = &sig {
                v["significance_gate"] = serde_json::to_value(g).expect("a gate serializes");
            }
            serde_json::to_string_pretty(&v).expect("a value always serializes") + "\n"
        }
    };
    files::print_text(&text)?;
    for w in &c.warnings {
        eprintln!("figeval: WARNING: {w}");
    }
    if let Some(path) = summary_file {
        append_summary(path, &markdown())?;
    }
    verdict(&tripped(&c, gates.any_drop), sig.as_ref())
}
