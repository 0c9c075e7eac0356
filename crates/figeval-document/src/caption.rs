//! Figure and table labels in page text: which are captions, which are mentions (contract
//! §13.1).
//!
//! A caption is a label at the start of a line: `Figure 15.1: Simple plot.`, `Figure 5-5.
//! Overview`, `FIG. 5-5 Block diagram`, `Fig. 12`, `Table 3: Counts`. A label anywhere else
//! is a mention (`shown in Figure 15.1`), and so is a label at the start of a line that the
//! running text flows into (`... shown in` / `Figure 15.2. Note that ...`), one followed by a
//! lowercase word (`Figure 15.1 shows`), and a list-of-figures entry with dot leaders.
//!
//! Labels are compared normalized: case, a dot after `Fig`, spacing and line breaks between
//! the word and the number, and the separator inside the number (`.`, `-`, en dash) do not
//! matter, so `FIG. 5–5`, `Figure 5-5` and `figure 5.5` are one label.
//!
//! Pages are given as texts, index 0 holding page 1; nothing here reads a file.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

/// What a label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LabelKind {
    /// `Figure`, `Fig.`, `FIG`.
    Figure,
    /// `Table`.
    Table,
}

/// A normalized figure or table label: its kind and its number, the number's parts joined by
/// `.` (`Figure 5-5` has the number `5.5`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Label {
    kind: LabelKind,
    number: String,
}

impl Label {
    /// The label at the start of `text` (`"Figure 15.1"`, `"FIG. 5-5"`, `"fig 12b"`), when
    /// `text` starts with one; what follows the number is ignored.
    pub fn parse(text: &str) -> Option<Label> {
        let text = text.trim_start();
        let word = match_word(text)?;
        let (label, _) = match_number(&text[word.len..], word)?;
        Some(label)
    }

    /// Whether the label names a figure or a table.
    pub fn kind(&self) -> LabelKind {
        self.kind
    }

    /// The normalized number: `15.1`, `5.5`, `12b`, `A.1`.
    pub fn number(&self) -> &str {
        &self.number
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.kind {
            LabelKind::Figure => "Figure",
            LabelKind::Table => "Table",
        };
        write!(f, "{word} {}", self.number)
    }
}

/// One caption found in the page texts: the caption index entry of a dataset editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Caption {
    /// The label as a dataset's `figure_ref` would name it: `Figure 15.1`, `Table 3`.
    pub label: String,
    /// The 1-based physical page the caption starts on.
    pub page: u32,
    /// The caption's text after its label and separator, wrapped lines joined and hyphenated
    /// line breaks mended: `Simple Two-Dimensional Plot.`
    pub text: String,
}

/// Every caption in `pages` (index 0 = page 1), in page order; a label captioned twice on
/// one page is listed once.
pub fn find_captions<S: AsRef<str>>(pages: &[S]) -> Vec<Caption> {
    let mut out: Vec<Caption> = Vec::new();
    for (index, page) in pages.iter().enumerate() {
        let page = page.as_ref();
        let number = page_number(index);
        let mut seen: Vec<&Label> = Vec::new();
        let hits = scan_page(page);
        for hit in hits.iter().filter(|h| h.caption) {
            if seen.contains(&&hit.label) {
                continue;
            }
            seen.push(&hit.label);
            out.push(Caption {
                label: hit.label.to_string(),
                page: number,
                text: caption_text(page, hit.end),
            });
        }
    }
    out
}

/// Where each label is captioned and where it is only mentioned, 1-based pages ascending.
#[derive(Debug, Default)]
pub(crate) struct LabelPages {
    /// Label → pages with a caption of it.
    pub captions: BTreeMap<Label, Vec<u32>>,
    /// Label → pages that mention it without a caption of it.
    pub mentions: BTreeMap<Label, Vec<u32>>,
}

/// Every label of every page, sorted into captions and mentions.
pub(crate) fn label_pages<S: AsRef<str>>(pages: &[S]) -> LabelPages {
    let mut out = LabelPages::default();
    for (index, page) in pages.iter().enumerate() {
        let number = page_number(index);
        let hits = scan_page(page.as_ref());
        for hit in &hits {
            if hit.caption {
                push_page(out.captions.entry(hit.label.clone()).or_default(), number);
            }
        }
        for hit in hits.into_iter().filter(|h| !h.caption) {
            let captioned_here = out
                .captions
                .get(&hit.label)
                .is_some_and(|p| p.last() == Some(&number));
            if !captioned_here {
                push_page(out.mentions.entry(hit.label).or_default(), number);
            }
        }
    }
    out
}

