//! Short descriptions of values for messages, the words for what a JSON parser found wrong,
//! and the one way a text is cut to its start.

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

/// What a JSON parser found wrong, in a person's words and without its position (the caller
/// says where: `line 7, column 45`). serde_json words its syntax errors for programmers (`key
/// must be a string`, `expected value`, `EOF while parsing an object`) and its type errors in
/// Rust's types (`invalid type: integer `3`, expected u32`); each becomes what a person
/// fixing the file looks for. A message figeval wrote itself (a field's own check) is kept.
pub fn json_problem(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) => &text[..i],
        None => &text,
    };
    if let Some(words) = syntax_words(text) {
        return words.to_string();
    }
    data_words(text).unwrap_or_else(|| text.to_string())
}

/// Where and what a JSON parser found wrong: `line 7, column 45: ` and [`json_problem`].
pub fn json_error(e: &serde_json::Error) -> String {
    format!(
        "line {}, column {}: {}",
        e.line(),
        e.column(),
        json_problem(e)
    )
}

/// serde_json's syntax messages (its `ErrorCode`s), in words.
fn syntax_words(message: &str) -> Option<&'static str> {
    Some(match message {
        "EOF while parsing a list" => "the text ends before the array is closed with ]",
        "EOF while parsing an object" => "the text ends before the object is closed with }",
        "EOF while parsing a string" => "the text ends inside a string (its closing \" is missing)",
        "EOF while parsing a value" => "the text ends where a value should be",
        "expected `:`" => "a colon (:) should follow the key here",
        "expected `,` or `]`" => "a comma or the ] that closes the array should be here",
        "expected `,` or `}`" => "a comma or the } that closes the object should be here",
        "expected ident" => {
            "a word JSON does not know: text must be in double quotes, and the only bare words \
             are true, false and null"
        }
        "expected value" => {
            "a value (a string in double quotes, a number, true, false, null, an array or an \
             object) should be here"
        }
        "expected `\"`" => "a double quote (\") should be here",
        "invalid escape" => {
            "a backslash starts an escape JSON does not have (a backslash itself is written \\\\)"
        }
        "invalid number" => "a number written in a way JSON does not accept",
        "number out of range" => "a number too large to read",
        "invalid unicode code point"
        | "lone leading surrogate in hex escape"
        | "unexpected end of hex escape" => "a \\u escape that is not a whole character",
        "control character (\\u0000-\\u001F) found while parsing a string" => {
            "a line break or another control character inside a string (a line break is \
             written \\n)"
        }
        "key must be a string" => "a key must be a string in double quotes",
        "trailing comma" => "a comma before the closing bracket (remove the comma)",
        "trailing characters" => "more text follows the end of the JSON value",
        "recursion limit exceeded" => "arrays or objects nested more than 128 deep",
        _ => return None,
    })
}

/// serde's type messages (`invalid type: integer `3`, expected u32`, `missing field `x``), in
/// words; `None` for any other message.
fn data_words(message: &str) -> Option<String> {
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
    {
        let (found, expected) = rest.split_once(", expected ")?;
        return Some(format!(
            "expected {}, found {}",
            expected_words(expected),
            found_words(found)
        ));
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        let (n, expected) = rest.split_once(", expected ")?;
        return Some(format!(
            "expected {}, found an array of {n} element{}",
            expected_words(expected),
            if n == "1" { "" } else { "s" }
        ));
    }
    let key = |prefix: &str| {
        let rest = message.strip_prefix(prefix)?;
        let name = rest.strip_prefix('`')?;
        Some(name[..name.find('`')?].to_string())
    };
    if let Some(k) = key("missing field ") {
        return Some(format!("the key {k} is missing"));
    }
    if let Some(k) = key("unknown field ") {
        return Some(format!("the key {k} is not one that belongs here"));
    }
    if let Some(k) = key("duplicate field ") {
        return Some(format!("the key {k} is given twice"));
    }
    if let Some(k) = key("unknown variant ") {
        let known = message.split_once("expected ").map_or("", |(_, k)| k);
        return Some(format!("{k:?} is not {}", known.replace('`', "")));
    }
    None
}

/// What serde says it found (`integer `3``, `string "x"`, `map`), as [`value`] says it.
fn found_words(found: &str) -> String {
    let quoted = |prefix: &str| {
        found
            .strip_prefix(prefix)
            .map(|v| v.trim_matches('`').to_string())
    };
    if let Some(n) = quoted("integer ").or_else(|| quoted("floating point ")) {
        return format!("the number {n}");
    }
    if let Some(b) = quoted("boolean ") {
        return format!("the boolean {b}");
    }
    if let Some(s) = found.strip_prefix("string ") {
        return format!("the string {s}");
    }
    match found {
        "map" => "an object".into(),
        "sequence" => "an array".into(),
        "unit value" | "null" => "null".into(),
        other => other.into(),
    }
}

