//! Reading and pairing captures, every form and every error.

use super::reader::is_multiline_document;
use super::*;
use crate::dataset::Dataset;
use crate::report::{Report, RunInfo, Scored};
use crate::request::{CacheMode, RequestInfo, SearchRequest};
use crate::response::Response;
use crate::score::ScoreConfig;

fn dataset() -> Dataset {
    Dataset::parse(
        r#"{"corpus_id":"c","items":[
        {"question":"Which figure shows A?","expected_pages":[1],"figure_ref":"F1","kind":"locate"},
        {"question":"Which figure shows B?","expected_pages":[2],"figure_ref":"F2","kind":"content"}]}"#,
    )
    .unwrap()
}

fn body(q: &str, page: u32) -> String {
    format!(
        r#"{{"query":{q:?},"matches":[{{"chunk_id":"x","content":"…","provenance":{{"page_start":{page},"page_end":{page}}}}}]}}"#
    )
}

fn envelope(q: &str, page: u32) -> String {
    format!(r#"{{"question":{q:?},"response":{}}}"#, body(q, page))
}

fn score(text: &str, allow_missing: bool) -> Result<Scored, CaptureErrors> {
    let d = dataset();
    let read = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), text);
    read.pairing.finish(allow_missing)
}

/// Reads `bytes` fed in chunks of `size`, and says what came of it.
fn read_chunked(bytes: &[u8], size: usize) -> (Result<Scored, CaptureErrors>, Option<CutOff>) {
    let d = dataset();
    let mut r = CaptureReader::new(Pairing::new(&d, ScoreConfig::default()));
    for chunk in bytes.chunks(size) {
        r.feed(chunk);
    }
    let read = r.end();
    (read.pairing.finish(true), read.cut_off)
}

fn hits(s: &Scored) -> Vec<bool> {
    s.records.iter().map(|r| r.page_hit_at_3).collect()
}

#[test]
fn every_capture_form_gives_the_same_records() {
    let a = "Which figure shows A?";
    let b = "Which figure shows B?";
    let envelopes = format!("{}\n{}\n", envelope(b, 2), envelope(a, 9));
    let bare = format!("{}\n\n{}", body(a, 9), body(b, 2));
    let array = format!("[{}, {}]", body(a, 9), envelope(b, 2));
    let pretty = serde_json::to_string_pretty(
        &serde_json::from_str::<serde_json::Value>(&body(a, 9)).unwrap(),
    )
    .unwrap()
        + "\n"
        + &body(b, 2);
    let want = score(&envelopes, false).unwrap();
    assert_eq!(
        hits(&want),
        [false, true],
        "dataset order, not capture order"
    );
    for text in [bare, array, pretty] {
        assert_eq!(score(&text, false).unwrap().records, want.records, "{text}");
    }
}

#[test]
fn a_single_body_pairs_and_the_rest_may_be_allowed_missing() {
    let s = score(&body("Which figure shows B?", 2), true).unwrap();
    assert_eq!(s.records.len(), 1);
    assert_eq!(s.unscored, ["Which figure shows A?"]);
    let e = score(&body("Which figure shows B?", 2), false).unwrap_err();
    assert!(e.to_string().contains("1 item with no response"), "{e}");
    assert!(e.to_string().contains("\"Which figure shows A?\""), "{e}");
}

#[test]
fn a_line_that_is_not_json_is_named_by_its_line() {
    let text = format!(
        "{}\n{{not json\n{}",
        envelope("Which figure shows A?", 1),
        envelope("Which figure shows B?", 2)
    );
    let e = score(&text, false).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert_eq!(
        e.0[0].to_string(),
        "line 2, column 2: not valid JSON: a key must be a string in double quotes; mend the \
         line or delete it"
    );
}

#[test]
fn a_broken_line_is_one_problem_named_by_its_line_and_question() {
    let b = envelope("Which figure shows B?", 2);
    // A hand edit that left single quotes inside the response.
    let broken = b.replace("\"chunk_id\"", "'chunk_id'");
    let text = format!("{}\n{broken}\n", envelope("Which figure shows A?", 1));
    let e = score(&text, false).unwrap_err();
    assert_eq!(
        e.0.len(),
        1,
        "the item is not counted again as missing: {e}"
    );
    let message = e.0[0].to_string();
    assert!(
        message.starts_with(
            "line 2 (question \"Which figure shows B?\"), column 93: not valid JSON: a key \
             must be a string in double quotes"
        ),
        "{message}"
    );
    assert!(
        message.ends_with("; mend the line or delete it"),
        "{message}"
    );
    assert!(!message.contains("allow missing"), "{message}");
    // Allowing missing responses does not drop the broken line's item: it stays an error.
    assert_eq!(score(&text, true).unwrap_err().0.len(), 1);
}

