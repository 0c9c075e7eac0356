//! `figeval compare BEFORE AFTER`: before/after comparison and the CI gate; with more reports,
//! `figeval compare BASE A B …`: every run against the base, as a matrix.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use figeval::{matrix, render, Gate};

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// Compares the reports (two: before and after; more: every run against the first), prints the
/// comparison, and applies the regression gate to every run.
pub fn run(paths: &[PathBuf], format: Format, gates: &[Gate]) -> Outcome {
    match paths {
        [before, after] => run_two(before, after, format, gates),
        [base, runs @ ..] => run_many(base, runs, format, gates),
        [] => Err(Failure::Input("compare needs at least two reports".into())),
    }
}

/// Several runs against a base: the matrix, and the gate applied to each run.
fn run_many(base: &Path, runs: &[PathBuf], format: Format, gates: &[Gate]) -> Outcome {
    let base_report = files::read_report(base)?;
    let run_reports = runs
        .iter()
        .map(|p| files::read_report(p))
        .collect::<Result<Vec<_>, _>>()?;
    let labels: Vec<String> = runs.iter().map(|p| p.display().to_string()).collect();
    let base_label = base.display().to_string();
    let pairs: Vec<(&str, &figeval::Report)> = labels
        .iter()
        .map(String::as_str)
        .zip(&run_reports)
        .collect();
    let m = matrix::compare_many((&base_label, &base_report), &pairs);
    for c in &m.comparisons {
        check_gates(c, gates)?;
    }
    let text = match format {
        Format::Text => render::matrix_text(&m),
        Format::Markdown => render::matrix_markdown(&m),
        Format::Json => {
            serde_json::to_string_pretty(&m).expect("a matrix always serializes") + "\n"
        }
    };
    print!("{text}");
    for w in &m.warnings {
        eprintln!("figeval: WARNING: {w}");
    }
    let tripped: Vec<String> = labels
        .iter()
        .zip(&m.comparisons)
        .flat_map(|(label, c)| {
            tripped(c, gates)
                .into_iter()
                .map(move |t| format!("{label}: {t}"))
        })
        .collect();
    verdict(&tripped)
}

/// The gates' scopes must be ones the comparison has.
fn check_gates(c: &figeval::Comparison, gates: &[Gate]) -> Result<(), Failure> {
    let scopes = c.scope_list();
    let unknown: Vec<&str> = gates
        .iter()
        .filter(|g| !scopes.contains(&g.scope))
        .map(|g| g.scope.name())
        .collect();
    if !unknown.is_empty() {
        let known: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
        return Err(Failure::Input(format!(
            "--fail-on-regression names {} that neither report has; known: {}",
            unknown.join(", "),
            known.join(", ")
        )));
    }
    Ok(())
}

/// What each gate trips on in `c`: `prose (page_hit_at_3, …)`.
fn tripped(c: &figeval::Comparison, gates: &[Gate]) -> Vec<String> {
    gates
        .iter()
        .filter_map(|g| {
            let fell = g.tripped_by(c);
            (!fell.is_empty()).then(|| format!("{} ({})", g.scope, figeval::compare::names(&fell)))
        })
        .collect()
}

fn verdict(tripped: &[String]) -> Outcome {
    if tripped.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("figeval: regression gate tripped: {}", tripped.join("; "));
        Ok(ExitCode::from(1))
    }
}

/// Two reports: the before/after comparison.
fn run_two(before: &Path, after: &Path, format: Format, gates: &[Gate]) -> Outcome {
    let b = files::read_report(before)?;
    let a = files::read_report(after)?;
    let c = figeval::compare(&b, &a);
    check_gates(&c, gates)?;
    let (bl, al) = (before.display().to_string(), after.display().to_string());
    let text = match format {
        Format::Text => render::comparison_text(&c, &bl, &al),
        Format::Markdown => render::comparison_markdown(&c, &bl, &al),
        Format::Json => {
            let mut v = serde_json::to_value(&c).expect("a comparison always serializes");
            v["before"] = bl.clone().into();
            v["after"] = al.clone().into();
            serde_json::to_string_pretty(&v).expect("a value always serializes") + "\n"
        }
    };
    print!("{text}");
    for w in &c.warnings {
        eprintln!("figeval: WARNING: {w}");
    }
    verdict(&tripped(&c, gates))
}
