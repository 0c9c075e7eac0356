//! The browser app's byte budgets (`cargo xtask bundle`, and `cargo xtask test` after its
//! `trunk build`): what a `#report=` link fetches before it shows its first group table, and
//! each WebAssembly module the page loads on demand, every file compressed by `gzip -9` as
//! BENCHMARKS.md measures it. Also the one dependency rule that keeps code out of the main
//! module by construction: it does not depend on the document crate.

use std::path::Path;

use crate::sh::{self, cmd};

/// A set of files of `dist/` and its budget.
struct Budget {
    /// What the files are, as the verdict names them.
    name: &'static str,
    /// The folder of `dist/` whose `.wasm` and `.js` files count (`""`: the top of `dist/`).
    dir: &'static str,
    /// At most this many bytes, gzip -9, summed.
    limit: u64,
}

/// The budgets. The main bundle's is the target of issue 35: a `#report=` link fetches
/// `boot.js`, `figeval-web.js` and `figeval-web_bg.wasm` before its first group table, and
/// nothing else that is `.wasm` or `.js` (`tests/browser/bundle.test.mjs` checks that set).
/// The modules loaded on demand each have about a tenth of headroom over their size when the
/// budgets were set (BENCHMARKS.md, "Browser bundle size"): room for a feature, not for a
/// dependency dragged in by accident.
const BUDGETS: [Budget; 5] = [
    Budget {
        name: "main bundle (what a #report= link fetches)",
        dir: "",
        limit: 220_000,
    },
    Budget {
        name: "workbench module (web/work)",
        dir: "work",
        limit: 210_000,
    },
    Budget {
        name: "document module (web/doc)",
        dir: "doc",
        limit: 225_000,
    },
    Budget {
        name: "runs module (web/runs)",
        dir: "runs",
        limit: 265_000,
    },
    Budget {
        name: "connector module (web/connect)",
        dir: "connect",
        limit: 135_000,
    },
];

/// Whether a file counts in a budget: WebAssembly and scripts (`boot.js` too), but not the PDF
/// viewer's `.mjs` modules, which load only when a PDF is opened.
fn counts(name: &str) -> bool {
    name.ends_with(".wasm") || name.ends_with(".js")
}

/// The verdict on one budget's files and their gzip -9 sizes: the figures either way, an
/// error when there are none or they are past the limit.
fn verdict(budget: &Budget, sizes: &[(String, u64)]) -> Result<String, String> {
    let total: u64 = sizes.iter().map(|(_, n)| n).sum();
    let files: Vec<String> = sizes.iter().map(|(f, n)| format!("{f} {n}")).collect();
    let line = format!(
        "{} (gzip -9): {} = {total} B, budget {} B",
        budget.name,
        files.join(" + "),
        budget.limit
    );
    if sizes.is_empty() {
        Err(format!(
            "the {} has no .wasm or .js file in dist/{}",
            budget.name, budget.dir
        ))
    } else if total > budget.limit {
        Err(format!("{line}: over by {} B", total - budget.limit))
    } else {
        Ok(format!("{line}, {} B to spare", budget.limit - total))
    }
}

/// The gzip -9 size of each counted file of `dir`, by name.
fn sizes(dir: &Path, shown_as: &str) -> Result<Vec<(String, u64)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| counts(n))
        .collect();
    names.sort();
    let mut sizes = Vec::new();
    for name in names {
        let gzipped = sh::stdout_of(cmd("gzip", &["-9c", &dir.join(&name).to_string_lossy()]))?;
        sizes.push((format!("{shown_as}/{name}"), gzipped.len() as u64));
    }
    Ok(sizes)
}

/// Measures every budget's files in `dist` and fails when one is missing or over its budget,
/// after printing every verdict.
pub fn within_budgets(dist: &Path) -> Result<(), String> {
    let mut failures = Vec::new();
    for budget in &BUDGETS {
        let (dir, shown_as) = match budget.dir {
            "" => (dist.to_path_buf(), "dist".to_string()),
            d => (dist.join(d), format!("dist/{d}")),
        };
        let sizes = sizes(&dir, &shown_as).map_err(|e| format!("the {}: {e}", budget.name));
        match sizes.and_then(|s| verdict(budget, &s)) {
            Ok(line) => eprintln!("bundle: {line}"),
            Err(e) => {
                eprintln!("bundle: {e}");
                failures.push(e);
            }
        }
    }
    match failures.len() {
        0 => Ok(()),
        _ => Err(failures.join("; ")),
    }
}

