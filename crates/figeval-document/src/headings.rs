//! Section headings in page text (contract §13): which lines of a page are a numbered
//! section's heading, and where the section a `figure_ref` names (`Section 8.7 Increment
//! Operators`, `§2.7.2 Block Comments`, `Chapter 8: Expressions`) is a heading and where it is
//! only mentioned. The ground check ([`crate::ground`]) rates a prose item by it, and
//! [`section_headings`] offers a page's headings to the dataset editor ([`crate::editor`]).
//!
//! Titles are compared normalized (case, ligatures, typographic quotes and dashes, spacing);
//! table-of-contents and index pages (lines with dot leaders) never count.

use crate::caption::{has_dot_leader, page_number};

/// A section named by a `figure_ref`: `Section 8.7 Increment Operators`, `§2.7.2 Block
/// Comments`, `Chapter 8: Expressions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SectionRef {
    /// `8.7`, when given.
    number: Option<String>,
    /// The title, normalized (see [`normalize`]); may be empty when a number is given.
    title: String,
}

impl SectionRef {
    /// The section `figure_ref` names, or `None` when it names none.
    pub(crate) fn parse(figure_ref: &str) -> Option<SectionRef> {
        const PREFIXES: [&str; 8] = [
            "section", "sect.", "sec.", "sec", "§", "chapter", "chap.", "appendix",
        ];
        let s = figure_ref.trim();
        let lower = s.to_lowercase();
        let prefix = PREFIXES.iter().find(|p| {
            lower.starts_with(*p)
                && !lower[p.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
                || (**p == "§" && lower.starts_with('§'))
        })?;
        // The prefixes are ASCII or `§`, whose lowercase has the same length.
        let rest = s.get(prefix.len()..)?.trim_start();
        let (number, rest) = split_section_number(rest);
        let title = normalize(rest.trim_start_matches([':', '.', '-', '\u{2013}', '\u{2014}']));
        if number.is_none() && title.is_empty() {
            return None;
        }
        Some(SectionRef {
            number: number.map(str::to_lowercase),
            title,
        })
    }

    /// (heading pages, mention pages), table-of-contents pages left out of both.
    pub(crate) fn find(&self, pages: &NormalizedPages) -> (Vec<u32>, Vec<u32>) {
        let mut found = Vec::new();
        let mut mentions = Vec::new();
        for (index, page) in pages.pages.iter().enumerate() {
            if page.contents {
                continue;
            }
            let number = page_number(index);
            if self.is_heading_on(page) {
                found.push(number);
            } else if !self.title.is_empty() && contains_words(&page.text, &self.title) {
                mentions.push(number);
            }
        }
        (found, mentions)
    }

    fn is_heading_on(&self, page: &NormalizedPage) -> bool {
        page.lines.iter().enumerate().any(|(i, line)| {
            let (number, rest) = split_section_number(strip_heading_word(line));
            if self.title.is_empty() {
                return number.is_some() && number == self.number.as_deref() && !rest.is_empty();
            }
            let rest = rest.trim_end_matches(['.', ':']);
            if rest == self.title {
                return true;
            }
            // A title wrapped onto the next line.
            match page.lines.get(i + 1) {
                Some(next) if !rest.is_empty() && self.title.starts_with(rest) => {
                    let joined = format!("{rest} {next}");
                    joined.trim_end_matches(['.', ':']) == self.title
                }
                _ => false,
            }
        })
    }
}

/// A leading `section`/`chapter`/`appendix` word of a heading line (ASCII case ignored).
fn strip_heading_word(line: &str) -> &str {
    for word in ["section ", "chapter ", "appendix "] {
        let head = line.as_bytes().get(..word.len());
        if head.is_some_and(|h| h.eq_ignore_ascii_case(word.as_bytes())) {
            return &line[word.len()..];
        }
    }
    line
}

/// The longest section title [`section_headings`] offers, in characters.
const MAX_HEADING_TITLE_CHARS: usize = 80;

/// The numbered section headings on one page's text, as `figure_ref`s that the ground check
/// finds as a heading on that page (`Section 8.7 Increment Operators`): what a dataset editor
/// offers for a prose item on the page (contract §13.6). A heading here is a line that is a
/// section number (after an optional `Section`/`Chapter`/`Appendix` word) and a title that
/// starts with an uppercase letter, has at most 80 characters, and ends neither in a sentence's
/// `.` or `,` nor in a number (a running header's page number, `Chapter 8: Expressions  171`);
/// a line with dot leaders and a table-of-contents page give none. Each title is offered once,
/// in page order, as the page spells it.
pub fn section_headings(page: &str) -> Vec<String> {
    let normalized = NormalizedPages::new(&[page]);
    let Some(on_page) = normalized.pages.first().filter(|p| !p.contents) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for line in page.lines().filter(|l| !has_dot_leader(l)) {
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        let (Some(number), title) = split_section_number(strip_heading_word(&line)) else {
            continue;
        };
        let last_word = title.split_whitespace().next_back().unwrap_or("");
        let looks_like_heading = title.chars().next().is_some_and(char::is_uppercase)
            && title.chars().count() <= MAX_HEADING_TITLE_CHARS
            && !title.ends_with(['.', ','])
            && !last_word.chars().all(|c| c.is_ascii_digit());
        if !looks_like_heading {
            continue;
        }
        let figure_ref = format!("Section {number} {title}");
        let found_here = SectionRef::parse(&figure_ref).is_some_and(|r| r.is_heading_on(on_page));
        if found_here && !out.contains(&figure_ref) {
            out.push(figure_ref);
        }
    }
    out
}

/// A leading section number (`8.7`, `2.7.2.`, `A.1`, `10`) and the rest, trimmed.
fn split_section_number(s: &str) -> (Option<&str>, &str) {
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c.is_ascii_alphabetic())))
        .map_or(s.len(), |(i, _)| i);
    let candidate = &s[..end];
    let is_number = candidate.chars().any(|c| c.is_ascii_digit())
        && (candidate.len() == end)
        && s[end..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == ':')
        && (candidate.as_bytes()[0].is_ascii_digit() || candidate.as_bytes().get(1) == Some(&b'.'));
    if is_number {
        let number = candidate.trim_end_matches('.');
        (Some(number), s[end..].trim_start_matches(':').trim())
    } else {
        (None, s.trim())
    }
}

