//! The example datasets shipped with the app: beside it in `dist/` (copied by `index.html`),
//! fetched when needed (the first at start), so the main bundle does not carry them (the first
//! inside it weighed 1.9 KB gzip -9, when the main bundle's budget was 280 KB).

/// A dataset bundled with the app.
pub struct Bundled {
    /// A stable id (used by `data-dataset` on its button).
    pub id: &'static str,
    /// What the button says.
    pub title: &'static str,
    /// Its file under `data/eval_datasets/`.
    pub file: &'static str,
    /// Its `corpus_id`: the corpus a deployment must serve to answer it.
    pub corpus_id: &'static str,
}

/// Every bundled dataset; the first is loaded at start.
pub const BUNDLED: [Bundled; 2] = [
    Bundled {
        id: "nasa-apollo-11-figures",
        title: "NASA Apollo 11 figures",
        file: "nasa-apollo-11-figures.json",
        corpus_id: "nasa-apollo-11",
    },
    Bundled {
        id: "octave-manual-figures",
        title: "Octave manual figures",
        file: "octave-manual-figures.json",
        corpus_id: "octave-manual",
    },
];

/// The bundled dataset of a corpus, when one is bundled.
pub fn of_corpus(corpus_id: &str) -> Option<&'static Bundled> {
    BUNDLED.iter().find(|b| b.corpus_id == corpus_id)
}

/// Every bundled dataset's text, in [`BUNDLED`]'s order, for the document module (`web/doc`,
/// loaded on demand and outside the main bundle budget); the main app fetches them, so it
/// never uses (nor links) these.
pub const TEXTS: [&str; 2] = [
    include_str!("../../../data/eval_datasets/nasa-apollo-11-figures.json"),
    include_str!("../../../data/eval_datasets/octave-manual-figures.json"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_dataset_is_valid() {
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .map(|dir| dir.join("data/eval_datasets"))
            .find(|dir| dir.is_dir())
            .expect("data/eval_datasets above the crate");
        for b in &BUNDLED {
            let path = data.join(b.file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(TEXTS.contains(&text.as_str()), "{}", b.id);
            let d = figeval::Dataset::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", b.id));
            assert!(!d.items.is_empty());
            assert_eq!(d.corpus_id, b.corpus_id, "{}", b.id);
            assert_eq!(of_corpus(b.corpus_id).map(|o| o.id), Some(b.id));
        }
    }
}
