//! `cargo xtask api`: the core's public API, one item a line, checked against the listing in
//! the repository, so that a change to the public surface shows up in review.
//!
//! The listing is made from rustdoc's JSON (`cargo +nightly rustdoc -- --output-format json`,
//! all features, hidden items included and marked): every item a user of the crate can name,
//! at the path they name it by; fields, variants and inherent methods under their type; the
//! trait impls each type has (auto traits and blanket impls left out); a re-export as
//! `pub use ALIAS = PATH`. Types are written with their full path.
//!
//! rustdoc's JSON is unstable: a nightly whose format this reader does not know makes the
//! check fail with the shape it could not read, never pass with a listing that leaves it out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

use crate::sh::{self, cmd};

/// The crates whose public API is listed, each with its listing (from the repository root).
const LISTED: &[(&str, &str)] = &[("figeval", "crates/figeval/public-api.txt")];

/// Marker traits the compiler implements alongside a derive, unstable and changing with the
/// nightly (`#[derive(PartialEq)]` adds `StructuralPartialEq`, newer nightlies `TrivialClone`
/// with `Clone`): not part of what a user of the crate can rely on.
const COMPILER_MARKERS: &[&str] = &["StructuralPartialEq", "TrivialClone"];

/// The first lines of every listing.
const HEADER: &str = "\
// The public API of the crate, one item a line: made by `cargo xtask api --write` from
// rustdoc's JSON (all features). `cargo xtask test` fails when it differs from the code.
";

/// `cargo xtask api` checks every listing, `cargo xtask api --write` rewrites them.
pub fn run(args: &[String]) -> Result<(), String> {
    match args {
        [] => check(),
        [flag] if flag == "--write" => write(),
        _ => Err(format!(
            "unknown arguments {args:?}: cargo xtask api [--write]"
        )),
    }
}

/// Fails when a crate's public API differs from its checked-in listing, naming what changed and
/// how to update the listing.
pub fn check() -> Result<(), String> {
    for (krate, file) in LISTED {
        let now = listing(krate)?;
        let path = sh::root().join(file);
        let before = std::fs::read_to_string(&path).unwrap_or_default();
        if before == now {
            eprintln!("api: the public API of {krate} is as {file} lists it");
            continue;
        }
        return Err(format!(
            "the public API of {krate} is not what {file} lists:\n{}\nIf the change is \
             meant, run `cargo xtask api --write` and commit {file} with it.",
            difference(&before, &now)
        ));
    }
    Ok(())
}

fn write() -> Result<(), String> {
    for (krate, file) in LISTED {
        let path = sh::root().join(file);
        std::fs::write(&path, listing(krate)?)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("api: wrote {file}");
    }
    Ok(())
}

/// The lines only in `before` (`-`) and only in `now` (`+`), at most 40 of them.
fn difference(before: &str, now: &str) -> String {
    let old: BTreeSet<&str> = before.lines().collect();
    let new: BTreeSet<&str> = now.lines().collect();
    let mut lines: Vec<String> = old
        .difference(&new)
        .map(|l| format!("  - {l}"))
        .chain(new.difference(&old).map(|l| format!("  + {l}")))
        .collect();
    if lines.is_empty() {
        lines.push("  (the same lines in another order)".into());
    }
    if lines.len() > 40 {
        let more = lines.len() - 40;
        lines.truncate(40);
        lines.push(format!("  … and {more} more"));
    }
    lines.join("\n")
}

/// The listing of `krate`'s public API, from a fresh rustdoc JSON.
fn listing(krate: &str) -> Result<String, String> {
    sh::exec(cmd(
        "cargo",
        &[
            "+nightly",
            "rustdoc",
            "-p",
            krate,
            "--lib",
            "--all-features",
            "--",
            "-Z",
            "unstable-options",
            "--output-format",
            "json",
            "--document-hidden-items",
        ],
    ))
    .map_err(|e| format!("{e} (the API listing needs the nightly toolchain: cargo xtask setup)"))?;
    let json = sh::target_dir()
        .join("doc")
        .join(format!("{}.json", krate.replace('-', "_")));
    let text = std::fs::read_to_string(&json)
        .map_err(|e| format!("cannot read {}: {e}", json.display()))?;
    let doc: Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", json.display()))?;
    render(&doc, &json)
}