fn push_page(pages: &mut Vec<u32>, page: u32) {
    if pages.last() != Some(&page) {
        pages.push(page);
    }
}

/// The 1-based page number of index `i`, saturating (no document has 4 billion pages).
pub(crate) fn page_number(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// One label found in a page.
#[derive(Debug)]
struct Hit {
    label: Label,
    /// Byte offset just after the label's number.
    end: usize,
    /// Whether the label starts a caption.
    caption: bool,
}

/// The word that starts a label.
#[derive(Clone, Copy)]
struct Word {
    kind: LabelKind,
    /// Its length in bytes.
    len: usize,
    /// `Fig.12` is a label, `figure1` (a file name) is not.
    needs_space: bool,
    /// `Figures 3 and 4` mentions; it never captions.
    plural: bool,
}

/// The label word at the start of `s`, case-insensitively, ending at a word boundary.
fn match_word(s: &str) -> Option<Word> {
    const WORDS: [(&str, LabelKind, bool, bool); 6] = [
        ("figures", LabelKind::Figure, true, true),
        ("figure", LabelKind::Figure, true, false),
        ("fig.", LabelKind::Figure, false, false),
        ("fig", LabelKind::Figure, true, false),
        ("tables", LabelKind::Table, true, true),
        ("table", LabelKind::Table, true, false),
    ];
    let bytes = s.as_bytes();
    WORDS.iter().find_map(|&(w, kind, needs_space, plural)| {
        let head = bytes.get(..w.len())?;
        // A digit may follow at once (OCR's lost space, `Figure15.1:`); `match_number` decides.
        let boundary = w.ends_with('.') || !bytes.get(w.len()).is_some_and(u8::is_ascii_alphabetic);
        (head.eq_ignore_ascii_case(w.as_bytes()) && boundary).then_some(Word {
            kind,
            len: w.len(),
            needs_space,
            plural,
        })
    })
}

/// Characters accepted between the parts of a number: dot, hyphen, the Unicode hyphens, en
/// dash, em dash (OCR reads a hyphen as one), minus sign.
const NUMBER_SEPARATORS: [char; 8] = [
    '.', '-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
];

/// The digit OCR misreads as `c` inside a number: `l` and `I` for `1`, `O` for `0`.
fn ocr_digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c),
        b'l' | b'I' => Some(b'1'),
        b'O' => Some(b'0'),
        _ => None,
    }
}

/// The digits of a run of digits and OCR's misreadings of them at the start of `b`, when the
/// run holds at least one real digit (so `Table I` stays no number): `l5` is `15`, `1O` is
/// `10`. With `alone_ok`, a single misread character is a digit too (`15.l`, after a part
/// with real digits).
fn digit_run(b: &[u8], alone_ok: bool) -> Option<String> {
    let run: Vec<u8> = b.iter().map_while(|&c| ocr_digit(c)).collect();
    let real = b[..run.len()].iter().any(u8::is_ascii_digit);
    // Without a real digit only one misread character, and only where `alone_ok` allows it.
    if run.is_empty() || (!real && (run.len() > 1 || !alone_ok)) {
        return None;
    }
    // `2lists` reads as `21` here; the caller refuses a number run into a word.
    String::from_utf8(run).ok()
}

/// After a label word: the whitespace (at most one line break) and the number. Returns the
/// label and the number of bytes of `s` it took.
///
/// OCR's noise is accepted (contract §13.1): `l`, `I` and `O` inside a number with real
/// digits, an em dash between its parts, and a lost space after `Figure`/`Table` when a colon
/// follows the number (`Figure15.1:`).
fn match_number(s: &str, word: Word) -> Option<(Label, usize)> {
    let mut at = 0;
    let mut breaks = 0;
    for c in s.chars() {
        if !c.is_whitespace() || at > 40 {
            break;
        }
        breaks += usize::from(c == '\n');
        at += c.len_utf8();
    }
    if breaks > 1 {
        return None;
    }
    let rest = &s[at..];
    let b = rest.as_bytes();
    let mut number = String::new();
    let mut i;
    let first = digit_run(b, false);
    let first_len = first.as_ref().map_or(0, String::len);
    if let Some(digits) = &first {
        i = first_len;
        number.push_str(digits);
    } else if b.first().is_some_and(u8::is_ascii_uppercase) {
        // An appendix letter, valid only before a separator and digits: `A.1`.
        i = 1;
        number.push_str(&rest[..1]);
    } else {
        return None;
    }
    if first_len > 4 {
        return None;
    }
    while let Some(sep) = rest[i..]
        .chars()
        .next()
        .filter(|c| NUMBER_SEPARATORS.contains(c))
    {
        let after = i + sep.len_utf8();
        let Some(part) = digit_run(&b[after..], first.is_some()) else {
            break;
        };
        if part.len() > 4 {
            break;
        }
        number.push('.');
        number.push_str(&part);
        i = after + part.len();
    }
    let first = first_len;
    // `Figure15.1:` is OCR's lost space; `figure1.pdf` (a file name) is no label.
    if at == 0 && word.needs_space && b.get(i) != Some(&b':') {
        return None;
    }
    if first == 0 && !number.contains('.') {
        return None;
    }
    if b.get(i).is_some_and(u8::is_ascii_alphabetic)
        && !b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric)
    {
        number.push(char::from(b[i].to_ascii_lowercase()));
        i += 1;
    }
    if b.get(i).is_some_and(u8::is_ascii_alphanumeric) {
        return None;
    }
    Some((
        Label {
            kind: word.kind,
            number,
        },
        at + i,
    ))
}

