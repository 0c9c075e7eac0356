//! Reading an answer through a connector's mapping, in one pass.
//!
//! The mapping's pointers are compiled into two small trees: the path to the hits array in the
//! answer, and the paths of the fields in a hit. The reader walks the answer's text once,
//! descends only into keys on those paths and skips the rest without copying it; of a hit's
//! content it keeps the first [`SNIPPET_CHARS`] characters, as the contract's own reader does.
//! So an answer read through a connector costs about what a `matches` answer costs.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{Connector, Mapping, Numbering, PageLabels, Pointer};
use crate::dataset::Page;
use crate::describe;
use crate::response::{Match, PageSpan, ResponseProblem, SNIPPET_CHARS};

/// The fields a mapping reads from a hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    PageStart = 0,
    PageEnd = 1,
    Kind = 2,
    Summary = 3,
    ChunkId = 4,
    Content = 5,
    Path = 6,
}

const FIELDS: usize = 7;

/// What a pointer found in a hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A whole number.
    Int(i64),
    /// A string (for `content` alone, its first characters and whether it was cut).
    Str(String, bool),
    /// Anything else: what it was (`a float`, `null`, `an object`, …).
    Other(&'static str),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Int(n) => write!(f, "{n}"),
            Found::Str(s, _) => write!(f, "the string {:?}", describe::start(s, 40)),
            Found::Other(what) => f.write_str(what),
        }
    }
}

/// One node of a pointer tree: the fields read here, and the keys (or indexes) below.
#[derive(Debug, Default)]
struct Node {
    fields: Vec<Field>,
    children: Vec<(String, Node)>,
}

impl Node {
    fn add(&mut self, pointer: &Pointer, field: Field) {
        let mut at = self;
        for token in pointer.tokens() {
            let i = match at.children.iter().position(|(k, _)| k == token) {
                Some(i) => i,
                None => {
                    at.children.push((token.clone(), Node::default()));
                    at.children.len() - 1
                }
            };
            at = &mut at.children[i].1;
        }
        at.fields.push(field);
    }

    fn child(&self, key: &str) -> Option<&Node> {
        self.children.iter().find(|(k, _)| k == key).map(|(_, n)| n)
    }

    /// Whether only `content` is read here (so a string's start is all that is kept).
    fn content_only(&self) -> bool {
        self.fields.iter().all(|f| *f == Field::Content)
    }
}

/// A connector's mapping, compiled for reading answers, with the PDF's page labels when the
/// mapping reads labels.
#[derive(Debug)]
pub struct Reader {
    name: String,
    mapping: Mapping,
    labels: Option<PageLabels>,
    hit: Node,
}

/// One hit as the mapping read it (what `figeval probe` shows).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Its 1-based rank.
    pub rank: usize,
    /// The match scoring reads.
    pub read: Match,
    /// What `page_start` found, `None` when it found nothing.
    pub page_start: Option<Found>,
    /// What `page_end` found (`None` when it found nothing or the mapping has none).
    pub page_end: Option<Found>,
    /// The raw kind, before `figure_kinds` is applied.
    pub kind: Option<String>,
    /// What `path` found, when a string.
    pub path: Option<String>,
    /// The hit's own keys, in order (only when asked for, see [`Reader::read_answer`]).
    pub keys: Vec<String>,
}

/// What the pages of one answer came to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AnswerPages {
    /// Hits read.
    pub hits: usize,
    /// Hits that cite no page.
    pub without_page: usize,
    /// The first hit's keys, in order.
    pub first_hit_keys: Vec<String>,
    /// What `page_start` and `page_end` found in the first hit.
    first_found: [Option<Found>; 2],
}

/// An answer read through a connector: the matches (or why the answer cannot be read) and
/// what its pages came to.
#[derive(Debug, Clone, PartialEq)]
pub struct MappedAnswer {
    /// The matches in rank order, or the problem.
    pub matches: Result<Vec<Match>, ResponseProblem>,
    /// What the pages came to.
    pub pages: AnswerPages,
    /// Each hit as read (only when asked for).
    pub hits: Vec<Hit>,
}

