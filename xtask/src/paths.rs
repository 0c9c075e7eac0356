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
//!    system folders that packages install into (`usr`, `etc`, …) are allowed;
//! 5. a relative Markdown link leads to a tracked file or folder, and its `#anchor` to a
//!    heading of the Markdown file it names ([`markdown_links`]);
//! 6. in a document ([`is_doc`]: every README, ARCHITECTURE.md, CONTRIBUTING.md, SECURITY.md
//!    and `docs/*.md`), a repository path written in a code span names a tracked file or
//!    folder ([`doc_paths`] says what counts as one, [`Tree::names`] what it may name).
//!    BENCHMARKS.md and CHANGELOG.md are records of the past and may name what is gone.
//!
//! Patterns that would themselves break a rule are built from pieces, so this file passes its
//! own check without an exception.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::sh;

/// Top-level folders whose absolute paths belong to one machine's layout, not to what the
/// system's packages install: a clone elsewhere does not have them.
pub const MACHINE_ROOTS: [&str; 10] = [
    "work", "home", "root", "mnt", "media", "opt", "srv", "var", "run", "boot",
];

/// JSON Pointers that read like machine paths but name a place in an answer: Vespa keeps its
/// hits at `root.children`, so its connector preset and the contract write that pointer.
const JSON_POINTERS: [&str; 1] = ["/root/children"];

/// The folder beside the checkout that the brief came in.
const SHARED_FOLDER: &str = "shared";

/// The endings of a code span's word that make it a path into the repository wherever it
/// starts: the project's source and configuration files.
const SOURCE_EXTENSIONS: [&str; 12] = [
    "rs", "toml", "md", "mjs", "js", "html", "css", "py", "sh", "yml", "yaml", "lock",
];

/// Top-level folders of files that are built, not tracked: a path into them names an output.
const BUILT_FOLDERS: [&str; 3] = ["target", "dist", "node_modules"];

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
    /// The folders at the repository root that hold a tracked file.
    tops: BTreeSet<String>,
    /// The heading anchors of each Markdown file whose text was given.
    anchors: BTreeMap<String, BTreeSet<String>>,
}

impl Tree {
    /// A tree of these repository-relative paths.
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> Tree {
        let files: BTreeSet<String> = paths.into_iter().map(str::to_string).collect();
        let names = files
            .iter()
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
            .collect();
        let tops = files
            .iter()
            .filter_map(|p| p.split_once('/').map(|(top, _)| top.to_string()))
            .collect();
        Tree {
            files,
            names,
            tops,
            anchors: BTreeMap::new(),
        }
    }

    /// Whether `path`, written in the document `doc`, names a tracked file or folder (rule 6):
    /// from the repository root, from the document's folder, or as the last segments of a
    /// tracked path (prose names a file from the crate or folder it is talking about, as
    /// `src/state/run.rs` in web/README.md).
    pub fn names(&self, doc: &str, path: &str) -> bool {
        let path = path.trim_start_matches("./").trim_end_matches('/');
        let from_doc = normalise(parent(doc), path);
        let (tail, inner) = (format!("/{path}"), format!("/{path}/"));
        self.has(path)
            || from_doc.is_some_and(|p| self.has(&p))
            || self
                .files
                .iter()
                .any(|f| f.ends_with(&tail) || f.contains(&inner))
    }

    /// Records the text of a tracked Markdown file, so links to its headings can be checked.
    pub fn add_markdown(&mut self, file: &str, text: &str) {
        self.anchors.insert(file.to_string(), heading_anchors(text));
    }

    /// Whether `path` (repository-relative, normalised) is a tracked file or a folder holding one.
    fn has(&self, path: &str) -> bool {
        path.is_empty()
            || self.files.contains(path)
            || self
                .files
                .range(format!("{path}/")..)
                .next()
                .is_some_and(|f| f.starts_with(&format!("{path}/")))
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
    let mut in_fence = false;
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
        if file.ends_with(".md") && !in_fence {
            for target in markdown_links(&without_code_spans(line)) {
                if let Some(rule) = dead_link(tree, file, &target) {
                    found(&target, rule);
                }
            }
            if is_doc(file) {
                for path in doc_paths(&tree.tops, line) {
                    if !tree.names(file, &path) {
                        found(&path, "names a file or folder the repository does not have");
                    }
                }
            }
        }
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
    }
    out
}

/// A Markdown line with its inline code spans (between backticks) blanked out: what a code
/// span holds is text, not a link.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(' ');
        } else {
            out.push(if in_code { ' ' } else { c });
        }
    }
    out
}

/// Whether rule 6 checks the paths of `file`: every README, the root's ARCHITECTURE.md,
/// CONTRIBUTING.md and SECURITY.md, and the Markdown files of `docs/`.
pub fn is_doc(file: &str) -> bool {
    let name = file.rsplit('/').next().unwrap_or(file);
    name.starts_with("README")
        || matches!(file, "ARCHITECTURE.md" | "CONTRIBUTING.md" | "SECURITY.md")
        || file
            .strip_prefix("docs/")
            .is_some_and(|rest| !rest.contains('/') && rest.ends_with(".md"))
}

