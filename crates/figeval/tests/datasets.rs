//! Keeps the bundled datasets honest: they validate, their questions are real questions, their
//! pages exist in their PDFs, their groups are what they claim, and the Apollo items agree with
//! the page facts they are grounded on.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use figeval::{Dataset, Group, Kind};
use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(name: &str) -> (Value, Dataset) {
    let text = std::fs::read_to_string(repo().join("data/eval_datasets").join(name)).unwrap();
    let raw: Value = serde_json::from_str(&text).unwrap();
    let d = Dataset::parse(&text).unwrap_or_else(|e| panic!("{name} does not validate: {e}"));
    (raw, d)
}

const PLACEHOLDERS: [&str; 6] = ["todo", "xxx", "lorem", "placeholder", "tbd", "fixme"];

/// The rules every bundled dataset keeps.
fn check_common(name: &str, raw: &Value, d: &Dataset, last_page: u32) {
    let top: Vec<&str> = raw
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(top, ["corpus_id", "items"], "{name}: only the model's keys");
    let mut seen = HashSet::new();
    for (i, (it, raw_it)) in d
        .items
        .iter()
        .zip(raw["items"].as_array().unwrap())
        .enumerate()
    {
        let at = format!("{name} item {}: {:?}", i + 1, it.question);
        let keys: HashSet<&str> = raw_it
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let allowed: HashSet<&str> =
            ["question", "expected_pages", "figure_ref", "kind", "tags"].into();
        assert!(keys.is_subset(&allowed), "{at}: unexpected keys {keys:?}");
        assert!(
            it.question.split_whitespace().count() >= 6,
            "{at}: fewer than six words"
        );
        assert!(
            it.question.trim_end().ends_with('?'),
            "{at}: not a question"
        );
        let lower = it.question.to_lowercase();
        for p in PLACEHOLDERS {
            assert!(!lower.contains(p), "{at}: placeholder word {p:?}");
        }
        assert!(
            seen.insert(it.question.trim().to_lowercase()),
            "{at}: repeated question"
        );
        for p in &it.expected_pages {
            assert!(
                (1..=last_page).contains(&p.get()),
                "{at}: page {p} outside 1..={last_page}"
            );
        }
        match it.group() {
            Group::Prose => {
                assert_eq!(it.tags.first().map(String::as_str), Some("prose"), "{at}");
                assert_eq!(it.kind, Kind::Locate, "{at}: prose items are kind locate");
                assert!(
                    !it.figure_ref.starts_with("Figure"),
                    "{at}: prose names a section"
                );
            }
            Group::Locate | Group::Content => {
                assert_eq!(it.tags.first().map(String::as_str), Some("figure"), "{at}");
                assert!(
                    it.figure_ref.starts_with("Figure "),
                    "{at}: figure items name a Figure"
                );
            }
        }
    }
    let by_group: HashMap<Group, Vec<_>> = Group::ALL
        .into_iter()
        .map(|g| (g, d.items.iter().filter(|it| it.group() == g).collect()))
        .collect();
    let total: usize = by_group.values().map(Vec::len).sum();
    assert_eq!(
        total,
        d.items.len(),
        "{name}: the groups cover every item exactly once"
    );
    let pages = |g: Group| -> HashSet<u32> {
        by_group[&g]
            .iter()
            .flat_map(|it| it.expected_pages.iter().map(|p| p.get()))
            .collect()
    };
    let overlap: Vec<_> = pages(Group::Locate)
        .intersection(&pages(Group::Content))
        .copied()
        .collect();
    assert!(
        overlap.is_empty(),
        "{name}: locate and content share pages {overlap:?}"
    );
}

fn counts(d: &Dataset) -> Vec<(Group, usize)> {
    d.group_counts()
}

#[test]
fn the_apollo_dataset_keeps_the_rules() {
    let (raw, d) = load("nasa-apollo-11-figures.json");
    assert_eq!(d.corpus_id, "nasa-apollo-11");
    check_common("apollo", &raw, &d, 359);
    assert_eq!(
        counts(&d),
        [(Group::Content, 10), (Group::Locate, 10), (Group::Prose, 5)]
    );
}