/// The crate the main browser module must not depend on: the document code is linked only by
/// the document module (`web/doc`, loaded on demand), so Cargo, not dead-code elimination,
/// keeps it out of the main bundle.
const NOT_IN_MAIN_MODULE: &str = "figeval-document";

/// Whether a `cargo tree --prefix none --format {p}` listing names the package `name`.
fn tree_lists(tree: &str, name: &str) -> bool {
    tree.lines()
        .any(|l| l.split_whitespace().next() == Some(name))
}

/// Fails when the main browser module (`figeval-web`) depends, directly or through another
/// crate, on [`NOT_IN_MAIN_MODULE`] (its normal dependencies: what it links).
pub fn main_module_without_document() -> Result<(), String> {
    let tree = sh::stdout_of(cmd(
        "cargo",
        &[
            "tree",
            "-p",
            "figeval-web",
            "-e",
            "normal",
            "--prefix",
            "none",
            "--format",
            "{p}",
        ],
    ))?;
    let tree = String::from_utf8_lossy(&tree);
    if !tree_lists(&tree, "figeval-web") {
        return Err("`cargo tree -p figeval-web` did not list figeval-web itself".into());
    }
    if tree_lists(&tree, NOT_IN_MAIN_MODULE) {
        return Err(format!(
            "the main browser module (figeval-web) depends on {NOT_IN_MAIN_MODULE}: only the \
             document module (web/doc) may, or its code counts in the main bundle \
             (`cargo tree -p figeval-web -i {NOT_IN_MAIN_MODULE}` shows the way in)"
        ));
    }
    eprintln!("bundle: figeval-web does not depend on {NOT_IN_MAIN_MODULE}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{counts, tree_lists, verdict, within_budgets, BUDGETS};

    #[test]
    fn a_tree_lists_a_package_only_by_its_whole_name() {
        let tree = "figeval-web v0.1.0 (/r/web)\nfigeval v0.1.0 (/r/crates/figeval)\n\
                    figeval-web-common v0.1.0 (/r/web/common)\nserde v1.0.229 (*)\n";
        assert!(tree_lists(tree, "figeval-web"));
        assert!(tree_lists(tree, "serde"));
        assert!(!tree_lists(tree, "figeval-document"));
        assert!(!tree_lists(tree, "figeval-we"));
        let with = format!("{tree}figeval-document v0.1.0 (/r/crates/figeval-document)\n");
        assert!(tree_lists(&with, "figeval-document"));
    }

    #[test]
    fn a_budget_counts_wasm_and_js_but_not_the_pdf_viewer_modules() {
        assert!(counts("figeval-web_bg.wasm"));
        assert!(counts("boot.js"));
        assert!(!counts("pdf.worker.min.mjs"));
        assert!(!counts("style.css"));
        assert!(!counts("index.html"));
    }

    #[test]
    fn a_budget_fails_past_its_limit_and_says_by_how_much() {
        let main = &BUDGETS[0];
        assert_eq!(main.limit, 220_000, "issue 35's target");
        let at = |wasm: u64| {
            verdict(
                main,
                &[
                    ("dist/boot.js".to_string(), 1_000),
                    ("dist/figeval-web_bg.wasm".to_string(), wasm),
                ],
            )
        };
        let ok = at(main.limit - 1_000).unwrap();
        assert!(ok.contains("= 220000 B"), "{ok}");
        assert!(ok.ends_with("0 B to spare"), "{ok}");
        let over = at(main.limit - 999).unwrap_err();
        assert!(over.ends_with("over by 1 B"), "{over}");
        assert!(verdict(main, &[]).is_err());
    }

    #[test]
    fn every_module_the_page_loads_has_a_budget_and_a_missing_one_fails() {
        let dirs: Vec<&str> = BUDGETS.iter().map(|b| b.dir).collect();
        assert_eq!(dirs, ["", "work", "doc", "runs", "connect"]);
        // A dist/ with only the main bundle: every module on demand is missing.
        let dist = std::env::temp_dir().join(format!("xtask-bundle-{}", std::process::id()));
        std::fs::create_dir_all(&dist).unwrap();
        std::fs::write(
            dist.join("boot.js"),
            "import init from './figeval-web.js';\n",
        )
        .unwrap();
        let err = within_budgets(&dist).unwrap_err();
        std::fs::remove_dir_all(&dist).unwrap();
        for module in ["web/work", "web/doc", "web/runs", "web/connect"] {
            assert!(err.contains(module), "{err}");
        }
        assert!(!err.contains("main bundle"), "{err}");
    }
}