/// Every label in `page`, in text order.
fn scan_page(page: &str) -> Vec<Hit> {
    let bytes = page.as_bytes();
    let mut hits = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let starts_word = matches!(b, b'f' | b'F' | b't' | b'T')
            && !page[..i]
                .chars()
                .next_back()
                .is_some_and(char::is_alphanumeric);
        if let Some(word) = starts_word.then(|| match_word(&page[i..])).flatten() {
            if let Some((label, len)) = match_number(&page[i + word.len..], word) {
                let end = i + word.len + len;
                let caption = !word.plural && is_caption(page, i, end);
                hits.push(Hit {
                    label,
                    end,
                    caption,
                });
                i = end;
                continue;
            }
        }
        i += 1;
    }
    hits
}

/// Words that running text ends a line with just before a label it mentions: `shown in` /
/// `Figure 15.2. Note that ...`.
const CONNECTORS: [&str; 26] = [
    "in",
    "see",
    "of",
    "and",
    "or",
    "to",
    "shown",
    "from",
    "by",
    "also",
    "with",
    "on",
    "at",
    "cf",
    "like",
    "under",
    "per",
    "as",
    "into",
    "the",
    "this",
    "that",
    "illustrated",
    "depicted",
    "given",
    "compare",
];

/// Whether the label at `start..end` of `page` starts a caption.
fn is_caption(page: &str, start: usize, end: usize) -> bool {
    let line_start = page[..start].rfind('\n').map_or(0, |n| n + 1);
    if !page[line_start..start].chars().all(char::is_whitespace) {
        return false;
    }
    let line_end = page[end..].find('\n').map_or(page.len(), |n| end + n);
    if has_dot_leader(&page[line_start..line_end]) {
        return false;
    }
    let rest = &page[end..line_end];
    let mut chars = rest.chars();
    match chars.next() {
        Some(':') => return true,
        Some('.') => {
            let after = chars.as_str();
            if !after.is_empty() && !after.starts_with(char::is_whitespace) {
                return false;
            }
            if after.trim_start().starts_with(char::is_lowercase) {
                return false;
            }
        }
        None => {}
        Some(c) if c.is_whitespace() => {
            let next = rest.trim_start().chars().next();
            let fits = next.is_none_or(|n| {
                n.is_uppercase()
                    || n.is_ascii_digit()
                    || matches!(n, '"' | '\'' | '(' | '[' | '\u{201c}' | '\u{2018}')
                    || matches!(n, '-' | '\u{2013}' | '\u{2014}' | '|' | ':' | '.')
            });
            if !fits {
                return false;
            }
        }
        Some('\u{2013}' | '\u{2014}' | '|') => {}
        Some(_) => return false,
    }
    !flows_into(&page[..line_start])
}

/// Whether the text before a line (`before` ends with its line break) ends with running text
/// that continues onto it: a non-blank last line ending in a connecting word.
fn flows_into(before: &str) -> bool {
    let before = before.strip_suffix('\n').unwrap_or(before);
    let before = before.strip_suffix('\r').unwrap_or(before);
    let last_line = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    let trimmed = last_line.trim_end();
    if !trimmed.ends_with(|c: char| c.is_alphabetic()) {
        return false;
    }
    let word_start = trimmed.rfind(|c: char| !c.is_alphabetic()).map_or(0, |n| {
        n + trimmed[n..].chars().next().map_or(1, char::len_utf8)
    });
    let word = trimmed[word_start..].to_lowercase();
    CONNECTORS.contains(&word.as_str())
}

