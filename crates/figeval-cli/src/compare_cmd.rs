//! `figeval compare BEFORE AFTER`: before/after comparison and the CI gate.

use std::path::Path;
use std::process::ExitCode;

use figeval::render;

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// Compares two reports, prints the comparison, and applies the regression gate.
pub fn run(before: &Path, after: &Path, format: Format, gate: &[String]) -> Outcome {
    let b = files::read_report(before)?;
    let a = files::read_report(after)?;
    let c = figeval::compare(&b, &a);
    let names = c.scope_names();
    let unknown: Vec<&str> = gate
        .iter()
        .map(|g| g.trim())
        .filter(|g| !names.contains(g))
        .collect();
    if !unknown.is_empty() {
        return Err(Failure::Input(format!(
            "--fail-on-regression names {} that neither report has; known: {}",
            unknown.join(", "),
            names.join(", ")
        )));
    }
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
    let tripped: Vec<String> = gate
        .iter()
        .filter_map(|g| c.scope(g.trim()))
        .filter(|s| !s.regressions().is_empty())
        .map(|s| format!("{} ({})", s.scope, s.regressions().join(", ")))
        .collect();
    if tripped.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("figeval: regression gate tripped: {}", tripped.join("; "));
        Ok(ExitCode::from(1))
    }
}
