//! The OCR cache: what tesseract read off a page, kept so that a second run over the same PDF
//! reads no page again.
//!
//! An entry is a file `<base>/<sha256 of the PDF>/<settings key>-p<page>.txt`; the settings key
//! is the start of the SHA-256 of the OCR settings (resolution, language, tesseract's
//! version), so changing any of them misses. The file starts with a line naming the format and
//! a line holding the SHA-256 of the rest; an entry whose checksum, format or fields are wrong
//! is read as missing (the page is read again and the entry rewritten), never trusted. Entries
//! are written to a temporary file and renamed, so a run killed halfway leaves no half entry.

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::tesseract::OcrText;

/// The first line of every entry; a new layout gets a new number.
const MAGIC: &str = "figeval-ocr-cache 1";

/// The cache entries of one PDF.
pub(crate) struct Cache {
    dir: PathBuf,
    settings: String,
}

impl Cache {
    /// The entries of the PDF whose content hash is `pdf_sha256`, read with `settings`.
    pub(crate) fn new(base: &Path, pdf_sha256: &str, settings: &str) -> Cache {
        Cache {
            dir: base.join(pdf_sha256),
            settings: hex(&Sha256::digest(settings.as_bytes()))[..16].to_string(),
        }
    }

    fn path(&self, page: u32) -> PathBuf {
        self.dir.join(format!("{}-p{page}.txt", self.settings))
    }

    /// The cached reading of `page`, or `None` when there is none or it is not intact.
    pub(crate) fn get(&self, page: u32) -> Option<OcrText> {
        decode(&std::fs::read_to_string(self.path(page)).ok()?)
    }

    /// Stores the reading of `page`.
    pub(crate) fn put(&self, page: u32, read: &OcrText) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path(page);
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&temporary, encode(read))?;
        std::fs::rename(&temporary, &path).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
    }
}

/// The OCR cache's folder: `$XDG_CACHE_HOME/figeval/ocr`, or `~/.cache/figeval/ocr` when
/// `XDG_CACHE_HOME` is unset or not an absolute path (as the XDG base directory rules say);
/// `None` when neither can be found.
pub fn default_cache_dir() -> Option<PathBuf> {
    cache_dir_from(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

fn cache_dir_from(
    xdg_cache_home: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    let absolute = |v: Option<std::ffi::OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    let base = absolute(xdg_cache_home).or_else(|| absolute(home).map(|h| h.join(".cache")))?;
    Some(base.join("figeval").join("ocr"))
}

/// The SHA-256 of a file's content, in lowercase hex.
pub(crate) fn file_sha256(path: &Path) -> io::Result<String> {
    let mut hasher = Sha256::new();
    io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn encode(read: &OcrText) -> String {
    let body = format!("confidence {}\n{}", read.confidence, read.text);
    format!(
        "{MAGIC}\nsha256 {}\n{body}",
        hex(&Sha256::digest(body.as_bytes()))
    )
}

fn decode(entry: &str) -> Option<OcrText> {
    let rest = entry.strip_prefix(MAGIC)?.strip_prefix('\n')?;
    let (sum_line, body) = rest.split_once('\n')?;
    if sum_line.strip_prefix("sha256 ")? != hex(&Sha256::digest(body.as_bytes())) {
        return None;
    }
    let (confidence_line, text) = body.split_once('\n')?;
    let confidence: f32 = confidence_line.strip_prefix("confidence ")?.parse().ok()?;
    if !(0.0..=100.0).contains(&confidence) {
        return None;
    }
    Some(OcrText {
        text: text.to_string(),
        confidence,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read() -> OcrText {
        OcrText {
            text: "Figure 15.1: Simple Two-Dimensional Plot.\n".into(),
            confidence: 92.745_1,
        }
    }

    #[test]
    fn an_entry_reads_back_as_written() {
        assert_eq!(decode(&encode(&read())), Some(read()));
    }

    #[test]
    fn an_entry_with_a_changed_byte_is_not_trusted() {
        let entry = encode(&read()).replace("15.1", "15.7");
        assert_eq!(decode(&entry), None);
    }

    #[test]
    fn a_cut_off_or_foreign_entry_is_not_trusted() {
        let entry = encode(&read());
        assert_eq!(decode(&entry[..entry.len() - 5]), None);
        assert_eq!(decode(""), None);
        assert_eq!(
            decode("figeval-ocr-cache 0\nsha256 00\nconfidence 1\n"),
            None
        );
    }

    #[test]
    fn other_settings_do_not_share_entries() {
        let base = Path::new("/cache");
        let a = Cache::new(base, "abc", "dpi=200 lang=eng");
        let b = Cache::new(base, "abc", "dpi=300 lang=eng");
        assert_ne!(a.path(1), b.path(1));
        assert!(a.path(1).starts_with("/cache/abc"));
    }

    #[test]
    fn the_cache_folder_follows_xdg_cache_home_then_home() {
        let dir = |xdg: Option<&str>, home: Option<&str>| {
            cache_dir_from(xdg.map(Into::into), home.map(Into::into))
        };
        let xdg = Some(PathBuf::from("/x/figeval/ocr"));
        assert_eq!(dir(Some("/x"), Some("/h")), xdg);
        let home = Some(PathBuf::from("/h/.cache/figeval/ocr"));
        assert_eq!(dir(Some("relative"), Some("/h")), home);
        assert_eq!(dir(None, Some("/h")), home);
        assert_eq!(dir(None, None), None);
    }

    #[test]
    fn the_content_hash_of_a_file_is_its_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        std::fs::write(&path, "abc").unwrap();
        assert_eq!(
            file_sha256(&path).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
