//! Chunks: the units that are indexed and returned, each citing a page range.

use serde_json::{json, Map, Value};

/// How page text is cut into text chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Chunking {
    /// One chunk per non-blank page.
    Page,
    /// One chunk per numbered section (chapter or `N.M`); chunks run across pages.
    Section,
}

impl Chunking {
    /// The name used on the command line and in `/api/health`.
    pub fn as_str(self) -> &'static str {
        match self {
            Chunking::Page => "page",
            Chunking::Section => "section",
        }
    }
}

/// A described figure: what a figure chunk carries besides its caption.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FigureInfo {
    /// How the document names it, e.g. `Figure 15.1`.
    pub figure_ref: String,
    /// The caption as printed, e.g. `Figure 15.1: Simple Two-Dimensional Plot.`
    pub caption: String,
    /// What kind of figure it is (`chart`, `diagram`, ...; `figure` when unknown).
    pub kind: String,
    /// What is drawn; the caption when no note describes the figure.
    pub summary: String,
}

/// What a chunk is made of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChunkKind {
    /// Running text of a page or a section.
    Text {
        /// The heading of the section the chunk is, for section chunks.
        section: Option<String>,
    },
    /// One figure, located by its caption.
    Figure(FigureInfo),
}

/// One indexed unit, citing the pages `page_start ..= page_end` (1-based, physical).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// Stable id: `p0332` (page), `s0042` (section) or `fig-15.1` (figure).
    pub id: String,
    /// First cited page.
    pub page_start: u32,
    /// Last cited page (≥ `page_start`).
    pub page_end: u32,
    /// The text that is indexed and returned.
    pub content: String,
    /// Text or figure.
    pub kind: ChunkKind,
}

impl Chunk {
    /// `"text"` or `"figure"`, the match's `metadata.chunk_kind`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            ChunkKind::Text { .. } => "text",
            ChunkKind::Figure(_) => "figure",
        }
    }

    /// The match's `metadata` object: a figure's `chunk_kind`, `figure_ref`, `caption` and
    /// `figure`; a section chunk's `section`. A text chunk carries no `chunk_kind`, as a Ragweld
    /// deployment's do not.
    pub fn metadata(&self) -> Value {
        let mut meta = Map::new();
        if let ChunkKind::Figure(_) = self.kind {
            meta.insert("chunk_kind".into(), self.kind_name().into());
        }
        match &self.kind {
            ChunkKind::Text { section } => {
                if let Some(section) = section {
                    meta.insert("section".into(), section.clone().into());
                }
            }
            ChunkKind::Figure(figure) => {
                meta.insert("figure_ref".into(), figure.figure_ref.clone().into());
                meta.insert("caption".into(), figure.caption.clone().into());
                meta.insert(
                    "figure".into(),
                    json!({ "kind": figure.kind, "summary": figure.summary }),
                );
            }
        }
        Value::Object(meta)
    }
}

/// One text chunk per non-blank page, in page order.
pub fn page_chunks(pages: &[String]) -> Vec<Chunk> {
    pages
        .iter()
        .enumerate()
        .filter(|(_, text)| !text.trim().is_empty())
        .map(|(index, text)| {
            let page = index as u32 + 1;
            Chunk {
                id: format!("p{page:04}"),
                page_start: page,
                page_end: page,
                content: text.clone(),
                kind: ChunkKind::Text { section: None },
            }
        })
        .collect()
}

/// A numbered section heading at the start of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionHeading {
    /// `[15]` for a chapter, `[15, 2]` for a section.
    pub number: Vec<u32>,
    /// The heading line, trimmed: `15.2 Two-Dimensional Plots`.
    pub text: String,
}

/// Deepest heading level that starts a section chunk. Subsections (`15.2.1`) are
/// too short: their chunks would rarely span more than a page or two, and
/// section chunking exists to make chunks that run across pages.
const MAX_HEADING_DEPTH: usize = 2;

/// Appendix letters number after every chapter: `A` is 100, `B` 101, ...
const APPENDIX_BASE: u32 = 100;

