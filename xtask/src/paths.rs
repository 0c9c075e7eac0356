//! The repository stands alone (contract §11): no tracked file reads, links or names a path
//! outside it. `cargo xtask test` runs this first, before any build; `cargo xtask paths` runs
//! it alone.
//!
//! The rules, each a function below:
//!
//! 1. a relative path must not climb above the repository root ([`climbs_out`]);
//! 2. no `..` followed by a folder named `shared` (the brief's folder beside the checkout);
//! 3. no name of a file of that folder, unless a tracked file carries that name;
//! 4. no absolute path into a top-level folder that belongs to a machine ([`MACHINE_ROOTS`]);
//!    system folders that packages install into (`usr`, `etc`, …) are allowed.
//!
//! Patterns that would themselves break a rule are built from pieces, so this file passes its
//! own check without an exception.

use std::collections::BTreeSet;
use std::fmt;

use crate::sh;

/// Top-level folders whose absolute paths belong to one machine's layout, not to what the
/// system's packages install: a clone elsewhere does not have them.
pub const MACHINE_ROOTS: [&str; 10] = [
    "work", "home", "root", "mnt", "media", "opt", "srv", "var", "run", "boot",
];

/// The folder beside the checkout that the brief came in.
const SHARED_FOLDER: &str = "shared";

/// The stems of that folder's files (each with `.md`): the brief, its style notes and the
/// Apollo 11 page facts, by their original names.
const SHARED_FILE_STEMS: [&str; 3] = ["SPEC", "STYLE", "apollo-11-facts"];

/// One reference that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The tracked file, relative to the repository root.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The reference as written.
    pub reference: String,
    /// Which rule it breaks, in words.
    pub rule: &'static str,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {:?} {}",
            self.file, self.line, self.reference, self.rule
        )
    }
}

/// The tracked files of a repository, as `git ls-files` lists them.
pub struct Tree {
    files: BTreeSet<String>,
    names: BTreeSet<String>,
}

impl Tree {
    /// A tree of these repository-relative paths.
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> Tree {
        let files: BTreeSet<String> = paths.into_iter().map(str::to_string).collect();
        let names = files
            .iter()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .collect();
        Tree { files, names }
    }

    /// The folder relative paths in `file` are resolved against (contract §11, rule 1):
    /// the file's own folder for Markdown, HTML and JavaScript modules, else its package root.
    fn base_of(&self, file: &str) -> String {
        let dir = parent(file);
        let ext = file.rsplit('.').next().unwrap_or("");
        if matches!(ext, "md" | "html" | "js" | "mjs") {
            return dir.to_string();
        }
        self.package_root(dir)
    }

    /// The nearest folder at or above `dir` holding a `Cargo.toml` or `package.json`; the
    /// repository root (`""`) when none does.
    fn package_root(&self, dir: &str) -> String {
        let mut d = dir;
        loop {
            let join = |name: &str| {
                if d.is_empty() {
                    name.to_string()
                } else {
                    format!("{d}/{name}")
                }
            };
            if d.is_empty()
                || self.files.contains(&join("Cargo.toml"))
                || self.files.contains(&join("package.json"))
            {
                return d.to_string();
            }
            d = parent(d);
        }
    }
}

/// The folder of a repository-relative path (`""` for the root).
fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// Whether `c` may be part of a path token.
fn path_char(c: char) -> bool {
    c.is_alphanumeric() || "_.-/~$@+%{}=:".contains(c)
}

/// Whether the relative `path`, resolved against `base` (repository-relative), goes above the
/// repository root at any step.
pub fn climbs_out(base: &str, path: &str) -> bool {
    let mut depth = base.split('/').filter(|s| !s.is_empty()).count();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." if depth == 0 => return true,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    false
}

/// Whether a Rust line resolves its paths against the file's folder (`include_str!` and
/// friends, `#[path = …]`).
fn file_relative_rust(line: &str) -> bool {
    ["include_str!", "include_bytes!", "include!", "#[path"]
        .iter()
        .any(|m| line.contains(m))
}

/// Checks one tracked file's text; every finding, in line order.
pub fn check_file(tree: &Tree, file: &str, text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let base = tree.base_of(file);
    let shared_names: Vec<String> = SHARED_FILE_STEMS
        .iter()
        .map(|s| format!("{s}.md"))
        .filter(|n| !tree.names.contains(n))
        .collect();
    for (i, line) in text.lines().enumerate() {
        let mut found = |reference: &str, rule: &'static str| {
            out.push(Finding {
                file: file.to_string(),
                line: i + 1,
                reference: reference.to_string(),
                rule,
            })
        };
        let line_base = if file.ends_with(".rs") && file_relative_rust(line) {
            parent(file).to_string()
        } else {
            base.clone()
        };
        for token in line.split(|c: char| !path_char(c)) {
            relative_rules(&line_base, token, &mut found);
        }
        for name in &shared_names {
            for (at, _) in line.match_indices(name.as_str()) {
                let before = line[..at].chars().next_back();
                let after = line[at + name.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                if !word(before) && before != Some('-') && !word(after) {
                    found(
                        name,
                        "names a file of the brief's folder, which is not in the repository",
                    );
                }
            }
        }
        for reference in machine_paths(line) {
            found(
                &reference,
                "is an absolute path into a machine's own folders, which a clone does not have",
            );
        }
    }
    out
}

