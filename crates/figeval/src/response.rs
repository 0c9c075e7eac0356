//! Reading a search response and its matches (contract §2 and §3).
//!
//! A response is read in one pass straight from its text into the few facts scoring needs:
//! each match's chunk id, cited pages, kind and figure summary, and the start of its content
//! (the first [`SNIPPET_CHARS`] characters, for [`crate::snippet`]). The rest of the content
//! is never copied, so scoring a capture costs little more than parsing it.
//!
//! Reading a match is lenient — a page that is absent, null, a float, a string or out of range
//! means "cites no page", never an error — because deployments differ in what they attach.
//! Reading the *response* is strict: a body without a `matches` array, or a match that is not
//! an object, is a [`ResponseProblem`], because scoring it as a miss would understate the index.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use crate::dataset::Page;
use crate::describe;

/// Characters of `content` (and of a figure summary) kept: the start, never the whole chunk.
pub const SNIPPET_CHARS: usize = 300;

/// The pages a match cites: `start..=end`, both valid pages, `start <= end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSpan {
    start: Page,
    end: Page,
}

impl PageSpan {
    /// A span, when `start <= end`.
    pub fn new(start: Page, end: Page) -> Option<PageSpan> {
        (start <= end).then_some(PageSpan { start, end })
    }

    /// The first cited page.
    pub fn start(self) -> Page {
        self.start
    }

    /// The last cited page.
    pub fn end(self) -> Page {
        self.end
    }

    /// How many pages the span covers: `end - start + 1`.
    pub fn span_pages(self) -> u32 {
        self.end.get() - self.start.get() + 1
    }

    /// Whether the span covers `page`.
    pub fn covers(self, page: Page) -> bool {
        self.start <= page && page <= self.end
    }
}

/// What scoring reads of one match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Match {
    /// `chunk_id` as a string (an integer id as its digits; anything else `""`).
    pub chunk_id: String,
    /// The cited pages, `None` when the match cites no page.
    pub pages: Option<PageSpan>,
    /// `metadata.chunk_kind` when it is a string.
    pub chunk_kind: Option<String>,
    /// `metadata.figure.summary` when it is a string.
    pub figure_summary: Option<String>,
    /// The first [`SNIPPET_CHARS`] characters of `content` when it is a string (as sent), and
    /// whether it was cut there.
    pub content: Option<(String, bool)>,
    /// The file the match is in: `file_path` when a string (a connector's `path` pointer), read
    /// (contract §1.5).
    pub file_path: Option<String>,
}

impl Match {
    /// Whether this is a figure chunk (`metadata.chunk_kind == "figure"`, compared exactly).
    pub(crate) fn is_figure(&self) -> bool {
        self.chunk_kind.as_deref() == Some("figure")
    }

    /// Reads a match from a JSON value; `None` when it is not an object.
    pub fn from_value(v: &serde_json::Value) -> Option<Match> {
        match SlotSeed(BodySeed::default()).deserialize(v) {
            Ok(MatchSlot::Match(m)) => Some(m),
            _ => None,
        }
    }
}

/// Why a response body cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseProblem {
    /// The body is not a JSON object.
    NotAnObject {
        /// What the body is instead.
        found: String,
    },
    /// The body has no `matches` key.
    NoMatches {
        /// The keys the body has, in order.
        keys: Vec<String>,
    },
    /// `matches` is there but is not an array.
    MatchesNotArray {
        /// What `matches` is instead.
        found: String,
    },
    /// A connector's `hits` pointer finds nothing in the answer.
    #[cfg(feature = "connectors")]
    HitsMissing {
        /// The pointer.
        pointer: String,
        /// The answer's keys, in order.
        keys: Vec<String>,
    },
    /// A connector's `hits` pointer finds something other than an array.
    #[cfg(feature = "connectors")]
    HitsNotArray {
        /// The pointer.
        pointer: String,
        /// What it finds instead.
        found: String,
    },
    /// A match is not a JSON object.
    MatchNotObject {
        /// Its 1-based rank.
        rank: usize,
        /// What it is instead.
        found: String,
    },
}