/// Reads a chapter (`15 Plotting`), section (`15.2 Two-Dimensional Plots`),
/// appendix (`Appendix A External Code Interface`) or appendix section
/// (`A.1 Oct-Files`) heading. The line must start with the number (no indent),
/// one space, then a capitalised title with no wide gaps (layout columns,
/// running headers such as `20      GNU Octave`) and no table-of-contents leader
/// (`.......... 316`). Unnumbered matter (indexes) stays in the chunk before it.
pub fn parse_heading(line: &str) -> Option<SectionHeading> {
    let line = line.trim_end();
    if line.chars().count() > 90 {
        return None;
    }
    let (number, title) = match line.strip_prefix("Appendix ") {
        Some(rest) => {
            let (letter, title) = rest.split_once(' ')?;
            (vec![appendix_number(letter)?], title)
        }
        None => {
            let (number_text, title) = line.split_once(' ')?;
            (parse_section_number(number_text)?, title)
        }
    };
    let starts_capitalised = title.chars().next().is_some_and(char::is_uppercase);
    let wide_gap = title.contains("   ");
    let leader = title.contains(". . .") || title.contains("...");
    if !starts_capitalised || wide_gap || leader || title.trim().len() < 2 {
        return None;
    }
    Some(SectionHeading {
        number,
        text: line.to_owned(),
    })
}

/// `15` → `[15]`, `15.2` → `[15, 2]`, `A.1` → `[100, 1]` (a lone letter is not a
/// number: `A Title` is just a sentence).
fn parse_section_number(text: &str) -> Option<Vec<u32>> {
    let mut parts = text.split('.');
    let first = parts.next()?;
    let rest: Vec<&str> = parts.collect();
    let first = match appendix_number(first) {
        Some(appendix) if !rest.is_empty() => appendix,
        _ => small_number(first).filter(|&n| n > 0)?,
    };
    let mut number = vec![first];
    for part in rest {
        number.push(small_number(part)?);
    }
    (number.len() <= MAX_HEADING_DEPTH).then_some(number)
}

fn small_number(part: &str) -> Option<u32> {
    let ok = !part.is_empty() && part.len() <= 2 && part.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| part.parse().ok()).flatten()
}

fn appendix_number(letter: &str) -> Option<u32> {
    match letter.as_bytes() {
        [b @ b'A'..=b'Z'] => Some(APPENDIX_BASE + u32::from(b - b'A')),
        _ => None,
    }
}