/// Whether a line holds a run of dot leaders (`. . . . .` or `.....`), as table-of-contents
/// and list-of-figures entries do.
pub(crate) fn has_dot_leader(line: &str) -> bool {
    let mut run = 0;
    for c in line.chars() {
        match c {
            '.' => run += 1,
            '\u{2026}' => run += 3,
            ' ' => {}
            _ => run = 0,
        }
        if run >= 5 {
            return true;
        }
    }
    false
}

/// A caption line's first line is joined with the next when it is at least this long
/// (trimmed): a short line ends its caption.
const FULL_LINE_CHARS: usize = 60;
/// At most this many wrapped lines are joined to a caption's first line.
const MAX_CONTINUATION_LINES: usize = 4;

/// The caption's text from just after its label's number to its end.
///
/// Wrapped lines are joined while the previous line was long, did not end a sentence, and the
/// next line is non-blank, starts no caption, and is not indented like the caption's first
/// line (in a laid-out page such a line starts a new paragraph).
fn caption_text(page: &str, end: usize) -> String {
    let line_start = page[..end].rfind('\n').map_or(0, |n| n + 1);
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let indent = indent_of(&page[line_start..]);
    let mut lines = page[end..].lines();
    let first = lines.next().unwrap_or("");
    let first = first
        .trim_start_matches([':', '.'])
        .trim_start()
        .trim_start_matches(['-', '\u{2013}', '\u{2014}', '|'])
        .trim();
    let mut text = first.to_string();
    let mut previous = first;
    for next in lines.take(MAX_CONTINUATION_LINES) {
        let new_paragraph = indent > 0 && indent_of(next) == indent;
        let next = next.trim();
        let wraps = !new_paragraph
            && previous.chars().count() >= FULL_LINE_CHARS
            && !previous.ends_with(['.', ':', '!', '?'])
            && !next.is_empty()
            && match_word(next).is_none_or(|w| match_number(&next[w.len..], w).is_none());
        if !wraps {
            break;
        }
        join_wrapped(&mut text, next);
        previous = next;
    }
    text
}

