//! Installing what the project needs on a fresh machine of this kind (Debian 12, rustup,
//! Node 20). Each step checks first and does nothing when the tool is already there.

use std::path::Path;

use crate::sh::{self, answers, cmd, exec};

/// The Trunk version that builds with this toolchain (0.22 needs a newer rustc).
const TRUNK: &str = "0.21.14";
/// Must equal the `wasm-bindgen` crate version in Cargo.lock exactly.
const WASM_BINDGEN: &str = "0.2.130";

/// Everything: what the machine needs ([`machine`]) and the web and Rust tools ([`web_tools`]).
pub fn all() -> Result<(), String> {
    machine()?;
    web_tools()
}

/// The machine's part: system packages (PostgreSQL 15 for `tests/serve.rs`, which makes a
/// cluster of its own), the Octave manual's check, the commit hook and the scanned corpus. It
/// waits on the network and on one core at a time, so `cargo xtask test` runs it beside the
/// Rust builds.
pub fn machine() -> Result<(), String> {
    system_packages(&["poppler-utils", "octave-doc", "chromium", "postgresql"])?;
    system_packages(OCR_PACKAGES)?;
    octave_manual()?;
    commit_hook()?;
    scanned_excerpt()
}

/// Points git at the repository's hooks (`.githooks/commit-msg`: a subject of at most 72
/// characters), in a git checkout only.
pub fn commit_hook() -> Result<(), String> {
    if !sh::root().join(".git").exists() {
        return Ok(());
    }
    let current = answers("git", &["config", "--get", "core.hooksPath"]).unwrap_or_default();
    if current.trim() != ".githooks" {
        exec(cmd("git", &["config", "core.hooksPath", ".githooks"]))?;
        eprintln!("git hooks: core.hooksPath = .githooks (the commit-msg check)");
    }
    Ok(())
}

/// The packages the demo and the end-to-end tests need without the browser, and the manual's
/// check.
pub fn for_search() -> Result<(), String> {
    system_packages(&["poppler-utils", "octave-doc"])?;
    system_packages(OCR_PACKAGES)?;
    octave_manual()?;
    scanned_excerpt()
}

/// The Octave manual (`FIGEVAL_OCTAVE_PDF`, default Debian's) must be the exact PDF the tests,
/// the dataset and the demo are written for: its SHA-256 is checked, and with the default path
/// the installed `octave-doc` version is named when it differs.
pub fn octave_manual() -> Result<(), String> {
    let pdf = testkit::manual::path();
    testkit::manual::check(&pdf).map_err(|e| {
        let installed = (pdf == Path::new(testkit::manual::DEFAULT_PATH))
            .then(|| answers("dpkg-query", &["-W", "-f", "${Version}", "octave-doc"]))
            .flatten()
            .map(|v| format!(" (installed: octave-doc {})", v.trim()))
            .unwrap_or_default();
        format!("{e}{installed}")
    })?;
    eprintln!(
        "Octave manual: {} ({}, SHA-256 checked)",
        pdf.display(),
        testkit::manual::PACKAGE
    );
    Ok(())
}

/// The scanned test corpus under `target/scanned` (`xtask/scanned_excerpt.py`: the Octave
/// manual's pages 325-370 as a scan beside the same pages with text); nothing when it is there.
pub fn scanned_excerpt() -> Result<(), String> {
    let root = sh::root();
    let out = root.join("target").join("scanned");
    let script = root.join("xtask").join("scanned_excerpt.py");
    let mut c = cmd("/usr/bin/python3", &[script.as_os_str(), out.as_os_str()]);
    c.env("FIGEVAL_OCTAVE_PDF", testkit::manual::path());
    exec(c)
}

/// What reading scanned pages needs: tesseract and its English data (OCR in `pagetext`), and
/// what makes the scanned test corpus and the broken PDFs: img2pdf, qpdf and Python's Pillow.
pub const OCR_PACKAGES: &[&str] = &[
    "tesseract-ocr",
    "tesseract-ocr-eng",
    "img2pdf",
    "qpdf",
    "python3-pil",
];