impl fmt::Display for ResponseProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResponseProblem::NotAnObject { found } => {
                write!(f, "the response body is {found}, not a JSON object")
            }
            ResponseProblem::NoMatches { keys } if keys.is_empty() => {
                write!(
                    f,
                    "the response has no `matches` array (it is an empty object)"
                )
            }
            ResponseProblem::NoMatches { keys } => write!(
                f,
                "the response has no `matches` array (its keys: {})",
                keys.join(", ")
            ),
            ResponseProblem::MatchesNotArray { found } => {
                write!(f, "the response's `matches` is {found}, not an array")
            }
            #[cfg(feature = "connectors")]
            ResponseProblem::HitsMissing { pointer, keys } if keys.is_empty() => write!(
                f,
                "the connector's hits pointer `{pointer}` finds no array in the answer"
            ),
            #[cfg(feature = "connectors")]
            ResponseProblem::HitsMissing { pointer, keys } => write!(
                f,
                "the connector's hits pointer `{pointer}` finds no array in the answer (its keys: {})",
                keys.join(", ")
            ),
            #[cfg(feature = "connectors")]
            ResponseProblem::HitsNotArray { pointer, found } => write!(
                f,
                "the connector's hits pointer `{pointer}` finds {found}, not an array"
            ),
            ResponseProblem::MatchNotObject { rank, found } => {
                write!(f, "the match at rank {rank} is {found}, not a JSON object")
            }
        }
    }
}

/// A response body as scoring reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The body's `query` when it is a string (used to pair bare bodies to items).
    pub query: Option<String>,
    /// The matches in the deployment's order, or why there are none to read.
    pub matches: Result<Vec<Match>, ResponseProblem>,
    /// `read_through` when a string: figeval's own key, on an answer the page
    /// read through a connector and wrote in the contract's shape; it is what a capture records
    /// of the connector, a preset's name or its mapping (contract §14.9).
    pub read_through: Option<String>,
}

impl Response {
    /// Reads a response body from its JSON text. A syntax error is an `Err`; a body that is
    /// JSON but not a valid response is an `Ok` whose `matches` holds the problem.
    pub fn parse(text: &str) -> Result<Response, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let body = Body::deserialize(&mut de)?;
        de.end()?;
        Ok(body.into_response())
    }
}

// ----- the one-pass readers -------------------------------------------------------------

/// One fallback visitor method of a lenient reader: the value type is accepted and mapped to
/// `$other(what it was)`. Readers list the methods they do not define themselves.
macro_rules! fallback {
    ($other:expr; bool) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($other("a boolean"))
        }
    };
    ($other:expr; i64) => {
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok($other("a number"))
        }
    };
    ($other:expr; u64) => {
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok($other("a number"))
        }
    };
    ($other:expr; f64) => {
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($other("a number"))
        }
    };
    ($other:expr; str) => {
        fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
            Ok($other("a string"))
        }
    };
    ($other:expr; unit) => {
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($other("null"))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($other("null"))
        }
    };
    ($other:expr; seq) => {
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok($other("an array"))
        }
    };
    ($other:expr; map) => {
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($other("an object"))
        }
    };
}

/// The fallback methods `$m...` of a lenient reader.
macro_rules! fallbacks {
    ($other:expr; $($m:ident),*) => {
        $( fallback!($other; $m); )*
    };
}

// The capture's envelope reader is a lenient reader too.
pub(crate) use {fallback, fallbacks};

/// A page field: `Some` only for a JSON integer in range.
struct LenientPage(Option<Page>);

