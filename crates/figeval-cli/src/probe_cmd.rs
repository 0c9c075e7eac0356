//! `figeval probe`: one question through a connector, and what its mapping reads of each hit
//! beside the hit's own keys, so a mapping is checked in a minute (contract §14.6).

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use figeval::connector::Reader;
use figeval::{describe, live, SearchRequest};

use crate::connect;
use crate::fail::{Failure, Outcome};
use crate::files;
use crate::run_cmd::{self, Ask};
use crate::ProbeArgs;

/// Characters of a hit's content and summary shown.
const SHOWN_CHARS: usize = 80;

/// Sends the question and prints what the mapping read.
pub fn run(args: &ProbeArgs) -> Outcome {
    let timeout =
        live::check_timeout(args.timeout).map_err(|e| Failure::Input(format!("--timeout: {e}")))?;
    let base_url = live::check_base_url(&args.base_url)
        .map_err(|e| Failure::Input(format!("--base-url: {e}")))?;
    let connect = connect::prepare(&args.connect)?;
    let secrets = connect.secrets()?;
    let request = SearchRequest {
        base_url: &base_url,
        corpus_id: &args.corpus_id,
        top_k: args.top_k,
        cache_mode: args.cache_mode,
    };
    let url = request.url();
    let agent = ureq::AgentBuilder::new()
        .timeout(Duration::from_secs_f64(timeout))
        .build();
    let ask = Ask {
        agent: &agent,
        url: &url,
        request: &request,
        connect: &connect,
        secrets: &secrets,
    };
    let answer = run_cmd::search(&ask, &args.question, 0, timeout).map_err(|cause| {
        Failure::Deployment(format!(
            "the search failed for {:?}: {cause}",
            args.question
        ))
    })?;
    // The default connector is shown through its preset's mapping, which reads what its
    // fast reader reads.
    let default_reader;
    let reader = match &connect.reader {
        Some(r) => r,
        None => {
            default_reader = Reader::new(&connect.connector, None).map_err(Failure::Input)?;
            &default_reader
        }
    };
    let read = reader
        .read_answer(&answer.body, true)
        .map_err(|e| Failure::Deployment(format!("the answer is not JSON: {e}")))?;
    files::print_text(&probe_text(reader, &read))?;
    Ok(ExitCode::SUCCESS)
}

/// What `figeval probe` prints of an answer read through `reader`.
pub fn probe_text(reader: &Reader, read: &figeval::connector::MappedAnswer) -> String {
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
        figeval::describe::counted(read.pages.hits, "hit", "hits"),
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