/// The repository paths written in the code spans of a Markdown line (rule 6). A word of a
/// code span is one when it holds a `/`, no placeholder or pattern (`*`, `<`, `{`, `$`, `…`,
/// `://`), does not start at the root or a home folder, and either ends in one of
/// [`SOURCE_EXTENSIONS`] or starts with a top-level folder of the repository (`tops`). A
/// trailing `:LINE` or `#anchor` and sentence punctuation are dropped; a path into a folder of
/// built files ([`BUILT_FOLDERS`]) is an output, and one under an upper-case word (`DIR/`,
/// `PATH/`) a placeholder, not a path into the repository. Fenced blocks are
/// commands and examples, and the caller skips them.
pub fn doc_paths(tops: &BTreeSet<String>, line: &str) -> Vec<String> {
    let spans = line.split('`').skip(1).step_by(2);
    let mut out = Vec::new();
    for word in spans.flat_map(str::split_whitespace) {
        let word = word
            .trim_start_matches('(')
            .trim_end_matches([')', '.', ',', ';', ':']);
        let word = match word.rsplit_once(':') {
            Some((path, at))
                if !at.is_empty() && at.chars().all(|c| c.is_ascii_digit() || c == '-') =>
            {
                path
            }
            _ => word,
        };
        if !word.contains('/')
            || word.starts_with(['/', '~', '-'])
            || word.contains(['*', '?', '<', '>', '{', '}', '$', '…', '[', ']', '|', '='])
            || word.contains("://")
            || word.contains("...")
        {
            continue;
        }
        let word = word.split('#').next().unwrap_or(word);
        let first = word
            .trim_start_matches("./")
            .split('/')
            .next()
            .unwrap_or("");
        let placeholder = first.len() > 1 && first.chars().all(|c| c.is_ascii_uppercase());
        if BUILT_FOLDERS.contains(&first) || placeholder {
            continue;
        }
        let last = word.rsplit('/').next().unwrap_or("");
        let source = last
            .rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && SOURCE_EXTENSIONS.contains(&ext));
        if source || tops.contains(first) {
            out.push(word.to_string());
        }
    }
    out
}

/// The targets of the inline links and images of a Markdown line: `[text](target)`.
pub fn markdown_links(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    out
}

/// Why a link from `file` to `target` leads nowhere, or `None` when it leads somewhere (or is
/// not a link into the repository: a URL, a mail address).
fn dead_link(tree: &Tree, file: &str, target: &str) -> Option<&'static str> {
    if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = target.split_once('#').unwrap_or((target, ""));
    let resolved = if path.is_empty() {
        file.to_string()
    } else {
        normalise(parent(file), path)?
    };
    if !tree.has(&resolved) {
        return Some("links to a path the repository does not have");
    }
    match tree.anchors.get(&resolved) {
        Some(anchors) if !anchor.is_empty() && !anchors.contains(anchor) => {
            Some("links to a heading its Markdown file does not have")
        }
        _ => None,
    }
}

