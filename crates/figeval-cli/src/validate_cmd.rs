//! `figeval validate DATASET...`

use std::path::PathBuf;
use std::process::ExitCode;

use crate::fail::{Failure, Outcome};
use crate::files;

/// Validates each dataset, printing a line per valid one and every error of the others.
pub fn run(paths: &[PathBuf]) -> Outcome {
    let mut failed = Vec::new();
    for path in paths {
        match files::read_dataset(path) {
            Ok(d) => {
                let groups: Vec<String> = d
                    .group_counts()
                    .into_iter()
                    .map(|(g, n)| format!("{g} {n}"))
                    .collect();
                println!(
                    "ok: {}: corpus {}, {} items ({})",
                    path.display(),
                    d.corpus_id,
                    d.items.len(),
                    groups.join(", ")
                );
            }
            Err(e) => {
                eprintln!("figeval: {e}");
                failed.push(path.display().to_string());
            }
        }
    }
    if failed.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(Failure::Input(format!(
            "{} of {} invalid: {}",
            failed.len(),
            figeval::describe::counted(paths.len(), "dataset", "datasets"),
            failed.join(", ")
        )))
    }
}
