//! `figeval export`: a capture as a TREC run over pages and its dataset as TREC qrels, for
//! ranx, ir_measures or trec_eval (the format is `figeval::trec`'s), and the same in BEIR's
//! layout (`figeval::trec::beir`).

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use figeval::trec;

use crate::fail::{Failure, Outcome};
use crate::{connect, files, score_cmd, ConnectArgs};

/// Where `figeval export` writes.
pub struct ExportPaths<'a> {
    /// The TREC qrels and run files, when asked for.
    pub trec: Option<(&'a Path, &'a Path)>,
    /// The query map (`qid` → question, JSON Lines), when asked for.
    pub queries: Option<&'a Path>,
    /// The folder of the BEIR layout, when asked for.
    pub beir: Option<&'a Path>,
}

/// Reads the capture against the dataset and writes the qrels, the run and the query map.
/// Every item must have a usable response, as `figeval score` requires by default.
pub fn run(
    responses: &Path,
    dataset: &Path,
    connect: &ConnectArgs,
    out: &ExportPaths<'_>,
) -> Outcome {
    let dataset = files::read_dataset(dataset)?;
    files::check_pdfs(&dataset, &connect.pdf)?;
    let connect = connect::prepare(connect)?;
    let files = if dataset.of_several_files() {
        // Doc ids name the file and the page (contract §8.5).
        let mut pairing = trec::files::pairing(&dataset);
        connect.attach(&mut pairing);
        let (read, _) = score_cmd::read_responses(responses, pairing)?;
        trec::files::export(&dataset, read.pairing)
    } else {
        let mut pairing = trec::pairing(&dataset);
        connect.attach(&mut pairing);
        let (read, _) = score_cmd::read_responses(responses, pairing)?;
        trec::export(&dataset, read.pairing)
    }
    .map_err(|e| Failure::Input(format!("{}: {e}", responses.display())))?;
    if let Some((qrels, run)) = out.trec {
        write(qrels, &files.qrels)?;
        write(run, &files.run)?;
        let _ = writeln!(
            io::stderr(),
            "figeval: wrote {} queries: {} qrels to {}, {} run lines to {}",
            dataset.items.len(),
            files.qrels_count,
            qrels.display(),
            files.run_count,
            run.display()
        );
    }
    if let Some(queries) = out.queries {
        write(queries, &files.queries)?;
    }
    if let Some(dir) = out.beir {
        let beir = trec::beir::from_trec(&dataset, &files);
        write(&dir.join("queries.jsonl"), &beir.queries)?;
        write(&dir.join("qrels").join("test.tsv"), &beir.qrels)?;
        write(&dir.join("results.json"), &beir.results)?;
        let _ = writeln!(
            io::stderr(),
            "figeval: wrote {} queries, {} qrels and {} run entries in BEIR's layout to {}",
            dataset.items.len(),
            files.qrels_count,
            files.run_count,
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn write(path: &Path, text: &str) -> Result<(), Failure> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| {
            Failure::Output(format!(
                "cannot create {}: {}",
                dir.display(),
                files::io_words(&e)
            ))
        })?;
    }
    fs::write(path, text).map_err(|e| {
        Failure::Output(format!(
            "cannot write {}: {}",
            path.display(),
            files::io_words(&e)
        ))
    })
}
