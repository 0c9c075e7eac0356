//! The example datasets shipped inside the app.

/// A dataset bundled with the app.
pub struct Bundled {
    /// A stable id (used by `data-dataset` on its button).
    pub id: &'static str,
    /// What the button says.
    pub title: &'static str,
    /// Its file under `data/eval_datasets/`.
    pub file: &'static str,
    /// Its JSON text.
    pub text: &'static str,
}

/// Every bundled dataset; the first is loaded at start.
pub const BUNDLED: [Bundled; 2] = [
    Bundled {
        id: "nasa-apollo-11-figures",
        title: "NASA Apollo 11 figures",
        file: "nasa-apollo-11-figures.json",
        text: include_str!("../../data/eval_datasets/nasa-apollo-11-figures.json"),
    },
    Bundled {
        id: "octave-manual-figures",
        title: "Octave manual figures",
        file: "octave-manual-figures.json",
        text: include_str!("../../data/eval_datasets/octave-manual-figures.json"),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_dataset_is_valid() {
        for b in &BUNDLED {
            let d = figeval::Dataset::parse(b.text).unwrap_or_else(|e| panic!("{}: {e}", b.id));
            assert!(!d.items.is_empty());
        }
    }
}