impl MappedAnswer {
    /// The answer in the contract's own shape (§3): `{"read_through": RECORD, "matches":
    /// [...]}`, each match holding exactly what scoring read of its hit, so the contract's
    /// reader reads the same matches back; `None` when the hits could not be read. The page
    /// sends its connector runs through this (contract §14.9): its main bundle has only the
    /// contract's reader. A content cut at [`SNIPPET_CHARS`] characters keeps one character
    /// more (`…`), so it reads back as cut. `connector` is what the report states of the
    /// connector ([`crate::Connector::stated_record`]).
    pub fn ragweld_body(&self, connector: &str) -> Option<String> {
        let matches = self.matches.as_ref().ok()?;
        let matches: Vec<serde_json::Value> = matches
            .iter()
            .map(|m| {
                let mut o = serde_json::Map::new();
                o.insert("chunk_id".into(), m.chunk_id.clone().into());
                if let Some(p) = m.pages {
                    o.insert(
                        "provenance".into(),
                        serde_json::json!({"page_start": p.start().get(), "page_end": p.end().get()}),
                    );
                }
                let mut meta = serde_json::Map::new();
                if let Some(k) = &m.chunk_kind {
                    meta.insert("chunk_kind".into(), k.clone().into());
                }
                if let Some(s) = &m.figure_summary {
                    meta.insert("figure".into(), serde_json::json!({ "summary": s }));
                }
                if !meta.is_empty() {
                    o.insert("metadata".into(), meta.into());
                }
                if let Some((c, cut)) = &m.content {
                    let c = if *cut { format!("{c}…") } else { c.clone() };
                    o.insert("content".into(), c.into());
                }
                if let Some(f) = &m.file_path {
                    o.insert("file_path".into(), f.clone().into());
                }
                o.into()
            })
            .collect();
        Some(serde_json::json!({ "read_through": connector, "matches": matches }).to_string())
    }
}

/// A capture line read through a connector: an envelope's parts.
#[derive(Debug, Default)]
pub(crate) struct MappedEntry {
    pub(crate) question: Option<Option<String>>,
    /// `request`, as written (the capture reads its fields).
    pub(crate) request: Option<serde_json::Value>,
    pub(crate) response: Option<MappedAnswer>,
    pub(crate) keys: Vec<String>,
}

/// Why a connector's mapping cannot be compiled into a [`Reader`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReaderError {
    /// The mapping reads printed page labels, and no PDF gave its page labels.
    LabelsNeeded {
        /// The connector's name.
        connector: String,
    },
}

impl fmt::Display for ReaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReaderError::LabelsNeeded { connector } => write!(
                f,
                "the connector {connector:?} reads printed page labels (\"numbering\": \
                 \"label\"); a label becomes a page only through the PDF's own page labels, so \
                 give the PDF (--pdf FILE)"
            ),
        }
    }
}

impl std::error::Error for ReaderError {}

impl Reader {
    /// Compiles `connector`'s mapping. `labels` are the PDF's page labels, required when the
    /// mapping's numbering is `label` (refused without them, with the reason).
    pub fn new(connector: &Connector, labels: Option<PageLabels>) -> Result<Reader, ReaderError> {
        let mapping = connector.response.clone();
        if mapping.numbering == Numbering::Label && labels.is_none() {
            return Err(ReaderError::LabelsNeeded {
                connector: connector.name.clone(),
            });
        }
        let mut hit = Node::default();
        let fields = [
            (Some(&mapping.page_start), Field::PageStart),
            (mapping.page_end.as_ref(), Field::PageEnd),
            (mapping.chunk_kind.as_ref(), Field::Kind),
            (mapping.summary.as_ref(), Field::Summary),
            (mapping.chunk_id.as_ref(), Field::ChunkId),
            (mapping.content.as_ref(), Field::Content),
            (mapping.path.as_ref(), Field::Path),
        ];
        for (pointer, field) in fields {
            if let Some(p) = pointer {
                hit.add(p, field);
            }
        }
        Ok(Reader {
            name: connector.name.clone(),
            mapping,
            labels,
            hit,
        })
    }