/// Whether `hay` holds `needle` between word boundaries (both normalized).
fn contains_words(hay: &str, needle: &str) -> bool {
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Lowercase, ligatures and typographic quotes and dashes replaced, whitespace collapsed.
fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        match c {
            '\u{fb00}' => out.push_str("ff"),
            '\u{fb01}' => out.push_str("fi"),
            '\u{fb02}' => out.push_str("fl"),
            '\u{fb03}' => out.push_str("ffi"),
            '\u{fb04}' => out.push_str("ffl"),
            '\u{2018}' | '\u{2019}' => out.push('\''),
            '\u{201c}' | '\u{201d}' => out.push('"'),
            '\u{2010}'..='\u{2014}' | '\u{2212}' => out.push('-'),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// A page made ready for section matching.
struct NormalizedPage {
    /// The whole page, normalized.
    text: String,
    /// Each non-blank line, normalized.
    lines: Vec<String>,
    /// A table-of-contents or index page.
    contents: bool,
}

/// Every page of a document made ready for section matching, index 0 holding page 1.
pub(crate) struct NormalizedPages {
    pages: Vec<NormalizedPage>,
}

/// A page with at least this many dot-leader lines is a table of contents (or an index).
const CONTENTS_LEADER_LINES: usize = 5;

impl NormalizedPages {
    /// Each page normalized, its lines split, and whether it is a contents page.
    pub(crate) fn new<S: AsRef<str>>(pages: &[S]) -> NormalizedPages {
        let pages = pages
            .iter()
            .map(|p| {
                let p = p.as_ref();
                let leaders = p.lines().filter(|l| has_dot_leader(l)).count();
                let lines: Vec<String> =
                    p.lines().map(normalize).filter(|l| !l.is_empty()).collect();
                NormalizedPage {
                    text: lines.join(" "),
                    lines,
                    contents: leaders >= CONTENTS_LEADER_LINES,
                }
            })
            .collect();
        NormalizedPages { pages }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_references_parse_in_their_usual_spellings() {
        let parse = |s: &str| SectionRef::parse(s).map(|r| (r.number, r.title));
        let some = |n: Option<&str>, t: &str| Some((n.map(str::to_string), t.to_string()));
        assert_eq!(
            parse("Section 8.7 Increment Operators"),
            some(Some("8.7"), "increment operators")
        );
        assert_eq!(
            parse("§2.7.2 Block Comments"),
            some(Some("2.7.2"), "block comments")
        );
        assert_eq!(
            parse("Chapter 8: Expressions"),
            some(Some("8"), "expressions")
        );
        assert_eq!(parse("Sec. A.1 Notes"), some(Some("a.1"), "notes"));
        assert_eq!(parse("Section 3."), some(Some("3"), ""));
        assert_eq!(parse("Sections"), None);
        assert_eq!(parse("Section"), None);
        assert_eq!(parse("Increment Operators"), None);
    }
}
