//! The stated layer order: ARCHITECTURE.md says, for each crate it lists, which of the crate's
//! top-level modules sit on which layer, and a module may use only modules on layers below its
//! own. `cargo xtask circles` checks it with the circles (`circles.rs` reads what uses what), so
//! a module that uses one listed after it fails even when no circle closes.
//!
//! The order is written once, in ARCHITECTURE.md, as fenced blocks whose info string is
//! `layers`: the block's first line is the crate root, then one layer a line, lowest first,
//! its modules separated by spaces; `#` starts a comment. Every top-level module of the crate
//! is on exactly one line, and every name on a line is a module of the crate, so the order
//! cannot go stale.

use std::collections::{BTreeMap, BTreeSet};

use crate::circles::{self, ModuleGraph};
use crate::sh;

/// Where the layer order is written, from the repository root.
pub const DOC: &str = "ARCHITECTURE.md";

/// The info string that marks a block of the layer order.
const FENCE: &str = "```layers";

/// One crate's layer order as the document states it.
#[derive(Debug, PartialEq, Eq)]
pub struct Order {
    /// The crate root, relative to the repository root.
    pub root: String,
    /// The 1-based line of the document the block starts on.
    pub line: usize,
    /// The layers, lowest first, each with its modules and the document line that lists them.
    pub layers: Vec<(usize, Vec<String>)>,
}

/// Every `layers` block of the document `text`.
pub fn orders(text: &str) -> Result<Vec<Order>, String> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((start, line)) = lines.next() {
        if line.trim() != FENCE {
            continue;
        }
        let mut order: Option<Order> = None;
        let mut closed = false;
        for (n, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                closed = true;
                break;
            }
            let words: Vec<String> = line
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
            if words.is_empty() {
                continue;
            }
            match &mut order {
                None if words.len() == 1 => {
                    order = Some(Order {
                        root: words[0].clone(),
                        line: start,
                        layers: Vec::new(),
                    })
                }
                None => {
                    return Err(format!(
                        "{DOC}:{n}: a layers block starts with its crate root alone on a line, \
                         not `{}`",
                        words.join(" ")
                    ))
                }
                Some(order) => order.layers.push((n, words)),
            }
        }
        if !closed {
            return Err(format!("{DOC}:{start}: the layers block is never closed"));
        }
        match order {
            Some(order) if !order.layers.is_empty() => out.push(order),
            _ => return Err(format!("{DOC}:{start}: a layers block with no layer")),
        }
    }
    Ok(out)
}

/// What is wrong with `graph` against `order`: a module on no layer or on two, a name that is
/// no module of the crate, and every use of a module on the same layer or a higher one.
pub fn violations(order: &Order, graph: &ModuleGraph) -> Vec<String> {
    let mut problems = Vec::new();
    let mut layer_of: BTreeMap<&str, usize> = BTreeMap::new();
    for (index, (line, modules)) in order.layers.iter().enumerate() {
        for m in modules {
            if !graph.modules.contains(m) {
                problems.push(format!(
                    "{DOC}:{line}: `{m}` is not a top-level module of {}",
                    order.root
                ));
            } else if layer_of.insert(m, index).is_some() {
                problems.push(format!("{DOC}:{line}: `{m}` is on two layers"));
            }
        }
    }
    let unplaced: Vec<&str> = graph
        .modules
        .iter()
        .map(String::as_str)
        .filter(|m| !layer_of.contains_key(m))
        .collect();
    if !unplaced.is_empty() {
        problems.push(format!(
            "{DOC}:{}: {} has modules on no layer: {} (add each to the layer of the modules it \
             sits with)",
            order.line,
            order.root,
            unplaced.join(", ")
        ));
    }
    for (from, uses) in &graph.edges {
        let Some(&low) = layer_of.get(from.as_str()) else {
            continue;
        };
        for (to, at) in uses {
            let Some(&high) = layer_of.get(to.as_str()) else {
                continue;
            };
            if high >= low {
                let place = if high == low {
                    "on its own layer"
                } else {
                    "above it"
                };
                problems.push(format!(
                    "{}: `{from}` uses `{to}`, {place} in {DOC}:{} (at {at})",
                    order.root, order.layers[high].0
                ));
            }
        }
    }
    problems
}

/// `cargo xtask circles`: no import circle in any crate, and every crate ARCHITECTURE.md orders
/// in the order it states; both are reported before either fails.
pub fn check_repository() -> Result<(), String> {
    let graphs = circles::repository_graphs()?;
    let circled = circles::check(&graphs);
    let path = sh::root().join(DOC);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let layered = check(&text, &graphs);
    match (circled, layered) {
        (Ok(()), layered) => layered,
        (Err(c), Ok(())) => Err(c),
        (Err(c), Err(l)) => Err(format!("{c}; {l}")),
    }
}