/// Section chunks: the text is cut before every accepted heading, and a chunk
/// cites the pages from its heading's page to the last page holding its text
/// (the page where the next heading starts, unless that heading opens its page).
///
/// A heading is accepted only when its number comes after the previous accepted
/// one (`15` < `15.1` < `15.2` < `16`), which drops numbered list items and
/// stray lines that merely look like headings. Text before the first heading is
/// a chunk of its own.
pub fn section_chunks(pages: &[String]) -> Vec<Chunk> {
    struct Open {
        heading: Option<String>,
        text: String,
        page_start: Option<u32>,
        page_end: u32,
    }
    let mut chunks = Vec::new();
    let mut last_number: Vec<u32> = Vec::new();
    let mut open = Open {
        heading: None,
        text: String::new(),
        page_start: None,
        page_end: 0,
    };
    let close = |open: &mut Open, chunks: &mut Vec<Chunk>| {
        if let Some(page_start) = open.page_start {
            if !open.text.trim().is_empty() {
                chunks.push(Chunk {
                    id: format!("s{:04}", chunks.len()),
                    page_start,
                    page_end: open.page_end,
                    content: std::mem::take(&mut open.text).trim_end().to_owned(),
                    kind: ChunkKind::Text {
                        section: open.heading.take(),
                    },
                });
            }
        }
    };
    for (index, page_text) in pages.iter().enumerate() {
        let page = index as u32 + 1;
        for line in page_text.lines() {
            if let Some(heading) = parse_heading(line).filter(|h| h.number > last_number) {
                close(&mut open, &mut chunks);
                last_number = heading.number;
                open = Open {
                    heading: Some(heading.text),
                    text: String::new(),
                    page_start: Some(page),
                    page_end: page,
                };
            }
            if !line.trim().is_empty() {
                open.page_start.get_or_insert(page);
                open.page_end = page;
            }
            open.text.push_str(line);
            open.text.push('\n');
        }
        open.text.push('\n');
    }
    close(&mut open, &mut chunks);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn chapter_and_section_headings_are_recognised() {
        let h = parse_heading("15.2 Two-Dimensional Plots").unwrap();
        assert_eq!(h.number, [15, 2]);
        assert_eq!(h.text, "15.2 Two-Dimensional Plots");
        assert_eq!(parse_heading("15 Plotting").unwrap().number, [15]);
    }

    #[test]
    fn appendices_and_their_sections_number_after_the_chapters() {
        let appendix = parse_heading("Appendix A External Code Interface").unwrap();
        assert_eq!(appendix.number, [100]);
        assert_eq!(parse_heading("A.1 Oct-Files").unwrap().number, [100, 1]);
        assert_eq!(
            parse_heading("B.2 Demonstration Functions").unwrap().number,
            [101, 2]
        );
        assert!(parse_heading("37 Packages").unwrap().number < appendix.number);
        assert_eq!(
            parse_heading("Appendix A: External Code Interface          1011"),
            None
        );
        assert_eq!(parse_heading("Appendix D [Trouble], page 1079."), None);
        assert_eq!(parse_heading("A Title that is a sentence"), None);
        assert_eq!(parse_heading("AB.1 Not an appendix"), None);
    }

    #[test]
    fn subsections_running_headers_and_contents_lines_are_not_headings() {
        assert_eq!(parse_heading("15.2.1 Axis Configuration"), None);
        assert_eq!(parse_heading("20      GNU Octave (version 7.3.0)"), None);
        assert_eq!(
            parse_heading("15.2 Two-Dimensional Plots . . . . . . . 316"),
            None
        );
        assert_eq!(parse_heading("   15.2 Indented Plots"), None);
        assert_eq!(parse_heading("3 apples are red"), None);
        assert_eq!(parse_heading("316 GNU Octave"), None);
    }

    #[test]
    fn a_section_chunk_spans_from_its_heading_to_the_next_headings_page() {
        let p = pages(&[
            "Front matter\n",
            "1 Intro\nsome text\n",
            "more intro\n",
            "still intro\n1.1 Details\ndetail text\n",
            "\n",
            "detail continues\n",
            "2 Next\nend\n",
        ]);
        let chunks = section_chunks(&p);
        let spans: Vec<(u32, u32)> = chunks.iter().map(|c| (c.page_start, c.page_end)).collect();
        assert_eq!(spans, [(1, 1), (2, 4), (4, 6), (7, 7)]);
        let ids: Vec<&str> = chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["s0000", "s0001", "s0002", "s0003"]);
        assert_eq!(
            chunks[2].kind,
            ChunkKind::Text {
                section: Some("1.1 Details".into())
            }
        );
        assert!(chunks[2].content.starts_with("1.1 Details\ndetail text"));
        assert!(chunks[2].content.contains("detail continues"));
    }

    #[test]
    fn a_heading_numbered_before_the_previous_one_does_not_cut() {
        let p = pages(&["2 Second\ntext\n1 Apples are listed\nmore\n"]);
        let chunks = section_chunks(&p);
        assert_eq!(chunks.len(), 1);
        assert!(chunks[0].content.contains("1 Apples"));
    }

    #[test]
    fn page_chunking_skips_blank_pages_and_numbers_from_one() {
        let chunks = page_chunks(&pages(&["a", "  \n ", "c"]));
        let ids: Vec<&str> = chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["p0001", "p0003"]);
        assert_eq!((chunks[1].page_start, chunks[1].page_end), (3, 3));
    }

    #[test]
    fn figure_metadata_carries_kind_summary_and_ref() {
        let chunk = Chunk {
            id: "fig-1.1".into(),
            page_start: 3,
            page_end: 3,
            content: "Figure 1.1: A plot.".into(),
            kind: ChunkKind::Figure(FigureInfo {
                figure_ref: "Figure 1.1".into(),
                caption: "Figure 1.1: A plot.".into(),
                kind: "chart".into(),
                summary: "A line chart.".into(),
            }),
        };
        let meta = chunk.metadata();
        assert_eq!(meta["chunk_kind"], "figure");
        assert_eq!(meta["figure_ref"], "Figure 1.1");
        assert_eq!(meta["figure"]["kind"], "chart");
        assert_eq!(meta["figure"]["summary"], "A line chart.");
    }
}
