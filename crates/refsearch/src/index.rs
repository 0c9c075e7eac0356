//! The BM25 index over chunk contents (tantivy, in RAM).

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{doc, Index, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::chunk::Chunk;

/// The analyzer's name in tantivy's tokenizer manager.
const ANALYZER: &str = "refsearch_en";

/// Writer heap: the whole corpus (a few MB of text) fits in one segment.
const WRITER_HEAP_BYTES: usize = 100_000_000;

/// One ranked result: which chunk and its BM25 score.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Position of the chunk in the slice the index was built from.
    pub chunk: usize,
    /// BM25 score (higher is better).
    pub score: f32,
}

/// A BM25 index over the `content` of a list of chunks.
pub struct SearchIndex {
    searcher: Searcher,
    content: Field,
    analyzer: TextAnalyzer,
    /// `chunk_of[segment][doc]` = position of the chunk the document holds.
    chunk_of: Vec<Vec<usize>>,
    len: usize,
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("len", &self.len)
            .finish()
    }
}

/// English analysis for both indexing and queries: words, lower-cased, stop
/// words dropped, Porter-stemmed (so `plots` finds `plot`).
pub fn analyzer() -> TextAnalyzer {
    let builder = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser);
    match StopWordFilter::new(Language::English) {
        Some(stop_words) => builder
            .filter(stop_words)
            .filter(Stemmer::new(Language::English))
            .build(),
        None => builder.filter(Stemmer::new(Language::English)).build(),
    }
}

/// The distinct index terms of `text`, in first-seen order.
///
/// This is how a user query is sanitised: it is analysed into plain terms, so
/// no character (quotes, colons, parentheses, `?`, `*`, `^`, `~`, operators
/// like `AND`/`NOT`, any unicode) has query-syntax meaning or can fail to parse.
pub fn query_terms(analyzer: &TextAnalyzer, text: &str) -> Vec<String> {
    let mut analyzer = analyzer.clone();
    let mut stream = analyzer.token_stream(text);
    let mut terms: Vec<String> = Vec::new();
    while stream.advance() {
        let term = &stream.token().text;
        if !terms.iter().any(|t| t == term) {
            terms.push(term.clone());
        }
    }
    terms
}

impl SearchIndex {
    /// Indexes every chunk's content, in order, into one in-RAM segment.
    pub fn build(chunks: &[Chunk]) -> tantivy::Result<SearchIndex> {
        let mut schema = Schema::builder();
        let indexing = TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqs);
        let content = schema.add_text_field(
            "content",
            TextOptions::default().set_indexing_options(indexing),
        );
        let ord = schema.add_u64_field("ord", FAST);
        let index = Index::create_in_ram(schema.build());
        let analyzer = analyzer();
        index.tokenizers().register(ANALYZER, analyzer.clone());

        let mut writer = index.writer_with_num_threads::<TantivyDocument>(1, WRITER_HEAP_BYTES)?;
        for (position, chunk) in chunks.iter().enumerate() {
            writer.add_document(doc!(content => chunk.content.as_str(), ord => position as u64))?;
        }
        writer.commit()?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let searcher = reader.searcher();

        let mut chunk_of = Vec::new();
        for segment in searcher.segment_readers() {
            let column = segment.fast_fields().u64("ord")?;
            let positions = (0..segment.max_doc())
                .map(|doc| {
                    column.first(doc).map(|p| p as usize).ok_or_else(|| {
                        tantivy::TantivyError::InternalError(format!("document {doc} has no ord"))
                    })
                })
                .collect::<tantivy::Result<Vec<usize>>>()?;
            chunk_of.push(positions);
        }
        Ok(SearchIndex {
            searcher,
            content,
            analyzer,
            chunk_of,
            len: chunks.len(),
        })
    }

    /// How many chunks are indexed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no chunk is indexed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `top_k` best chunks for `query` by BM25 (any of its terms may match).
    ///
    /// Equal scores are ordered by chunk position, so results are deterministic.
    /// A query with no index terms (only punctuation or stop words) matches nothing.
    pub fn search(&self, query: &str, top_k: usize) -> tantivy::Result<Vec<Hit>> {
        let terms = query_terms(&self.analyzer, query);
        if terms.is_empty() || top_k == 0 || self.len == 0 {
            return Ok(Vec::new());
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|term| {
                let term = Term::from_field_text(self.content, term);
                let query: Box<dyn Query> =
                    Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                (Occur::Should, query)
            })
            .collect();
        // Every match is collected (the corpus is small) so that ties at the
        // top_k boundary are broken by chunk position, not by collector order.
        let found = self
            .searcher
            .search(&BooleanQuery::new(clauses), &TopDocs::with_limit(self.len))?;
        let mut hits: Vec<Hit> = found
            .into_iter()
            .filter_map(|(score, address)| {
                let chunk = *self
                    .chunk_of
                    .get(address.segment_ord as usize)?
                    .get(address.doc_id as usize)?;
                Some(Hit { chunk, score })
            })
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.chunk.cmp(&b.chunk)));
        hits.truncate(top_k);
        Ok(hits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chunk::ChunkKind;

    fn chunk(id: &str, content: &str) -> Chunk {
        Chunk {
            id: id.into(),
            page_start: 1,
            page_end: 1,
            content: content.into(),
            kind: ChunkKind::Text { section: None },
        }
    }

    #[test]
    fn a_query_full_of_syntax_characters_does_not_error() {
        let index = SearchIndex::build(&[chunk("a", "plot the bar chart")]).unwrap();
        for query in [
            r#""():*?^~"#,
            r#"bar:"chart" (plot OR) AND NOT -x +y^2~ field:value* [a TO b} \"#,
            "¿Qué gráfico muestra 棒グラフ? 📊",
            "",
        ] {
            assert!(index.search(query, 5).is_ok(), "{query}");
        }
        let hits = index.search(r#"(bar:"chart"?)^~"#, 5).unwrap();
        assert_eq!(hits.len(), 1);
    }

    #[test]
    fn syntax_characters_are_dropped_and_words_stemmed() {
        let terms = query_terms(&analyzer(), r#"Which "Plots" (show) bar:charts?"#);
        assert_eq!(terms, ["which", "plot", "show", "bar", "chart"]);
    }

    #[test]
    fn the_better_match_ranks_first() {
        let index = SearchIndex::build(&[
            chunk("a", "sparse matrix"),
            chunk("b", "histogram bar chart"),
        ])
        .unwrap();
        let hits = index.search("bar chart", 5).unwrap();
        assert_eq!(hits.iter().map(|h| h.chunk).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn equal_scores_keep_chunk_order_and_top_k_cuts() {
        let chunks: Vec<Chunk> = (0..20)
            .map(|i| chunk(&i.to_string(), "same words"))
            .collect();
        let index = SearchIndex::build(&chunks).unwrap();
        let hits = index.search("words", 3).unwrap();
        assert_eq!(hits.iter().map(|h| h.chunk).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn a_query_of_only_stop_words_and_punctuation_matches_nothing() {
        let index = SearchIndex::build(&[chunk("a", "the a of")]).unwrap();
        assert!(index.search("the ?? of", 5).unwrap().is_empty());
    }
}
