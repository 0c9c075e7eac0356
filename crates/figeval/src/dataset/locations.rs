//! An item's `expected_locations` (contract §1.5): their reading, validation and writing, and
//! whether two paths name one file. Whether a match covers a location is `crate::files`'s.

use serde_json::{Map, Value};

use crate::dataset::{
    check_len, key_name, parse_pages, unknown_key, ExpectedLocation, Item, Page, MAX_NAME_CHARS,
};
use crate::describe;

const LOCATION_KEYS: [&str; 4] = ["path", "unit", "start", "end"];

/// The components of a path: split at `/` and `\`, without empty and `.` components.
fn components(path: &str) -> impl DoubleEndedIterator<Item = &str> {
    path.split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
}

/// Whether two file paths name the same file, compared on whole trailing path components: the
/// shorter path's components are the last components of the longer one.
/// `corpus/sheets/A-101.pdf` is `sheets/A-101.pdf`; `notA-101.pdf` is not `A-101.pdf`.
pub fn same_file(a: &str, b: &str) -> bool {
    let (mut a, mut b) = (components(a).rev(), components(b).rev());
    let mut any = false;
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => any = true,
            (Some(_), Some(_)) => return false,
            _ => return any,
        }
    }
}

/// Reads an item's `expected_pages` or `expected_locations`: exactly one of them is given,
/// and the other is empty.
pub(crate) fn parse_expected(
    obj: &Map<String, Value>,
    err: &mut impl FnMut(&str, String),
) -> (Option<Vec<Page>>, Option<Vec<ExpectedLocation>>) {
    let Some(v) = obj.get("expected_locations") else {
        return (parse_pages(obj, err), Some(Vec::new()));
    };
    if obj.contains_key("expected_pages") {
        err(
            "expected_pages",
            "an item gives expected_pages or expected_locations, not both".into(),
        );
    }
    let field = "expected_locations";
    let raw = match v {
        Value::Array(a) if !a.is_empty() => a,
        Value::Array(_) => {
            err(
                field,
                "expected at least one location, found an empty array".into(),
            );
            return (Some(Vec::new()), None);
        }
        v => {
            err(
                field,
                format!(
                    "expected an array of {{\"path\", \"unit\", \"start\", \"end\"}} objects, found {}",
                    describe::value(v)
                ),
            );
            return (Some(Vec::new()), None);
        }
    };
    let mut locations = Vec::with_capacity(raw.len());
    let mut ok = true;
    for (i, v) in raw.iter().enumerate() {
        let mut bad = |key: &str, message: String| {
            err(&format!("{field}[{i}]{key}"), message);
            ok = false;
        };
        let Some(o) = v.as_object() else {
            bad(
                "",
                format!(
                    "expected an object with path, unit, start and end, found {}",
                    describe::value(v)
                ),
            );
            continue;
        };
        for key in o.keys().filter(|k| !LOCATION_KEYS.contains(&k.as_str())) {
            bad(&format!(".{}", key_name(key)), unknown_key(&LOCATION_KEYS));
        }
        let path = match o.get("path") {
            Some(Value::String(s)) if components(s).next().is_some() => {
                match check_len(s, MAX_NAME_CHARS) {
                    Ok(()) => Some(s.as_str()),
                    Err(m) => {
                        bad(".path", m);
                        None
                    }
                }
            }
            Some(v) => {
                bad(
                    ".path",
                    format!(
                        "expected the file's path (a string with a file name), found {}",
                        describe::value(v)
                    ),
                );
                None
            }
            None => {
                bad(".path", "missing (the file's path)".into());
                None
            }
        };
        match o.get("unit") {
            Some(Value::String(s)) if s == "page" => {}
            Some(Value::String(s)) if s == "line" => bad(
                ".unit",
                "\"line\" is refused: figeval scores the pages a match cites, and a line range \
                 cannot be checked against them; give PDF page numbers (1 for the first page) with \"page\""
                    .into(),
            ),
            Some(v) => bad(
                ".unit",
                format!("expected \"page\", found {}", describe::value(v)),
            ),
            None => bad(".unit", "missing (\"page\")".into()),
        }
        let mut page = |key: &str| match o.get(key) {
            Some(p) => match p.as_i64().and_then(Page::new) {
                Some(page) => Some(page),
                None => {
                    bad(&format!(".{key}"), Page::expected(p));
                    None
                }
            },
            None => {
                bad(
                    &format!(".{key}"),
                    "missing (a page number, 1 for the PDF's first page)".into(),
                );
                None
            }
        };
        let (start, end) = (page("start"), page("end"));
        if let (Some(s), Some(e)) = (start, end) {
            if e < s {
                bad(
                    ".end",
                    format!("{e} is before the start page {s}; the end is the start page or a later one"),
                );
            }
        }
        if let Some(p) = path {
            let key: Vec<&str> = components(p).collect();
            if let Some(j) = locations
                .iter()
                .position(|l: &ExpectedLocation| components(&l.path).eq(key.iter().copied()))
            {
                bad(
                    ".path",
                    format!("repeats the path of {field}[{j}]; give each file at most once"),
                );
            }
        }
        if let (Some(path), Some(start), Some(end)) = (path, start, end) {
            locations.push(ExpectedLocation {
                path: path.to_string(),
                start,
                end,
            });
        }
    }
    (Some(Vec::new()), ok.then_some(locations))
}