    /// The connector's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The mapping read.
    pub fn mapping(&self) -> &Mapping {
        &self.mapping
    }

    /// Reads one answer body. `probe` keeps every hit as read, with its keys. A syntax error
    /// is an `Err`; an answer whose hits cannot be read is an `Ok` whose `matches` holds the
    /// problem.
    pub fn read_answer(&self, text: &str, probe: bool) -> Result<MappedAnswer, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let answer = AnswerSeed {
            reader: self,
            depth: 0,
            probe,
        }
        .deserialize(&mut de)?;
        de.end()?;
        Ok(self.finish(answer))
    }

    /// Reads a capture line (an envelope `{"question", "request", "response"}`).
    pub(crate) fn read_entry(&self, text: &str) -> Result<MappedEntry, serde_json::Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let entry = EntrySeed { reader: self }.deserialize(&mut de)?;
        de.end()?;
        Ok(entry)
    }

    fn finish(&self, raw: RawAnswer) -> MappedAnswer {
        let hits = match raw.hits {
            HitsAt::Missing => Err(ResponseProblem::HitsMissing {
                pointer: self.mapping.hits.to_string(),
                keys: raw.keys,
            }),
            HitsAt::Other(found) => Err(ResponseProblem::HitsNotArray {
                pointer: self.mapping.hits.to_string(),
                found: found.to_string(),
            }),
            HitsAt::NotObject(rank, found) => Err(ResponseProblem::MatchNotObject {
                rank,
                found: found.to_string(),
            }),
            HitsAt::Array(hits) => Ok(hits),
        };
        let mut pages = AnswerPages::default();
        let mut kept = Vec::new();
        let matches = hits.map(|hits| {
            pages.hits = hits.len();
            let mut matches = Vec::with_capacity(hits.len());
            for (i, mut h) in hits.into_iter().enumerate() {
                let m = self.to_match(&mut h.found);
                if m.pages.is_none() {
                    pages.without_page += 1;
                }
                if i == 0 {
                    pages.first_hit_keys = h.keys.clone();
                    pages.first_found = [
                        h.found[Field::PageStart as usize].clone(),
                        h.found[Field::PageEnd as usize].clone(),
                    ];
                }
                if let Some(keys) = h.all_keys {
                    let [start, end, kind, _, _, _, path] = std::mem::take(&mut h.found);
                    kept.push(Hit {
                        rank: i + 1,
                        read: m.clone(),
                        page_start: start,
                        page_end: end,
                        kind: match kind {
                            Some(Found::Str(k, _)) => Some(k),
                            _ => None,
                        },
                        path: match path {
                            Some(Found::Str(p, _)) => Some(p),
                            _ => None,
                        },
                        keys,
                    });
                }
                matches.push(m);
            }
            matches
        });
        MappedAnswer {
            matches,
            pages,
            hits: kept,
        }
    }

    /// The page a hit's value names, under the mapping's numbering: a whole number, or a string
    /// of decimal digits (an index that stores page numbers as keywords) read as one.
    fn page(&self, found: &Found) -> Option<Page> {
        match (self.mapping.numbering, found) {
            (Numbering::OneBased, Found::Int(n)) => Page::new(*n),
            (Numbering::ZeroBased, Found::Int(n)) => n.checked_add(1).and_then(Page::new),
            (Numbering::OneBased, Found::Str(s, false)) => Page::new(digits(s)?),
            (Numbering::ZeroBased, Found::Str(s, false)) => {
                digits(s)?.checked_add(1).and_then(Page::new)
            }
            (Numbering::Label, Found::Str(s, _)) => self.labels.as_ref()?.page_of(s),
            (Numbering::Label, Found::Int(n)) => self.labels.as_ref()?.page_of(&n.to_string()),
            _ => None,
        }
    }

    fn to_match(&self, found: &mut [Option<Found>; FIELDS]) -> Match {
        let start = found[Field::PageStart as usize]
            .as_ref()
            .and_then(|f| self.page(f));
        let end = match &self.mapping.page_end {
            None => start,
            Some(_) => found[Field::PageEnd as usize]
                .as_ref()
                .and_then(|f| self.page(f)),
        };
        let string = |f: &Option<Found>| match f {
            Some(Found::Str(s, _)) => Some(s.clone()),
            _ => None,
        };
        let chunk_kind = string(&found[Field::Kind as usize]).map(|k| {
            if self.mapping.figure_kinds.contains(&k) {
                "figure".to_string()
            } else {
                k
            }
        });
        Match {
            chunk_id: match &found[Field::ChunkId as usize] {
                Some(Found::Str(s, _)) => s.clone(),
                Some(Found::Int(n)) => n.to_string(),
                _ => String::new(),
            },
            pages: start.zip(end).and_then(|(s, e)| PageSpan::new(s, e)),
            chunk_kind,
            figure_summary: string(&found[Field::Summary as usize]),
            content: match found[Field::Content as usize].take() {
                Some(Found::Str(s, cut)) => {
                    let head = describe::first_chars(&s, SNIPPET_CHARS);
                    let cut = cut || head.len() < s.len();
                    Some((head.to_string(), cut))
                }
                _ => None,
            },
            file_path: string(&found[Field::Path as usize]),
        }
    }

    /// Why no hit of an answer yields a page, naming the pointer and the first hit's keys.
    pub fn no_page_reason(&self, pages: &AnswerPages) -> String {
        let m = &self.mapping;
        let keys = if pages.first_hit_keys.is_empty() {
            "it has no keys".to_string()
        } else {
            format!("its keys: {}", pages.first_hit_keys.join(", "))
        };
        let numbering = m.numbering.name();
        let why = |pointer: &Pointer, found: &Option<Found>| -> String {
            match found {
                None => format!("`{pointer}` finds nothing in the first hit"),
                Some(Found::Int(n)) if m.numbering == Numbering::Label => {
                    format!("`{pointer}` finds {n}, which is not a page label of the PDF")
                }
                Some(Found::Int(n)) => format!(
                    "`{pointer}` finds {n}, which is not a page under numbering \"{numbering}\""
                ),
                Some(Found::Str(s, _)) if m.numbering == Numbering::Label => format!(
                    "`{pointer}` finds the label {:?}, which the PDF's page labels do not have",
                    describe::start(s, 40)
                ),
                Some(f @ Found::Str(..)) => format!(
                    "`{pointer}` finds {f}, not a whole number (numbering \"{numbering}\" reads \
                     whole numbers and strings of digits; printed page labels need \"numbering\": \
                     \"label\")"
                ),
                Some(f) => format!("`{pointer}` finds {f}, not a page"),
            }
        };
        let [start, end] = &pages.first_found;
        let cause = match (&m.page_end, start.as_ref().and_then(|f| self.page(f))) {
            (Some(pe), Some(_)) => why(pe, end),
            _ => why(&m.page_start, start),
        };
        format!(
            "no hit of this answer cites a page through the connector {:?}: {cause} ({keys}); \
             a mapping that reads no page would score every item a miss, so check the \
             connector's response mapping (figeval probe shows what it reads)",
            self.name
        )
    }
}

