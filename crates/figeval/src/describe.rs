//! Short descriptions of values for messages, and the one way a text is cut to its start.

use serde_json::Value;

/// How many characters of a question an error message quotes.
const QUESTION_START_CHARS: usize = 48;

/// What a JSON value is, in a few words: `a string "abc"`, `the number 1.5`, `an object`.
pub(crate) fn value(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {:?}", start(s, 32)),
        Value::Array(a) => format!("an array of {}", counted(a.len(), "element", "elements")),
        Value::Object(_) => "an object".to_string(),
    }
}

/// A count and its noun, singular for one: `1 item`, `3 items`. Every message says a count
/// this way, never `item(s)`.
pub fn counted<N: std::fmt::Display + PartialEq + From<u8>>(n: N, one: &str, many: &str) -> String {
    let noun = if n == N::from(1) { one } else { many };
    format!("{n} {noun}")
}

/// The first `chars` characters of `s` (characters, not bytes): the one place a text is cut.
pub fn first_chars(s: &str, chars: usize) -> &str {
    match s.char_indices().nth(chars) {
        Some((cut, _)) => &s[..cut],
        None => s,
    }
}

/// The first `chars` characters of `s`, with `…` when it was cut.
pub fn start(s: &str, chars: usize) -> String {
    let head = first_chars(s, chars);
    if head.len() < s.len() {
        format!("{head}…")
    } else {
        head.to_string()
    }
}

/// The start of a question as error messages quote it.
pub(crate) fn question(s: &str) -> String {
    start(s.trim(), QUESTION_START_CHARS)
}

/// A list of questions for an error message, each quoted, at most `limit` of them.
pub(crate) fn question_list(questions: &[String], limit: usize) -> String {
    let mut out = String::new();
    for q in questions.iter().take(limit) {
        out.push_str(&format!("\n  - {:?}", question(q)));
    }
    if questions.len() > limit {
        out.push_str(&format!("\n  … and {} more", questions.len() - limit));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_count_takes_its_noun_singular_for_one() {
        assert_eq!(counted(0_usize, "item", "items"), "0 items");
        assert_eq!(counted(1_u64, "item", "items"), "1 item");
        assert_eq!(counted(2_u32, "match", "matches"), "2 matches");
    }

    #[test]
    fn start_cuts_on_characters_not_bytes() {
        assert_eq!(start("ééééé", 3), "ééé…");
        assert_eq!(start("abc", 3), "abc");
        assert_eq!(start("", 3), "");
    }

    #[test]
    fn values_are_described_by_their_type() {
        assert_eq!(value(&serde_json::json!(1.5)), "the number 1.5");
        assert_eq!(value(&serde_json::json!({})), "an object");
        assert_eq!(value(&serde_json::json!([1, 2])), "an array of 2 elements");
        assert_eq!(value(&serde_json::json!("x")), "the string \"x\"");
    }
}
