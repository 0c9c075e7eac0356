//! What the matches said: the start of each top match's `content` and its figure summary.
//!
//! The response reader ([`crate::response`]) keeps only the first [`SNIPPET_CHARS`]
//! characters of a match's `content` (never the whole chunk, and without looking at the rest:
//! scoring pays a copy of 300 characters per match, not a pass over every chunk), and a
//! pairing made with [`Pairing::keeping`](crate::Pairing::keeping)`(…, `[`of_matches`]`)`
//! keeps the [`Snippet`]s of each scored item's top [`SNIPPET_TOP`] matches beside its record. What is held is bounded by
//! items × [`SNIPPET_TOP`] × 2 × [`SNIPPET_CHARS`] characters, whatever the deployment sent.

use crate::response::{Match, SNIPPET_CHARS};

/// Matches per item whose snippets are kept: the ranks a report's ranked window records.
pub const SNIPPET_TOP: usize = 5;

/// What one match said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// 1-based rank.
    pub rank: u32,
    /// The first [`SNIPPET_CHARS`] characters of `content` when it is a string (whitespace
    /// runs folded to one space), and whether it was cut there.
    pub content: Option<(String, bool)>,
    /// The first [`SNIPPET_CHARS`] characters of `metadata.figure.summary` when it is a
    /// string, and whether it was cut there.
    pub figure_summary: Option<(String, bool)>,
}

/// The start of `s` in at most `chars` characters, whitespace folded to one space and
/// trimmed; and whether it was cut.
pub(crate) fn start_of(s: &str, chars: usize) -> (String, bool) {
    let mut out = String::new();
    let mut n = 0;
    for word in s.split_whitespace() {
        if n > 0 {
            // A space is never the last character kept.
            if n + 1 >= chars {
                return (out, true);
            }
            out.push(' ');
            n += 1;
        }
        for c in word.chars() {
            if n == chars {
                return (out, true);
            }
            out.push(c);
            n += 1;
        }
    }
    (out, false)
}

/// The snippets of the first [`SNIPPET_TOP`] of `matches`, in rank order.
pub fn of_matches(matches: &[Match]) -> Vec<Snippet> {
    matches
        .iter()
        .take(SNIPPET_TOP)
        .zip(1..)
        .map(|(m, rank)| Snippet {
            rank,
            content: m.content.as_ref().map(|(head, cut)| {
                let (text, folded_cut) = start_of(head, SNIPPET_CHARS);
                (text, *cut || folded_cut)
            }),
            figure_summary: m
                .figure_summary
                .as_deref()
                .map(|s| start_of(s, SNIPPET_CHARS)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::Response;
    use serde_json::{json, Value};

    fn matches(list: Value) -> Vec<Match> {
        Response::parse(&json!({ "matches": list }).to_string())
            .unwrap()
            .matches
            .unwrap()
    }

    #[test]
    fn the_start_is_cut_at_a_character_count_with_whitespace_folded() {
        assert_eq!(start_of("  one\n\t two  ", 300), ("one two".into(), false));
        assert_eq!(
            start_of("word word word", 12),
            ("word word wo".into(), true)
        );
        assert_eq!(start_of("word word", 9), ("word word".into(), false));
        assert_eq!(start_of("word word", 4), ("word".into(), true));
        assert_eq!(
            start_of("word word", 5),
            ("word".into(), true),
            "no trailing space"
        );
        assert_eq!(
            start_of("ééé", 2),
            ("éé".into(), true),
            "characters, not bytes"
        );
        assert_eq!(start_of("", 5), (String::new(), false));
    }

    #[test]
    fn the_snippets_are_the_start_of_each_top_match_and_its_figure_summary() {
        let long = "word ".repeat(100);
        let list = json!([
            {"content": "one\n two", "metadata": {"figure": {"summary": "about one"}}},
            {"content": long, "metadata": {"figure": {"summary": long}}},
            {"content": 3, "metadata": {"figure": {"summary": []}}},
            {}, {}, {"content": "sixth"}
        ]);
        let s = of_matches(&matches(list));
        assert_eq!(s.len(), SNIPPET_TOP, "the top five only");
        assert_eq!(s[0].rank, 1);
        assert_eq!(s[4].rank, 5);
        assert_eq!(s[0].content, Some(("one two".into(), false)));
        assert_eq!(s[0].figure_summary, Some(("about one".into(), false)));
        let (text, cut) = s[1].content.clone().unwrap();
        assert!(cut);
        assert_eq!(
            text.chars().count(),
            SNIPPET_CHARS - 1,
            "cut before a space"
        );
        assert!(long.starts_with(&text));
        assert_eq!(s[1].figure_summary.as_ref().map(|f| f.1), Some(true));
        assert_eq!(
            (s[2].content.clone(), s[2].figure_summary.clone()),
            (None, None),
            "only strings are read"
        );
    }
}