// ----- the one-pass visitors --------------------------------------------------------------

/// Where the hits pointer led.
enum HitsAt {
    Missing,
    Other(&'static str),
    NotObject(usize, &'static str),
    Array(Vec<RawHit>),
}

struct RawAnswer {
    hits: HitsAt,
    /// The answer's top-level keys (for the message when the hits are missing).
    keys: Vec<String>,
}

#[derive(Default)]
struct RawHit {
    found: [Option<Found>; FIELDS],
    keys: Vec<String>,
    all_keys: Option<Vec<String>>,
}

/// Reads the value at depth `depth` of the hits pointer.
struct AnswerSeed<'r> {
    reader: &'r Reader,
    depth: usize,
    probe: bool,
}

impl<'de> DeserializeSeed<'de> for AnswerSeed<'_> {
    type Value = RawAnswer;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawAnswer, D::Error> {
        d.deserialize_any(self)
    }
}

impl AnswerSeed<'_> {
    fn at_hits(&self) -> bool {
        self.depth == self.reader.mapping.hits.tokens().len()
    }
    fn token(&self) -> &str {
        &self.reader.mapping.hits.tokens()[self.depth]
    }
    fn other(&self, found: &'static str) -> RawAnswer {
        RawAnswer {
            hits: if self.at_hits() {
                HitsAt::Other(found)
            } else {
                HitsAt::Missing
            },
            keys: Vec::new(),
        }
    }
}