#[test]
fn a_broken_line_whose_question_cannot_be_read_is_one_problem_too() {
    let text = format!("{}\n{{not json\n", envelope("Which figure shows A?", 1));
    let e = score(&text, false).unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.0[0].to_string().starts_with("line 2, column 2: "), "{e}");
}

#[test]
fn items_beyond_the_broken_lines_are_listed_without_offering_to_drop_them() {
    let text = "{not json\n";
    let e = score(text, false).unwrap_err();
    assert_eq!(e.0.len(), 2, "{e}");
    assert_eq!(
        e.0[1].to_string(),
        "2 items with no response; the 1 line above that cannot be read may answer some of them \
         (mend it first):\n  - \"Which figure shows A?\"\n  - \"Which figure shows B?\""
    );
}

#[test]
fn the_question_of_a_broken_line_is_read_from_its_start() {
    use super::reader::question_in;
    assert_eq!(
        question_in(r#"{"question": "Q \"1\"?", "response": {"matches": [}"#).as_deref(),
        Some("Q \"1\"?")
    );
    assert_eq!(
        question_in(r#"{"query":"Q?","matches":[{'a': 1}]}"#).as_deref(),
        Some("Q?")
    );
    assert_eq!(
        question_in(r#"{"question": 3, "query": "Q?"}"#).as_deref(),
        Some("Q?")
    );
    assert_eq!(question_in(r#"{"question": "unfinished"#), None);
    assert_eq!(question_in("{not json"), None);
}

#[test]
fn unknown_duplicate_and_missing_questions_are_all_listed() {
    let text = format!(
        "{}\n{}\n{}",
        envelope("Which figure shows A?", 1),
        envelope("Which figure shows A?", 1),
        envelope("Which figure shows C?", 1)
    );
    let e = score(&text, false).unwrap_err().to_string();
    assert!(e.contains("1 response for questions that are not in the dataset:\n    - \"Which figure shows C?\""), "{e}");
    assert!(
        e.contains("1 question with more than one response:\n    - \"Which figure shows A?\""),
        "{e}"
    );
    assert!(e.contains("1 item with no response"), "{e}");
}

#[test]
fn a_response_without_matches_names_its_line_question_and_keys() {
    let text = format!(
        "{}\n{}",
        envelope("Which figure shows A?", 1),
        r#"{"question":"Which figure shows B?","response":{"query":"Which figure shows B?","results":[]}}"#
    );
    let e = score(&text, false).unwrap_err().to_string();
    assert!(
        e.contains("line 2 (question \"Which figure shows B?\"): the response has no `matches` array (its keys: query, results)"),
        "{e}"
    );
}

#[test]
fn a_match_that_is_not_an_object_is_an_error_not_a_miss() {
    let text = format!(
        "{}\n{}",
        envelope("Which figure shows A?", 1),
        r#"{"question":"Which figure shows B?","response":{"matches":[{},null]}}"#
    );
    let e = score(&text, false).unwrap_err().to_string();
    assert!(
        e.contains("the match at rank 2 is null, not a JSON object"),
        "{e}"
    );
}

#[test]
fn bodies_without_query_and_envelopes_without_question_are_errors() {
    let e = score(r#"{"matches":[]}"#, false).unwrap_err().to_string();
    assert!(
        e.contains("line 1: a bare response body needs a string `query`"),
        "{e}"
    );
    let e = score(r#"{"question":3,"response":{"matches":[]}}"#, false)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 1: an envelope with a `response` needs a string `question`"),
        "{e}"
    );
    let e = score(r#"{"question":"Which figure shows A?","resp":{}}"#, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("has a `question` but no `response`"), "{e}");
}

#[test]
fn an_empty_capture_is_an_error() {
    assert_eq!(
        score("\n  \n", true).unwrap_err().0,
        vec![CaptureError::Empty]
    );
    assert_eq!(score("[]", true).unwrap_err().0, vec![CaptureError::Empty]);
}

#[test]
fn a_broken_array_gives_line_and_column() {
    let e = score("[\n{\"matches\": [}\n]", false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 2, column 14: not valid JSON"), "{e}");
}

#[test]
fn the_request_is_kept_only_when_every_envelope_agrees() {
    let with = |q: &str, k: u32| {
        format!(
            r#"{{"question":{q:?},"request":{{"base_url":"http://h/api","top_k":{k},"cache_mode":"bypass"}},"response":{}}}"#,
            body(q, 1)
        )
    };
    let same = format!(
        "{}\n{}",
        with("Which figure shows A?", 5),
        with("Which figure shows B?", 5)
    );
    let r = score(&same, false).unwrap().request;
    assert_eq!(r.top_k, Some(5));
    assert_eq!(r.cache_mode, Some(CacheMode::Bypass));
    assert_eq!(r.base_url.as_deref(), Some("http://h/api"));
    let differ = format!(
        "{}\n{}",
        with("Which figure shows A?", 5),
        with("Which figure shows B?", 8)
    );
    assert_eq!(
        score(&differ, false).unwrap().request,
        RequestInfo::default()
    );
}

#[test]
fn the_report_carries_the_recorded_request_and_the_scoring_settings() {
    let line = format!(
        r#"{{"question":"Which figure shows B?","request":{{"base_url":"http://h/api","top_k":7,"cache_mode":"refresh"}},"response":{}}}"#,
        body("Which figure shows B?", 2)
    );
    let d = dataset();
    let config = ScoreConfig {
        max_precise_span_pages: 4,
    };
    let scored = CaptureReader::read_str(Pairing::new(&d, config), &line)
        .pairing
        .finish(true)
        .unwrap();
    let records = scored.records.clone();
    let r = Report::build(scored, RunInfo::default());
    assert_eq!(r.corpus_id, "c");
    assert_eq!(r.base_url.as_deref(), Some("http://h/api"));
    assert_eq!(r.top_k, Some(7));
    assert_eq!(r.cache_mode, Some(CacheMode::Refresh));
    assert_eq!(r.max_precise_span_pages, 4);
    assert_eq!(r.per_item, records);
    assert_eq!(r.unscored, ["Which figure shows A?"]);
    assert_eq!(r.summary.n, 1);
}

/// The settings a report states, as its JSON has them.
fn header(r: &Report) -> serde_json::Value {
    let v = serde_json::to_value(r).unwrap();
    let keys = [
        "corpus_id",
        "base_url",
        "top_k",
        "cache_mode",
        "max_precise_span_pages",
    ];
    keys.iter()
        .map(|&k| (k.to_string(), v[k].clone()))
        .collect()
}

#[test]
fn a_live_run_the_page_and_figeval_score_build_the_same_report() {
    let d = dataset();
    let config = ScoreConfig {
        max_precise_span_pages: 4,
    };
    let request = SearchRequest {
        base_url: "http://h/api",
        corpus_id: &d.corpus_id,
        top_k: 7,
        cache_mode: CacheMode::Refresh,
    };
    let bodies: Vec<String> = d
        .items
        .iter()
        .enumerate()
        .map(|(i, it)| body(&it.question, i as u32 + 1))
        .collect();
    let lines: Vec<String> = d
        .items
        .iter()
        .zip(&bodies)
        .map(|(it, b)| request.envelope_line(&it.question, b))
        .collect();
    // The command line's live run: each answer as it comes, last item first.
    let mut cli = Pairing::new(&d, config);
    for (i, b) in bodies.iter().enumerate().rev() {
        let matches = Response::parse(b).unwrap().matches.unwrap();
        assert!(cli.add_answer(i, &request, &matches).is_some());
    }
    assert!(cli.asked_with(&request));
    // The page's live run: each answer's capture line.
    let mut page = CaptureReader::new(Pairing::new(&d, config));
    for l in &lines {
        page.feed_line(l);
    }
    // `figeval score` of the capture.
    let capture = lines.join("\n") + "\n";
    let offline = CaptureReader::read_str(Pairing::new(&d, config), &capture);
    let reports = [cli, page.end().pairing, offline.pairing]
        .map(|p| Report::build(p.finish(false).unwrap(), RunInfo::default()));
    let expected = serde_json::json!({
        "corpus_id": "c",
        "base_url": "http://h/api",
        "top_k": 7,
        "cache_mode": "refresh",
        "max_precise_span_pages": 4,
    });
    for r in &reports {
        assert_eq!(header(r), expected);
        assert_eq!(r, &reports[0]);
    }
}

#[test]
fn a_live_answer_counts_like_its_capture_line() {
    let d = dataset();
    let request = SearchRequest {
        base_url: "http://h/api",
        corpus_id: &d.corpus_id,
        top_k: 5,
        cache_mode: CacheMode::Bypass,
    };
    let config = ScoreConfig::default();
    assert!(
        Pairing::new(&d, config).asked_with(&request),
        "nothing recorded yet"
    );
    let other = SearchRequest {
        top_k: 6,
        ..request.clone()
    };
    let mut r = CaptureReader::new(Pairing::new(&d, config));
    let a = "Which figure shows A?";
    r.feed_line(&request.envelope_line(a, &body(a, 1)));
    let mut p = r.end().pairing;
    assert!(p.asked_with(&request));
    assert!(!p.asked_with(&other));
    assert!(p.add_answer(2, &request, &[]).is_none(), "no item 3");
    assert!(
        p.add_answer(0, &request, &[]).is_none(),
        "item 1 is answered"
    );
    let e = p.check().unwrap_err().to_string();
    assert!(e.contains("Which figure shows A?"), "{e}");
    assert!(p.finish(true).is_err());
}

#[test]
fn any_chunking_reads_like_the_whole_text() {
    let a = "Which figure shows A?";
    let b = "Which figure shows B?";
    let pretty = serde_json::to_string_pretty(
        &serde_json::from_str::<serde_json::Value>(&envelope(a, 1)).unwrap(),
    )
    .unwrap();
    for text in [
        format!("{}\r\n\n{}", envelope(b, 2), envelope(a, 9)),
        format!("\n[{}, {}]", body(a, 9), envelope(b, 2)),
        format!("{pretty}\n{}", body(b, 2)),
    ] {
        let whole = score(&text, true).unwrap();
        for size in [1, 2, 7, 64, text.len()] {
            let (chunked, cut) = read_chunked(text.as_bytes(), size);
            assert_eq!(chunked.unwrap(), whole, "chunks of {size}: {text}");
            assert_eq!(cut, None);
        }
    }
}

#[test]
fn a_cut_off_last_line_is_dropped_and_its_item_goes_unanswered() {
    let first = envelope("Which figure shows A?", 1) + "\n";
    let second = envelope("Which figure shows B?", 2);
    for cut in [1, second.len() / 2, second.len() - 1] {
        let text = format!("{first}{}", &second[..cut]);
        for size in [3, text.len()] {
            let (scored, cut_off) = read_chunked(text.as_bytes(), size);
            assert_eq!(
                cut_off,
                Some(CutOff {
                    line: 2,
                    offset: first.len() as u64
                })
            );
            let scored = scored.unwrap();
            assert_eq!(scored.records.len(), 1);
            assert_eq!(scored.unscored, ["Which figure shows B?"]);
        }
    }
    // Cut inside a character: the text stops short too.
    let text = format!("{first}{{\"question\":\"é");
    let cut = text.len() - 1;
    let (_, cut_off) = read_chunked(&text.as_bytes()[..cut], 5);
    assert_eq!(cut_off.map(|c| c.line), Some(2));
    // A line that is the whole capture can be cut off as well.
    let (_, cut_off) = read_chunked(&second.as_bytes()[..10], 4);
    assert_eq!(cut_off, Some(CutOff { line: 1, offset: 0 }));
}

#[test]
fn a_bad_line_that_is_not_the_last_stays_an_error() {
    let second = envelope("Which figure shows B?", 2);
    // Cut off, but followed by a line break and another line: not a crash mid-write.
    let text = format!(
        "{}\n{}\n{}\n",
        envelope("Which figure shows A?", 1),
        &second[..second.len() / 2],
        envelope("Which figure shows A?", 1)
    );
    let (scored, cut_off) = read_chunked(text.as_bytes(), 16);
    assert_eq!(cut_off, None);
    let e = scored.unwrap_err().to_string();
    assert!(
        e.contains("line 2 (question \"Which figure shows B?\"), column"),
        "{e}"
    );
    assert!(
        e.contains("not valid JSON: the text ends inside a string"),
        "{e}"
    );
    assert!(
        !e.contains("no response"),
        "the line's item is not missing: {e}"
    );
    // A last line that is wrong in another way than stopping short is an error too.
    let text = format!(
        "{}\n{{\"question\": 3]",
        envelope("Which figure shows A?", 1)
    );
    let (scored, cut_off) = read_chunked(text.as_bytes(), 16);
    assert_eq!(cut_off, None);
    assert!(scored.unwrap_err().to_string().contains("line 2, column"));
}

#[test]
fn a_line_that_is_not_utf8_is_named_by_its_line_and_column() {
    let mut bytes = (envelope("Which figure shows A?", 1) + "\n").into_bytes();
    bytes.extend_from_slice(b"{\"q\xff\"}\n");
    let e = read_chunked(&bytes, 5).0.unwrap_err().to_string();
    assert!(
        e.contains("line 2 is not UTF-8 text (invalid byte at column 4)"),
        "{e}"
    );
}

#[test]
fn a_line_over_the_limit_ends_reading_with_an_error() {
    let d = dataset();
    let mut r = CaptureReader::new(Pairing::new(&d, ScoreConfig::default()));
    r.feed(b"{\"question\":\"");
    let block = vec![b'x'; 1 << 20];
    while r.wants_more() {
        r.feed(&block);
    }
    let e = r.end().pairing.finish(true).unwrap_err().to_string();
    assert!(e.contains("line 1 is over 67108864 bytes"), "{e}");
}

#[test]
fn what_a_pairing_keeps_lines_up_with_the_records() {
    let (a, b) = ("Which figure shows A?", "Which figure shows B?");
    let text = format!("{}\n", envelope(b, 2));
    let d = dataset();
    let chunk_ids = |m: &[crate::response::Match]| -> Vec<String> {
        m.iter().map(|m| m.chunk_id.clone()).collect()
    };
    let pairing = Pairing::keeping(&d, ScoreConfig::default(), chunk_ids);
    let (scored, kept) = CaptureReader::read_str(pairing, &text)
        .pairing
        .finish_keeping(true)
        .unwrap();
    assert_eq!(scored.records.len(), 1);
    assert_eq!(scored.records[0].question, b);
    assert_eq!(scored.unscored, vec![a.to_string()]);
    assert_eq!(
        kept,
        [vec!["x".to_string()]],
        "one per record, none for the unscored"
    );
}

#[test]
fn a_pairing_that_skips_content_reads_none_and_scores_the_same() {
    let a = "Which figure shows A?";
    // Both forms of line: an envelope and a bare body; content with escapes, a non-string
    // content, and a match without one.
    let text = format!(
        "{}\n{}\n",
        envelope(a, 1),
        r#"{"query":"Which figure shows B?","matches":[{"content":"a\"b\\c\u00e9\n","provenance":{"page_start":2,"page_end":2}},{"content":7,"provenance":{"page_start":3,"page_end":3}},{"chunk_id":"z"}]}"#
    );
    let d = dataset();
    let contents = |m: &[crate::response::Match]| -> Vec<Option<(String, bool)>> {
        m.iter().map(|m| m.content.clone()).collect()
    };
    let read = |skip: bool| {
        let mut pairing = Pairing::keeping(&d, ScoreConfig::default(), contents);
        if skip {
            pairing.skip_content();
        }
        CaptureReader::read_str(pairing, &text)
            .pairing
            .finish_keeping(false)
            .unwrap()
    };
    let (kept_scored, kept) = read(false);
    let (skipped_scored, skipped) = read(true);
    assert_eq!(
        kept,
        [
            vec![Some(("…".to_string(), false))],
            vec![Some(("a\"b\\c\u{e9}\n".to_string(), false)), None, None]
        ]
    );
    assert_eq!(skipped, [vec![None], vec![None, None, None]]);
    assert_eq!(skipped_scored.records, kept_scored.records);
    assert_eq!(hits(&skipped_scored), [true, true]);
    // A line that is not JSON is refused the same way whether its content is read or not.
    let broken = format!(
        "{}\n",
        r#"{"question":"Which figure shows A?","response":{"matches":[{"content":"a\qb"}]}}"#
    );
    let errors = |skip: bool| {
        let mut pairing = Pairing::new(&d, ScoreConfig::default());
        if skip {
            pairing.skip_content();
        }
        let read = CaptureReader::read_str(pairing, &broken);
        read.pairing.finish(true).unwrap_err().to_string()
    };
    assert_eq!(errors(true), errors(false));
    assert!(errors(true).contains("line 1"), "{}", errors(true));
}

#[test]
fn multiline_detection_looks_at_the_first_line_only() {
    assert!(is_multiline_document("["));
    assert!(is_multiline_document("  {"));
    assert!(is_multiline_document("{\"matches\": ["));
    assert!(!is_multiline_document("{\"matches\": []}"));
    assert!(!is_multiline_document("{not json"));
}
