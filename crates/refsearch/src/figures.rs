//! Figure captions found in page text, figure notes, and the figure chunks built from both.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

use crate::chunk::{Chunk, ChunkKind, FigureInfo};

/// A caption line found in the text: `Figure 15.1: Simple Two-Dimensional Plot.`
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caption {
    /// `Figure 15.1`.
    pub figure_ref: String,
    /// `15.1`, used in the chunk id.
    pub number: String,
    /// The physical page (1-based) the caption line is on.
    pub page: u32,
    /// The whole caption, wrapped lines joined: `Figure 15.1: Simple Two-Dimensional Plot.`
    pub text: String,
}

/// A caption's first line wraps onto the next when it is at least this long
/// (trimmed); shorter lines end their caption.
const FULL_LINE_CHARS: usize = 60;

/// At most this many wrapped lines are joined to a caption's first line.
const MAX_CONTINUATION_LINES: usize = 4;

/// Reads `Figure N.M: text` at the start of a line (leading whitespace allowed)
/// and returns `(number, text after the colon)`. The colon is what makes it a
/// caption: a cross-reference such as `see Figure 15.1` or `Figure 15.1 shows`
/// has none, or does not start the line.
pub fn parse_caption_line(line: &str) -> Option<(String, String)> {
    let rest = line.trim_start().strip_prefix("Figure ")?;
    let (number, after) = rest.split_once(':')?;
    let (major, minor) = number.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || !digits(minor) {
        return None;
    }
    Some((number.to_owned(), after.trim().to_owned()))
}

/// Every caption in `pages` (index 0 = page 1), in document order.
///
/// A caption's wrapped lines are joined while the previous line was full
/// width and the next line is non-blank and not indented (an indented line
/// starts a new paragraph in this layout). Hyphenated line breaks are mended.
pub fn parse_captions(pages: &[String]) -> Vec<Caption> {
    let mut captions = Vec::new();
    for (index, page_text) in pages.iter().enumerate() {
        let lines: Vec<&str> = page_text.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            let Some((number, first)) = parse_caption_line(line) else {
                continue;
            };
            let figure_ref = format!("Figure {number}");
            let mut text = format!("{figure_ref}: {first}");
            let mut previous = line.trim();
            for next in lines.iter().skip(at + 1).take(MAX_CONTINUATION_LINES) {
                let wraps = previous.chars().count() >= FULL_LINE_CHARS
                    && !next.trim().is_empty()
                    && !next.starts_with(char::is_whitespace)
                    && parse_caption_line(next).is_none();
                if !wraps {
                    break;
                }
                join_wrapped(&mut text, next.trim());
                previous = next.trim();
            }
            captions.push(Caption {
                figure_ref,
                number,
                page: index as u32 + 1,
                text,
            });
        }
    }
    captions
}

/// Appends a wrapped line, mending `quar-` + `tic` into `quartic`.
fn join_wrapped(text: &mut String, next: &str) {
    let hyphenated = text.ends_with('-')
        && text.chars().rev().nth(1).is_some_and(char::is_alphabetic)
        && next.starts_with(char::is_lowercase);
    if hyphenated {
        text.pop();
    } else {
        text.push(' ');
    }
    text.push_str(next);
}

/// One entry of a figure-notes file: a description of what a figure draws.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureNote {
    /// How the document names the figure: `Figure 15.1`.
    pub figure_ref: String,
    /// The physical page (1-based) the figure's caption is on.
    pub page: u32,
    /// What kind of figure it is: `chart`, `diagram`, `photo`, ...
    pub kind: String,
    /// What is drawn: axes, labels, legend, printed values.
    pub summary: String,
}

/// A figure-notes file that cannot be used. Startup fails on it: a note that
/// silently does not apply would make the figure look undescribed.
#[derive(Debug, thiserror::Error)]
pub enum NotesError {
    /// The file could not be read.
    #[error("cannot read figure notes {path}: {source}")]
    Read {
        /// The notes file.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The file is not a JSON array of notes.
    #[error(
        "figure notes {path} are not a JSON array of {{figure_ref, page, kind, summary}}: {source}"
    )]
    Syntax {
        /// The notes file.
        path: String,
        /// serde_json's error, with line and column.
        source: serde_json::Error,
    },
    /// Notes that do not fit the PDF, one message per problem.
    #[error("figure notes do not match the PDF:\n  {}", .0.join("\n  "))]
    Mismatch(Vec<String>),
}

