//! `figeval export`: a capture as a TREC run over pages and its dataset as TREC qrels, for
//! ranx, ir_measures or trec_eval (the format is `figeval::trec`'s).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use figeval::{trec, Pairing, ScoreConfig};

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
    let mut pairing = Pairing::new(&dataset, ScoreConfig::default());
    pairing.keep_page_runs();
    let (mut read, _) = score_cmd::read_responses(responses, pairing)?;
    let runs = read.pairing.take_page_runs();
    read.pairing
        .finish(false)
        .map_err(|e| Failure::Input(format!("{}: {e}", responses.display())))?;
    let mut listed = Vec::with_capacity(runs.len());
    for (i, run) in runs.into_iter().enumerate() {
        match run {
            Some(Ok(run)) => listed.push(run),
            Some(Err(wide)) => {
                return Err(Failure::Input(format!(
                    "{}: item {} ({}, {:?}): {wide}",
                    responses.display(),
                    i + 1,
                    trec::query_id(i),
                    dataset.items[i].question
                )))
            }
            None => unreachable!("finish refuses a capture with an unanswered item"),
        }
    }
    write(out.qrels, &trec::qrels_lines(&dataset))?;
    write(out.run, &trec::run_lines(listed.iter().map(Vec::as_slice)))?;
    if let Some(queries) = out.queries {
        write(queries, &trec::queries_jsonl(&dataset))?;
    }
    let lines: usize = listed.iter().map(Vec::len).sum();
    let _ = writeln!(
        io::stderr(),
        "figeval: wrote {} queries: {} qrels to {}, {lines} run lines to {}",
        dataset.items.len(),
        dataset
            .items
            .iter()
            .map(|it| it.expected_pages.len())
            .sum::<usize>(),
        out.qrels.display(),
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
