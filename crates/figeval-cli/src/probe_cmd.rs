//! `figeval probe`: one question through a connector, and what its mapping reads of each hit
//! beside the hit's own keys, so a mapping is checked in a minute (contract §14.6).

use std::process::ExitCode;
use std::time::Duration;

use figeval::connector::Reader;
use figeval::{live, SearchRequest};

use crate::connect;
use crate::fail::{Failure, Outcome};
use crate::files;
use crate::run_cmd::{self, Ask};
use crate::ProbeArgs;

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
            default_reader =
                Reader::new(&connect.connector, None).map_err(|e| Failure::Input(e.to_string()))?;
            &default_reader
        }
    };
    let read = reader.read_answer(&answer.body, true).map_err(|e| {
        let e = figeval::describe::json_error(&e);
        Failure::Deployment(format!("the answer is not JSON ({e})"))
    })?;
    files::print_text(&figeval::connector::probe_text(reader, &read))?;
    Ok(ExitCode::SUCCESS)
}