/// Installs the Debian packages among `wanted` that are missing.
pub fn system_packages(wanted: &[&str]) -> Result<(), String> {
    let present = |pkg: &str| match pkg {
        "poppler-utils" => {
            answers("pdftotext", &["-v"]).is_some() || Path::new("/usr/bin/pdftotext").exists()
        }
        "octave-doc" => testkit::manual::path().exists(),
        "chromium" => Path::new("/usr/bin/chromium").exists(),
        "tesseract-ocr" => answers("tesseract", &["--version"]).is_some(),
        "tesseract-ocr-eng" => {
            Path::new("/usr/share/tesseract-ocr/5/tessdata/eng.traineddata").exists()
        }
        "img2pdf" => answers("img2pdf", &["--version"]).is_some(),
        "qpdf" => answers("qpdf", &["--version"]).is_some(),
        "python3-pil" => answers("/usr/bin/python3", &["-c", "import PIL"]).is_some(),
        "postgresql" => {
            Path::new(testkit::postgres::DEFAULT_BIN)
                .join("initdb")
                .exists()
                && answers("psql", &["--version"]).is_some()
        }
        _ => false,
    };
    let missing: Vec<&str> = wanted.iter().copied().filter(|p| !present(p)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("installing Debian packages: {}", missing.join(" "));
    let root = answers("id", &["-u"]).is_some_and(|u| u.trim() == "0");
    let apt = |args: &[&str]| {
        let mut all = vec!["apt-get"];
        all.extend_from_slice(args);
        let mut c = if root {
            cmd(all[0], &all[1..])
        } else {
            cmd("sudo", &all)
        };
        c.env("DEBIAN_FRONTEND", "noninteractive");
        exec(c)
    };
    apt(&["update", "-qq"])?;
    let mut args = vec!["install", "-y", "-qq", "--no-install-recommends"];
    args.extend(missing.iter().copied());
    apt(&args)
}

/// The wasm target, Trunk, wasm-bindgen-cli, cargo-fuzz, and `npm ci` of `web` (pdf.js and
/// binaryen's wasm-opt) and of `tests/browser` (playwright-core and axe-core).
pub fn web_tools() -> Result<(), String> {
    toolchains()?;
    cargo_tools()?;
    npm_packages()
}

/// The wasm target and the nightly toolchain (the fuzz targets' sanitizer flags, the API
/// listing's rustdoc JSON): rustup's part, done before anything runs beside it.
pub fn toolchains() -> Result<(), String> {
    let installed = answers("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if !installed
        .lines()
        .any(|l| l.trim() == "wasm32-unknown-unknown")
    {
        exec(cmd("rustup", &["target", "add", "wasm32-unknown-unknown"]))?;
    }
    // Machines of this kind carry no nightly.
    if answers("cargo", &["+nightly", "--version"]).is_none() {
        exec(cmd(
            "rustup",
            &["toolchain", "install", "nightly", "--profile", "minimal"],
        ))?;
    }
    Ok(())
}

/// Trunk, wasm-bindgen-cli and cargo-fuzz, built by `cargo install`: the longest part of a
/// fresh machine's set-up, and all of it compiling.
pub fn cargo_tools() -> Result<(), String> {
    if !answers("trunk", &["--version"]).is_some_and(|v| v.contains(TRUNK)) {
        exec(cmd(
            "cargo",
            &["install", &format!("trunk@{TRUNK}"), "--locked"],
        ))?;
    }
    if !answers("wasm-bindgen", &["--version"]).is_some_and(|v| v.contains(WASM_BINDGEN)) {
        // Without --locked: its lock file names a crate version the registry here lacks.
        exec(cmd(
            "cargo",
            &["install", &format!("wasm-bindgen-cli@{WASM_BINDGEN}")],
        ))?;
    }
    if answers("cargo", &["fuzz", "--version"]).is_none() {
        // The version known to work here; its lock file may name crates the registry lacks.
        exec(cmd("cargo", &["install", "cargo-fuzz@0.13.2", "--locked"]))
            .or_else(|_| exec(cmd("cargo", &["install", "cargo-fuzz@0.13.2"])))?;
    }
    Ok(())
}

/// The app's packages (pdf.js, binaryen's wasm-opt), then the browser tests' (playwright-core,
/// axe-core); each installed from its lock file when its first package is missing.
pub fn npm_packages() -> Result<(), String> {
    for (folder, marker) in [
        ("web", "node_modules/pdfjs-dist/package.json"),
        ("tests/browser", "node_modules/playwright-core/package.json"),
    ] {
        let dir = sh::root().join(folder);
        if !dir.join(marker).exists() {
            exec(cmd(
                "npm",
                &["ci", "--no-audit", "--no-fund", "--prefix", folder],
            ))?;
        }
    }
    Ok(())
}
