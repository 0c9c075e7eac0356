//! The real LangServe and Hayhooks servers the connector tests run against (`tests/servers/`,
//! `tests/connectors.rs`): their venv under the target folder, from the pinned
//! `tests/servers/requirements.txt`, and the Octave manual's pages as PyPDFLoader reads them,
//! cached once per machine (loading the 1,158 pages takes about 30 s).
//!
//! The tests learn where both are from two environment variables, which `cargo xtask test`
//! sets and `cargo xtask servers` prints.

use std::path::PathBuf;
use std::process::Command;

use crate::sh::{self, cmd, exec};
use crate::venv;

/// The environment variable naming the venv's python.
pub const PYTHON_VAR: &str = "FIGEVAL_SERVERS_PYTHON";
/// The environment variable naming the cache of the manual's pages.
pub const PAGES_VAR: &str = "FIGEVAL_SERVERS_PAGES";

/// The venv, under the target folder.
const VENV: &str = "servers-venv";
/// Its pinned packages, every one of them (pip freeze).
const REQUIREMENTS: &str = "tests/servers/requirements.txt";

/// What the connector tests need, ready: the venv's python and the page cache.
pub struct Servers {
    /// The venv's python.
    pub python: PathBuf,
    /// The JSON cache of the manual's pages (tests/servers/manual.py).
    pub pages: PathBuf,
}

impl Servers {
    /// Makes the venv and fills the page cache where they are missing or stale.
    pub fn prepare() -> Result<Servers, String> {
        let python = venv::python(VENV, &venv::Packages::File(REQUIREMENTS))?;
        let pages = sh::target_dir().join("servers").join("octave-pages.json");
        // Quick when the cache is current; otherwise PyPDFLoader reads the whole manual.
        let manual = testkit::manual::path();
        let mut load = cmd(&python, &["tests/servers/manual.py"]);
        load.arg(&manual).arg(&pages);
        // No __pycache__ folder in the repository.
        load.env("PYTHONDONTWRITEBYTECODE", "1");
        exec(load)?;
        Ok(Servers { python, pages })
    }

    /// Gives a command (the cargo tests) the two variables.
    pub fn apply(&self, c: &mut Command) {
        c.env(PYTHON_VAR, &self.python).env(PAGES_VAR, &self.pages);
    }
}

/// `cargo xtask servers`: prepares both and prints how to run the tests by hand.
pub fn print_env() -> Result<(), String> {
    let s = Servers::prepare()?;
    println!("export {PYTHON_VAR}={}", s.python.display());
    println!("export {PAGES_VAR}={}", s.pages.display());
    Ok(())
}