/// Reads a figure-notes file: a JSON array of [`FigureNote`].
pub fn load_notes(path: &Path) -> Result<Vec<FigureNote>, NotesError> {
    let text = std::fs::read_to_string(path).map_err(|source| NotesError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse_notes(&text).map_err(|source| NotesError::Syntax {
        path: path.display().to_string(),
        source,
    })
}

/// Parses the text of a figure-notes file.
pub fn parse_notes(text: &str) -> Result<Vec<FigureNote>, serde_json::Error> {
    serde_json::from_str(text)
}

/// One figure chunk per caption, described by its note where there is one.
///
/// Every note must name a captioned figure, on the caption's page, at most
/// once, with a non-empty kind and summary; all problems are reported together.
/// A figure chunk cites its caption's page and indexes caption + summary.
pub fn figure_chunks(captions: &[Caption], notes: &[FigureNote]) -> Result<Vec<Chunk>, NotesError> {
    let mut problems = Vec::new();
    let mut by_ref: HashMap<&str, Vec<&Caption>> = HashMap::new();
    for caption in captions {
        by_ref.entry(&caption.figure_ref).or_default().push(caption);
    }
    let mut note_for: HashMap<(&str, u32), &FigureNote> = HashMap::new();
    for (index, note) in notes.iter().enumerate() {
        let at = format!(
            "note {} ({}, page {})",
            index + 1,
            note.figure_ref,
            note.page
        );
        if note.summary.trim().is_empty() {
            problems.push(format!("{at}: summary is empty"));
        }
        if note.kind.trim().is_empty() {
            problems.push(format!("{at}: kind is empty"));
        }
        match by_ref.get(note.figure_ref.as_str()) {
            None => problems.push(format!(
                "{at}: the PDF has no caption `{}: ...`",
                note.figure_ref
            )),
            Some(found) if !found.iter().any(|c| c.page == note.page) => {
                let pages: Vec<String> = found.iter().map(|c| c.page.to_string()).collect();
                problems.push(format!(
                    "{at}: the caption of {} is on page {}, not {}",
                    note.figure_ref,
                    pages.join(", "),
                    note.page
                ));
            }
            Some(_) => {
                if note_for
                    .insert((note.figure_ref.as_str(), note.page), note)
                    .is_some()
                {
                    problems.push(format!("{at}: a second note for the same figure"));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(NotesError::Mismatch(problems));
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let chunks = captions
        .iter()
        .map(|caption| {
            let count = seen.entry(&caption.number).or_default();
            *count += 1;
            let id = match *count {
                1 => format!("fig-{}", caption.number),
                n => format!("fig-{}-{n}", caption.number),
            };
            let note = note_for.get(&(caption.figure_ref.as_str(), caption.page));
            let (kind, summary) = match note {
                Some(note) => (note.kind.trim().to_owned(), note.summary.trim().to_owned()),
                None => ("figure".to_owned(), caption.text.clone()),
            };
            let content = if summary == caption.text {
                caption.text.clone()
            } else {
                format!("{}\n{summary}", caption.text)
            };
            Chunk {
                id,
                page_start: caption.page,
                page_end: caption.page,
                content,
                kind: ChunkKind::Figure(FigureInfo {
                    figure_ref: caption.figure_ref.clone(),
                    caption: caption.text.clone(),
                    kind,
                    summary,
                }),
            }
        })
        .collect();
    Ok(chunks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    fn note(figure_ref: &str, page: u32) -> FigureNote {
        FigureNote {
            figure_ref: figure_ref.into(),
            page,
            kind: "chart".into(),
            summary: "A bar chart of counts per bin.".into(),
        }
    }

    #[test]
    fn a_caption_needs_the_colon_after_its_number() {
        assert_eq!(
            parse_caption_line("   Figure 15.1: Simple Two-Dimensional Plot."),
            Some(("15.1".into(), "Simple Two-Dimensional Plot.".into()))
        );
        assert_eq!(parse_caption_line("Figure 15.1 shows a plot."), None);
        assert_eq!(parse_caption_line("Figure 15: no minor number"), None);
        assert_eq!(parse_caption_line("Figure x.1: not a number"), None);
    }

    #[test]
    fn cross_references_in_running_text_are_not_captions() {
        let p = pages(&["The result is shown in Figure 15.1.\nsee Figure 15.2: a plot\n"]);
        assert!(parse_captions(&p).is_empty());
    }

    #[test]
    fn captions_are_found_on_their_physical_page() {
        let p = pages(&[
            "nothing\n",
            "plot\n   Figure 15.1: Simple Two-Dimensional Plot.\nplot (y)\n",
        ]);
        let captions = parse_captions(&p);
        assert_eq!(captions.len(), 1);
        assert_eq!(captions[0].page, 2);
        assert_eq!(captions[0].figure_ref, "Figure 15.1");
        assert_eq!(
            captions[0].text,
            "Figure 15.1: Simple Two-Dimensional Plot."
        );
    }

    #[test]
    fn a_wrapped_caption_is_joined_and_its_hyphen_mended() {
        let p = pages(&[concat!(
            "    Figure 28.2: Comparison of a piecewise constant, linear, quadratic, cubic, and quar-\n",
            "tic polynomials with 8 breaks to noisy data.\n",
            "next paragraph\n",
        )]);
        let captions = parse_captions(&p);
        assert_eq!(
            captions[0].text,
            "Figure 28.2: Comparison of a piecewise constant, linear, quadratic, cubic, and quartic polynomials with 8 breaks to noisy data."
        );
    }

    #[test]
    fn an_indented_line_after_a_caption_starts_a_new_paragraph() {
        let p = pages(&[concat!(
            "   Figure 30.3: Delaunay triangulation (blue lines) and Voronoi diagram (red lines) of a\n",
            "random set of points\n",
            "   Additional information about the size of the facets\n",
        )]);
        assert!(parse_captions(&p)[0]
            .text
            .ends_with("of a random set of points"));
    }

    #[test]
    fn a_note_replaces_the_summary_and_kind_of_its_figure() {
        let captions = parse_captions(&pages(&["", "Figure 15.2: Histogram.\n"]));
        let chunks = figure_chunks(&captions, &[note("Figure 15.2", 2)]).unwrap();
        let ChunkKind::Figure(figure) = &chunks[0].kind else {
            panic!("not a figure chunk");
        };
        assert_eq!(figure.kind, "chart");
        assert_eq!(figure.summary, "A bar chart of counts per bin.");
        assert_eq!(
            chunks[0].content,
            "Figure 15.2: Histogram.\nA bar chart of counts per bin."
        );
        assert_eq!(
            (chunks[0].id.as_str(), chunks[0].page_start),
            ("fig-15.2", 2)
        );
    }

    #[test]
    fn without_a_note_the_caption_is_the_summary() {
        let captions = parse_captions(&pages(&["Figure 1.1: A plot.\n"]));
        let chunks = figure_chunks(&captions, &[]).unwrap();
        let ChunkKind::Figure(figure) = &chunks[0].kind else {
            panic!("not a figure chunk");
        };
        assert_eq!(
            (figure.kind.as_str(), figure.summary.as_str()),
            ("figure", "Figure 1.1: A plot.")
        );
        assert_eq!(chunks[0].content, "Figure 1.1: A plot.");
    }

    #[test]
    fn a_note_on_the_wrong_page_is_an_error_naming_the_figure_and_both_pages() {
        let captions = parse_captions(&pages(&["", "Figure 15.2: Histogram.\n"]));
        let err = figure_chunks(&captions, &[note("Figure 15.2", 7)])
            .unwrap_err()
            .to_string();
        assert!(err.contains("Figure 15.2"), "{err}");
        assert!(err.contains("on page 2, not 7"), "{err}");
    }

    #[test]
    fn a_note_for_an_uncaptioned_figure_is_an_error_naming_it() {
        let captions = parse_captions(&pages(&["Figure 1.1: A plot.\n"]));
        let err = figure_chunks(&captions, &[note("Figure 9.9", 1)])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("Figure 9.9") && err.contains("no caption"),
            "{err}"
        );
    }

    #[test]
    fn every_bad_note_is_reported_not_just_the_first() {
        let captions = parse_captions(&pages(&["Figure 1.1: A plot.\n"]));
        let notes = [
            note("Figure 1.1", 1),
            note("Figure 1.1", 1),
            note("Figure 2.2", 1),
        ];
        let NotesError::Mismatch(problems) = figure_chunks(&captions, &notes).unwrap_err() else {
            panic!("expected a mismatch");
        };
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn notes_with_unknown_keys_or_wrong_types_do_not_parse() {
        assert!(parse_notes(
            r#"[{"figure_ref":"Figure 1.1","page":1,"kind":"chart","summary":"s","x":1}]"#
        )
        .is_err());
        assert!(parse_notes(
            r#"[{"figure_ref":"Figure 1.1","page":"1","kind":"chart","summary":"s"}]"#
        )
        .is_err());
        assert_eq!(
            parse_notes(r#"[{"figure_ref":"Figure 1.1","page":1,"kind":"chart","summary":"s"}]"#)
                .unwrap()
                .len(),
            1
        );
    }
}
