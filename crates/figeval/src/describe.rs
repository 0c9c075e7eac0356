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
///
/// Characters are counted by the bytes that start one (every byte but UTF-8's continuation
/// bytes `0b10xx_xxxx`), 64 bytes at a time up to the chunk where the cut falls: counting them
/// one by one with `char_indices` took about 9% of `figeval score`'s time on 10,000 items
/// (BENCHMARKS.md).
pub(crate) fn first_chars(s: &str, chars: usize) -> &str {
    // At most `chars` bytes are at most `chars` characters.
    if s.len() <= chars {
        return s;
    }
    let starts = |b: &u8| (*b as i8) >= -0x40;
    let bytes = s.as_bytes();
    // `seen` characters start before byte `at`.
    let (mut seen, mut at) = (0, 0);
    for chunk in bytes.chunks_exact(64) {
        let here = chunk.iter().filter(|b| starts(b)).count();
        if seen + here > chars {
            break;
        }
        seen += here;
        at += 64;
    }
    for (i, b) in bytes.iter().enumerate().skip(at) {
        if starts(b) {
            if seen == chars {
                return &s[..i];
            }
            seen += 1;
        }
    }
    s
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
    fn the_fast_cuts_agree_with_counting_characters() {
        fn counted(s: &str, n: usize) -> &str {
            match s.char_indices().nth(n) {
                Some((cut, _)) => &s[..cut],
                None => s,
            }
        }
        let long = "ab€🎉é".repeat(40) + &"x".repeat(130);
        let texts = [
            "",
            "abc",
            "abcdef",
            "abé",
            "ééé",
            "abcdé",
            "aé",
            "日本語テキスト",
            "a€b",
        ];
        for s in texts.into_iter().chain([long.as_str()]) {
            for n in (0..9).chain(60..70).chain(120..140).chain(300..340) {
                assert_eq!(first_chars(s, n), counted(s, n), "{s:?} cut at {n}");
            }
        }
    }

    #[test]
    fn values_are_described_by_their_type() {
        assert_eq!(value(&serde_json::json!(1.5)), "the number 1.5");
        assert_eq!(value(&serde_json::json!({})), "an object");
        assert_eq!(value(&serde_json::json!([1, 2])), "an array of 2 elements");
        assert_eq!(value(&serde_json::json!("x")), "the string \"x\"");
    }
}
