//! The corpus: one PDF's page text chunked (pages or sections, figures) and indexed, and
//! several PDFs' corpora merged into one index whose chunks name their file.

use crate::{chunk, figures, Chunk, ChunkKind, Chunking, Error, FigureNote, SearchIndex};

/// How to build a [`Corpus`] from page text.
#[derive(Debug, Clone)]
pub struct CorpusOptions {
    /// The id searches must name as `repo_id`.
    pub corpus_id: String,
    /// Page or section text chunks.
    pub chunking: Chunking,
    /// Whether to add figure chunks.
    pub figures: bool,
    /// Descriptions of figures; with `figures` off they are checked and not used.
    pub notes: Vec<FigureNote>,
}

/// An indexed PDF: its chunks, in order, and their index.
#[derive(Debug)]
pub struct Corpus {
    /// The id searches must name.
    pub corpus_id: String,
    /// How text was chunked.
    pub chunking: Chunking,
    /// Whether figure chunks were built.
    pub figures_enabled: bool,
    /// Physical pages in the PDF, blank ones included.
    pub page_count: usize,
    /// Text and figure chunks in document order (page, then text before figures);
    /// equal scores rank in this order.
    pub chunks: Vec<Chunk>,
    /// How many of `chunks` are figure chunks.
    pub figure_count: usize,
    /// BM25 index over `chunks`.
    pub index: SearchIndex,
    /// The served PDFs' file names, each with the index of its first chunk, in `--pdf` order:
    /// every match states its chunk's file name as `file_path` (as a Ragweld deployment states
    /// the path of the file a chunk came from). Empty until [`run`](crate::run) or [`Corpus::merge`] sets it.
    pub files: Vec<(String, usize)>,
}

impl Corpus {
    /// Chunks and indexes `pages` (index 0 = page 1).
    ///
    /// Figure notes are checked against the PDF's captions even with figures off (and then
    /// build nothing), so a before/after pair of runs differs only in `--figures`.
    pub fn build(pages: &[String], options: &CorpusOptions) -> Result<Corpus, Error> {
        let mut chunks = match options.chunking {
            Chunking::Page => chunk::page_chunks(pages),
            Chunking::Section => chunk::section_chunks(pages),
        };
        if chunks.is_empty() {
            return Err(Error::NoText(pages.len()));
        }
        let mut figure_count = 0;
        // Notes are checked against the captions whether or not figures are on, so that
        // flipping `--figures` is the only change between a before and an after run.
        if options.figures || !options.notes.is_empty() {
            let captions = figures::parse_captions(pages);
            let figure_chunks = figures::figure_chunks(&captions, &options.notes)?;
            if options.figures {
                figure_count = figure_chunks.len();
                chunks.extend(figure_chunks);
                // Stable: text chunks keep their order, a figure follows the text
                // chunks that start on or before its page.
                chunks.sort_by_key(|c| (c.page_start, matches!(c.kind, ChunkKind::Figure(_))));
            }
        }
        let index = SearchIndex::build(&chunks)?;
        Ok(Corpus {
            corpus_id: options.corpus_id.clone(),
            chunking: options.chunking,
            figures_enabled: options.figures,
            page_count: pages.len(),
            chunks,
            figure_count,
            index,
            files: Vec::new(),
        })
    }

    /// The file name of chunk `chunk` (`""` before [`run`](crate::run) names the files).
    pub fn file_of(&self, chunk: usize) -> &str {
        self.files
            .iter()
            .rev()
            .find(|(_, first)| *first <= chunk)
            .map_or("", |(name, _)| name.as_str())
    }