/// The listing of the crate whose rustdoc JSON is `doc` (read from `json`).
fn render(doc: &Value, json: &Path) -> Result<String, String> {
    let api = Api::new(doc)?;
    let mut out = String::from(HEADER);
    for line in api.lines() {
        out.push_str(&line);
        out.push('\n');
    }
    let problems = api.problems.into_inner();
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "{} (rustdoc JSON format {}) has shapes xtask/src/api.rs cannot read: {}",
            json.display(),
            doc["format_version"],
            problems.into_iter().collect::<Vec<_>>().join("; ")
        ))
    }
}

/// The elements of a JSON array; none when `v` is not one.
fn each(v: &Value) -> impl Iterator<Item = &Value> {
    v.as_array().into_iter().flatten()
}

/// Where an item can be named from.
struct Route {
    path: String,
    /// Reached through a `pub use`, not through the modules it is defined in.
    reexport: bool,
    /// Under a `#[doc(hidden)]` module, or hidden itself.
    hidden: bool,
}

/// A crate's rustdoc JSON, with the public paths of its items.
struct Api<'a> {
    doc: &'a Value,
    /// Every item a user can name, by id: the routes to it.
    routes: BTreeMap<u64, Vec<Route>>,
    /// What could not be read.
    problems: std::cell::RefCell<BTreeSet<String>>,
}

impl<'a> Api<'a> {
    fn new(doc: &'a Value) -> Result<Api<'a>, String> {
        let root = doc["root"]
            .as_u64()
            .ok_or("rustdoc JSON without a `root` id")?;
        let name = doc["index"][root.to_string()]["name"]
            .as_str()
            .ok_or("rustdoc JSON without the root module's name")?
            .to_string();
        let mut api = Api {
            doc,
            routes: BTreeMap::new(),
            problems: Default::default(),
        };
        api.walk(root, &name, false, &mut BTreeSet::new());
        Ok(api)
    }

    fn item(&self, id: u64) -> Option<&'a Value> {
        self.doc["index"].get(id.to_string())
    }

    fn kind(item: &Value) -> &str {
        item["inner"]
            .as_object()
            .and_then(|o| o.keys().next())
            .map_or("", String::as_str)
    }

    fn hidden(item: &Value) -> bool {
        item["attrs"].as_array().is_some_and(|attrs| {
            attrs
                .iter()
                .any(|a| a["other"].as_str() == Some("#[doc(hidden)]"))
        })
    }

    fn local(item: &Value) -> bool {
        item["crate_id"].as_u64() == Some(0)
    }

    /// Records the public items of module `id`, named under `path`.
    fn walk(&mut self, id: u64, path: &str, hidden: bool, open: &mut BTreeSet<u64>) {
        if !open.insert(id) {
            return; // a module that re-exports its way back into itself
        }
        let Some(module) = self.item(id) else { return };
        let items: Vec<u64> = each(&module["inner"]["module"]["items"])
            .filter_map(Value::as_u64)
            .collect();
        for child in items {
            let Some(item) = self.item(child) else {
                continue;
            };
            if item["visibility"] != "public" || !Self::local(item) {
                continue;
            }
            let hidden = hidden || Self::hidden(item);
            if Self::kind(item) == "use" {
                let import = &item["inner"]["use"];
                let Some(target) = import["id"].as_u64() else {
                    continue; // a re-export of something rustdoc did not document
                };
                if import["is_glob"] == true {
                    self.walk(target, path, hidden, open);
                    continue;
                }
                let name = import["name"].as_str().unwrap_or("?");
                self.reach(target, format!("{path}::{name}"), true, hidden, open);
            } else {
                let name = item["name"].as_str().unwrap_or("?");
                self.reach(child, format!("{path}::{name}"), false, hidden, open);
            }
        }
        open.remove(&id);
    }

    fn reach(
        &mut self,
        id: u64,
        path: String,
        reexport: bool,
        hidden: bool,
        open: &mut BTreeSet<u64>,
    ) {
        let Some(item) = self.item(id) else { return };
        if !Self::local(item) {
            return;
        }
        let hidden = hidden || Self::hidden(item);
        if Self::kind(item) == "module" {
            self.walk(id, &path, hidden, open);
        }
        self.routes.entry(id).or_default().push(Route {
            path,
            reexport,
            hidden,
        });
    }