impl<'de> Visitor<'de> for AnswerSeed<'_> {
    type Value = RawAnswer;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<RawAnswer, E> {
        Ok(self.other("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<RawAnswer, E> {
        Ok(self.other("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<RawAnswer, E> {
        Ok(self.other("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<RawAnswer, E> {
        Ok(self.other("a number"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<RawAnswer, E> {
        Ok(self.other("a string"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<RawAnswer, E> {
        Ok(self.other("null"))
    }
    fn visit_none<E: de::Error>(self) -> Result<RawAnswer, E> {
        Ok(self.other("null"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawAnswer, A::Error> {
        if self.at_hits() {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            return Ok(self.other("an object"));
        }
        let mut keys = Vec::new();
        let mut found = None;
        while let Some(k) = map.next_key::<KeyText>()? {
            if self.depth == 0 && keys.len() < 64 {
                keys.push(k.0.to_string());
            }
            if k.0 == self.token() {
                found = Some(map.next_value_seed(AnswerSeed {
                    reader: self.reader,
                    depth: self.depth + 1,
                    probe: self.probe,
                })?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(match found {
            Some(mut a) => {
                if self.depth == 0 {
                    a.keys = keys;
                }
                a
            }
            None => RawAnswer {
                hits: HitsAt::Missing,
                keys,
            },
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawAnswer, A::Error> {
        if self.at_hits() {
            let mut hits = Vec::with_capacity(seq.size_hint().unwrap_or(10).min(100));
            let mut problem = None;
            let hit = &self.reader.hit;
            while let Some(h) = seq.next_element_seed(HitSeed {
                node: hit,
                first: hits.is_empty(),
                probe: self.probe,
            })? {
                match h {
                    Ok(h) if problem.is_none() => hits.push(h),
                    Ok(_) => {}
                    Err(found) => {
                        problem.get_or_insert((hits.len() + 1, found));
                    }
                }
            }
            return Ok(RawAnswer {
                hits: match problem {
                    Some((rank, found)) => HitsAt::NotObject(rank, found),
                    None => HitsAt::Array(hits),
                },
                keys: Vec::new(),
            });
        }
        let index = self.token().parse::<usize>().ok();
        let mut found = None;
        let mut i = 0;
        loop {
            if Some(i) == index {
                match seq.next_element_seed(AnswerSeed {
                    reader: self.reader,
                    depth: self.depth + 1,
                    probe: self.probe,
                })? {
                    Some(a) => found = Some(a),
                    None => break,
                }
            } else if seq.next_element::<IgnoredAny>()?.is_none() {
                break;
            }
            i += 1;
        }
        Ok(found.unwrap_or(RawAnswer {
            hits: HitsAt::Missing,
            keys: Vec::new(),
        }))
    }
}

/// An object key, borrowed when it can be.
struct KeyText<'a>(std::borrow::Cow<'a, str>);

impl<'de> serde::Deserialize<'de> for KeyText<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeyText<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object key")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<KeyText<'de>, E> {
                Ok(KeyText(std::borrow::Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<KeyText<'de>, E> {
                Ok(KeyText(std::borrow::Cow::Owned(s.to_string())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Reads one hit: `Err` with what it was when it is not an object.
struct HitSeed<'n> {
    node: &'n Node,
    first: bool,
    probe: bool,
}

impl<'de> DeserializeSeed<'de> for HitSeed<'_> {
    type Value = Result<RawHit, &'static str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for HitSeed<'_> {
    type Value = Result<RawHit, &'static str>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Err("a boolean"))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Err("a number"))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Err("a string"))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Err("an array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut hit = RawHit::default();
        let mut keys = Vec::new();
        let keep_keys = self.first || self.probe;
        while let Some(k) = map.next_key::<KeyText>()? {
            if keep_keys && keys.len() < 64 {
                keys.push(k.0.to_string());
            }
            match self.node.child(&k.0) {
                Some(child) => map.next_value_seed(NodeSeed {
                    node: child,
                    out: &mut hit.found,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if self.probe {
            hit.all_keys = Some(keys.clone());
        }
        if self.first {
            hit.keys = keys;
        }
        Ok(Ok(hit))
    }
}

/// Reads the value at one node of a hit's pointer tree into `out`.
struct NodeSeed<'n, 'o> {
    node: &'n Node,
    out: &'o mut [Option<Found>; FIELDS],
}

impl NodeSeed<'_, '_> {
    fn set(self, found: Found) {
        if let Some((last, rest)) = self.node.fields.split_last() {
            for f in rest {
                self.out[*f as usize] = Some(found.clone());
            }
            self.out[*last as usize] = Some(found);
        }
    }
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.set(Found::Other("a boolean"));
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<(), E> {
        self.set(Found::Int(n));
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        self.set(match i64::try_from(n) {
            Ok(n) => Found::Int(n),
            Err(_) => Found::Other("a number out of range"),
        });
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.set(Found::Other("a number with a fraction or exponent"));
        Ok(())
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        if self.node.fields.is_empty() {
            return Ok(());
        }
        let found = if self.node.content_only() {
            let head = describe::first_chars(s, SNIPPET_CHARS);
            Found::Str(head.to_string(), head.len() < s.len())
        } else {
            Found::Str(s.to_string(), false)
        };
        self.set(found);
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.set(Found::Other("null"));
        Ok(())
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.set(Found::Other("null"));
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key::<KeyText>()? {
            match self.node.child(&k.0) {
                Some(child) => map.next_value_seed(NodeSeed {
                    node: child,
                    out: &mut *self.out,
                })?,
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        self.set(Found::Other("an object"));
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let child = self.node.child(&i.to_string());
            let more = match child {
                Some(child) => seq
                    .next_element_seed(NodeSeed {
                        node: child,
                        out: &mut *self.out,
                    })?
                    .is_some(),
                None => seq.next_element::<IgnoredAny>()?.is_some(),
            };
            if !more {
                break;
            }
            i += 1;
        }
        self.set(Found::Other("an array"));
        Ok(())
    }
}

/// Reads a capture line's envelope, its `response` through the mapping.
struct EntrySeed<'r> {
    reader: &'r Reader,
}

impl<'de> DeserializeSeed<'de> for EntrySeed<'_> {
    type Value = MappedEntry;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<MappedEntry, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for EntrySeed<'_> {
    type Value = MappedEntry;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an envelope {\"question\", \"request\", \"response\"}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<MappedEntry, A::Error> {
        let mut entry = MappedEntry::default();
        while let Some(k) = map.next_key::<KeyText>()? {
            if entry.keys.len() < 64 {
                entry.keys.push(k.0.to_string());
            }
            match k.0.as_ref() {
                "question" => {
                    let v = map.next_value::<serde_json::Value>()?;
                    entry.question = Some(v.as_str().map(str::to_string));
                }
                "request" => {
                    let v = map.next_value::<serde_json::Value>()?;
                    entry.request = Some(v);
                }
                "response" => {
                    let raw = map.next_value_seed(AnswerSeed {
                        reader: self.reader,
                        depth: 0,
                        probe: false,
                    })?;
                    entry.response = Some(self.reader.finish(raw));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(entry)
    }
}

/// The number a string of 1 to 9 ASCII digits spells (`"0316"` is 316); `None` for anything
/// else (a sign, a space, a roman numeral).
fn digits(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