/// What serde says it expected, in words: Rust's number types become the numbers they hold.
fn expected_words(expected: &str) -> String {
    match expected.trim_start_matches("a ").trim_start_matches("an ") {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number of 0 or more".into(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".into(),
        "f32" | "f64" => "a number".into(),
        "sequence" => "an array".into(),
        "map" => "an object".into(),
        "string" | "borrowed string" => "a string".into(),
        "boolean" => "true or false".into(),
        other if other.starts_with("struct ") => "an object".into(),
        _ => expected.replace('`', ""),
    }
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

    fn problem_of(text: &str) -> String {
        json_problem(&serde_json::from_str::<Value>(text).unwrap_err())
    }

    #[test]
    fn syntax_errors_are_worded_for_the_person_fixing_the_file() {
        assert_eq!(
            problem_of("{'a': 1}"),
            "a key must be a string in double quotes"
        );
        assert_eq!(
            problem_of("{\"a\": }"),
            "a value (a string in double quotes, a number, true, false, null, an array or an \
             object) should be here"
        );
        assert_eq!(
            problem_of("{\"a\": 1"),
            "the text ends before the object is closed with }"
        );
        assert_eq!(
            problem_of("[1, 2,]"),
            "a comma before the closing bracket (remove the comma)"
        );
        assert_eq!(
            problem_of("{\"a\": 1} x"),
            "more text follows the end of the JSON value"
        );
        assert_eq!(
            problem_of("\"a\nb\""),
            "a line break or another control character inside a string (a line break is \
             written \\n)"
        );
        assert_eq!(
            problem_of("{\"a\": nul}"),
            "a word JSON does not know: text must be in double quotes, and the only bare words \
             are true, false and null"
        );
        assert_eq!(
            problem_of("{\"a\" 1}"),
            "a colon (:) should follow the key here"
        );
        assert_eq!(
            problem_of("\"\\q\""),
            "a backslash starts an escape JSON does not have (a backslash itself is written \\\\)"
        );
    }

    #[test]
    fn every_syntax_message_of_serde_json_has_words() {
        // Each text that serde_json writes for a syntax error, from the texts that make it;
        // a serde_json that changed a message would leave it unworded, and this fails.
        for text in [
            "[1",
            "{\"a\": 1",
            "\"abc",
            "",
            "{\"a\" 1}",
            "[1 2]",
            "{\"a\": 1 \"b\"}",
            "tru",
            "{\"a\": }",
            "\"\\q\"",
            "-",
            "1e999999",
            "\"\\udc00x\"",
            "\"\\ud800\"",
            "\"a\u{1}\"",
            "{1: 2}",
            "[1,]",
            "1 2",
            &"[".repeat(200),
        ] {
            let e = serde_json::from_str::<Value>(text).unwrap_err();
            let raw = e.to_string();
            let raw = &raw[..raw.rfind(" at line ").unwrap_or(raw.len())];
            assert!(
                syntax_words(raw).is_some(),
                "{text:?} gives {raw:?}, not worded"
            );
        }
    }

    #[test]
    fn type_errors_name_numbers_and_keys_not_rust_types() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct S {
            n: u32,
            x: f64,
        }
        let problem = |t: &str| json_problem(&serde_json::from_str::<S>(t).unwrap_err());
        assert_eq!(
            problem(r#"{"n": "3", "x": 1}"#),
            "expected a whole number of 0 or more, found the string \"3\""
        );
        assert_eq!(
            problem(r#"{"n": -1, "x": 1}"#),
            "expected a whole number of 0 or more, found the number -1"
        );
        assert_eq!(problem(r#"{"n": 1}"#), "the key x is missing");
        assert_eq!(
            problem(r#"{"n": 1, "x": 1, "y": 2}"#),
            "the key y is not one that belongs here"
        );
        assert_eq!(
            problem("[1]"),
            "expected an object, found an array of 1 element"
        );
        assert_eq!(problem("3"), "expected an object, found the number 3");
    }

    #[test]
    fn values_are_described_by_their_type() {
        assert_eq!(value(&serde_json::json!(1.5)), "the number 1.5");
        assert_eq!(value(&serde_json::json!({})), "an object");
        assert_eq!(value(&serde_json::json!([1, 2])), "an array of 2 elements");
        assert_eq!(value(&serde_json::json!("x")), "the string \"x\"");
    }
}