    /// The route an item is listed under: through its own modules when it can be, else the
    /// shortest re-export under its own name.
    fn primary(&self, id: u64) -> Option<&Route> {
        let own = format!("::{}", self.item(id)?["name"].as_str().unwrap_or(""));
        self.routes.get(&id)?.iter().min_by_key(|r| {
            let renamed = !r.path.ends_with(&own);
            (
                r.reexport,
                renamed,
                r.path.matches("::").count(),
                r.path.clone(),
            )
        })
    }

    /// Every line of the listing: each item's block, in the order of their paths.
    fn lines(&self) -> Vec<String> {
        let mut blocks: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (&id, routes) in &self.routes {
            let Some(primary) = self.primary(id) else {
                continue;
            };
            let mut block = self.block(id, primary);
            for route in routes {
                if route.path != primary.path {
                    let mark = if route.hidden { "#[doc(hidden)] " } else { "" };
                    block.push(format!("{mark}pub use {} = {}", route.path, primary.path));
                }
            }
            blocks.insert(primary.path.clone(), block);
        }
        blocks.into_values().flatten().collect()
    }

    /// The lines of one item at `route`: itself, then its members and trait impls.
    fn block(&self, id: u64, route: &Route) -> Vec<String> {
        let Some(item) = self.item(id) else {
            return Vec::new();
        };
        let mark = if route.hidden { "#[doc(hidden)] " } else { "" };
        let path = &route.path;
        let inner = &item["inner"];
        let mut members = Vec::new();
        let head = match Self::kind(item) {
            "module" => format!("pub mod {path}"),
            "function" => format!("pub {}", self.function(path, &inner["function"])),
            "constant" => format!("pub const {path}: {}", self.ty(&inner["constant"]["type"])),
            "static" => format!("pub static {path}: {}", self.ty(&inner["static"]["type"])),
            "type_alias" => {
                let alias = &inner["type_alias"];
                format!(
                    "pub type {path}{} = {}",
                    self.generics(&alias["generics"]),
                    self.ty(&alias["type"])
                )
            }
            "struct" => {
                let s = &inner["struct"];
                let kind = &s["kind"];
                let shape = if kind == "unit" {
                    String::new()
                } else if let Some(fields) = kind["tuple"].as_array() {
                    format!("({})", self.tuple_fields(fields, "pub "))
                } else {
                    for field in each(&kind["plain"]["fields"]) {
                        members.extend(self.field(path, field));
                    }
                    String::new()
                };
                members.extend(self.impls(path, &s["impls"]));
                format!("pub struct {path}{}{shape}", self.generics(&s["generics"]))
            }
            "enum" => {
                let e = &inner["enum"];
                for variant in each(&e["variants"]) {
                    members.extend(variant.as_u64().map(|v| self.variant(path, v)));
                }
                members.extend(self.impls(path, &e["impls"]));
                format!("pub enum {path}{}", self.generics(&e["generics"]))
            }
            "trait" => {
                let t = &inner["trait"];
                for member in each(&t["items"]) {
                    members.extend(member.as_u64().and_then(|m| self.member(path, m)));
                }
                let bounds = self.bounds(&t["bounds"]);
                let bounds = if bounds.is_empty() {
                    bounds
                } else {
                    format!(": {bounds}")
                };
                format!("pub trait {path}{}{bounds}", self.generics(&t["generics"]))
            }
            "macro" => format!("pub macro {path}!"),
            "proc_macro" => format!("pub proc_macro {path}!"),
            other => {
                self.problem(format!("an item of kind `{other}` ({path})"));
                format!("pub ? {path}")
            }
        };
        let mut lines = vec![format!("{mark}{head}")];
        lines.extend(members.into_iter().map(|m| format!("{mark}{m}")));
        lines
    }

    fn problem(&self, what: String) {
        self.problems.borrow_mut().insert(what);
    }

    /// `fn path<…>(args) -> output where …`, with its qualifiers.
    fn function(&self, path: &str, f: &Value) -> String {
        let header = &f["header"];
        let mut qualifiers = String::new();
        for (flag, word) in [
            ("is_const", "const "),
            ("is_async", "async "),
            ("is_unsafe", "unsafe "),
        ] {
            if header[flag] == true {
                qualifiers.push_str(word);
            }
        }
        let sig = &f["sig"];
        let args: Vec<String> = each(&sig["inputs"])
            .map(|input| self.argument(input))
            .collect();
        let output = self.output(&sig["output"]);
        format!(
            "{qualifiers}fn {path}{}({}){output}{}",
            self.generics(&f["generics"]),
            args.join(", "),
            self.where_clause(&f["generics"])
        )
    }