/// Rules 1 and 2 on one token of a line.
fn relative_rules(base: &str, token: &str, found: &mut impl FnMut(&str, &'static str)) {
    // Strip the punctuation a path picks up at the end of a sentence or an `=` before it.
    let token = token.trim_end_matches(['.', ':', ',', '=']);
    let token = token.rsplit('=').next().unwrap_or(token);
    if !token.contains('/') || token.starts_with(['/', '~', '$', '{']) || token.contains("://") {
        return;
    }
    let segments: Vec<&str> = token.split('/').collect();
    if !segments.contains(&"..") {
        return;
    }
    if segments
        .windows(2)
        .any(|w| w[0] == ".." && w[1] == SHARED_FOLDER)
    {
        found(
            token,
            "reaches the brief's folder beside the checkout, which is not part of the project",
        );
    } else if climbs_out(base, token) {
        found(token, "climbs above the repository root");
    }
}

/// Absolute paths in `line` whose first folder is one of [`MACHINE_ROOTS`] (rule 4).
fn machine_paths(line: &str) -> Vec<String> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut out = Vec::new();
    for (k, &(at, c)) in chars.iter().enumerate() {
        if c != '/' {
            continue;
        }
        let prev = k.checked_sub(1).map(|j| chars[j].1);
        let starts_path = match prev {
            None => true,
            Some('/') => line[..at].ends_with("file://"),
            Some(p) => !(p.is_alphanumeric() || "_.:~$}-".contains(p)),
        };
        if !starts_path {
            continue;
        }
        let rest = &line[at + 1..];
        let end = rest
            .find(|ch: char| !(ch.is_alphanumeric() || "_.-".contains(ch)))
            .unwrap_or(rest.len());
        let first = &rest[..end];
        if MACHINE_ROOTS.contains(&first) && !rest[end..].starts_with(['.', '-']) {
            let tail = rest[end..]
                .find(|ch: char| !path_char(ch))
                .map_or(&rest[end..], |e| &rest[end..end + e]);
            out.push(format!("/{first}{tail}"));
        }
    }
    out
}

