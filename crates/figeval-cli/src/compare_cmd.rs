//! `figeval compare BEFORE AFTER`: before/after comparison and the CI gate.

use std::path::Path;
use std::process::ExitCode;

use figeval::{render, Gate};

use crate::fail::{Failure, Outcome};
use crate::files;
use crate::Format;

/// Compares two reports, prints the comparison, and applies the regression gate.
pub fn run(before: &Path, after: &Path, format: Format, gates: &[Gate]) -> Outcome {
    let b = files::read_report(before)?;
    let a = files::read_report(after)?;
    let c = figeval::compare(&b, &a);
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
    let tripped: Vec<String> = gates
        .iter()
        .filter_map(|g| {
            let fell = g.tripped_by(&c);
            (!fell.is_empty()).then(|| format!("{} ({})", g.scope, figeval::compare::names(&fell)))
        })
        .collect();
    if tripped.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!("figeval: regression gate tripped: {}", tripped.join("; "));
        Ok(ExitCode::from(1))
    }
}
