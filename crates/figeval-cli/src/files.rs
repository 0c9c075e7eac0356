//! Reading inputs and writing reports.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use figeval::{Dataset, Report};

use crate::bundled;
use crate::fail::Failure;

/// What went wrong with a file, in words: `there is no such file or folder` rather than the
/// system's `No such file or directory (os error 2)`.
pub fn io_words(e: &io::Error) -> String {
    use io::ErrorKind as K;
    let words = match e.kind() {
        K::NotFound => "there is no such file or folder",
        K::PermissionDenied => "permission denied",
        K::IsADirectory => "it is a folder, not a file",
        K::NotADirectory => "a part of its path is a file, not a folder",
        K::StorageFull => "the disk is full",
        K::ReadOnlyFilesystem => "the disk is read-only",
        K::AlreadyExists => "it already exists",
        K::BrokenPipe => "the reader closed the pipe",
        _ => {
            let text = e.to_string();
            return match text.rfind(" (os error ") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
        }
    };
    words.to_string()
}

/// Reads a whole text file, with an error that names it.
pub fn read_text(path: &Path) -> Result<String, Failure> {
    let bytes = fs::read(path)
        .map_err(|e| Failure::Input(format!("cannot read {}: {}", path.display(), io_words(&e))))?;
    String::from_utf8(bytes).map_err(|e| {
        Failure::Input(format!(
            "{} is not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and validates a dataset; every error is listed under the file's name. A path that
/// is no file but the name of a bundled dataset (`octave-manual-figures`) reads that one.
pub fn read_dataset(path: &Path) -> Result<Dataset, Failure> {
    let text = match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => match bundled::named(path) {
            Some(b) => b.text.to_string(),
            None => {
                return Err(Failure::Input(format!(
                    "cannot read the dataset {}: {}; name a dataset file, or a bundled \
                     dataset: {}",
                    path.display(),
                    io_words(&e),
                    bundled::listed()
                )))
            }
        },
        _ => read_text(path)?,
    };
    Dataset::parse(&text).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// `Err` when `--pdf` is given more than once for a dataset of one file: its expected pages
/// are pages of one PDF.
pub fn check_pdfs(dataset: &Dataset, pdfs: &[std::path::PathBuf]) -> Result<(), Failure> {
    if pdfs.len() > 1 && !dataset.of_several_files() {
        return Err(Failure::Input(format!(
            "--pdf is given {} times, but the dataset gives expected_pages, which are pages of \
             one PDF: give one --pdf (a dataset of several files names each item's file with \
             expected_locations)",
            pdfs.len()
        )));
    }
    Ok(())
}

/// Reads a report.
pub fn read_report(path: &Path) -> Result<Report, Failure> {
    let text = read_text(path)?;
    Report::parse(&text).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// Prints the report as indented JSON on stdout and, with `out`, writes it there too
/// (creating the folder). The file is written whole and renamed into place, so a reader
/// never sees half a report.
pub fn emit_report(report: &Report, out: Option<&Path>) -> Result<(), Failure> {
    if let Some(path) = out {
        write_report_file(report, path).map_err(|e| {
            Failure::Output(format!(
                "cannot write the report to {}: {}",
                path.display(),
                io_words(&e)
            ))
        })?;
    }
    let stdout = io::stdout().lock();
    let mut w = BufWriter::with_capacity(1 << 16, stdout);
    serde_json::to_writer_pretty(&mut w, report)
        .map_err(io::Error::from)
        .and_then(|_| writeln!(w))
        .and_then(|_| w.flush())
        .or_else(|e| {
            // A closed pipe (`figeval score … | head`) is the reader's choice, not a failure.
            if e.kind() == io::ErrorKind::BrokenPipe {
                Ok(())
            } else {
                Err(Failure::Output(format!(
                    "cannot write the report to stdout: {}",
                    io_words(&e)
                )))
            }
        })
}

fn write_report_file(report: &Report, path: &Path) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.partial");
    {
        let mut w = BufWriter::with_capacity(1 << 16, fs::File::create(&tmp)?);
        serde_json::to_writer_pretty(&mut w, report)?;
        writeln!(w)?;
        w.flush()?;
    }
    fs::rename(&tmp, path)
}

/// Writes `bytes` to `path` whole: into a sibling `.partial` file, then renamed into place, so
/// a reader never sees half a file. The folder is created.
pub fn write_whole(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    fs::write(&tmp, bytes)?;
    fs::rename(&tmp, path)
}

/// Prints `text` on stdout; a closed pipe is the reader's choice, any other error is exit 4.
pub fn print_text(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Output(format!(
            "cannot write to stdout: {}",
            io_words(&e)
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_is_told_in_words_not_by_its_os_error() {
        let e = fs::read("/nonexistent/figeval/x.json").unwrap_err();
        assert_eq!(io_words(&e), "there is no such file or folder");
        let e = fs::read("/").unwrap_err();
        assert_eq!(io_words(&e), "it is a folder, not a file");
        // EINVAL: a kind without words of its own keeps the system's text, without its code.
        let other = io::Error::from_raw_os_error(22);
        assert_eq!(io_words(&other), "Invalid argument");
    }
}
