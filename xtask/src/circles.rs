//! No import circles: within every crate of the repository, the top-level modules form layers.
//! A module may use the ones below it and never one that uses it back, directly or through a
//! chain (`capture → trec → capture`). `cargo xtask test` runs this check early (it reads
//! files, builds nothing) with the layer check that uses the same graphs (`layers.rs`);
//! `cargo xtask circles` runs the two alone.
//!
//! What counts as a module using another: a path that starts with `crate::`, `super::` or
//! `self::` (or `$crate::`), in a `use` declaration or in code, from any file of the module (its
//! submodules included) to another top-level module of the same crate root, or to a name that
//! the crate root imports from one (`crate::Report` when the root says `pub use
//! report::Report`). Comments, doc links and string literals do not count, nor do items under
//! `#[cfg(test)]`: a test may use whatever helps it, and it is not part of the layering.
//!
//! Every crate root of every package is read: `src/lib.rs`, `src/main.rs`, `src/bin/*`,
//! `tests/*.rs`, `benches/*.rs`, `examples/*.rs`, and any target `path` of a `Cargo.toml`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::sh;

/// One reference from a module to another: where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct At {
    /// The file, relative to the repository root.
    pub file: String,
    /// 1-based line.
    pub line: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// The top-level modules of one crate root and which of them use which.
#[derive(Debug, Default)]
pub struct ModuleGraph {
    /// The crate root file, relative to the repository root.
    pub root: String,
    /// Every top-level module the root declares.
    pub modules: BTreeSet<String>,
    /// module → module it uses → the first place it does.
    pub edges: BTreeMap<String, BTreeMap<String, At>>,
}

/// A circle of modules: each uses the next, and the last uses the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle {
    /// The crate root the modules belong to.
    pub root: String,
    /// The modules in order, each with the place it uses the next one.
    pub steps: Vec<(String, At)>,
    /// Every module that reaches the others of this circle and is reached by them, sorted
    /// (the circle shown is one path through them).
    pub tangle: Vec<String>,
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.root)?;
        for (module, _) in &self.steps {
            write!(f, "{module} → ")?;
        }
        write!(f, "{}", self.steps[0].0)?;
        if self.tangle.len() > self.steps.len() {
            write!(f, " (one circle of the tangle {})", self.tangle.join(", "))?;
        }
        for (i, (module, at)) in self.steps.iter().enumerate() {
            let next = &self.steps[(i + 1) % self.steps.len()].0;
            write!(f, "\n    {module} uses {next} at {at}")?;
        }
        Ok(())
    }
}

// ----- tokens ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Str(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// The tokens of Rust source that matter here, each with its 1-based line: comments dropped,
/// string and character literals reduced to one token (strings keep their raw text, for
/// `#[path = "…"]`).
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let count_lines = |s: &[u8]| s.iter().filter(|&&c| c == b'\n').count();
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let start = i;
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += count_lines(&b[start..i.min(b.len())]);
        } else if let Some((len, content)) = raw_string(&b[i..]) {
            out.push((Tok::Str(content), line));
            line += count_lines(&b[i..i + len]);
            i += len;
        } else if c == b'"' || (c == b'b' && b.get(i + 1) == Some(&b'"')) {
            let start = i;
            i += if c == b'b' { 2 } else { 1 };
            let content_start = i;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let content = String::from_utf8_lossy(&b[content_start..i.min(b.len())]).into();
            out.push((Tok::Str(content), line));
            i = (i + 1).min(b.len());
            line += count_lines(&b[start..i]);
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\u{1F600}', 'é') or a lifetime ('a).
            let rest = &text[i + 1..];
            let mut chars = rest.char_indices();
            match chars.next() {
                Some((_, '\\')) => {
                    // The escaped character, then up to the closing quote ('\'', '\u{1F600}').
                    let after = rest.get(2..).unwrap_or("");
                    i += 3 + after.find('\'').map_or(after.len(), |e| e + 1);
                }
                Some((_, ch)) if rest[ch.len_utf8()..].starts_with('\'') => {
                    i += 1 + ch.len_utf8() + 1;
                }
                _ => i += 1,
            }
        } else if c == b'_' || c.is_ascii_alphabetic() || c == b'$' || c >= 0x80 {
            let start = i;
            i += 1;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
                i += 1;
            }
            let word = &text[start..i];
            let word = word.strip_prefix('$').unwrap_or(word);
            let word = word.strip_prefix("r#").unwrap_or(word);
            out.push((Tok::Ident(word.to_string()), line));
        } else if b[i..].starts_with(b"::") {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            // Punctuation, and numbers (whose digits never start a path).
            if !c.is_ascii_digit() {
                out.push((Tok::Punct(c as char), line));
            }
            i += 1;
            if c.is_ascii_digit() {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
            }
        }
    }
    out
}