/// `path` resolved against the folder `base`, both repository-relative; `None` when it climbs
/// out (rule 1 reports that).
fn normalise(base: &str, path: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// The anchors GitHub gives the headings of a Markdown text: lower case, punctuation other than
/// `-` and `_` dropped, spaces as `-`; a repeated heading gets `-1`, `-2`, …
pub fn heading_anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if in_fence || !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
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
            let found = format!("/{first}{tail}");
            if !JSON_POINTERS.contains(&found.as_str()) {
                out.push(found);
            }
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
    let mut tree = Tree::new(paths.iter().copied());
    let mut texts = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(root.join(path)) else {
            continue; // listed but deleted in the work tree: nothing to refer from
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // binary: images, fuzz inputs
        };
        if path.ends_with(".md") {
            tree.add_markdown(path, &text);
        }
        texts.push((path, text));
    }
    let checked = texts.len();
    let findings: Vec<Finding> = texts
        .iter()
        .flat_map(|(path, text)| check_file(&tree, path, text))
        .collect();
    if findings.is_empty() {
        eprintln!(
            "paths: {checked} tracked text files refer only to the repository and the system, \
             their Markdown links lead somewhere (contract §11), and the documents name only \
             files the repository has"
        );
        return Ok(());
    }
    for f in &findings {
        eprintln!("paths: {f}");
    }
    Err(format!(
        "{} reference(s) in {checked} tracked text files break contract §11 (the repository \
         stands alone) or name a file the repository does not have",
        findings.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> Tree {
        Tree::new([
            "Cargo.toml",
            "ARCHITECTURE.md",
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
            &format!("use super::shared; // {}", up("shared.rs"))
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
            "\"hits\": \"/root/children\"",
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
    fn a_markdown_link_to_a_missing_file_or_heading_is_caught() {
        let mut t = tree();
        t.add_markdown(
            "docs/contract.md",
            "# Title\n\n## 9. The reference deployment `refsearch`\n```\n# not a heading\n```\n",
        );
        let check = |file: &str, text: &str| -> Vec<&'static str> {
            check_file(&t, file, text)
                .into_iter()
                .map(|f| f.rule)
                .collect()
        };
        let good = "[c](docs/contract.md#9-the-reference-deployment-refsearch), [d](docs/), \
                    [w](https://example.org/x), [top](#title)";
        assert!(check("README.md", good).is_empty());
        assert!(check("docs/contract.md", "[t](#title) [r](../README.md)").is_empty());
        assert_eq!(
            check("README.md", "[gone](docs/gone.md)"),
            ["links to a path the repository does not have"]
        );
        assert_eq!(
            check("README.md", "[old](docs/contract.md#9-the-refsearch)"),
            ["links to a heading its Markdown file does not have"]
        );
        assert_eq!(
            check("README.md", "[fenced](docs/contract.md#not-a-heading)"),
            ["links to a heading its Markdown file does not have"]
        );
        // Inside a fenced block or a code span, `[a](b)` is code, not a link.
        assert!(check("README.md", "```\nx[0](1)\n```").is_empty());
        assert!(check("README.md", "write `[text](target)` for a link").is_empty());
    }

    #[test]
    fn a_path_in_a_documents_code_span_must_name_a_tracked_file() {
        let missing = "names a file or folder the repository does not have";
        assert_eq!(
            rules(
                "README.md",
                "the reader (`crates/figeval/src/capture.rs`) and `web/gone/`"
            ),
            [missing, missing]
        );
        // From the root, from the document's folder, or as the tail of a tracked path.
        let named =
            "`crates/figeval/tests/datasets.rs`, `web/src/`, `tests/browser/bench/lib.mjs:12`";
        assert!(rules("README.md", named).is_empty());
        assert!(rules("web/README.md", "`src/shared.rs` and `./src/shared.rs`").is_empty());
        assert!(rules("docs/contract.md", "`figeval/tests/datasets.rs`").is_empty());
        assert_eq!(
            rules("web/README.md", "`components/table_scroll.rs`"),
            [missing]
        );
        // Prose and fenced blocks are not checked, and neither are the records of the past.
        assert!(rules(
            "README.md",
            "crates/gone.rs in prose\n```\n`web/gone.rs`\n```"
        )
        .is_empty());
        assert!(rules("CHANGELOG.md", "`crates/figeval/src/capture.rs`").is_empty());
    }

    #[test]
    fn a_code_span_word_is_a_path_when_it_has_a_slash_and_a_source_ending_or_a_top_folder() {
        let tops: BTreeSet<String> = ["crates", "data", "web"].map(String::from).into();
        let line = "`data/x.json:12`, `web/src/app.rs:3-9`. `components/table_scroll.rs` \
                    `docs/contract.md#5-summary` `web/work` and `cargo run -p figeval` \
                    `out/report.json` `target/release/figeval` `dist/work/figeval-work.js` \
                    `crates/*/README.md` `PATH/x.rs` `$HOME/x.rs` `/usr/share/x.md` `a.rs` \
                    `https://example.org/a.rs` `{base}/search.rs` outside/code.rs";
        assert_eq!(
            doc_paths(&tops, line),
            [
                "data/x.json",
                "web/src/app.rs",
                "components/table_scroll.rs",
                "docs/contract.md",
                "web/work",
            ]
        );
    }

    #[test]
    fn the_documents_are_the_readmes_the_root_guides_and_docs() {
        for doc in [
            "README.md",
            "web/README.md",
            "crates/refsearch/README.md",
            "tests/browser/bench/README.md",
            "ARCHITECTURE.md",
            "CONTRIBUTING.md",
            "SECURITY.md",
            "docs/contract.md",
        ] {
            assert!(is_doc(doc), "{doc}");
        }
        for other in [
            "BENCHMARKS.md",
            "CHANGELOG.md",
            "docs/old/notes.md",
            "web/ARCHITECTURE.md",
            "web/src/lib.rs",
        ] {
            assert!(!is_doc(other), "{other}");
        }
    }

    #[test]
    fn repeated_headings_get_numbered_anchors() {
        let a = heading_anchors(
            "## Figures\ntext\n### Figures\n## live-load.mjs: 500 questions, bounded",
        );
        assert!(a.contains("figures") && a.contains("figures-1"), "{a:?}");
        assert!(a.contains("live-loadmjs-500-questions-bounded"), "{a:?}");
    }

    #[test]
    fn climbing_is_counted_step_by_step() {
        assert!(!climbs_out("crates/figeval", &up(&up("data"))));
        assert!(climbs_out("crates/figeval", &up(&up(&up("data")))));
        assert!(climbs_out("", "a/../../b"));
        assert!(!climbs_out("a", "./b/../../c"));
    }
}