/// One page fact of `data/corpora/nasa-apollo-11/page-facts.json`: where a figure or passage
/// of the Apollo 11 Mission Report is printed, and how the dataset classes it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PageFact {
    figure_ref: String,
    page: u32,
    kind: Kind,
    tags: Vec<String>,
    about: String,
    #[serde(default)]
    example_question: Option<String>,
}

fn apollo_facts() -> Vec<PageFact> {
    let path = repo().join("data/corpora/nasa-apollo-11/page-facts.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the page facts at {} are needed: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_apollo_item_sits_on_the_page_the_facts_give() {
    let (_, d) = load("nasa-apollo-11-figures.json");
    let facts = apollo_facts();
    assert_eq!(facts.len(), 25, "the facts list 25 figures and passages");
    assert_eq!(d.items.len(), facts.len(), "one item per fact");
    for (it, fact) in d.items.iter().zip(&facts) {
        let at = &fact.figure_ref;
        assert_eq!(&it.figure_ref, at, "{:?}", it.question);
        assert_eq!(
            it.expected_pages
                .iter()
                .map(|p| p.get())
                .collect::<Vec<_>>(),
            [fact.page],
            "{at}"
        );
        assert_eq!(it.kind, fact.kind, "{at}");
        assert_eq!(it.tags, fact.tags, "{at}");
        assert!(
            !fact.about.trim().is_empty(),
            "{at}: say what is on the page"
        );
        if let Some(q) = &fact.example_question {
            assert!(q.ends_with('?'), "{at}: {q:?}");
        }
    }
    let pages = |kind: Kind| -> HashSet<u32> {
        facts
            .iter()
            .filter(|f| f.kind == kind && f.tags.first().is_some_and(|t| t == "figure"))
            .map(|f| f.page)
            .collect()
    };
    assert!(
        pages(Kind::Locate).is_disjoint(&pages(Kind::Content)),
        "one well-indexed figure must not move both the locate and the content numbers"
    );
}

#[test]
fn the_octave_dataset_keeps_the_rules() {
    let (raw, d) = load("octave-manual-figures.json");
    assert_eq!(d.corpus_id, "octave-manual");
    check_common("octave", &raw, &d, 1158);
    let c: HashMap<Group, usize> = counts(&d).into_iter().collect();
    assert!(
        c[&Group::Locate] >= 12 && c[&Group::Content] >= 12 && c[&Group::Prose] >= 6,
        "{c:?}"
    );
}

#[test]
fn every_octave_figure_item_matches_its_figure_note() {
    let (_, d) = load("octave-manual-figures.json");
    let notes: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(repo().join("data/corpora/octave-manual/figure-notes.json"))
            .unwrap(),
    )
    .unwrap();
    assert_eq!(notes.len(), 29, "one note per captioned figure");
    let mut note_pages = HashMap::new();
    for n in &notes {
        let keys: HashSet<&str> = n.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            HashSet::from(["figure_ref", "page", "kind", "summary"]),
            "{n}"
        );
        let summary = n["summary"].as_str().unwrap();
        assert!(
            summary.split_whitespace().count() >= 15,
            "a real description: {n}"
        );
        note_pages.insert(
            n["figure_ref"].as_str().unwrap().to_string(),
            n["page"].as_u64().unwrap(),
        );
    }
    assert_eq!(note_pages.len(), 29, "figure refs are unique");
    for it in d.items.iter().filter(|it| it.group() != Group::Prose) {
        let page = note_pages
            .get(&it.figure_ref)
            .unwrap_or_else(|| panic!("{} has no note", it.figure_ref));
        assert_eq!(
            it.expected_pages
                .iter()
                .map(|p| u64::from(p.get()))
                .collect::<Vec<_>>(),
            [*page],
            "{}",
            it.figure_ref
        );
    }
}
