//! The responses the report on show was scored from, when they are at hand (a live run's
//! capture, or the pasted or dropped capture it was scored from), and what each item's top
//! matches said, read from them on demand by `figeval::snippet` — one item at a time, when its
//! ranked window opens, so holding a report costs nothing more.

use std::rc::Rc;

use figeval::snippet::{self, Snippet};

use crate::state::CaptureLines;

/// The report's responses.
#[derive(Debug, Clone)]
pub enum Answers {
    /// Not at hand (a report file, a share link).
    None,
    /// A live run's capture, one envelope per dataset item.
    Live(CaptureLines),
    /// The capture text it was scored from (any capture form).
    Text(Rc<str>),
}

impl PartialEq for Answers {
    /// The same responses: the same shared value (never compared text by text).
    fn eq(&self, other: &Answers) -> bool {
        match (self, other) {
            (Answers::None, Answers::None) => true,
            (Answers::Live(a), Answers::Live(b)) => Rc::ptr_eq(a, b),
            (Answers::Text(a), Answers::Text(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Answers {
    /// The snippets of the top `top` matches answering `question`; `hint` is where its line
    /// probably is in a live capture (the dataset index). `None` when the responses are not at
    /// hand or hold no answer to it.
    pub fn snippets(&self, question: &str, hint: usize, top: usize) -> Option<Result<Vec<Snippet>, String>> {
        let entry = match self {
            Answers::None => return None,
            Answers::Live(lines) => {
                fn in_line<'a>(l: &'a Option<Rc<str>>, q: &str) -> Option<&'a str> {
                    l.as_deref().and_then(|l| snippet::find_entry(l, q))
                }
                lines
                    .get(hint)
                    .and_then(|l| in_line(l, question))
                    .or_else(|| lines.iter().find_map(|l| in_line(l, question)))?
            }
            Answers::Text(text) => snippet::find_entry(text, question)?,
        };
        Some(snippet::entry_snippets(entry, top, snippet::SNIPPET_CHARS))
    }
}

impl Answers {
    /// What each of the top `top` matches answering `question` said, as the window shows it
    /// (element 0 is rank 1): the quoted start of its content, then its figure summary. Empty
    /// when the responses are not at hand; one line saying why when they cannot be read.
    #[inline(never)]
    pub fn said(&self, question: &str, hint: usize, top: usize) -> Vec<String> {
        match self.snippets(question, hint, top) {
            None => Vec::new(),
            Some(Err(e)) => vec![format!("What the matches said cannot be shown: {e}")],
            Some(Ok(list)) => list.iter().map(said_text).collect(),
        }
    }
}

/// One match's snippet as text.
fn said_text(s: &Snippet) -> String {
    let mut t = match &s.content {
        Some((text, cut)) => format!("“{text}{}”", if *cut { "…" } else { "" }),
        None => "(no content string)".to_string(),
    };
    if let Some(f) = &s.figure_summary {
        t.push_str(" — figure summary: ");
        t.push_str(f);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(q: &str, content: &str) -> String {
        serde_json::json!({"query": q, "matches": [{"content": content, "metadata": {"figure": {"summary": "a plot"}}}]}).to_string()
    }

    #[test]
    fn a_live_capture_gives_each_item_its_own_snippets() {
        let line = |q: &str, c: &str| -> Option<Rc<str>> {
            Some(format!(r#"{{"question":{q:?},"response":{}}}"#, body(q, c)).into())
        };
        let answers = Answers::Live(Rc::new(vec![line("A?", "alpha"), None, line("C?", "gamma")]));
        let s = answers.snippets("C?", 2, 3).unwrap().unwrap();
        assert_eq!(s[0].content, Some(("gamma".into(), false)));
        assert_eq!(s[0].figure_summary.as_deref(), Some("a plot"));
        // A wrong hint still finds it.
        let s = answers.snippets("A?", 2, 3).unwrap().unwrap();
        assert_eq!(s[0].content, Some(("alpha".into(), false)));
        assert!(answers.snippets("B?", 1, 3).is_none(), "an unanswered item has none");
    }

    #[test]
    fn a_scored_capture_text_gives_snippets_and_a_report_file_none() {
        let text: Rc<str> = format!("{}\n{}\n", body("A?", "alpha"), body("B?", "beta")).into();
        let s = Answers::Text(text).snippets("B?", 0, 5).unwrap().unwrap();
        assert_eq!(s[0].content, Some(("beta".into(), false)));
        assert!(Answers::None.snippets("B?", 0, 5).is_none());
    }

    #[test]
    fn what_a_match_said_is_its_quoted_content_then_its_figure_summary() {
        let text: Rc<str> = body("A?", "alpha").into();
        assert_eq!(
            Answers::Text(text).said("A?", 0, 5),
            vec!["“alpha” — figure summary: a plot".to_string()]
        );
        let bad: Rc<str> = r#"{"query": "A?", "results": []}"#.into();
        assert_eq!(
            Answers::Text(bad).said("A?", 0, 5),
            vec!["What the matches said cannot be shown: the response has no `matches` array".to_string()]
        );
        assert!(Answers::None.said("A?", 0, 5).is_empty());
    }

    #[test]
    fn answers_are_equal_only_when_they_are_the_same_shared_value() {
        let a: Rc<str> = "x".into();
        assert_eq!(Answers::Text(a.clone()), Answers::Text(a));
        assert_ne!(Answers::Text("x".into()), Answers::Text("x".into()));
    }
}