/// A raw string literal at the start of `b` (`r"…"`, `r#"…"#`, `br#"…"#`): its length and text.
fn raw_string(b: &[u8]) -> Option<(usize, String)> {
    let mut i = if b.starts_with(b"br") {
        2
    } else if b.starts_with(b"r") {
        1
    } else {
        return None;
    };
    let hashes = b[i..].iter().take_while(|&&c| c == b'#').count();
    i += hashes;
    if b.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let start = i;
    let mut closing = vec![b'"'];
    closing.extend(std::iter::repeat_n(b'#', hashes));
    while i < b.len() && !b[i..].starts_with(&closing) {
        i += 1;
    }
    let content = String::from_utf8_lossy(&b[start..i.min(b.len())]).into();
    Some(((i + closing.len()).min(b.len()), content))
}

/// The tokens without the items under `#[cfg(test)]` (the attribute, any attributes after it,
/// and the item up to its `;` or its closing brace).
fn without_test_items(toks: Vec<(Tok, usize)>) -> Vec<(Tok, usize)> {
    let cfg_test = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let starts = toks.len() - i >= cfg_test.len()
            && toks[i..i + cfg_test.len()]
                .iter()
                .map(|(t, _)| t)
                .eq(cfg_test.iter());
        if !starts {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += cfg_test.len();
        let mut depth = 0i32;
        while i < toks.len() {
            let t = &toks[i].0;
            i += 1;
            match t {
                Tok::Punct('(' | '[') => depth += 1,
                Tok::Punct(')' | ']') => depth -= 1,
                Tok::Punct(';') if depth == 0 => break,
                Tok::Punct('{') if depth == 0 => {
                    let mut braces = 1;
                    while i < toks.len() && braces > 0 {
                        match toks[i].0 {
                            Tok::Punct('{') => braces += 1,
                            Tok::Punct('}') => braces -= 1,
                            _ => {}
                        }
                        i += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

// ----- reading a module tree ------------------------------------------------------------------

/// One path written in a module: the module it is written in (from the crate root), the path's
/// segments, the name it is imported as (for a `use`), and its line.
struct Reference {
    context: Vec<String>,
    path: Vec<String>,
    alias: Option<String>,
    in_use: bool,
    line: usize,
}

/// What one file says: the paths it writes and the file modules it declares.
struct FileItems {
    references: Vec<Reference>,
    /// (module path from the crate root, the file's `#[path]` if any, the folder of inline
    /// modules it sits in)
    children: Vec<(Vec<String>, Option<String>, Vec<String>)>,
    /// The module paths of the inline modules (`mod x { … }`) it declares.
    inline_modules: Vec<Vec<String>>,
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// Reads a `use` tree starting at `i`; pushes every path it names (with its alias).
fn use_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut path = prefix;
    if matches!(toks.get(i), Some((Tok::PathSep, _))) {
        i += 1;
    }
    loop {
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                i += 1;
                if matches!(toks.get(i), Some((Tok::PathSep, _))) {
                    i += 1;
                    continue;
                }
                let mut alias = None;
                if ident(toks.get(i)) == Some("as") {
                    alias = ident(toks.get(i + 1)).map(str::to_string);
                    i += 2;
                }
                out.push((path, alias));
                return i;
            }
            Some(Tok::Punct('*')) => {
                path.push("*".into());
                out.push((path, None));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                loop {
                    match toks.get(i).map(|t| &t.0) {
                        None => return i,
                        Some(Tok::Punct('}')) => return i + 1,
                        Some(Tok::Punct(',')) => i += 1,
                        Some(_) => {
                            let before = i;
                            i = use_tree(toks, i, path.clone(), out);
                            if i == before {
                                i += 1;
                            }
                        }
                    }
                }
            }
            _ => {
                if !path.is_empty() {
                    out.push((path, None));
                }
                return i;
            }
        }
    }
}

/// The paths and file modules of one file whose module path is `base`.
fn file_items(text: &str, base: &[String]) -> FileItems {
    let toks = without_test_items(tokens(text));
    let mut items = FileItems {
        references: Vec::new(),
        children: Vec::new(),
        inline_modules: Vec::new(),
    };
    // Inline modules open here: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_path: Option<String> = None;
    let context = |inline: &[(String, usize)]| {
        let mut c = base.to_vec();
        c.extend(inline.iter().map(|(n, _)| n.clone()));
        c
    };
    let mut i = 0;
    while i < toks.len() {
        let (tok, line) = (&toks[i].0, toks[i].1);
        match tok {
            Tok::Punct('#')
                if matches!(toks.get(i + 1), Some((Tok::Punct('['), _)))
                    && ident(toks.get(i + 2)) == Some("path")
                    && matches!(toks.get(i + 3), Some((Tok::Punct('='), _))) =>
            {
                if let Some((Tok::Str(p), _)) = toks.get(i + 4) {
                    pending_path = Some(p.clone());
                }
                i += 5;
                continue;
            }
            Tok::Punct(';') => pending_path = None,
            Tok::Punct('{') => {
                depth += 1;
                pending_path = None;
            }
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                while inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
                pending_path = None;
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    match toks.get(i + 2).map(|t| &t.0) {
                        Some(Tok::Punct(';')) => {
                            let mut path = context(&inline);
                            path.push(name.to_string());
                            let folders = inline.iter().map(|(n, _)| n.clone()).collect();
                            items.children.push((path, pending_path.take(), folders));
                            i += 3;
                            continue;
                        }
                        Some(Tok::Punct('{')) => {
                            depth += 1;
                            inline.push((name.to_string(), depth));
                            items.inline_modules.push(context(&inline));
                            pending_path = None;
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w) if w == "use" => {
                let mut paths = Vec::new();
                let end = use_tree(&toks, i + 1, Vec::new(), &mut paths);
                for (path, alias) in paths {
                    items.references.push(Reference {
                        context: context(&inline),
                        path,
                        alias,
                        in_use: true,
                        line,
                    });
                }
                i = end.max(i + 1);
                continue;
            }
            Tok::Ident(w)
                if (w == "crate" || w == "super" || w == "self")
                    && matches!(toks.get(i + 1), Some((Tok::PathSep, _))) =>
            {
                let mut path = vec![w.clone()];
                let mut j = i + 1;
                while matches!(toks.get(j), Some((Tok::PathSep, _))) {
                    match ident(toks.get(j + 1)) {
                        Some(s) => path.push(s.to_string()),
                        None => break,
                    }
                    j += 2;
                }
                items.references.push(Reference {
                    context: context(&inline),
                    path,
                    alias: None,
                    in_use: false,
                    line,
                });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    items
}

/// The absolute module path `path` names when written in module `context`, or `None` when it
/// does not start at the crate (an external crate, a local name).
fn resolve(context: &[String], path: &[String], at_root: bool) -> Option<Vec<String>> {
    let mut abs: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            abs = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            abs = context.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            abs = context.to_vec();
            while rest.first().map(String::as_str) == Some("super") {
                abs.pop()?;
                rest = &rest[1..];
            }
        }
        // A bare path names the crate's own modules only in the crate root.
        Some(_) if at_root || context.is_empty() => abs = Vec::new(),
        _ => return None,
    }
    abs.extend(rest.iter().cloned());
    Some(abs)
}

fn parent(file: &str) -> &str {
    file.rfind('/').map_or("", |i| &file[..i])
}

fn join(dir: &str, rest: &str) -> String {
    let mut parts: Vec<&str> = if dir.is_empty() {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for p in rest.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Reads the module tree of the crate root `root` (a path relative to the repository, read
/// through `read`) into the graph of its top-level modules.
pub fn graph_of(root: &str, read: &dyn Fn(&str) -> Option<String>) -> Result<ModuleGraph, String> {
    let text = read(root).ok_or_else(|| format!("{root}: cannot read the crate root"))?;
    let mut graph = ModuleGraph {
        root: root.to_string(),
        ..ModuleGraph::default()
    };
    // (file, module path, folder its file modules sit in)
    let mut queue = vec![(
        root.to_string(),
        Vec::<String>::new(),
        parent(root).to_string(),
    )];
    let mut seen = BTreeSet::new();
    let mut references: Vec<(String, Reference)> = Vec::new();
    let mut text = Some(text);
    while let Some((file, base, folder)) = queue.pop() {
        if !seen.insert(file.clone()) {
            continue;
        }
        let Some(source) = text.take().or_else(|| read(&file)) else {
            return Err(format!(
                "{file}: declared as module {} of {root} but cannot be read",
                base.join("::")
            ));
        };
        let items = file_items(&source, &base);
        for m in items.inline_modules.iter().filter(|m| m.len() == 1) {
            graph.modules.insert(m[0].clone());
        }
        for (path, path_attr, inline_folders) in items.children {
            let name = path.last().cloned().unwrap_or_default();
            if path.len() == 1 {
                graph.modules.insert(name.clone());
            }
            let (child, child_folder) = match path_attr {
                Some(p) => {
                    let f = join(parent(&file), &p);
                    let d = parent(&f).to_string();
                    (f, d)
                }
                None => {
                    let dir = join(&folder, &inline_folders.join("/"));
                    let flat = join(&dir, &format!("{name}.rs"));
                    if read(&flat).is_some() {
                        (flat, join(&dir, &name))
                    } else {
                        (join(&dir, &format!("{name}/mod.rs")), join(&dir, &name))
                    }
                }
            };
            queue.push((child, path, child_folder));
        }
        references.extend(items.references.into_iter().map(|r| (file.clone(), r)));
    }
    // Names the crate root imports: `crate::Name` stands for the module they come from.
    let mut imported: BTreeMap<String, String> = BTreeMap::new();
    for (_, r) in references
        .iter()
        .filter(|(_, r)| r.context.is_empty() && r.in_use)
    {
        if let Some(abs) = resolve(&r.context, &r.path, true) {
            let name = r.alias.clone().or_else(|| abs.last().cloned());
            if let (Some(first), Some(name)) = (abs.first(), name) {
                if graph.modules.contains(first) && abs.len() > 1 && name != "*" {
                    imported.insert(name, first.clone());
                }
            }
        }
    }
    for (file, r) in &references {
        let Some(from) = r.context.first() else {
            continue; // the crate root itself is not a layer
        };
        let Some(abs) = resolve(&r.context, &r.path, false) else {
            continue;
        };
        let Some(first) = abs.first() else { continue };
        let to = if graph.modules.contains(first) {
            first.clone()
        } else if let Some(m) = imported.get(first) {
            m.clone()
        } else {
            continue;
        };
        if &to != from {
            graph
                .edges
                .entry(from.clone())
                .or_default()
                .entry(to)
                .or_insert(At {
                    file: file.clone(),
                    line: r.line,
                });
        }
    }
    Ok(graph)
}

/// Every circle of the graph: one per group of modules that reach each other (Tarjan's
/// strongly connected components), shown as one cycle through its first module.
pub fn circles(graph: &ModuleGraph) -> Vec<Circle> {
    let nodes: Vec<&String> = graph.modules.iter().collect();
    let index_of: BTreeMap<&String, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            graph
                .edges
                .get(*n)
                .map(|e| e.keys().filter_map(|t| index_of.get(t).copied()).collect())
                .unwrap_or_default()
        })
        .collect();
    let components = strongly_connected(&succ);
    let mut out = Vec::new();
    for comp in components.into_iter().filter(|c| c.len() > 1) {
        let members: BTreeSet<usize> = comp.iter().copied().collect();
        let start = *members.iter().next().expect("a component has members");
        // Breadth-first from the start's successors back to it, inside the component.
        let mut prev: BTreeMap<usize, usize> = BTreeMap::new();
        let mut frontier = vec![start];
        let mut found = false;
        while !frontier.is_empty() && !found {
            let mut next = Vec::new();
            for &n in &frontier {
                for &s in &succ[n] {
                    if !members.contains(&s) || prev.contains_key(&s) {
                        continue;
                    }
                    prev.insert(s, n);
                    if s == start {
                        found = true;
                        break;
                    }
                    next.push(s);
                }
                if found {
                    break;
                }
            }
            frontier = next;
        }
        let mut cycle = vec![start];
        let mut at = prev[&start];
        while at != start {
            cycle.push(at);
            at = prev[&at];
        }
        cycle[1..].reverse();
        let steps = cycle
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let next = nodes[cycle[(i + 1) % cycle.len()]];
                (nodes[n].clone(), graph.edges[nodes[n]][next].clone())
            })
            .collect();
        out.push(Circle {
            root: graph.root.clone(),
            steps,
            tangle: members.iter().map(|&n| nodes[n].clone()).collect(),
        });
    }
    out
}

/// Tarjan's strongly connected components of a graph given by successor lists.
fn strongly_connected(succ: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct State<'a> {
        succ: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on_stack[v] = true;
        for i in 0..s.succ[v].len() {
            let w = s.succ[v][i];
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on_stack[w] => s.low[v] = s.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            s.out.push(comp);
        }
    }
    let n = succ.len();
    let mut s = State {
        succ,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

// ----- the repository -------------------------------------------------------------------------

/// The crate roots of the packages among `files` (tracked paths): the conventional target
/// files and every target `path` of a `Cargo.toml`.
pub fn crate_roots(files: &BTreeSet<String>, read: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut roots = BTreeSet::new();
    for manifest in files.iter().filter(|f| f.ends_with("Cargo.toml")) {
        let dir = parent(manifest);
        let Some(toml) = read(manifest) else { continue };
        if !toml.lines().any(|l| l.trim() == "[package]") {
            continue; // a virtual workspace manifest
        }
        let under = |sub: &str| join(dir, sub);
        for f in ["src/lib.rs", "src/main.rs", "build.rs"] {
            roots.insert(under(f));
        }
        for folder in ["src/bin", "tests", "benches", "examples"] {
            let prefix = format!("{}/", under(folder));
            for f in files.range(prefix.clone()..) {
                let Some(rest) = f.strip_prefix(&prefix) else {
                    break;
                };
                if !rest.contains('/') && rest.ends_with(".rs") {
                    roots.insert(f.clone());
                } else if let Some(bin) = rest.strip_suffix("/main.rs") {
                    if !bin.contains('/') {
                        roots.insert(f.clone());
                    }
                }
            }
        }
        let mut target_section = false;
        for l in toml.lines().map(str::trim) {
            if l.starts_with('[') {
                target_section = matches!(
                    l,
                    "[lib]" | "[[bin]]" | "[[test]]" | "[[bench]]" | "[[example]]"
                );
            } else if target_section {
                if let Some(v) = l.strip_prefix("path").map(str::trim_start) {
                    if let Some(v) = v.strip_prefix('=') {
                        roots.insert(under(v.trim().trim_matches('"')));
                    }
                }
            }
        }
    }
    roots.into_iter().filter(|r| files.contains(r)).collect()
}

/// The module graph of every crate root of the repository's packages (their manifests as
/// `git ls-files` lists them).
pub fn repository_graphs() -> Result<Vec<ModuleGraph>, String> {
    let root = sh::root();
    let listing = sh::answers("git", &["ls-files", "-z"])
        .ok_or("`git ls-files` failed: the check needs a git checkout")?;
    let files: BTreeSet<String> = listing
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    // Module files are read from the work tree, tracked or not yet: a new module counts at once.
    let read = |p: &str| -> Option<String> { std::fs::read_to_string(root.join(p)).ok() };
    crate_roots(&files, &read)
        .iter()
        .map(|r| graph_of(r, &read))
        .collect()
}

/// Fails on every circle of `graphs`, each named with the places that close it.
pub fn check(graphs: &[ModuleGraph]) -> Result<(), String> {
    let found: Vec<Circle> = graphs.iter().flat_map(circles).collect();
    if found.is_empty() {
        let modules: usize = graphs.iter().map(|g| g.modules.len()).sum();
        eprintln!(
            "circles: {} crate roots, {modules} top-level modules, no import circle",
            graphs.len()
        );
        return Ok(());
    }
    for c in &found {
        eprintln!("circles: {c}");
    }
    Err(format!(
        "{} import circle(s) between modules: each module must only use modules below it",
        found.len()
    ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The graph of the crate `src/lib.rs` whose files are `files` (path, text).
    pub(crate) fn graph(files: &[(&str, &str)]) -> ModuleGraph {
        let map: BTreeMap<String, String> = files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect();
        graph_of("src/lib.rs", &|p| map.get(p).cloned()).unwrap()
    }

    fn circle_texts(files: &[(&str, &str)]) -> Vec<String> {
        circles(&graph(files))
            .iter()
            .map(|c| c.to_string())
            .collect()
    }

    #[test]
    fn two_modules_that_use_each_other_are_a_circle_named_with_its_places() {
        let found = circle_texts(&[
            ("src/lib.rs", "pub mod a;\npub mod b;\n"),
            ("src/a.rs", "//! A.\n\nuse crate::b::Thing;\n"),
            (
                "src/b.rs",
                "pub struct Thing;\n\npub fn f() {\n    crate::a::g();\n}\n",
            ),
        ]);
        assert_eq!(
            found,
            ["src/lib.rs: a → b → a\n    a uses b at src/a.rs:3\n    b uses a at src/b.rs:4"]
        );
    }

    #[test]
    fn a_layered_graph_passes_whatever_its_comments_strings_and_tests_say() {
        let g = graph(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use c::Low;\n"),
            ("src/a.rs", "use crate::{b::Mid, c};\nfn f() -> crate::Low { todo!() }\n"),
            (
                "src/b.rs",
                "use super::c::Low;\n/// Used by [`crate::a`].\npub struct Mid;\n\
                 const S: &str = \"crate::a::f\";\nconst C: char = '\"';\n\
                 fn g<'a>(x: &'a str) -> &'a str { x }\n",
            ),
            (
                "src/c.rs",
                "pub struct Low;\n/* crate::a::x */\n#[cfg(test)]\nmod tests {\n    use crate::a::*;\n    fn t() { crate::b::Mid; }\n}\n",
            ),
        ]);
        assert!(circles(&g).is_empty(), "{:?}", g.edges);
        let edges: Vec<(&str, &str)> = g
            .edges
            .iter()
            .flat_map(|(f, ts)| ts.keys().map(move |t| (f.as_str(), t.as_str())))
            .collect();
        assert_eq!(edges, [("a", "b"), ("a", "c"), ("b", "c")]);
    }

    #[test]
    fn a_circle_through_a_submodule_and_a_name_the_root_imports_is_found() {
        let found = circle_texts(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use b::Thing;\n"),
            ("src/a/mod.rs", "mod inner;\n"),
            ("src/a/inner.rs", "fn f(_: crate::Thing) {}\n"),
            ("src/b.rs", "pub struct Thing;\nuse crate::c;\n"),
            ("src/c.rs", "pub(crate) fn g() { super::a::h() }\n"),
        ]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("src/lib.rs: a → b → c → a\n    a uses b at src/a/inner.rs:1"),
            "{found:?}"
        );
    }

    #[test]
    fn a_tangle_larger_than_the_circle_shown_is_listed_whole() {
        let found = circle_texts(&[
            ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
            ("src/a.rs", "use crate::b;\n"),
            ("src/b.rs", "use crate::a;\nuse crate::c;\n"),
            ("src/c.rs", "use crate::b;\n"),
        ]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].starts_with("src/lib.rs: a → b → a (one circle of the tangle a, b, c)"),
            "{found:?}"
        );
    }

    #[test]
    fn a_module_file_named_by_a_path_attribute_is_read() {
        let map: BTreeMap<String, String> = [
            (
                "src/main.rs",
                "#[path = \"../common/x.rs\"]\nmod x;\nmod y;\n",
            ),
            ("common/x.rs", "use crate::y;\n"),
            ("src/y.rs", "use crate::x;\n"),
        ]
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        let g = graph_of("src/main.rs", &|p| map.get(p).cloned()).unwrap();
        assert_eq!(circles(&g).len(), 1);
    }

    #[test]
    fn a_declared_module_without_its_file_is_an_error_that_names_it() {
        let map: BTreeMap<String, String> =
            [("src/lib.rs".to_string(), "mod gone;\n".to_string())].into();
        let e = graph_of("src/lib.rs", &|p| map.get(p).cloned()).unwrap_err();
        assert_eq!(
            e,
            "src/gone/mod.rs: declared as module gone of src/lib.rs but cannot be read"
        );
    }

    #[test]
    fn crate_roots_are_the_target_files_and_the_manifest_paths() {
        let files: BTreeSet<String> = [
            "Cargo.toml",
            "a/Cargo.toml",
            "a/src/lib.rs",
            "a/src/bin/tool.rs",
            "a/src/bin/big/main.rs",
            "a/src/bin/big/part.rs",
            "a/tests/e2e.rs",
            "a/tests/support/mod.rs",
            "t/Cargo.toml",
            "t/support/lib.rs",
            "t/faults.rs",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let manifests: BTreeMap<&str, &str> = [
            ("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n"),
            ("a/Cargo.toml", "[package]\nname = \"a\"\n[dependencies]\nx = { path = \"../x\" }\n"),
            (
                "t/Cargo.toml",
                "[package]\nname = \"t\"\n[lib]\npath = \"support/lib.rs\"\n[[test]]\nname = \"faults\"\npath = \"faults.rs\"\n",
            ),
        ]
        .into();
        let roots = crate_roots(&files, &|p| manifests.get(p).map(|s| s.to_string()));
        assert_eq!(
            roots,
            [
                "a/src/bin/big/main.rs",
                "a/src/bin/tool.rs",
                "a/src/lib.rs",
                "a/tests/e2e.rs",
                "t/faults.rs",
                "t/support/lib.rs"
            ]
        );
    }
}
