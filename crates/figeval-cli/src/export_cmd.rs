//! `figeval export`: a capture as a TREC run over pages and its dataset as TREC qrels, for
//! ranx, ir_measures or trec_eval (the format is `figeval::trec`'s).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use figeval::trec;

use crate::fail::{Failure, Outcome};
use crate::{files, score_cmd};

/// Where `figeval export` writes.
pub struct ExportPaths<'a> {
    /// The qrels file.
    pub qrels: &'a Path,
    /// The run file.
    pub run: &'a Path,
    /// The query map (`qid` → question, JSON Lines), when asked for.
    pub queries: Option<&'a Path>,
}

/// Reads the capture against the dataset and writes the qrels, the run and the query map.
/// Every item must have a usable response, as `figeval score` requires by default.
pub fn run(responses: &Path, dataset: &Path, out: &ExportPaths<'_>) -> Outcome {
    let dataset = files::read_dataset(dataset)?;
    let (read, _) = score_cmd::read_responses(responses, trec::pairing(&dataset))?;
    let files = trec::export(&dataset, read.pairing)
        .map_err(|e| Failure::Input(format!("{}: {e}", responses.display())))?;
    write(out.qrels, &files.qrels)?;
    write(out.run, &files.run)?;
    if let Some(queries) = out.queries {
        write(queries, &files.queries)?;
    }
    let _ = writeln!(
        io::stderr(),
        "figeval: wrote {} queries: {} qrels to {}, {} run lines to {}",
        dataset.items.len(),
        files.qrels_count,
        out.qrels.display(),
        files.run_count,
        out.run.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| Failure::Output(format!("cannot create {}: {e}", dir.display())))?;
    }
    fs::write(path, text)
        .map_err(|e| Failure::Output(format!("cannot write {}: {e}", path.display())))
}
