//! What the matches said: the start of each top match's `content` and its figure summary, read
//! on demand for one item from the capture it was scored from.
//!
//! Scoring ([`crate::response`]) skips match content so a 10,000-item capture costs little more
//! than its parse; this module is the other path. It reads one response at a time, when the
//! page opens that item's ranked window: [`find_entry`] locates the entry of one question in a
//! capture text (any form the capture reader accepts) reading only each entry's question, and
//! [`entry_snippets`] reads that one entry's top matches.

use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

/// Characters of `content` kept by default (the page shows the start, never the whole chunk).
pub const SNIPPET_CHARS: usize = 300;

/// What one match said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// 1-based rank.
    pub rank: usize,
    /// The first characters of `content` when it is a string (whitespace runs folded to one
    /// space), and whether it was cut there.
    pub content: Option<(String, bool)>,
    /// `metadata.figure.summary` when it is a string.
    pub figure_summary: Option<String>,
}

/// The start of `s` in at most `chars` characters, whitespace folded; and whether it was cut.
fn start_of(s: &str, chars: usize) -> (String, bool) {
    let mut out = String::new();
    let mut n = 0;
    for word in s.split_whitespace() {
        if n > 0 {
            if n == chars {
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

/// The snippets of the first `top` matches of one capture entry: a response body, or an
/// envelope `{"question", "response": <body>}`. `content` is cut to `chars` characters. The
/// error says what is wrong with the entry (not JSON, no `matches` array).
pub fn entry_snippets(entry: &str, top: usize, chars: usize) -> Result<Vec<Snippet>, String> {
    let v: Value = serde_json::from_str(entry).map_err(|e| format!("not JSON: {e}"))?;
    let body = match v.get("response") {
        Some(r) if v.get("question").is_some() => r,
        _ => &v,
    };
    let matches = body
        .get("matches")
        .and_then(Value::as_array)
        .ok_or("the response has no `matches` array")?;
    Ok(matches
        .iter()
        .take(top)
        .enumerate()
        .map(|(i, m)| Snippet {
            rank: i + 1,
            content: m
                .get("content")
                .and_then(Value::as_str)
                .map(|c| start_of(c, chars)),
            figure_summary: m
                .pointer("/metadata/figure/summary")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
        .collect())
}

/// An entry's question as pairing reads it: an envelope's `question`, else a body's `query`.
/// Only those two keys are kept; every other value is skipped without being copied.
struct Head {
    question: Option<Value>,
    query: Option<Value>,
}

impl<'de> Deserialize<'de> for Head {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Head;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a capture entry (a JSON object)")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Head, A::Error> {
                let mut h = Head {
                    question: None,
                    query: None,
                };
                while let Some(k) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match &*k {
                        "question" => h.question = Some(map.next_value()?),
                        "query" => h.query = Some(map.next_value()?),
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(h)
            }
        }
        d.deserialize_map(V)
    }
}

impl Head {
    fn question(&self) -> Option<&str> {
        match &self.question {
            Some(q) => q.as_str(),
            None => self.query.as_ref().and_then(Value::as_str),
        }
    }
}

/// Reads one JSON value at the start of `text` (after whitespace); its head and where it ends.
fn next_value(text: &str) -> Option<(Head, usize)> {
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<Head>();
    match it.next() {
        Some(Ok(h)) => Some((h, it.byte_offset())),
        _ => None,
    }
}

/// The text of the first entry in `capture` that answers `question` (exact text, as pairing
/// matches), in any capture form: JSON Lines of bodies or envelopes, a JSON array of them, or
/// concatenated JSON values. `None` when there is none or the capture cannot be read there.
pub fn find_entry<'t>(capture: &'t str, question: &str) -> Option<&'t str> {
    // JSON Lines and concatenated values are both values one after another; an array's
    // elements are read the same way between its brackets and commas.
    let trimmed = capture.trim_start();
    let in_array = trimmed.starts_with('[');
    let mut at = capture.len() - trimmed.len() + usize::from(in_array);
    loop {
        let rest = capture[at..].trim_start();
        let rest = match rest.strip_prefix(',') {
            Some(r) if in_array => r.trim_start(),
            _ => rest,
        };
        at = capture.len() - rest.len();
        if rest.is_empty() || (in_array && rest.starts_with(']')) {
            return None;
        }
        let (head, len) = next_value(rest)?;
        if head.question() == Some(question) {
            return Some(rest[..len].trim());
        }
        at += len;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(q: &str, contents: &[&str]) -> String {
        let matches: Vec<Value> = contents
            .iter()
            .map(|c| serde_json::json!({"content": c, "metadata": {"figure": {"summary": format!("about {c}")}}}))
            .collect();
        serde_json::json!({"query": q, "matches": matches}).to_string()
    }

    #[test]
    fn the_snippets_are_the_start_of_each_top_match_and_its_figure_summary() {
        let long = "word ".repeat(100);
        let text = body("q", &["one\n two", &long, "three", "four"]);
        let s = entry_snippets(&text, 3, 12).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].rank, 1);
        assert_eq!(s[0].content, Some(("one two".into(), false)), "whitespace folded");
        assert_eq!(s[1].content, Some(("word word wo".into(), true)), "cut at 12 characters");
        assert_eq!(s[2].figure_summary.as_deref(), Some("about three"));
    }

    #[test]
    fn content_and_summary_are_read_only_when_strings() {
        let text = r#"{"matches": [{"content": 3, "metadata": {"figure": {"summary": []}}}, {}]}"#;
        let s = entry_snippets(text, 5, 300).unwrap();
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|m| m.content.is_none() && m.figure_summary.is_none()));
    }

    #[test]
    fn an_envelope_is_read_through_to_its_response() {
        let line = format!(
            r#"{{"question":"q","request":{{"top_k":5}},"response":{}}}"#,
            body("q", &["inside"])
        );
        let s = entry_snippets(&line, 5, 300).unwrap();
        assert_eq!(s[0].content, Some(("inside".into(), false)));
    }

    #[test]
    fn a_bad_entry_says_what_is_wrong() {
        assert!(entry_snippets("{", 5, 300).unwrap_err().starts_with("not JSON"));
        assert_eq!(
            entry_snippets(r#"{"results": []}"#, 5, 300).unwrap_err(),
            "the response has no `matches` array"
        );
    }

    #[test]
    fn an_entry_is_found_by_question_in_every_capture_form() {
        let (a, b) = (body("A?", &["a"]), body("B?", &["b"]));
        let envelope = format!(r#"{{"question":"B?","response":{b}}}"#);
        let lines = format!("{a}\n\n{envelope}\n");
        assert_eq!(find_entry(&lines, "B?"), Some(envelope.as_str()));
        assert_eq!(find_entry(&lines, "A?"), Some(a.as_str()));
        assert_eq!(find_entry(&lines, "C?"), None);
        let array = format!("[\n  {a},\n  {envelope}\n]\n");
        assert_eq!(find_entry(&array, "B?"), Some(envelope.as_str()));
        assert_eq!(find_entry(&array, "C?"), None);
        let pretty_a = serde_json::to_string_pretty(&serde_json::from_str::<Value>(&a).unwrap()).unwrap();
        let stream = format!("{pretty_a}\n{b}\n");
        assert_eq!(find_entry(&stream, "B?"), Some(b.as_str()));
        assert_eq!(find_entry(&stream, "A?"), Some(pretty_a.as_str()));
    }

    #[test]
    fn an_envelope_question_wins_over_its_body_query() {
        let envelope = format!(r#"{{"question":"B?","response":{}}}"#, body("A?", &["x"]));
        assert_eq!(find_entry(&envelope, "A?"), None);
        assert!(find_entry(&envelope, "B?").is_some());
    }
}
