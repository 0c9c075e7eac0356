//! The datasets that come with figeval, built into the command so that they are there from
//! any folder: `--dataset NAME`, and the dataset `figeval run` picks for a deployment that
//! says which corpus it serves.

use std::path::Path;

/// A dataset built into the command.
pub struct Bundled {
    /// Its name: its file's name under `data/eval_datasets/`, without `.json`.
    pub name: &'static str,
    /// Its `corpus_id`.
    pub corpus_id: &'static str,
    /// Its JSON text.
    pub text: &'static str,
}

/// Every bundled dataset.
pub const BUNDLED: [Bundled; 2] = [
    Bundled {
        name: "nasa-apollo-11-figures",
        corpus_id: "nasa-apollo-11",
        text: include_str!("../../../data/eval_datasets/nasa-apollo-11-figures.json"),
    },
    Bundled {
        name: "octave-manual-figures",
        corpus_id: "octave-manual",
        text: include_str!("../../../data/eval_datasets/octave-manual-figures.json"),
    },
];

/// The bundled dataset that `path` names (`octave-manual-figures`, with or without `.json`),
/// when it is a bare name.
pub fn named(path: &Path) -> Option<&'static Bundled> {
    let name = path.to_str()?;
    let name = name.strip_suffix(".json").unwrap_or(name);
    BUNDLED.iter().find(|b| b.name == name)
}

/// The bundled dataset of `corpus_id`, when there is one.
pub fn of_corpus(corpus_id: &str) -> Option<&'static Bundled> {
    BUNDLED.iter().find(|b| b.corpus_id == corpus_id)
}

/// The bundled datasets as a message lists them: `nasa-apollo-11-figures (corpus
/// nasa-apollo-11), octave-manual-figures (corpus octave-manual)`.
pub fn listed() -> String {
    let each: Vec<String> = BUNDLED
        .iter()
        .map(|b| format!("{} (corpus {})", b.name, b.corpus_id))
        .collect();
    each.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dataset_of_the_repository_is_bundled_with_its_corpus() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/eval_datasets");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let names: Vec<String> = BUNDLED.iter().map(|b| format!("{}.json", b.name)).collect();
        assert_eq!(files, names);
        for b in &BUNDLED {
            let d = figeval::Dataset::parse(b.text).unwrap();
            assert_eq!(d.corpus_id, b.corpus_id, "{}", b.name);
            assert_eq!(of_corpus(b.corpus_id).map(|x| x.name), Some(b.name));
        }
    }

    #[test]
    fn a_bundled_dataset_is_named_with_or_without_its_extension_and_never_by_a_path() {
        let n = |p: &str| named(Path::new(p)).map(|b| b.name);
        assert_eq!(n("octave-manual-figures"), Some("octave-manual-figures"));
        assert_eq!(
            n("octave-manual-figures.json"),
            Some("octave-manual-figures")
        );
        assert_eq!(n("data/octave-manual-figures.json"), None);
        assert_eq!(n("octave"), None);
    }
}