/// Checks every tracked text file of the repository.
pub fn check_repository() -> Result<(), String> {
    let root = sh::root();
    let listing = sh::answers("git", &["ls-files", "-z"])
        .ok_or("`git ls-files` failed: the check needs a git checkout")?;
    let paths: Vec<&str> = listing.split('\0').filter(|p| !p.is_empty()).collect();
    let tree = Tree::new(paths.iter().copied());
    let mut findings = Vec::new();
    let mut checked = 0usize;
    for path in &paths {
        let Ok(bytes) = std::fs::read(root.join(path)) else {
            continue; // listed but deleted in the work tree: nothing to refer from
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // binary: images, fuzz inputs
        };
        checked += 1;
        findings.extend(check_file(&tree, path, &text));
    }
    if findings.is_empty() {
        eprintln!("paths: {checked} tracked text files refer only to the repository and the system (contract §11)");
        return Ok(());
    }
    for f in &findings {
        eprintln!("paths: {f}");
    }
    Err(format!(
        "{} reference(s) outside the repository in {checked} tracked text files (contract §11)",
        findings.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        Tree::new([
            "Cargo.toml",
            "README.md",
            "docs/contract.md",
            "crates/figeval/Cargo.toml",
            "crates/figeval/tests/datasets.rs",
            "tests/browser/package.json",
            "tests/browser/bench/lib.mjs",
            "web/Cargo.toml",
            "web/src/shared.rs",
        ])
    }

    fn rules(file: &str, text: &str) -> Vec<&'static str> {
        check_file(&tree(), file, text)
            .into_iter()
            .map(|f| f.rule)
            .collect()
    }

    /// `..` then `/` then `rest`, so this file never holds the pattern it hunts.
    fn up(rest: &str) -> String {
        format!("{}/{rest}", "..")
    }

    #[test]
    fn a_markdown_link_that_leaves_the_repository_is_caught() {
        let text = format!("The contract is [the brief]({}).", up("elsewhere/brief.md"));
        let found = check_file(&tree(), "README.md", &text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].rule, "climbs above the repository root");
        assert_eq!(found[0].line, 1);
        assert_eq!(found[0].reference, up("elsewhere/brief.md"));
    }

    #[test]
    fn a_link_from_a_subfolder_back_to_the_root_is_clean() {
        let text = "See [the README](../README.md) and [ARCHITECTURE](../ARCHITECTURE.md).";
        assert!(rules("docs/contract.md", text).is_empty());
        let deeper = format!("[x]({})", up(&up("README.md")));
        assert_eq!(
            rules("docs/contract.md", &deeper),
            ["climbs above the repository root"]
        );
    }

    #[test]
    fn the_brief_folder_is_caught_whatever_the_depth_it_resolves_to() {
        // From the package root crates/figeval this would stay inside; it is still the
        // brief's folder, and rule 2 catches it.
        let text = format!(
            "let path = repo().join(\"{}/facts.md\");",
            up(SHARED_FOLDER)
        );
        assert_eq!(
            rules("crates/figeval/tests/datasets.rs", &text),
            ["reaches the brief's folder beside the checkout, which is not part of the project"]
        );
        // A sibling module named `shared` is another thing.
        assert!(rules(
            "web/src/components/app.rs",
            "use super::shared; // ../shared.rs"
        )
        .is_empty());
    }

    #[test]
    fn code_strings_resolve_against_the_package_root_and_includes_against_the_file() {
        let two_up = up(&up("data/x.json"));
        // CARGO_MANIFEST_DIR/../../data: inside.
        assert!(rules(
            "crates/figeval/tests/datasets.rs",
            &format!("Path::new(env!(\"CARGO_MANIFEST_DIR\")).join(\"{two_up}\")")
        )
        .is_empty());
        let three_up = up(&two_up);
        assert_eq!(
            rules(
                "crates/figeval/tests/datasets.rs",
                &format!("root.join(\"{three_up}\")")
            ),
            ["climbs above the repository root"]
        );
        // include_str! is relative to the file: crates/figeval/tests/../../../data is inside.
        assert!(rules(
            "crates/figeval/tests/datasets.rs",
            &format!("include_str!(\"{three_up}\")")
        )
        .is_empty());
        // A JavaScript module resolves against its own folder.
        assert!(rules(
            "tests/browser/bench/lib.mjs",
            &format!("new URL('{}', import.meta.url)", up(&up(&up("dist"))))
        )
        .is_empty());
    }

    #[test]
    fn the_brief_folder_file_names_are_caught_unless_the_repository_has_them() {
        let name = format!("{}.md", SHARED_FILE_STEMS[0]);
        assert_eq!(
            rules("README.md", &format!("The contract is {name}.")),
            ["names a file of the brief's folder, which is not in the repository"]
        );
        assert!(rules("README.md", &format!("not a name: X{name} or {name}x")).is_empty());
        let mut with = vec!["README.md".to_string(), format!("docs/{name}")];
        with.push("Cargo.toml".into());
        let own = Tree::new(with.iter().map(String::as_str));
        assert!(check_file(&own, "README.md", &format!("See {name}.")).is_empty());
    }

    #[test]
    fn absolute_paths_into_a_machines_folders_are_caught_and_system_paths_pass() {
        let bad = [
            format!("export CARGO_TARGET_DIR=/{}/target-bench", MACHINE_ROOTS[0]),
            format!("open(\"/{}/user/notes.txt\")", MACHINE_ROOTS[1]),
            format!("see file:///{}/x", MACHINE_ROOTS[0]),
            format!("cd /{}", MACHINE_ROOTS[0]),
        ];
        for line in &bad {
            assert_eq!(rules("README.md", line).len(), 1, "{line}");
        }
        let clean = [
            "refsearch --pdf /usr/share/doc/octave/octave.pdf",
            "CHROMIUM (default /usr/bin/chromium), reads /proc/self/status, writes /tmp/x",
            "POST /api/search and GET /api/health at http://127.0.0.1:58012/api",
            "target/release/figeval, $HOME/work/x, ${CARGO_HOME}/bin, cargo-fuzz, a/home/b",
            "a dataset/run object and an input/output pair",
        ];
        for line in clean {
            assert!(rules("README.md", line).is_empty(), "{line}");
        }
    }

    #[test]
    fn a_finding_says_where_what_and_why() {
        let text = format!("line one\n[x]({})\n", up("y"));
        let found = check_file(&tree(), "README.md", &text);
        assert_eq!(
            found[0].to_string(),
            format!(
                "README.md:2: {:?} climbs above the repository root",
                up("y")
            )
        );
    }

    #[test]
    fn climbing_is_counted_step_by_step() {
        assert!(!climbs_out("crates/figeval", &up(&up("data"))));
        assert!(climbs_out("crates/figeval", &up(&up(&up("data")))));
        assert!(climbs_out("", "a/../../b"));
        assert!(!climbs_out("a", "./b/../../c"));
    }
}