    /// One corpus of several PDFs' corpora, each with its file name, in order: their chunks
    /// one after the other, each id prefixed with its file name and `#` (`part2.pdf#p0003`),
    /// and one index over them all. One PDF keeps its chunk ids as they are.
    pub fn merge(parts: Vec<(String, Corpus)>) -> Result<Corpus, Error> {
        let several = parts.len() > 1;
        let mut parts = parts.into_iter();
        let (name, mut corpus) = parts
            .next()
            .ok_or_else(|| Error::Usage("no PDF to index".into()))?;
        if several {
            for c in &mut corpus.chunks {
                c.id = format!("{name}#{}", c.id);
            }
        }
        corpus.files = vec![(name, 0)];
        for (name, part) in parts {
            if corpus.files.iter().any(|(n, _)| *n == name) {
                return Err(Error::Usage(format!(
                    "two PDFs are named {name}: matches name their file by its name, so each \
                     --pdf must have a name of its own"
                )));
            }
            corpus.files.push((name.clone(), corpus.chunks.len()));
            corpus.page_count += part.page_count;
            corpus.figure_count += part.figure_count;
            corpus.chunks.extend(part.chunks.into_iter().map(|mut c| {
                c.id = format!("{name}#{}", c.id);
                c
            }));
        }
        if several {
            corpus.index = SearchIndex::build(&corpus.chunks)?;
        }
        Ok(corpus)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NotesError;

    fn pages() -> Vec<String> {
        [
            "intro text\n",
            "",
            "a plot\n   Figure 1.1: A plot of x.\n",
            "end\n",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect()
    }

    fn options(figures: bool, notes: Vec<FigureNote>) -> CorpusOptions {
        CorpusOptions {
            corpus_id: "c".into(),
            chunking: Chunking::Page,
            figures,
            notes,
        }
    }

    #[test]
    fn a_figure_chunk_follows_the_text_chunk_of_its_page() {
        let corpus = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let ids: Vec<&str> = corpus.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["p0001", "p0003", "fig-1.1", "p0004"]);
        assert_eq!((corpus.page_count, corpus.figure_count), (4, 1));
    }

    #[test]
    fn figures_off_builds_no_figure_chunk() {
        let corpus = Corpus::build(&pages(), &options(false, vec![])).unwrap();
        assert_eq!(corpus.figure_count, 0);
        assert!(corpus.chunks.iter().all(|c| c.kind_name() == "text"));
    }

    fn note(page: u32) -> FigureNote {
        FigureNote {
            figure_ref: "Figure 1.1".into(),
            page,
            kind: "chart".into(),
            summary: "s".into(),
        }
    }

    #[test]
    fn figure_notes_with_figures_off_are_checked_and_build_no_figure_chunk() {
        let corpus = Corpus::build(&pages(), &options(false, vec![note(3)])).unwrap();
        assert_eq!(corpus.figure_count, 0);
        assert!(corpus.chunks.iter().all(|c| c.kind_name() == "text"));
        assert!(!corpus.figures_enabled);
    }

    #[test]
    fn a_wrong_figure_note_fails_with_figures_off_as_with_figures_on() {
        for figures in [false, true] {
            let err = Corpus::build(&pages(), &options(figures, vec![note(4)])).unwrap_err();
            let Error::Notes(NotesError::Mismatch(problems)) = &err else {
                panic!("figures {figures}: {err}");
            };
            assert_eq!(
                problems,
                &["note 1 (Figure 1.1, page 4): the caption of Figure 1.1 is on page 3, not 4"]
            );
        }
    }

    #[test]
    fn several_pdfs_merge_into_one_index_whose_chunks_name_their_file() {
        let one = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let other: Vec<String> = ["sparse matrix storage\n", "   Figure 2.1: A bar chart.\n"]
            .iter()
            .map(|p| p.to_string())
            .collect();
        let two = Corpus::build(&other, &options(true, vec![])).unwrap();
        let corpus = Corpus::merge(vec![("a.pdf".into(), one), ("b.pdf".into(), two)]).unwrap();
        let ids: Vec<&str> = corpus.chunks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "a.pdf#p0001",
                "a.pdf#p0003",
                "a.pdf#fig-1.1",
                "a.pdf#p0004",
                "b.pdf#p0001",
                "b.pdf#p0002",
                "b.pdf#fig-2.1"
            ]
        );
        assert_eq!((corpus.page_count, corpus.figure_count), (6, 2));
        let files: Vec<&str> = (0..ids.len()).map(|i| corpus.file_of(i)).collect();
        assert_eq!(files, [&["a.pdf"; 4][..], &["b.pdf"; 3][..]].concat());
        // One index over both: a search finds the second file's chunks, which keep their own
        // page numbers.
        let hits = corpus.index.search("sparse matrix", 5).unwrap();
        assert_eq!(hits.iter().map(|h| h.chunk).collect::<Vec<_>>(), [4]);
        assert_eq!(
            (corpus.file_of(4), corpus.chunks[4].page_start),
            ("b.pdf", 1)
        );
    }

    #[test]
    fn one_pdf_keeps_its_chunk_ids_and_two_of_one_name_are_refused() {
        let one = Corpus::build(&pages(), &options(true, vec![])).unwrap();
        let corpus = Corpus::merge(vec![("a.pdf".into(), one)]).unwrap();
        assert_eq!(corpus.chunks[0].id, "p0001");
        assert_eq!(corpus.file_of(3), "a.pdf");
        let parts = vec![
            (
                "a.pdf".into(),
                Corpus::build(&pages(), &options(true, vec![])).unwrap(),
            ),
            (
                "a.pdf".into(),
                Corpus::build(&pages(), &options(true, vec![])).unwrap(),
            ),
        ];
        let err = Corpus::merge(parts).unwrap_err().to_string();
        assert!(err.contains("two PDFs are named a.pdf"), "{err}");
        assert!(Corpus::merge(Vec::new()).is_err());
    }

    #[test]
    fn a_pdf_without_text_is_refused() {
        let blank = vec![String::new(), " \n".to_string()];
        assert!(matches!(
            Corpus::build(&blank, &options(true, vec![])),
            Err(Error::NoText(2))
        ));
    }
}