impl<'de> Deserialize<'de> for LenientPage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientPage;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| LenientPage(None); bool, f64, str, unit, seq, map);
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<LenientPage, E> {
                Ok(LenientPage(Page::new(n)))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<LenientPage, E> {
                Ok(LenientPage(i64::try_from(n).ok().and_then(Page::new)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A string field: `Some` only for a JSON string.
pub(crate) struct LenientString(pub(crate) Option<String>);

impl<'de> Deserialize<'de> for LenientString {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = LenientString;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| LenientString(None); bool, i64, u64, f64, unit, seq, map);
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LenientString, E> {
                Ok(LenientString(Some(s.to_string())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<LenientString, E> {
                Ok(LenientString(Some(s)))
            }
        }
        d.deserialize_any(V)
    }
}

/// `content`: its first [`SNIPPET_CHARS`] characters when a string; the rest is not copied
/// (nor looked at beyond them).
struct ContentStart(Option<(String, bool)>);

impl<'de> Deserialize<'de> for ContentStart {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ContentStart;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| ContentStart(None); bool, i64, u64, f64, unit, seq, map);
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ContentStart, E> {
                let head = describe::first_chars(s, SNIPPET_CHARS);
                Ok(ContentStart(Some((head.to_string(), head.len() < s.len()))))
            }
        }
        d.deserialize_any(V)
    }
}

/// `chunk_id`: a string, an integer as its digits, anything else `""`.
struct ChunkId(String);

impl<'de> Deserialize<'de> for ChunkId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ChunkId;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| ChunkId(String::new()); bool, f64, unit, seq, map);
            fn visit_str<E: de::Error>(self, s: &str) -> Result<ChunkId, E> {
                Ok(ChunkId(s.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<ChunkId, E> {
                Ok(ChunkId(n.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<ChunkId, E> {
                Ok(ChunkId(n.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Reads the keys of an object one at a time without allocating, and lets the caller
/// pick the ones it wants.
pub(crate) struct Key<'a>(pub(crate) KeyName<'a>);

pub(crate) enum KeyName<'a> {
    Borrowed(&'a str),
    Owned(String),
}

impl KeyName<'_> {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            KeyName::Borrowed(s) => s,
            KeyName::Owned(s) => s,
        }
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(KeyName::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(KeyName::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// `provenance`: the cited pages, or `None` for anything that does not cite a valid span.
struct Provenance(Option<PageSpan>);

impl<'de> Deserialize<'de> for Provenance {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Provenance;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| Provenance(None); bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Provenance, A::Error> {
                let (mut start, mut end) = (None, None);
                while let Some(Key(k)) = map.next_key()? {
                    match k.as_str() {
                        "page_start" => start = map.next_value::<LenientPage>()?.0,
                        "page_end" => end = map.next_value::<LenientPage>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(Provenance(
                    start.zip(end).and_then(|(s, e)| PageSpan::new(s, e)),
                ))
            }
        }
        d.deserialize_any(V)
    }
}

/// `metadata.figure`: its summary when a string.
struct FigureMeta(Option<String>);

impl<'de> Deserialize<'de> for FigureMeta {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FigureMeta;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| FigureMeta(None); bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FigureMeta, A::Error> {
                let mut summary = None;
                while let Some(Key(k)) = map.next_key()? {
                    if k.as_str() == "summary" {
                        summary = map.next_value::<LenientString>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(FigureMeta(summary))
            }
        }
        d.deserialize_any(V)
    }
}

/// `metadata`: chunk kind and figure summary.
struct Metadata {
    chunk_kind: Option<String>,
    figure_summary: Option<String>,
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Metadata;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|_| Metadata {
                chunk_kind: None,
                figure_summary: None
            }; bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Metadata, A::Error> {
                let mut m = Metadata {
                    chunk_kind: None,
                    figure_summary: None,
                };
                while let Some(Key(k)) = map.next_key()? {
                    match k.as_str() {
                        "chunk_kind" => m.chunk_kind = map.next_value::<LenientString>()?.0,
                        "figure" => m.figure_summary = map.next_value::<FigureMeta>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(m)
            }
        }
        d.deserialize_any(V)
    }
}

/// One element of `matches`: a match, or what it was when not an object.
enum MatchSlot {
    Match(Match),
    NotObject(&'static str),
}

/// Reads one element of `matches`, its `content` as the [`BodySeed`] says.
struct SlotSeed(BodySeed);

impl<'de> DeserializeSeed<'de> for SlotSeed {
    type Value = MatchSlot;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<MatchSlot, D::Error> {
        struct V(BodySeed);
        impl<'de> Visitor<'de> for V {
            type Value = MatchSlot;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(MatchSlot::NotObject; bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MatchSlot, A::Error> {
                let mut m = Match::default();
                while let Some(Key(k)) = map.next_key()? {
                    match k.as_str() {
                        "chunk_id" => m.chunk_id = map.next_value::<ChunkId>()?.0,
                        "content" if self.0.skips_content() => {
                            map.next_value::<IgnoredAny>()?;
                        }
                        "content" => m.content = map.next_value::<ContentStart>()?.0,
                        "provenance" => m.pages = map.next_value::<Provenance>()?.0,
                        "file_path" => m.file_path = map.next_value::<LenientString>()?.0,
                        "metadata" => {
                            let meta = map.next_value::<Metadata>()?;
                            m.chunk_kind = meta.chunk_kind;
                            m.figure_summary = meta.figure_summary;
                        }
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(MatchSlot::Match(m))
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// The `matches` field: the matches, or why they cannot be read.
struct MatchesField(Result<Vec<Match>, ResponseProblem>);

/// Reads the `matches` field; see [`SlotSeed`].
struct MatchesSeed(BodySeed);

impl<'de> DeserializeSeed<'de> for MatchesSeed {
    type Value = MatchesField;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<MatchesField, D::Error> {
        struct V(BodySeed);
        impl<'de> Visitor<'de> for V {
            type Value = MatchesField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(|found: &str| MatchesField(Err(ResponseProblem::MatchesNotArray {
                found: found.to_string()
            })); bool, i64, u64, f64, str, unit, map);
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MatchesField, A::Error> {
                let mut matches = Vec::with_capacity(seq.size_hint().unwrap_or(10).min(100));
                let mut problem = None;
                while let Some(slot) = seq.next_element_seed(SlotSeed(self.0))? {
                    match slot {
                        MatchSlot::Match(m) if problem.is_none() => matches.push(m),
                        MatchSlot::Match(_) => {}
                        MatchSlot::NotObject(found) => {
                            problem.get_or_insert(ResponseProblem::MatchNotObject {
                                rank: matches.len() + 1,
                                found: found.to_string(),
                            });
                        }
                    }
                }
                Ok(MatchesField(match problem {
                    Some(p) => Err(p),
                    None => Ok(matches),
                }))
            }
        }
        d.deserialize_any(V(self.0))
    }
}

/// The fields of a JSON object read as a response body. The capture's envelope reader
/// ([`crate::capture`]) reads a capture line into one of these too, beside the envelope's own
/// keys, in the same pass.
#[derive(Default)]
pub(crate) struct Body {
    /// `query` when a string.
    pub(crate) query: Option<String>,
    /// `read_through` when a string (figeval's own key, contract §14.9).
    read_through: Option<String>,
    /// `matches`, when present.
    matches: Option<MatchesField>,
    /// Every key of the object, in order (for the "no `matches`" message), until `matches` (or
    /// an envelope's `response`) is seen.
    keys: Vec<String>,
    /// Set once `matches` or an envelope's `response` is seen: the keys are no longer listed.
    keys_done: bool,
    /// What the value was, when it was not an object.
    not_object: Option<&'static str>,
    /// How each match's `content` is read.
    reading: BodySeed,
}

impl Body {
    /// The body of a value that is not an object (`found` says what it is).
    pub(crate) fn not_object(found: &'static str) -> Body {
        Body {
            not_object: Some(found),
            ..Body::default()
        }
    }

    /// Reads the value of `key` when it is a body key (`matches`, `query`, `read_through`):
    /// `false`, and the
    /// value left unread, when it is not.
    pub(crate) fn read_value<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
    ) -> Result<bool, A::Error> {
        match key {
            "matches" => {
                self.matches = Some(map.next_value_seed(MatchesSeed(self.reading))?);
                self.stop_listing_keys();
            }
            "query" => self.query = map.next_value::<LenientString>()?.0,
            "read_through" => self.read_through = map.next_value::<LenientString>()?.0,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Lists `key`, read last, among the object's keys. The keys are shown only for an object
    /// with neither `matches` nor (an envelope's) `response`; once either is seen they are
    /// dropped and no longer copied, which spares an allocation per key on almost every
    /// capture line.
    pub(crate) fn list_key(&mut self, key: &str) {
        if self.keys_done {
            self.keys.clear();
        } else if self.keys.len() < 64 {
            self.keys.push(key.to_string());
        }
    }

    /// Stops listing keys: the object has a `matches` or an envelope's `response`.
    pub(crate) fn stop_listing_keys(&mut self) {
        self.keys_done = true;
    }

    /// Whether the object has a `matches` key.
    pub(crate) fn has_matches(&self) -> bool {
        self.matches.is_some()
    }

    /// The object's keys, in order.
    pub(crate) fn keys(&self) -> &[String] {
        &self.keys
    }

    pub(crate) fn into_response(self) -> Response {
        let matches = if let Some(found) = self.not_object {
            Err(ResponseProblem::NotAnObject {
                found: found.to_string(),
            })
        } else {
            match self.matches {
                Some(MatchesField(m)) => m,
                None => Err(ResponseProblem::NoMatches { keys: self.keys }),
            }
        };
        Response {
            query: self.query,
            matches,
            read_through: self.read_through,
        }
    }
}

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BodySeed::default().deserialize(d)
    }
}

/// Reads a [`Body`], keeping the start of each match's `content` unless told to skip it. Only
/// the page's snippets and the provenance audit read the content; skipping it spares
/// unescaping and copying it (about a tenth of `figeval score`'s time, BENCHMARKS.md). The
/// page always keeps it, so a wasm build has no way to skip it: its readers are then the
/// ones that keep it, and no bigger.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct BodySeed {
    /// Skip each match's `content` unread: [`Match::content`] is then `None`.
    #[cfg(not(target_family = "wasm"))]
    pub(crate) skip_content: bool,
}

impl BodySeed {
    /// Whether each match's `content` is skipped unread.
    fn skips_content(self) -> bool {
        #[cfg(not(target_family = "wasm"))]
        return self.skip_content;
        #[cfg(target_family = "wasm")]
        false
    }

    /// An empty body read this way, for a reader that reads the object's keys itself (the
    /// capture's envelope reader).
    pub(crate) fn body(self) -> Body {
        Body {
            reading: self,
            ..Body::default()
        }
    }
}

impl<'de> DeserializeSeed<'de> for BodySeed {
    type Value = Body;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Body, D::Error> {
        struct V(BodySeed);
        impl<'de> Visitor<'de> for V {
            type Value = Body;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fallbacks!(Body::not_object; bool, i64, u64, f64, str, unit, seq);
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Body, A::Error> {
                let mut body = self.0.body();
                while let Some(Key(k)) = map.next_key()? {
                    let key = k.as_str();
                    if !body.read_value(key, &mut map)? {
                        map.next_value::<IgnoredAny>()?;
                    }
                    body.list_key(key);
                }
                Ok(body)
            }
        }
        d.deserialize_any(V(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(v: serde_json::Value) -> Match {
        Match::from_value(&v).expect("an object")
    }

    fn span(a: u32, b: u32) -> Option<PageSpan> {
        PageSpan::new(Page::new(a.into())?, Page::new(b.into())?)
    }

    #[test]
    fn a_match_without_provenance_cites_no_page() {
        assert_eq!(read(json!({"chunk_id": "a"})).pages, None);
        assert_eq!(read(json!({"provenance": null})).pages, None);
        assert_eq!(read(json!({"provenance": [1, 2]})).pages, None);
        assert_eq!(read(json!({"provenance": "p. 3"})).pages, None);
    }

    #[test]
    fn null_or_missing_pages_cite_no_page() {
        assert_eq!(
            read(json!({"provenance": {"page_start": null, "page_end": 4}})).pages,
            None
        );
        assert_eq!(read(json!({"provenance": {"page_start": 4}})).pages, None);
        assert_eq!(read(json!({"provenance": {"page_end": 4}})).pages, None);
    }

    #[test]
    fn pages_must_be_json_integers() {
        for bad in [
            json!(3.0),
            json!("3"),
            json!(true),
            json!([3]),
            json!({"n": 3}),
        ] {
            let m = read(json!({"provenance": {"page_start": bad, "page_end": 3}}));
            assert_eq!(m.pages, None, "page_start {bad} must not count");
        }
    }

    #[test]
    fn pages_outside_the_range_or_reversed_cite_no_page() {
        for (s, e) in [(0, 3), (-1, 3), (3, 2), (1, 2147483648i64)] {
            let m = read(json!({"provenance": {"page_start": s, "page_end": e}}));
            assert_eq!(m.pages, None, "{s}..{e}");
        }
        let m =
            read(json!({"provenance": {"page_start": 2147483647i64, "page_end": 2147483647i64}}));
        assert_eq!(m.pages.map(PageSpan::span_pages), Some(1));
    }

    #[test]
    fn a_multi_page_span_covers_every_page_in_it() {
        let m = read(json!({"provenance": {"page_start": 10, "page_end": 21, "regions": []}}));
        let s = m.pages.unwrap();
        assert_eq!(s.span_pages(), 12);
        assert!(s.covers(Page::new(10).unwrap()) && s.covers(Page::new(21).unwrap()));
        assert!(!s.covers(Page::new(22).unwrap()) && !s.covers(Page::new(9).unwrap()));
        assert_eq!(m.pages, span(10, 21));
    }

    #[test]
    fn only_the_start_of_a_content_string_is_kept() {
        let long = format!("{}\n{}", "é".repeat(SNIPPET_CHARS - 1), "b".repeat(5000));
        let (text, cut) = read(json!({"content": long})).content.unwrap();
        assert!(cut);
        assert_eq!(
            text,
            format!("{}\n", "é".repeat(SNIPPET_CHARS - 1)),
            "characters, as sent"
        );
        assert_eq!(
            read(json!({"content": "short"})).content,
            Some(("short".into(), false))
        );
        let escaped = Response::parse(r#"{"matches": [{"content": "x\u00e9\n \"y\""}]}"#).unwrap();
        assert_eq!(
            escaped.matches.unwrap()[0].content,
            Some(("xé\n \"y\"".into(), false)),
            "escapes read as their characters"
        );
        for other in [json!(3), json!(null), json!(["a"]), json!({"text": "a"})] {
            assert_eq!(read(json!({"content": other})).content, None, "{other}");
        }
        assert_eq!(read(json!({})).content, None);
    }

    #[test]
    fn kind_and_summary_are_read_only_when_strings() {
        let m = read(
            json!({"metadata": {"chunk_kind": "figure", "figure": {"summary": "A plot.", "kind": "chart"}}}),
        );
        assert!(m.is_figure());
        assert_eq!(m.figure_summary.as_deref(), Some("A plot."));
        let m = read(json!({"metadata": {"chunk_kind": "Figure", "figure": {"summary": 3}}}));
        assert!(!m.is_figure(), "kind is compared exactly");
        assert_eq!(m.figure_summary, None);
        let m = read(json!({"metadata": {"chunk_kind": ["figure"], "figure": "x"}}));
        assert_eq!(m.chunk_kind, None);
        assert_eq!(read(json!({"metadata": 7})).chunk_kind, None);
    }

    #[test]
    fn chunk_ids_are_strings_integers_or_empty() {
        assert_eq!(read(json!({"chunk_id": "c-1"})).chunk_id, "c-1");
        assert_eq!(read(json!({"chunk_id": 42})).chunk_id, "42");
        assert_eq!(read(json!({"chunk_id": -7})).chunk_id, "-7");
        assert_eq!(read(json!({"chunk_id": 4.5})).chunk_id, "");
        assert_eq!(read(json!({"chunk_id": null})).chunk_id, "");
        assert_eq!(read(json!({})).chunk_id, "");
    }

    #[test]
    fn a_response_without_matches_lists_its_keys() {
        let r = Response::parse(r#"{"query": "q", "results": []}"#).unwrap();
        let p = r.matches.unwrap_err();
        assert_eq!(
            p.to_string(),
            "the response has no `matches` array (its keys: query, results)"
        );
    }

    #[test]
    fn a_match_that_is_not_an_object_is_a_problem_with_its_rank() {
        let r = Response::parse(r#"{"matches": [{}, {}, "x", 3]}"#).unwrap();
        assert_eq!(
            r.matches.unwrap_err(),
            ResponseProblem::MatchNotObject {
                rank: 3,
                found: "a string".into()
            }
        );
    }

    #[test]
    fn matches_that_is_not_an_array_is_a_problem() {
        let r = Response::parse(r#"{"matches": {"0": {}}}"#).unwrap();
        assert_eq!(
            r.matches.unwrap_err().to_string(),
            "the response's `matches` is an object, not an array"
        );
        let r = Response::parse(r#"[1]"#).unwrap();
        assert_eq!(
            r.matches.unwrap_err().to_string(),
            "the response body is an array, not a JSON object"
        );
    }

    #[test]
    fn an_empty_result_set_is_a_valid_response() {
        let r = Response::parse(r#"{"matches": [], "latency_ms": 3}"#).unwrap();
        assert_eq!(r.matches.unwrap(), vec![]);
    }

    #[test]
    fn escaped_keys_are_read_like_plain_ones() {
        let r = Response::parse(r#"{"m\u0061tches": [{"chunk_\u0069d": "a\"b"}]}"#).unwrap();
        assert_eq!(r.matches.unwrap()[0].chunk_id, "a\"b");
    }

    #[test]
    fn trailing_garbage_is_a_syntax_error() {
        assert!(Response::parse(r#"{"matches": []} x"#).is_err());
    }
}