/// Checks every crate the document orders against its module graph (`graphs`, by crate root);
/// the document must order at least one.
pub fn check(text: &str, graphs: &[ModuleGraph]) -> Result<(), String> {
    let orders = orders(text)?;
    if orders.is_empty() {
        return Err(format!(
            "{DOC} has no `layers` block: the layer order is stated nowhere"
        ));
    }
    let by_root: BTreeMap<&str, &ModuleGraph> =
        graphs.iter().map(|g| (g.root.as_str(), g)).collect();
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for order in &orders {
        if !seen.insert(order.root.as_str()) {
            problems.push(format!(
                "{DOC}:{}: a second layers block for {}",
                order.line, order.root
            ));
        }
        match by_root.get(order.root.as_str()) {
            Some(graph) => problems.extend(violations(order, graph)),
            None => problems.push(format!(
                "{DOC}:{}: {} is not a crate root of the repository",
                order.line, order.root
            )),
        }
    }
    if problems.is_empty() {
        let names: Vec<&str> = orders.iter().map(|o| o.root.as_str()).collect();
        eprintln!(
            "layers: every module of {} uses only modules on layers below its own",
            names.join(", ")
        );
        return Ok(());
    }
    for p in &problems {
        eprintln!("layers: {p}");
    }
    Err(format!(
        "{} break(s) of the layer order {DOC} states: a module may use only modules on lines \
         above its own in its crate's `layers` block",
        problems.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circles::tests::graph;

    const DOC_TEXT: &str =
        "# Architecture\n\n```layers\nsrc/lib.rs\nlow        # words\nmid other\n\nhigh\n```\n";

    fn three() -> ModuleGraph {
        graph(&[
            ("src/lib.rs", "mod high;\nmod low;\nmod mid;\nmod other;\n"),
            ("src/low.rs", "pub fn f() {}\n"),
            ("src/mid.rs", "use crate::low::f;\n"),
            ("src/other.rs", "pub fn g() {}\n"),
            ("src/high.rs", "use crate::{low, mid, other};\n"),
        ])
    }

    #[test]
    fn a_block_gives_its_crate_root_and_one_layer_a_line_comments_aside() {
        let found = orders(DOC_TEXT).unwrap();
        assert_eq!(
            found,
            [Order {
                root: "src/lib.rs".into(),
                line: 3,
                layers: vec![
                    (5, vec!["low".into()]),
                    (6, vec!["mid".into(), "other".into()]),
                    (8, vec!["high".into()]),
                ],
            }]
        );
        assert!(check(DOC_TEXT, &[three()]).is_ok());
    }

    #[test]
    fn a_module_that_uses_one_listed_after_it_fails_without_any_circle() {
        let g = graph(&[
            ("src/lib.rs", "mod high;\nmod low;\nmod mid;\nmod other;\n"),
            ("src/low.rs", "fn f() { crate::high::h() }\n"),
            ("src/mid.rs", "use crate::other::g;\n"),
            ("src/other.rs", "pub fn g() {}\n"),
            ("src/high.rs", "pub fn h() {}\n"),
        ]);
        assert!(crate::circles::circles(&g).is_empty());
        let order = &orders(DOC_TEXT).unwrap()[0];
        assert_eq!(
            violations(order, &g),
            [
                "src/lib.rs: `low` uses `high`, above it in ARCHITECTURE.md:8 (at src/low.rs:1)",
                "src/lib.rs: `mid` uses `other`, on its own layer in ARCHITECTURE.md:6 (at src/mid.rs:1)",
            ]
        );
        assert!(check(DOC_TEXT, &[g]).is_err());
    }

    #[test]
    fn a_module_on_no_layer_and_a_name_that_is_no_module_are_named() {
        let text = "```layers\nsrc/lib.rs\nlow gone\nmid other\n```\n";
        let order = &orders(text).unwrap()[0];
        assert_eq!(
            violations(order, &three()),
            [
                "ARCHITECTURE.md:3: `gone` is not a top-level module of src/lib.rs",
                "ARCHITECTURE.md:1: src/lib.rs has modules on no layer: high (add each to the \
                 layer of the modules it sits with)",
            ]
        );
    }

    #[test]
    fn a_document_without_a_block_or_with_a_broken_one_fails() {
        assert!(check("# Architecture\n", &[three()]).is_err());
        assert!(orders("```layers\nsrc/lib.rs\nlow\n").is_err());
        assert!(orders("```layers\nsrc/lib.rs\n```\n").is_err());
        assert!(orders("```layers\nsrc/lib.rs low\n```\n").is_err());
        let elsewhere = "```layers\nsrc/main.rs\nlow\n```\n";
        let err = check(elsewhere, &[three()]).unwrap_err();
        assert!(err.contains("1 break(s)"), "{err}");
    }
}
