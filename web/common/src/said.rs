//! What the matches of a report scored in the page said (`figeval::snippet`), and the JSON the
//! workbench hands it to the app in (web/README.md, "The workbench module"): per record, per
//! rank, `[rank, content, content cut, figure summary, summary cut]`, a missing text `null`.

use figeval::snippet::Snippet;
use serde_json::{json, Value};

use crate::shared::Shared;

/// What each record's top matches said, in the report's `per_item` order: kept while the
/// responses are read, so the ranked window can show it.
pub type Said = Shared<Vec<Vec<Snippet>>>;

/// `said` as the JSON the hand-over carries.
pub fn to_json(said: &[Vec<Snippet>]) -> String {
    let text = |t: &Option<(String, bool)>| match t {
        Some((s, cut)) => (json!(s), json!(cut)),
        None => (Value::Null, json!(false)),
    };
    let records: Vec<Value> = said
        .iter()
        .map(|ranks| {
            ranks
                .iter()
                .map(|s| {
                    let (content, content_cut) = text(&s.content);
                    let (summary, summary_cut) = text(&s.figure_summary);
                    json!([s.rank, content, content_cut, summary, summary_cut])
                })
                .collect()
        })
        .collect();
    Value::Array(records).to_string()
}

/// What [`to_json`] wrote, read back; `None` when it is not that shape.
pub fn from_json(text: &str) -> Option<Vec<Vec<Snippet>>> {
    let value: Value = serde_json::from_str(text).ok()?;
    let text = |s: &Value, cut: &Value| {
        s.as_str()
            .map(|s| (s.to_string(), cut.as_bool().unwrap_or(false)))
    };
    value
        .as_array()?
        .iter()
        .map(|ranks| {
            ranks
                .as_array()?
                .iter()
                .map(|s| {
                    let s = s.as_array().filter(|s| s.len() == 5)?;
                    Some(Snippet {
                        rank: u32::try_from(s[0].as_u64()?).ok()?,
                        content: text(&s[1], &s[2]),
                        figure_summary: text(&s[3], &s[4]),
                    })
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_matches_said_reads_back_as_it_was_written() {
        let said = vec![
            vec![
                Snippet {
                    rank: 1,
                    content: Some(("a \"quoted\" <b>line</b>".into(), true)),
                    figure_summary: None,
                },
                Snippet {
                    rank: 2,
                    content: None,
                    figure_summary: Some(("a plot".into(), false)),
                },
            ],
            vec![],
        ];
        assert_eq!(from_json(&to_json(&said)), Some(said));
        assert_eq!(from_json("[[[1, null]]]"), None, "a short entry is refused");
        assert_eq!(from_json("{}"), None);
    }
}