    fn argument(&self, input: &Value) -> String {
        let name = input[0].as_str().unwrap_or("_");
        let ty = &input[1];
        if name == "self" {
            if ty["generic"] == "Self" {
                return "self".into();
            }
            let r = &ty["borrowed_ref"];
            if r["type"]["generic"] == "Self" {
                let lifetime = r["lifetime"]
                    .as_str()
                    .map_or(String::new(), |l| format!("{l} "));
                let mutable = if r["is_mutable"] == true { "mut " } else { "" };
                return format!("&{lifetime}{mutable}self");
            }
        }
        format!("{name}: {}", self.ty(ty))
    }

    /// A public field of a struct, or `None` for a private one.
    fn field(&self, path: &str, id: &Value) -> Option<String> {
        let field = self.item(id.as_u64()?)?;
        (field["visibility"] == "public").then(|| {
            format!(
                "pub {path}::{}: {}",
                field["name"].as_str().unwrap_or("?"),
                self.ty(&field["inner"]["struct_field"])
            )
        })
    }

    /// Tuple fields: their types (`_` for a private one), each after `visibility`.
    fn tuple_fields(&self, fields: &[Value], visibility: &str) -> String {
        fields
            .iter()
            .map(|f| match f.as_u64().and_then(|id| self.item(id)) {
                Some(field) => format!("{visibility}{}", self.ty(&field["inner"]["struct_field"])),
                None => "_".into(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn variant(&self, path: &str, id: u64) -> String {
        let Some(variant) = self.item(id) else {
            return format!("pub {path}::?");
        };
        let name = variant["name"].as_str().unwrap_or("?");
        let v = &variant["inner"]["variant"];
        let kind = &v["kind"];
        let shape = if kind == "plain" {
            String::new()
        } else if let Some(fields) = kind["tuple"].as_array() {
            format!("({})", self.tuple_fields(fields, ""))
        } else {
            let fields: Vec<String> = each(&kind["struct"]["fields"])
                .filter_map(|f| self.item(f.as_u64()?))
                .map(|f| {
                    format!(
                        "{}: {}",
                        f["name"].as_str().unwrap_or("?"),
                        self.ty(&f["inner"]["struct_field"])
                    )
                })
                .collect();
            format!(" {{ {} }}", fields.join(", "))
        };
        let discriminant = v["discriminant"]["expr"]
            .as_str()
            .map_or(String::new(), |d| format!(" = {d}"));
        format!("pub {path}::{name}{shape}{discriminant}")
    }

    /// The members of an inherent impl or a trait: functions, constants, types.
    fn member(&self, path: &str, id: u64) -> Option<String> {
        let item = self.item(id)?;
        let name = item["name"].as_str()?;
        let inner = &item["inner"];
        let at = format!("{path}::{name}");
        Some(match Self::kind(item) {
            "function" => format!("pub {}", self.function(&at, &inner["function"])),
            "assoc_const" => format!("pub const {at}: {}", self.ty(&inner["assoc_const"]["type"])),
            "assoc_type" => {
                let t = &inner["assoc_type"];
                match &t["type"] {
                    Value::Null => format!("pub type {at}"),
                    ty => format!("pub type {at} = {}", self.ty(ty)),
                }
            }
            other => {
                self.problem(format!("a member of kind `{other}` ({at})"));
                format!("pub ? {at}")
            }
        })
    }

    /// A type's inherent public members, then its trait impls (`impl Trait for Type`), each
    /// group in order; auto-trait and blanket impls are left out.
    fn impls(&self, path: &str, impls: &Value) -> Vec<String> {
        let mut members = BTreeSet::new();
        let mut traits = BTreeSet::new();
        for id in each(impls).filter_map(Value::as_u64) {
            let Some(item) = self.item(id) else { continue };
            let i = &item["inner"]["impl"];
            if i["is_synthetic"] == true || !i["blanket_impl"].is_null() {
                continue;
            }
            let internal = i["trait"]["path"]
                .as_str()
                .is_some_and(|t| COMPILER_MARKERS.iter().any(|m| t.ends_with(m)));
            if internal {
                continue;
            }
            if i["trait"].is_null() {
                for m in each(&i["items"]).filter_map(Value::as_u64) {
                    let public = self.item(m).is_some_and(|m| m["visibility"] == "public");
                    if public {
                        members.extend(self.member(path, m));
                    }
                }
            } else {
                let negative = if i["is_negative"] == true { "!" } else { "" };
                let unsafety = if i["is_unsafe"] == true {
                    "unsafe "
                } else {
                    ""
                };
                traits.insert(format!(
                    "{unsafety}impl{} {negative}{} for {}{}",
                    self.generics(&i["generics"]),
                    self.path(&i["trait"]),
                    self.ty(&i["for"]),
                    self.where_clause(&i["generics"])
                ));
            }
        }
        members.into_iter().chain(traits).collect()
    }

    /// The name a path to item `id` is listed by: its public path for an item of this crate,
    /// the crate path rustdoc knows for another crate's, else the path as written.
    fn name_of(&self, path: &Value) -> String {
        let written = path["path"].as_str().unwrap_or("?").to_string();
        let Some(id) = path["id"].as_u64() else {
            return written;
        };
        if let Some(route) = self.primary(id) {
            return route.path.clone();
        }
        match self.doc["paths"][id.to_string()]["path"].as_array() {
            Some(segments) => segments
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("::"),
            None => written,
        }
    }

    /// A path with its generic arguments (`Vec<u8>`, `Fn(usize) -> bool`).
    fn path(&self, path: &Value) -> String {
        format!("{}{}", self.name_of(path), self.generic_args(&path["args"]))
    }

    fn generic_args(&self, args: &Value) -> String {
        if args.is_null() {
            return String::new();
        }
        if let Some(angle) = args.get("angle_bracketed") {
            let mut all: Vec<String> = each(&angle["args"]).map(|a| self.generic_arg(a)).collect();
            for c in each(&angle["constraints"]) {
                let name = format!(
                    "{}{}",
                    c["name"].as_str().unwrap_or("?"),
                    self.generic_args(&c["args"])
                );
                let binding = &c["binding"];
                all.push(if let Some(ty) = binding["equality"].get("type") {
                    format!("{name} = {}", self.ty(ty))
                } else if let Some(bounds) = binding.get("constraint") {
                    format!("{name}: {}", self.bounds(bounds))
                } else {
                    self.problem(format!("an associated item constraint {binding}"));
                    format!("{name} ?")
                });
            }
            return if all.is_empty() {
                String::new()
            } else {
                format!("<{}>", all.join(", "))
            };
        }
        if let Some(p) = args.get("parenthesized") {
            let inputs: Vec<String> = each(&p["inputs"]).map(|t| self.ty(t)).collect();
            let output = self.output(&p["output"]);
            return format!("({}){output}", inputs.join(", "));
        }
        self.problem(format!("generic arguments {args}"));
        "<?>".into()
    }

    fn generic_arg(&self, arg: &Value) -> String {
        if let Some(l) = arg["lifetime"].as_str() {
            l.to_string()
        } else if let Some(ty) = arg.get("type") {
            self.ty(ty)
        } else if let Some(c) = arg.get("const") {
            c["expr"].as_str().unwrap_or("?").to_string()
        } else if arg == "infer" {
            "_".into()
        } else {
            self.problem(format!("a generic argument {arg}"));
            "?".into()
        }
    }

    /// `<'a, T: Bound, const N: usize>`, without the parameters `impl Trait` arguments make.
    fn generics(&self, generics: &Value) -> String {
        let params: Vec<String> = each(&generics["params"])
            .filter_map(|p| {
                let name = p["name"].as_str().unwrap_or("?");
                let kind = &p["kind"];
                if let Some(l) = kind.get("lifetime") {
                    let outlives: Vec<&str> =
                        each(&l["outlives"]).filter_map(Value::as_str).collect();
                    Some(if outlives.is_empty() {
                        name.to_string()
                    } else {
                        format!("{name}: {}", outlives.join(" + "))
                    })
                } else if let Some(t) = kind.get("type") {
                    if t["is_synthetic"] == true {
                        return None;
                    }
                    let bounds = self.bounds(&t["bounds"]);
                    let mut s = name.to_string();
                    if !bounds.is_empty() {
                        s = format!("{s}: {bounds}");
                    }
                    if !t["default"].is_null() {
                        s = format!("{s} = {}", self.ty(&t["default"]));
                    }
                    Some(s)
                } else if let Some(c) = kind.get("const") {
                    Some(format!("const {name}: {}", self.ty(&c["type"])))
                } else {
                    self.problem(format!("a generic parameter {p}"));
                    Some("?".into())
                }
            })
            .collect();
        if params.is_empty() {
            String::new()
        } else {
            format!("<{}>", params.join(", "))
        }
    }

    fn where_clause(&self, generics: &Value) -> String {
        let predicates: Vec<String> = each(&generics["where_predicates"])
            .map(|w| {
                if let Some(b) = w.get("bound_predicate") {
                    format!("{}: {}", self.ty(&b["type"]), self.bounds(&b["bounds"]))
                } else if let Some(l) = w.get("lifetime_predicate") {
                    let outlives: Vec<&str> =
                        each(&l["outlives"]).filter_map(Value::as_str).collect();
                    format!(
                        "{}: {}",
                        l["lifetime"].as_str().unwrap_or("?"),
                        outlives.join(" + ")
                    )
                } else if let Some(e) = w.get("eq_predicate") {
                    format!("{} == {}", self.ty(&e["lhs"]), self.ty(&e["rhs"]["type"]))
                } else {
                    self.problem(format!("a where predicate {w}"));
                    "?".into()
                }
            })
            .collect();
        if predicates.is_empty() {
            String::new()
        } else {
            format!(" where {}", predicates.join(", "))
        }
    }

    fn bounds(&self, bounds: &Value) -> String {
        each(bounds)
            .map(|b| {
                if let Some(t) = b.get("trait_bound") {
                    let modifier = match t["modifier"].as_str() {
                        Some("maybe") => "?",
                        Some("maybe_const") => "~const ",
                        _ => "",
                    };
                    format!("{modifier}{}", self.path(&t["trait"]))
                } else if let Some(l) = b["outlives"].as_str() {
                    l.to_string()
                } else if let Some(captured) = b.get("use") {
                    let names: Vec<String> = each(captured)
                        .map(|c| {
                            c["lifetime"]
                                .as_str()
                                .or(c["param"].as_str())
                                .unwrap_or("?")
                                .to_string()
                        })
                        .collect();
                    format!("use<{}>", names.join(", "))
                } else {
                    self.problem(format!("a bound {b}"));
                    "?".into()
                }
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// ` -> T` for a function's output type, nothing for none.
    fn output(&self, ty: &Value) -> String {
        match ty {
            Value::Null => String::new(),
            ty => format!(" -> {}", self.ty(ty)),
        }
    }

    /// A type as Rust writes it, each path in full.
    fn ty(&self, ty: &Value) -> String {
        if ty == "infer" {
            return "_".into();
        }
        let Some((kind, v)) = ty.as_object().and_then(|o| o.iter().next()) else {
            self.problem(format!("a type {ty}"));
            return "?".into();
        };
        match kind.as_str() {
            "resolved_path" => self.path(v),
            "primitive" | "generic" => v.as_str().unwrap_or("?").to_string(),
            "borrowed_ref" => {
                let lifetime = v["lifetime"]
                    .as_str()
                    .map_or(String::new(), |l| format!("{l} "));
                let mutable = if v["is_mutable"] == true { "mut " } else { "" };
                format!("&{lifetime}{mutable}{}", self.ty(&v["type"]))
            }
            "raw_pointer" => {
                let mutable = if v["is_mutable"] == true {
                    "mut"
                } else {
                    "const"
                };
                format!("*{mutable} {}", self.ty(&v["type"]))
            }
            "slice" => format!("[{}]", self.ty(v)),
            "array" => format!(
                "[{}; {}]",
                self.ty(&v["type"]),
                v["len"].as_str().unwrap_or("?")
            ),
            "tuple" => {
                let parts: Vec<String> = each(v).map(|t| self.ty(t)).collect();
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            }
            "dyn_trait" => {
                let mut parts: Vec<String> =
                    each(&v["traits"]).map(|t| self.path(&t["trait"])).collect();
                parts.extend(v["lifetime"].as_str().map(String::from));
                format!("dyn {}", parts.join(" + "))
            }
            "impl_trait" => format!("impl {}", self.bounds(v)),
            "function_pointer" => {
                let sig = &v["sig"];
                let inputs: Vec<String> = each(&sig["inputs"]).map(|i| self.ty(&i[1])).collect();
                let output = self.output(&sig["output"]);
                format!("fn({}){output}", inputs.join(", "))
            }
            "qualified_path" => {
                let self_type = self.ty(&v["self_type"]);
                let name = v["name"].as_str().unwrap_or("?");
                match &v["trait"] {
                    Value::Null => format!("{self_type}::{name}"),
                    t => format!("<{self_type} as {}>::{name}", self.path(t)),
                }
            }
            "pat" => self.ty(&v["type"]),
            other => {
                self.problem(format!("a type of kind `{other}`"));
                "?".into()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A crate `k` as rustdoc's JSON says it: `pub fn k::f(x: &[u8]) -> Option<k::inner::S>`,
    /// `pub struct S { pub n: u32, secret }` defined in the private module `inner` and
    /// re-exported twice, and a hidden module.
    fn krate(output: Value) -> Value {
        let item = |name: &str, visibility: &str, inner: Value| json!({"crate_id": 0, "name": name, "visibility": visibility, "attrs": [], "inner": inner});
        let mut hidden = item("hidden", "public", json!({"module": {"items": []}}));
        hidden["attrs"] = json!([{"other": "#[doc(hidden)]"}]);
        let sig = json!({"inputs": [["x", {"borrowed_ref": {"lifetime": null, "is_mutable": false,
                    "type": {"slice": {"primitive": "u8"}}}}]], "output": output});
        json!({
            "root": 0,
            "format_version": 57,
            "paths": {"9": {"path": ["core", "option", "Option"]}},
            "index": {
                "0": item("k", "public", json!({"module": {"items": [1, 2, 3, 4, 7]}})),
                "1": item("f", "public", json!({"function": {"sig": sig,
                    "generics": {"params": [], "where_predicates": []}, "header": {}}})),
                "2": item("inner", "default", json!({"module": {"items": [5]}})),
                "3": item("", "public", json!({"use": {"name": "S", "id": 5, "is_glob": false}})),
                "4": item("", "public", json!({"use": {"name": "Also", "id": 5, "is_glob": false}})),
                "5": item("S", "public", json!({"struct": {"kind": {"plain": {"fields": [6, 8]}},
                    "generics": {"params": [], "where_predicates": []}, "impls": []}})),
                "6": item("n", "public", json!({"struct_field": {"primitive": "u32"}})),
                "7": hidden,
                "8": item("secret", "default", json!({"struct_field": {"primitive": "u8"}})),
            }
        })
    }

    fn option_of_s() -> Value {
        json!({"resolved_path": {"path": "Option", "id": 9, "args": {"angle_bracketed": {
            "args": [{"type": {"resolved_path": {"path": "inner::S", "id": 5, "args": null}}}],
            "constraints": []}}}})
    }

    #[test]
    fn a_listing_names_each_item_at_its_public_path_with_full_types() {
        let listing = render(&krate(option_of_s()), Path::new("k.json")).unwrap();
        let lines: Vec<&str> = listing.lines().filter(|l| !l.starts_with("//")).collect();
        assert_eq!(
            lines,
            [
                "pub struct k::S",
                "pub k::S::n: u32",
                "pub use k::Also = k::S",
                "pub fn k::f(x: &[u8]) -> core::option::Option<k::S>",
                "#[doc(hidden)] pub mod k::hidden",
            ]
        );
    }

    #[test]
    fn a_shape_the_reader_does_not_know_fails_the_listing() {
        let err = render(&krate(json!({"new_kind": {}})), Path::new("k.json")).unwrap_err();
        assert!(err.contains("format 57"), "{err}");
        assert!(err.contains("a type of kind `new_kind`"), "{err}");
    }

    #[test]
    fn a_difference_lists_the_lines_removed_and_added() {
        let diff = difference("a\nb\nc\n", "a\nc\nd\n");
        assert_eq!(diff, "  - b\n  + d");
        assert_eq!(
            difference("a\nb\n", "b\na\n"),
            "  (the same lines in another order)"
        );
    }
}
