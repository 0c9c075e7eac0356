//! What a mapping read of one answer, hit by hit, as `figeval probe` prints it and the page's
//! *Try one question* shows it (contract §14.7).

use std::fmt::Write as _;

use super::{MappedAnswer, Reader};
use crate::describe;

/// Characters of a hit's content and summary shown.
const SHOWN_CHARS: usize = 80;

/// What `figeval probe` prints of an answer read through `reader`, and what the page's *Try one
/// question* shows: for each hit, what the mapping read beside the hit's own keys.
pub fn probe_text(reader: &Reader, read: &MappedAnswer) -> String {
    let m = reader.mapping();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "connector {:?}: hits at `{}`, pages at `{}` (numbering \"{}\")",
        reader.name(),
        m.hits,
        m.page_start,
        m.numbering.name()
    );
    if let Err(p) = &read.matches {
        let _ = writeln!(out, "the answer cannot be read: {p}");
        return out;
    }
    let _ = writeln!(
        out,
        "{}, {} citing no page",
        describe::counted(read.pages.hits, "hit", "hits"),
        read.pages.without_page
    );
    for h in &read.hits {
        let pages = match h.read.pages {
            Some(s) if s.start() == s.end() => format!("p.{}", s.start().get()),
            Some(s) => format!("p.{}-{}", s.start().get(), s.end().get()),
            None => "no page".to_string(),
        };
        let found = h
            .page_start
            .as_ref()
            .map_or("nothing".to_string(), |f| f.to_string());
        let _ = writeln!(
            out,
            "\n#{} {pages} (page_start found {found}); kind {}",
            h.rank,
            h.kind
                .as_deref()
                .map_or("none".to_string(), |k| format!("{k:?}")),
        );
        if let Some(s) = &h.read.figure_summary {
            let _ = writeln!(out, "  summary: {:?}", describe::start(s, SHOWN_CHARS));
        }
        if let Some((c, _)) = &h.read.content {
            let _ = writeln!(out, "  content: {:?}", describe::start(c, SHOWN_CHARS));
        }
        if let Some(p) = &h.path {
            let _ = writeln!(out, "  path: {p:?}");
        }
        let _ = writeln!(out, "  keys: {}", h.keys.join(", "));
    }
    if read.pages.hits > 0 && read.pages.without_page == read.pages.hits {
        let _ = writeln!(out, "\n{}", reader.no_page_reason(&read.pages));
    }
    out
}