/// Appends a wrapped line, mending `quar-` + `tic` into `quartic`.
fn join_wrapped(text: &mut String, next: &str) {
    let hyphenated = text.ends_with('-')
        && text.chars().rev().nth(1).is_some_and(char::is_alphabetic)
        && next.starts_with(char::is_lowercase);
    if hyphenated {
        text.pop();
    } else if !text.is_empty() {
        text.push(' ');
    }
    text.push_str(next);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(page: &str) -> Vec<(String, bool)> {
        scan_page(page)
            .into_iter()
            .map(|h| (h.label.to_string(), h.caption))
            .collect()
    }

    #[test]
    fn labels_in_every_spelling_normalize_to_one_label() {
        let one = Label::parse("Figure 5.5");
        for spelling in [
            "Figure 5-5",
            "FIG. 5-5",
            "fig 5\u{2013}5",
            "Fig.5.5",
            "figure\n 5.5:",
            "FIGURE   5.5 Overview",
        ] {
            assert_eq!(Label::parse(spelling), one, "{spelling:?}");
        }
        assert_eq!(Label::parse("Fig. 12").unwrap().to_string(), "Figure 12");
        assert_eq!(Label::parse("Table A.1").unwrap().to_string(), "Table A.1");
        assert_eq!(Label::parse("Figure 3b").unwrap().number(), "3b");
        for not_a_label in [
            "figure1.pdf",
            "Figures",
            "Figure x",
            "Figure 12345",
            "Figure A",
            "configure 2",
            "Figure\n\n2",
        ] {
            assert_eq!(Label::parse(not_a_label), None, "{not_a_label:?}");
        }
    }

    #[test]
    fn ocr_noise_in_a_label_reads_as_the_label() {
        let one = Label::parse("Figure 15.1");
        for noisy in [
            "Figure l5.1",
            "Figure 15.l",
            "Figure I5.1",
            "Figure 15\u{2014}1",
            "Fig. 15.1",
            "Figure  15.1",
            "Figure15.1: Simple",
        ] {
            assert_eq!(Label::parse(noisy), one, "{noisy:?}");
        }
        assert_eq!(Label::parse("Table 1O").unwrap().number(), "10");
        for not_a_label in [
            "Table I",
            "Figure lO",
            "Table ll",
            "Figure15.1 shows",
            "figure1.pdf",
        ] {
            assert_eq!(Label::parse(not_a_label), None, "{not_a_label:?}");
        }
        // Noise does not make a caption of running text.
        for text in [
            "Table 2lists the counts",
            "see Figure l5.1. Next",
            "Figure l5.1 shows",
        ] {
            assert!(labels(text).iter().all(|(_, c)| !c), "{text:?}");
        }
        let found = labels("plot\nFigure l5.l: Simple Two-Dimensional Plot.\n");
        assert_eq!(found, [("Figure 15.1".to_string(), true)]);
    }

    #[test]
    fn a_label_starting_a_line_in_any_caption_style_is_a_caption() {
        for line in [
            "   Figure 15.1: Simple Two-Dimensional Plot.",
            "Figure 5-5. Block diagram",
            "FIG. 5-5 Block diagram",
            "Fig. 12",
            "Figure 3 \u{2014} Overview",
            "Table 2: Counts",
        ] {
            let found = labels(&format!("x axis\n{line}\nnext\n"));
            assert_eq!(found.len(), 1, "{line:?}");
            assert!(found[0].1, "{line:?} is a caption");
        }
    }

    #[test]
    fn mentions_in_running_text_are_not_captions() {
        for text in [
            "The result is shown in Figure 15.1. Next",
            "See Figure 22.4.",
            "produces the histogram shown in\nFigure 15.2. Note that, randn initializes",
            "Figure 15.1 shows a plot.",
            "Figure 15.1, left, shows a plot.",
            "as can be seen in\nFigure 29.3",
            "   Figures 29.1 and 29.2 compare",
            "Figure 15.1 Simple plot . . . . . . . . . 332",
        ] {
            let found = labels(text);
            assert!(!found.is_empty(), "{text:?}");
            assert!(
                found.iter().all(|(_, caption)| !caption),
                "{text:?}: {found:?}"
            );
        }
    }

    #[test]
    fn captions_are_indexed_on_their_page_with_their_wrapped_text() {
        let pages = [
            "The result of which can be seen in Figure 28.2.\n",
            concat!(
                "    Figure 28.2: Comparison of a piecewise constant, linear, quadratic, cubic, and quar-\n",
                "tic polynomials with 8 breaks to noisy data.\n",
                "next paragraph\n",
                "   Figure 28.3: Short.\n",
                "   Figure 30.3: Delaunay triangulation (blue lines) and Voronoi diagram (red lines) of a\n",
                "random set of points\n",
                "   Additional information about the size of the facets\n",
                "   Table 34.1: Available overloaded operators and their corresponding class method\n",
                "   An example mtimes method for the polynomial class might look like\n",
            ),
        ];
        let captions = find_captions(&pages);
        let got: Vec<(&str, u32, &str)> = captions
            .iter()
            .map(|c| (c.label.as_str(), c.page, c.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                ("Figure 28.2", 2, "Comparison of a piecewise constant, linear, quadratic, cubic, and quartic polynomials with 8 breaks to noisy data."),
                ("Figure 28.3", 2, "Short."),
                ("Figure 30.3", 2, "Delaunay triangulation (blue lines) and Voronoi diagram (red lines) of a random set of points"),
                ("Table 34.1", 2, "Available overloaded operators and their corresponding class method"),
            ]
        );
    }

    #[test]
    fn label_pages_sort_captions_from_mentions_per_page() {
        let pages = [
            "shown in Figure 1.1 and Fig. 2",
            "Figure 1.1: A plot.\nAs Figure 1.1 shows",
            "",
            "see figure 1-1",
        ];
        let lp = label_pages(&pages);
        let one = Label::parse("Figure 1.1").unwrap();
        assert_eq!(lp.captions[&one], [2]);
        assert_eq!(lp.mentions[&one], [1, 4]);
        assert_eq!(lp.mentions[&Label::parse("Figure 2").unwrap()], [1]);
        assert!(!lp.captions.contains_key(&Label::parse("Figure 2").unwrap()));
    }

    #[test]
    fn dot_leaders_are_told_from_ellipses() {
        assert!(has_dot_leader("8.7 Increment Operators . . . . . . . 187"));
        assert!(has_dot_leader("Plots.........12"));
        assert!(!has_dot_leader("plot (h, . . . )"));
    }

    #[test]
    fn no_input_makes_the_scanner_panic() {
        for text in [
            "F",
            "fig.",
            "Figure ",
            "Figure 1.",
            "Figure 1-",
            "é Figure 2\u{2013}",
            "Tables\u{2013}",
        ] {
            let _ = find_captions(&[text]);
            let _ = label_pages(&[text]);
        }
    }
}