/// Writes an item's locations in place of its `expected_pages` when it has any.
pub(crate) fn locations_to_value(item: &Item, v: &mut Value) {
    if let (false, Some(o)) = (item.expected_locations.is_empty(), v.as_object_mut()) {
        o.remove("expected_pages");
        let locations = item.expected_locations.iter().map(
            |l| serde_json::json!({"path": l.path, "unit": "page", "start": l.start, "end": l.end}),
        );
        o.insert("expected_locations".into(), locations.collect());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;
    use crate::response::{Match, PageSpan};

    #[test]
    fn paths_compare_on_whole_trailing_components() {
        assert!(same_file("corpus/sheets/A-101.pdf", "sheets/A-101.pdf"));
        assert!(same_file("A-101.pdf", "/data/corpus/sheets/A-101.pdf"));
        assert!(same_file("./sheets//A-101.pdf", "sheets\\A-101.pdf"));
        assert!(!same_file("notA-101.pdf", "A-101.pdf"));
        assert!(!same_file("corpus/other/A-101.pdf", "sheets/A-101.pdf"));
        assert!(!same_file("A-101.pdf", "A-101.PDF"));
        assert!(!same_file("", "A-101.pdf") && !same_file("./", "./"));
    }

    fn errors(locations: Value) -> String {
        let item = serde_json::json!({"question": "q?", "figure_ref": "F", "kind": "locate",
            "expected_locations": locations});
        Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [item]}))
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn every_location_error_says_where() {
        let text = errors(serde_json::json!([
            {"path": "a.pdf", "unit": "line", "start": 3, "end": 2},
            {"path": "x/a.pdf", "unit": "page", "start": 0, "end": 1.5, "page": 1},
            7,
            {"path": "/", "unit": "Page"},
        ]));
        for needle in [
            "item 1 (\"q?\"): expected_locations[0].unit: \"line\" is refused: figeval scores the pages",
            "expected_locations[0].end: 2 is before the start page 3; the end is the start page or a later one",
            "expected_locations[1].page: unknown key (allowed: path, unit, start, end)",
            "expected_locations[1].start: expected a page number of 1 or more, found the number 0",
            "expected_locations[1].end: expected a whole page number (without a decimal point), found the number 1.5",
            "expected_locations[2]: expected an object with path, unit, start and end, found the number 7",
            "expected_locations[3].path: expected the file's path (a string with a file name), found the string \"/\"",
            "expected_locations[3].unit: expected \"page\", found the string \"Page\"",
            "expected_locations[3].start: missing (a page number, 1 for the PDF's first page)",
        ] {
            assert!(text.contains(needle), "missing {needle:?} in\n{text}");
        }
        assert!(text.starts_with("10 errors"), "{text}");
        let text = errors(serde_json::json!([
            {"path": "s/a.pdf", "unit": "page", "start": 1, "end": 1},
            {"path": "./s/a.pdf", "unit": "page", "start": 2, "end": 2},
        ]));
        assert!(
            text.contains("expected_locations[1].path: repeats the path of expected_locations[0]"),
            "{text}"
        );
        assert!(errors(serde_json::json!([]))
            .contains("expected_locations: expected at least one location"));
        let item = serde_json::json!({"question": "q?", "figure_ref": "F", "kind": "locate",
            "expected_pages": [1],
            "expected_locations": [{"path": "a.pdf", "unit": "page", "start": 1, "end": 1}]});
        let e = Dataset::from_value(&serde_json::json!({"corpus_id": "c", "items": [item]}))
            .unwrap_err();
        assert!(
            e.to_string().contains(
                "expected_pages: an item gives expected_pages or expected_locations, not both"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_dataset_of_several_files_parses_and_round_trips() {
        let text = r#"{"corpus_id": "c", "items": [
            {"question": "q?", "figure_ref": "F", "kind": "locate", "expected_locations": [
                {"path": "sheets/A-101.pdf", "unit": "page", "start": 2, "end": 3},
                {"path": "A-102.pdf", "unit": "page", "start": 1, "end": 1}]},
            {"question": "r?", "figure_ref": "G", "kind": "content", "expected_pages": [4]}]}"#;
        let d = Dataset::parse(text).unwrap();
        let it = &d.items[0];
        assert!(it.expected_pages.is_empty());
        assert_eq!(it.expected_locations.len(), 2);
        assert_eq!(
            (
                it.expected_locations[0].start.get(),
                it.expected_locations[0].end.get()
            ),
            (2, 3)
        );
        assert!(d.items[1].expected_locations.is_empty());
        assert_eq!(Dataset::from_value(&d.to_value()).unwrap(), d);
        assert!(d.to_value()["items"][0].get("expected_pages").is_none());
    }

    fn at(path: Option<&str>, start: u32, end: u32) -> Match {
        Match {
            pages: PageSpan::new(
                Page::new(start.into()).unwrap(),
                Page::new(end.into()).unwrap(),
            ),
            file_path: path.map(str::to_string),
            ..Match::default()
        }
    }

    #[test]
    fn a_match_covers_a_location_in_its_file_and_page_range() {
        let l = ExpectedLocation {
            path: "sheets/A-101.pdf".into(),
            start: Page::new(3).unwrap(),
            end: Page::new(5).unwrap(),
        };
        assert!(l.covered_by(&at(Some("corpus/sheets/A-101.pdf"), 5, 9)));
        assert!(l.covered_by(&at(Some("A-101.pdf"), 1, 3)));
        assert!(!l.covered_by(&at(Some("A-101.pdf"), 6, 9)));
        assert!(!l.covered_by(&at(Some("A-102.pdf"), 4, 4)));
        assert!(
            !l.covered_by(&at(None, 4, 4)),
            "a match without a file covers nothing"
        );
        assert!(!l.covered_by(&Match::default()));
    }
}
