//! The GNU Octave manual every test over a real PDF reads: one variable names it, and its
//! SHA-256 says whether it is the PDF the tests' page numbers, captions and counts are
//! written for.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The variable that points the tests, benchmarks and tasks at the manual.
pub const ENV: &str = "FIGEVAL_OCTAVE_PDF";

/// Where Debian's `octave-doc` installs the manual, used when [`ENV`] is not set.
pub const DEFAULT_PATH: &str = "/usr/share/doc/octave/octave.pdf";

/// The Debian package and version whose PDF the tests are written for (Debian 12).
pub const PACKAGE: &str = "octave-doc 7.3.0-2";

/// SHA-256 of that PDF (GNU Octave 7.3.0's manual, 4,707,275 bytes).
pub const SHA256: &str = "ddd24489f87b46fbf99c15cc34aa865ae66775fb7c21927f7f2d6be9470becb8";

/// The corpus id the datasets and refsearch give the manual.
pub const CORPUS_ID: &str = "octave-manual";

/// Its physical pages.
pub const PAGES: usize = 1158;

/// The manual's path: [`ENV`] when set, else [`DEFAULT_PATH`].
pub fn path() -> PathBuf {
    std::env::var_os(ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_PATH))
}

/// Whether the file at `pdf` is the manual the tests are written for; the error says what
/// differs and how to get the right one.
pub fn check(pdf: &Path) -> Result<(), String> {
    let how = format!(
        "install it with `cargo xtask setup` (Debian's {PACKAGE}), or point {ENV} at that PDF"
    );
    if !pdf.is_file() {
        return Err(format!("no Octave manual at {}: {how}", pdf.display()));
    }
    let found = sha256(pdf)?;
    if found != SHA256 {
        return Err(format!(
            "the Octave manual at {} is not the one the tests are written for: its SHA-256 is \
             {found}, expected {SHA256} ({PACKAGE}, GNU Octave 7.3.0, {PAGES} pages); page \
             numbers, captions and counts would not match. {how}",
            pdf.display()
        ));
    }
    Ok(())
}

/// The manual's path for a test, checked once per process; a missing or different PDF fails
/// the test with [`check`]'s message (tests never skip for want of it).
pub fn require() -> &'static Path {
    static CHECKED: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    match CHECKED.get_or_init(|| {
        let pdf = path();
        check(&pdf).map(|()| pdf)
    }) {
        Ok(pdf) => pdf,
        Err(e) => panic!("{e}"),
    }
}

/// [`require`] as text, for command lines.
pub fn require_str() -> &'static str {
    require()
        .to_str()
        .unwrap_or_else(|| panic!("{ENV} is not UTF-8: {}", require().display()))
}

/// The SHA-256 of a file, from coreutils' `sha256sum`.
fn sha256(file: &Path) -> Result<String, String> {
    let out = Command::new("sha256sum")
        .arg(file)
        .output()
        .map_err(|e| format!("cannot run sha256sum on {}: {e}", file.display()))?;
    if !out.status.success() {
        return Err(format!(
            "sha256sum {} failed: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.split_whitespace()
        .next()
        .filter(|h| h.len() == 64)
        .map(str::to_owned)
        .ok_or_else(|| format!("sha256sum printed no checksum for {}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_the_manual_is_named_with_both_checksums() {
        let dir = std::env::temp_dir().join(format!("testkit-manual-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let other = dir.join("other.pdf");
        std::fs::write(&other, "%PDF-1.5 not the manual\n").unwrap();
        let e = check(&other).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(e.contains(&other.display().to_string()), "{e}");
        assert!(e.contains(SHA256), "{e}");
        assert!(e.contains(ENV) && e.contains("cargo xtask setup"), "{e}");
    }

    #[test]
    fn the_manual_on_this_machine_is_the_one_the_tests_are_written_for() {
        check(&path()).unwrap();
    }

    #[test]
    fn a_missing_manual_says_how_to_install_it() {
        let e = check(Path::new("/nonexistent/octave.pdf")).unwrap_err();
        assert!(
            e.starts_with("no Octave manual at /nonexistent/octave.pdf"),
            "{e}"
        );
        assert!(e.contains(PACKAGE), "{e}");
    }
}
