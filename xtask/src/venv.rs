//! Python venvs under the target folder, for the checks that run PyPI packages (ranx, the
//! LangServe and Hayhooks test servers): made on first use, reused after, and made again when
//! what they must hold changes.

use std::fs;
use std::path::PathBuf;

use crate::sh::{self, cmd, exec};

/// What a venv must hold: `pip install` arguments, either pinned requirements
/// (`name==version`) or one requirements file of the repository.
pub enum Packages<'a> {
    /// Pinned requirement specifiers.
    Pinned(&'a [&'a str]),
    /// A requirements file, relative to the repository root.
    File(&'a str),
}

impl Packages<'_> {
    /// The `pip install` arguments.
    fn args(&self) -> Vec<String> {
        match self {
            Packages::Pinned(specs) => specs.iter().map(|s| s.to_string()).collect(),
            Packages::File(file) => vec!["--requirement".into(), file.to_string()],
        }
    }

    /// The text that says what the venv holds: the arguments, and a file's whole text. A venv
    /// whose stamp differs is made again.
    fn stamp(&self) -> Result<String, String> {
        let mut stamp = self.args().join(" ");
        if let Packages::File(file) = self {
            let path = sh::root().join(file);
            let text = fs::read_to_string(&path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            stamp.push('\n');
            stamp.push_str(&text);
        }
        Ok(stamp)
    }
}

/// The folder of the venv `name` under the target folder.
pub fn dir(name: &str) -> PathBuf {
    sh::target_dir().join(name)
}

/// The python of the venv `name` (`target/NAME/bin/python`), holding `packages`. On first use,
/// or when `packages` changed since the venv was made, the venv is made afresh with
/// `python3 -m venv` and `pip install`; otherwise it is used as it is.
pub fn python(name: &str, packages: &Packages) -> Result<PathBuf, String> {
    let venv = dir(name);
    let python = venv.join("bin").join("python");
    let stamp_file = venv.join("figeval-packages.txt");
    let stamp = packages.stamp()?;
    if python.exists() && fs::read_to_string(&stamp_file).is_ok_and(|s| s == stamp) {
        return Ok(python);
    }
    if venv.exists() {
        fs::remove_dir_all(&venv)
            .map_err(|e| format!("cannot remove the old venv {}: {e}", venv.display()))?;
    }
    let started = std::time::Instant::now();
    let mut make = cmd("python3", &["-m", "venv"]);
    make.arg(&venv);
    exec(make)?;
    let mut install = cmd(
        &python,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ],
    );
    install.args(packages.args());
    exec(install)?;
    // Written last: a venv whose install failed half-way is made again next time.
    fs::write(&stamp_file, &stamp)
        .map_err(|e| format!("cannot write {}: {e}", stamp_file.display()))?;
    eprintln!(
        "venv {} made in {:.0} s",
        venv.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(python)
}
