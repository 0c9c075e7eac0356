//! Tests of connectors on hand-made answers in each vendor's documented shape.

use super::*;
use crate::capture::{CaptureError, CaptureReader, Pairing};
use crate::dataset::Dataset;
use crate::score::ScoreConfig;
use serde_json::json;

fn reader(name: &str) -> Reader {
    Reader::new(&Connector::preset(name).unwrap(), None).unwrap()
}

/// The pages each hit of `answer` cites through the preset `name` (`None`: no page).
fn pages(r: &Reader, answer: serde_json::Value) -> Vec<Option<(u32, u32)>> {
    let read = r.read_answer(&answer.to_string(), false).unwrap();
    read.matches
        .unwrap()
        .iter()
        .map(|m| m.pages.map(|s| (s.start().get(), s.end().get())))
        .collect()
}

#[test]
fn every_preset_is_a_valid_connector_and_only_ragweld_takes_the_fast_path() {
    for name in Connector::preset_names() {
        let c = Connector::preset(name).unwrap();
        assert_eq!(c.name, name);
        assert!(c.is_preset());
        assert_eq!(c.is_ragweld(), name == "ragweld", "{name}");
        assert_eq!(c.record(), json!(name), "a preset is recorded by its name");
    }
    let mut file = Connector::ragweld().to_value();
    file["name"] = json!("ragweld");
    let from_file = Connector::from_value(&file).unwrap();
    assert!(
        !from_file.is_ragweld(),
        "a file named ragweld is read through its mapping"
    );
}

#[test]
fn the_ragweld_mapping_reads_what_the_contracts_reader_reads() {
    let body = json!({"query": "q", "matches": [
        {"chunk_id": 7, "content": "abc", "file_path": "m.pdf", "score": 1.5, "source": "bm25",
         "metadata": {"chunk_kind": "figure", "figure": {"summary": "A plot."}},
         "provenance": {"extraction": "direct", "page_start": 4, "page_end": 6}},
        {"chunk_id": "x", "provenance": {"page_start": 3}},
        {"content": 5, "metadata": {"chunk_kind": "text"}, "provenance": {"page_start": 2, "page_end": 2}}]});
    let fast = crate::Response::parse(&body.to_string())
        .unwrap()
        .matches
        .unwrap();
    let mapped = reader("ragweld")
        .read_answer(&body.to_string(), false)
        .unwrap()
        .matches
        .unwrap();
    assert_eq!(mapped, fast);
}

#[test]
fn langserve_pages_are_zero_based_and_read_one_higher() {
    let r = reader("langserve");
    let answer = json!({"output": [
        {"page_content": "Figure 15.1", "metadata": {"source": "octave.pdf", "page": 331, "page_label": "316"}, "type": "Document", "id": null},
        {"page_content": "x", "metadata": {"source": "octave.pdf", "page": 0}, "type": "Document"}],
        "metadata": {"run_id": "r", "feedback_tokens": []}});
    assert_eq!(pages(&r, answer), [Some((332, 332)), Some((1, 1))]);
}

#[test]
fn hayhooks_documents_cite_their_one_based_page_number() {
    let answer = json!({"result": [
        {"id": "d1", "content": "Figure 15.1", "blob": null, "score": 7.2, "embedding": null,
         "sparse_embedding": null,
         "meta": {"file_path": "octave.pdf", "page_number": 332, "split_id": 4}}]});
    let read = reader("hayhooks")
        .read_answer(&answer.to_string(), false)
        .unwrap();
    let m = &read.matches.unwrap()[0];
    assert_eq!(m.pages.map(|s| s.start().get()), Some(332));
    assert_eq!(m.chunk_id, "d1");
    assert_eq!(m.content, Some(("Figure 15.1".into(), false)));
    assert_eq!(
        m.file_path.as_deref(),
        Some("octave.pdf"),
        "the connector's path pointer gives the match's file"
    );
}

#[test]
fn elasticsearch_and_opensearch_hits_read_their_source() {
    let answer = json!({"took": 3, "timed_out": false,
        "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
        "hits": {"total": {"value": 2, "relation": "eq"}, "max_score": 4.1, "hits": [
            {"_index": "octave", "_id": "c-12", "_score": 4.1,
             "_source": {"content": "Figure 15.1", "page_number": 332, "file_path": "octave.pdf", "chunk_kind": "figure"}},
            {"_index": "octave", "_id": "c-13", "_score": 3.0,
             "_source": {"content": "y", "page_number": 40}}]}});
    for name in ["elasticsearch", "opensearch"] {
        let r = reader(name);
        assert_eq!(
            pages(&r, answer.clone()),
            [Some((332, 332)), Some((40, 40))]
        );
        let m = r
            .read_answer(&answer.to_string(), false)
            .unwrap()
            .matches
            .unwrap();
        assert!(m[0].is_figure() && !m[1].is_figure(), "{name}");
        assert_eq!(m[0].chunk_id, "c-12");
    }
}

#[test]
fn qdrant_points_read_their_payload() {
    let answer = json!({"result": {"points": [
        {"id": 42, "version": 3, "score": 0.87,
         "payload": {"text": "Figure 15.1", "page_number": 332, "file_path": "octave.pdf"}}]},
        "status": "ok", "time": 0.002});
    let r = reader("qdrant");
    assert_eq!(pages(&r, answer.clone()), [Some((332, 332))]);
    let m = r
        .read_answer(&answer.to_string(), false)
        .unwrap()
        .matches
        .unwrap();
    assert_eq!(m[0].chunk_id, "42", "an integer id as its digits");
}

#[test]
fn vespa_children_read_their_fields() {
    let answer = json!({"root": {"id": "toplevel", "relevance": 1.0,
        "fields": {"totalCount": 1},
        "coverage": {"coverage": 100, "documents": 1158, "full": true, "nodes": 1, "results": 1, "resultsFull": 1},
        "children": [{"id": "id:octave:chunk::332-1", "relevance": 0.31, "source": "octave",
            "fields": {"sddocname": "chunk", "documentid": "id:octave:chunk::332-1",
                       "text": "Figure 15.1", "page_number": 332}}]}});
    assert_eq!(pages(&reader("vespa"), answer), [Some((332, 332))]);
}

#[test]
fn vectara_search_results_read_their_part_metadata() {
    let answer = json!({"summary": null, "search_results": [
        {"text": "Figure 15.1", "score": 0.8, "part_metadata": {"page_number": 332, "lang": "eng"},
         "document_metadata": {"title": "GNU Octave"}, "document_id": "octave.pdf",
         "request_corpora_index": 0}]});
    assert_eq!(pages(&reader("vectara"), answer), [Some((332, 332))]);
}

fn octave_labels() -> PageLabels {
    PageLabels::from_ranges(
        vec![
            LabelRange {
                start: 0,
                style: Some(LabelStyle::Decimal),
                prefix: "T-".into(),
                first: 1,
            },
            LabelRange {
                start: 2,
                style: Some(LabelStyle::LowerRoman),
                prefix: String::new(),
                first: 1,
            },
            LabelRange {
                start: 16,
                style: Some(LabelStyle::Decimal),
                prefix: String::new(),
                first: 1,
            },
        ],
        1158,
    )
}

#[test]
fn a_hostile_roman_start_gives_labels_of_bounded_length() {
    // A `/St` of four billion in roman numerals was four million `m`s for every page (the
    // `connector_answer` fuzz target's timeout); thousands stop at 1000 `m`s, as letters stop
    // at 1000 repeats.
    let huge = PageLabels::from_ranges(
        vec![LabelRange {
            start: 0,
            style: Some(LabelStyle::LowerRoman),
            prefix: "p".into(),
            first: 4_000_000_000,
        }],
        200,
    );
    let label = huge.label_of(Page::new(200).unwrap()).unwrap();
    assert_eq!(
        label,
        format!("p{}cxcix", "m".repeat(1000)),
        "4,000,000,199"
    );
    assert_eq!(huge.page_of(label).map(Page::get), Some(200));
}

#[test]
fn page_labels_follow_their_ranges() {
    let l = octave_labels();
    assert_eq!(l.page_of("T-1").map(Page::get), Some(1));
    assert_eq!(l.page_of("T-2").map(Page::get), Some(2));
    assert_eq!(l.page_of("i").map(Page::get), Some(3));
    assert_eq!(l.page_of("xiv").map(Page::get), Some(16));
    assert_eq!(l.page_of("316").map(Page::get), Some(332));
    assert_eq!(l.label_of(Page::new(332).unwrap()), Some("316"));
    assert_eq!(l.page_of("xv"), None);
    let letters = PageLabels::from_ranges(
        vec![LabelRange {
            start: 0,
            style: Some(LabelStyle::UpperLetters),
            prefix: "A-".into(),
            first: 26,
        }],
        3,
    );
    assert_eq!(letters.label_of(Page::new(3).unwrap()), Some("A-BB"));
    let roman = |first| {
        PageLabels::from_ranges(
            vec![LabelRange {
                start: 0,
                style: Some(LabelStyle::LowerRoman),
                prefix: String::new(),
                first,
            }],
            2,
        )
    };
    assert_eq!(roman(1994).label_of(Page::new(2).unwrap()), Some("mcmxcv"));
    assert_eq!(
        roman(3999).label_of(Page::new(1).unwrap()),
        Some("mmmcmxcix")
    );
    let none = PageLabels::from_ranges(vec![], 2);
    assert_eq!(
        none.page_of("2").map(Page::get),
        Some(2),
        "no labels: page numbers"
    );
}

use crate::dataset::Page;

#[test]
fn llamaindex_labels_map_to_physical_pages_through_the_pdf() {
    let c = Connector::preset("llamaindex").unwrap();
    let e = Reader::new(&c, None).unwrap_err();
    assert_eq!(
        e,
        ReaderError::LabelsNeeded {
            connector: "llamaindex".into()
        }
    );
    assert!(e.to_string().contains("--pdf FILE"), "{e}");
    let r = Reader::new(&c, Some(octave_labels())).unwrap();
    let answer = json!({"nodes": [
        {"node": {"id_": "n1", "text": "Figure 15.1", "metadata": {"page_label": "316", "file_name": "octave.pdf"}, "class_name": "TextNode"}, "score": 3.2, "class_name": "NodeWithScore"},
        {"node": {"id_": "n2", "text": "x", "metadata": {"page_label": "no such label"}}, "score": 1.0}]});
    assert_eq!(pages(&r, answer), [Some((332, 332)), None]);
}

fn connector(response: serde_json::Value) -> Connector {
    Connector::from_value(&json!({"name": "t",
        "request": {"url": "{{base_url}}/q", "body": {"q": "{{question}}"}},
        "response": response}))
    .unwrap()
}

#[test]
fn a_page_end_pointer_reads_a_span_and_its_absence_a_single_page() {
    let c =
        connector(json!({"hits": "/r", "page_start": "/a", "page_end": "/b", "numbering": "1"}));
    let r = Reader::new(&c, None).unwrap();
    let answer = json!({"r": [{"a": 3, "b": 5}, {"a": 3}, {"a": 5, "b": 3}, {"a": 3.0, "b": 3}]});
    assert_eq!(pages(&r, answer), [Some((3, 5)), None, None, None]);
    let c = connector(json!({"hits": "/r/0/list", "page_start": "/p/0", "numbering": "0"}));
    let r = Reader::new(&c, None).unwrap();
    let answer = json!({"r": [{"list": [{"p": [9, 1]}, {"p": ["9"]}, {"p": -1}, {"p": [true]}]}]});
    assert_eq!(
        pages(&r, answer),
        [Some((10, 10)), Some((10, 10)), None, None],
        "a string of digits is a number"
    );
}

#[test]
fn a_hits_pointer_that_finds_no_array_is_a_problem_naming_it() {
    let c = connector(json!({"hits": "/output", "page_start": "/p", "numbering": "1"}));
    let r = Reader::new(&c, None).unwrap();
    let read = r.read_answer(r#"{"matches": [], "x": 1}"#, false).unwrap();
    assert_eq!(
        read.matches.unwrap_err().to_string(),
        "the connector's hits pointer `/output` finds no array in the answer (its keys: matches, x)"
    );
    let read = r.read_answer(r#"{"output": {"a": 1}}"#, false).unwrap();
    assert_eq!(
        read.matches.unwrap_err().to_string(),
        "the connector's hits pointer `/output` finds an object, not an array"
    );
    let read = r.read_answer(r#"{"output": [{}, 3]}"#, false).unwrap();
    assert_eq!(
        read.matches.unwrap_err().to_string(),
        "the match at rank 2 is a number, not a JSON object"
    );
    let root = connector(json!({"hits": "", "page_start": "/p", "numbering": "1"}));
    let r = Reader::new(&root, None).unwrap();
    assert_eq!(
        pages(&r, json!([{"p": 2}])),
        [Some((2, 2))],
        "\"\" is the whole answer"
    );
}

#[test]
fn an_answer_citing_no_page_names_the_pointer_and_the_first_hits_keys() {
    let c =
        connector(json!({"hits": "/output", "page_start": "/metadata/pagee", "numbering": "1"}));
    let r = Reader::new(&c, None).unwrap();
    let read = r
        .read_answer(
            r#"{"output": [{"page_content": "x", "metadata": {"page": 3}, "type": "Document"}]}"#,
            false,
        )
        .unwrap();
    assert_eq!(read.pages.hits, 1);
    assert_eq!(read.pages.without_page, 1);
    let why = r.no_page_reason(&read.pages);
    assert!(
        why.contains("`/metadata/pagee` finds nothing in the first hit (its keys: page_content, metadata, type)"),
        "{why}"
    );
    let labels = connector(
        json!({"hits": "/output", "page_start": "/metadata/page_label", "numbering": "1"}),
    );
    let r = Reader::new(&labels, None).unwrap();
    let read = r
        .read_answer(
            r#"{"output": [{"metadata": {"page_label": "xiv"}}]}"#,
            false,
        )
        .unwrap();
    let why = r.no_page_reason(&read.pages);
    assert!(
        why.contains("finds the string \"xiv\", not a whole number")
            && why.contains("\"numbering\": \"label\""),
        "{why}"
    );
}

#[test]
fn a_string_of_digits_is_a_page_number_and_anything_else_is_not() {
    let one = connector(json!({"hits": "/h", "page_start": "/p", "numbering": "1"}));
    let zero = connector(json!({"hits": "/h", "page_start": "/p", "numbering": "0"}));
    let answer = json!({"h": [{"p": "316"}, {"p": "0042"}, {"p": " 7"}, {"p": "-3"}, {"p": "3.0"},
                              {"p": ""}, {"p": "1234567890"}]});
    let one = Reader::new(&one, None).unwrap();
    assert_eq!(
        pages(&one, answer.clone()),
        [
            Some((316, 316)),
            Some((42, 42)),
            None,
            None,
            None,
            None,
            None
        ]
    );
    let zero = Reader::new(&zero, None).unwrap();
    assert_eq!(
        pages(&zero, answer)[..2],
        [Some((317, 317)), Some((43, 43))]
    );
}

#[test]
fn figure_kinds_decide_which_hits_are_figure_chunks() {
    let c = connector(json!({"hits": "/r", "page_start": "/p", "numbering": "1",
        "chunk_kind": "/kind", "figure_kinds": ["image", "chart"], "summary": "/caption"}));
    let r = Reader::new(&c, None).unwrap();
    let read = r
        .read_answer(
            r#"{"r": [{"p": 1, "kind": "chart", "caption": "A plot."}, {"p": 1, "kind": "text"}]}"#,
            false,
        )
        .unwrap();
    let m = read.matches.unwrap();
    assert!(m[0].is_figure());
    assert_eq!(m[0].figure_summary.as_deref(), Some("A plot."));
    assert!(!m[1].is_figure());
    assert_eq!(m[1].chunk_kind.as_deref(), Some("text"));
}

#[test]
fn a_connector_file_lists_every_error_with_where_and_what() {
    let e = Connector::parse(
        r#"{"name": "", "request": {"method": "DELETE", "url": "{{base_url}}/x?q={{questoin}}",
            "headers": {"Authorization": "Bearer {{env.TOKEN}}"}, "body": {"input": "{{env.TOKEN}}"}},
           "response": {"hits": "output", "numbering": "2", "extra": 1, "figure_kinds": [3]}}"#,
    )
    .unwrap_err();
    let text: Vec<String> = e.0.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "name: must not be empty",
            "request.method: must be POST, PUT or GET, not \"DELETE\"",
            "request.url: unknown placeholder {{questoin}}; the placeholders are {{question}}, {{corpus_id}}, {{top_k}}, {{cache_mode}}, {{base_url}} and {{env.NAME}} (in headers)",
            "request.body.input: {{env.TOKEN}} is allowed only in a header value, so a secret never reaches a URL, a body or a capture",
            "response.extra: unknown key; the keys here are hits, page_start, page_end, numbering, chunk_kind, figure_kinds, summary, chunk_id, content, path",
            "response.hits: \"output\" is not a JSON Pointer: it must be \"\" or start with \"/\" (e.g. \"/output\")",
            "response.page_start: is required",
            "response.numbering: must be \"1\", \"0\" or \"label\", not \"2\"",
            "response.figure_kinds[0]: must be a string, not a number",
        ]
    );
    assert!(e
        .to_string()
        .starts_with("9 problems with the connector:\n  name: "));
    let e = Connector::parse("{\n  \"name\": 1,,\n}").unwrap_err();
    assert!(e.0[0].at.starts_with("line 2, column "), "{e}");
    let e = Connector::parse("{}").unwrap_err();
    assert_eq!(e.0.len(), 2, "request and response are required: {e}");
}

#[test]
fn templates_fill_placeholders_and_make_top_k_a_number() {
    let c = Connector::from_value(&json!({"name": "t", "request": {
        "url": "{{base_url}}/q?text={{question}}&corpus={{corpus_id}}",
        "body": {"input": "{{question}}", "k": "{{top_k}}", "note": "top {{top_k}} in {{cache_mode}}", "{{corpus_id}}": [1, "{{top_k}}"]}},
        "response": {"hits": "/r", "page_start": "/p", "numbering": "1"}}))
    .unwrap();
    let asked = Asked {
        base_url: "http://h:1/api",
        question: "Which \"figure\"\n & <b>?",
        corpus_id: "octave manual",
        top_k: 7,
        cache_mode: crate::CacheMode::Refresh,
    };
    assert_eq!(
        c.url(&asked),
        "http://h:1/api/q?text=Which%20%22figure%22%0A%20%26%20%3Cb%3E%3F&corpus=octave%20manual"
    );
    let body: serde_json::Value = serde_json::from_str(&c.body(&asked).unwrap()).unwrap();
    assert_eq!(
        body,
        json!({"input": "Which \"figure\"\n & <b>?", "k": 7, "note": "top 7 in refresh", "octave manual": [1, 7]})
    );
}

#[test]
fn header_secrets_come_from_the_environment_and_are_redacted() {
    let c = Connector::from_value(&json!({"name": "t", "request": {
        "url": "{{base_url}}/q", "headers": {"Authorization": "Bearer {{env.TOKEN}}", "X-Plain": "a"},
        "body": {"q": "{{question}}"}},
        "response": {"hits": "/r", "page_start": "/p", "numbering": "1"}}))
    .unwrap();
    let e = c.secrets(|_| None).unwrap_err();
    assert_eq!(
        e,
        SecretsError::Unset {
            connector: "t".into(),
            header: "Authorization".into(),
            variable: "TOKEN".into()
        }
    );
    assert!(
        e.to_string()
            .contains("environment variable TOKEN is not set"),
        "{e}"
    );
    let s = c
        .secrets(|n| (n == "TOKEN").then(|| "s3cret".to_string()))
        .unwrap();
    assert_eq!(
        s.headers(),
        [
            ("Authorization".to_string(), "Bearer s3cret".to_string()),
            ("X-Plain".to_string(), "a".to_string())
        ]
    );
    assert_eq!(
        s.redact("refused Bearer s3cret (token s3cret)"),
        "refused [redacted] (token [redacted])"
    );
    assert_eq!(
        s.redact("a bad token"),
        "[redacted] b[redacted]d token",
        "every header value sent, once, in one pass"
    );
    assert!(!format!("{s:?}").contains("s3cret"));
    let recorded = c.record().to_string();
    assert!(
        !recorded.contains("TOKEN") && recorded.contains("[redacted]"),
        "{recorded}"
    );
}

fn dataset() -> Dataset {
    Dataset::parse(
        r#"{"corpus_id":"c","items":[
        {"question":"Which figure shows A?","expected_pages":[332],"figure_ref":"F1","kind":"locate"},
        {"question":"Which figure shows B?","expected_pages":[2],"figure_ref":"F2","kind":"content"}]}"#,
    )
    .unwrap()
}

fn langserve_line(q: &str, page0: i64, connector: &str) -> String {
    format!(
        r#"{{"question":{q:?},"request":{{"base_url":"http://h/octave","top_k":5,"cache_mode":"bypass","connector":{connector}}},"response":{{"output":[{{"page_content":"x","metadata":{{"page":{page0}}},"type":"Document"}},{{"page_content":"y","metadata":{{}},"type":"Document"}}],"metadata":{{}}}}}}"#
    )
}

#[test]
fn a_capture_read_through_a_connector_scores_and_counts_hits_without_page() {
    let d = dataset();
    let r = reader("langserve");
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, "\"langserve\"".into());
    let text = format!(
        "{}\n{}\n",
        langserve_line("Which figure shows A?", 331, "\"langserve\""),
        langserve_line("Which figure shows B?", 0, "\"langserve\"")
    );
    let s = CaptureReader::read_str(p, &text)
        .pairing
        .finish(false)
        .unwrap();
    let hits: Vec<bool> = s.records.iter().map(|r| r.page_hit_at_3).collect();
    assert_eq!(hits, [true, false]);
    assert_eq!(s.hits_without_page, Some(2));
    assert_eq!(
        s.connector.as_deref(),
        Some("langserve"),
        "the report states the connector"
    );
    assert_eq!(s.request.base_url.as_deref(), Some("http://h/octave"));
    let report = crate::Report::build(s, crate::RunInfo::default());
    assert_eq!(
        serde_json::to_value(&report).unwrap()["hits_without_page"],
        2
    );
}

#[test]
fn a_capture_of_another_connector_is_refused_naming_both() {
    let d = dataset();
    let r = reader("hayhooks");
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, "\"hayhooks\"".into());
    let line = langserve_line("Which figure shows A?", 331, "\"langserve\"");
    let e = CaptureReader::read_str(p, &line)
        .pairing
        .finish(false)
        .unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert_eq!(
        e.0[0].to_string(),
        "line 1: the answers were recorded with the connector \"langserve\" but are read with \"hayhooks\"; read them with --connector \"langserve\""
    );
    let plain = Pairing::new(&d, ScoreConfig::default());
    let e = CaptureReader::read_str(plain, &line)
        .pairing
        .finish(false)
        .unwrap_err();
    assert!(matches!(e.0[0], CaptureError::OtherConnector { .. }), "{e}");
}

#[test]
fn the_first_answer_with_hits_must_cite_a_page() {
    let d = dataset();
    let c =
        connector(json!({"hits": "/output", "page_start": "/metadata/pagee", "numbering": "0"}));
    let r = Reader::new(&c, None).unwrap();
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, c.record().to_string());
    let text = langserve_line("Which figure shows A?", 331, &c.record().to_string());
    let e = CaptureReader::read_str(p, &text)
        .pairing
        .finish(false)
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("line 1: no hit of this answer cites a page through the connector \"t\": `/metadata/pagee` finds nothing"),
        "{text}"
    );
}

#[test]
fn the_default_connector_writes_the_capture_line_it_always_wrote() {
    let request = crate::SearchRequest {
        base_url: "http://h/api",
        corpus_id: "c",
        top_k: 5,
        cache_mode: crate::CacheMode::Bypass,
    };
    assert_eq!(
        request.envelope_line_with("q", "{\"matches\":[]}", None),
        request.envelope_line("q", "{\"matches\":[]}")
    );
    let line = request.envelope_line_with("q", "{}", Some(&json!("langserve")));
    assert!(
        line.contains("\"cache_mode\":\"bypass\",\"connector\":\"langserve\"}"),
        "{line}"
    );
}

#[test]
fn probe_keeps_every_hit_with_its_keys() {
    let r = reader("langserve");
    let read = r
        .read_answer(
            r#"{"output": [{"page_content": "x", "metadata": {"page": 3, "source": "m.pdf"}, "type": "Document"}, {"id": 1}]}"#,
            true,
        )
        .unwrap();
    assert_eq!(read.hits.len(), 2);
    assert_eq!(read.hits[0].keys, ["page_content", "metadata", "type"]);
    assert_eq!(read.hits[0].page_start, Some(read::Found::Int(3)));
    assert_eq!(read.hits[0].path.as_deref(), Some("m.pdf"));
    assert_eq!(read.hits[0].read.file_path.as_deref(), Some("m.pdf"));
    assert_eq!(read.hits[1].keys, ["id"]);
    assert_eq!(read.hits[1].page_start, None);
}

#[test]
fn the_first_answer_with_hits_is_first_in_dataset_order_not_capture_order() {
    let d = dataset();
    let c = connector(json!({"hits": "/output", "page_start": "/metadata/page", "numbering": "0"}));
    let r = Reader::new(&c, None).unwrap();
    let record = c.record().to_string();
    let b_first = format!(
        "{}\n{}\n",
        langserve_line("Which figure shows B?", 0, &record),
        langserve_line("Which figure shows A?", 331, &record).replace("\"page\":331", "\"pg\":331"),
    );
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, record.clone());
    let e = CaptureReader::read_str(p, &b_first)
        .pairing
        .finish(false)
        .unwrap_err();
    assert!(
        e.0[0]
            .to_string()
            .starts_with("line 2: no hit of this answer cites a page"),
        "{e}"
    );
    let a_cites = format!(
        "{}\n{}\n",
        langserve_line("Which figure shows B?", 0, &record).replace("\"page\":0", "\"pg\":0"),
        langserve_line("Which figure shows A?", 331, &record),
    );
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, record);
    let s = CaptureReader::read_str(p, &a_cites)
        .pairing
        .finish(false)
        .unwrap();
    assert_eq!(
        s.hits_without_page,
        Some(3),
        "a later answer citing no page is counted"
    );
}

/// A Haystack-shaped answer with every field a match can carry: a figure with a summary, a
/// text hit whose content is longer than the snippet, a hit with an integer id, and one that
/// cites no page.
fn rich_hayhooks_answer() -> serde_json::Value {
    let long = "word ".repeat(100);
    json!({"result": [
        {"id": "f1", "content": "Figure 15.1: Simple Two-Dimensional Plot.",
         "meta": {"page_number": 332, "chunk_kind": "figure", "summary": "a sine wave",
                  "file_path": "docs/octave.pdf"}},
        {"id": "t2", "content": long, "meta": {"page_number": 333}},
        {"id": 7, "content": "no page here", "meta": {}},
        {"id": "t4", "content": "", "meta": {"page_number": "12"}}
    ]})
}

#[test]
fn an_answer_written_in_the_contracts_shape_reads_back_as_the_same_matches() {
    // The page's connector runs (contract §14.9): what the mapping read, written in §3's
    // shape, must be what the contract's own reader reads back, match for match.
    let mut c = Connector::preset("hayhooks").unwrap();
    c.response.chunk_kind = Some(Pointer::parse("/meta/chunk_kind").unwrap());
    c.response.summary = Some(Pointer::parse("/meta/summary").unwrap());
    c.response.path = Some(Pointer::parse("/meta/file_path").unwrap());
    let r = Reader::new(&c, None).unwrap();
    let read = r
        .read_answer(&rich_hayhooks_answer().to_string(), false)
        .unwrap();
    let body = read.ragweld_body("hayhooks").unwrap();
    let back = crate::Response::parse(&body).unwrap();
    assert_eq!(back.read_through.as_deref(), Some("hayhooks"));
    let (ours, theirs) = (read.matches.unwrap(), back.matches.unwrap());
    assert_eq!(ours.len(), 4);
    assert_eq!(theirs, ours);
    assert!(theirs[0].is_figure() && theirs[0].figure_summary.is_some());
    assert_eq!(theirs[1].content.as_ref().map(|c| c.1), Some(true), "cut");
    assert_eq!(theirs[2].chunk_id, "7");
    assert_eq!(theirs[2].pages, None);
    // An answer whose hits cannot be read has no such body.
    let missing = r.read_answer(r#"{"documents": []}"#, false).unwrap();
    assert!(missing.matches.is_err());
    assert_eq!(missing.ragweld_body("hayhooks"), None);
}

#[test]
fn answers_read_through_a_connector_in_the_page_score_as_the_command_line_scores_them() {
    // The same two answers: read through the connector by `figeval score --connector`, and
    // written in the contract's shape as the page's capture holds them. The records, the
    // summaries and `hits_without_page` are the same.
    let d = dataset();
    let r = reader("langserve");
    let lines = [
        langserve_line("Which figure shows A?", 331, "\"langserve\""),
        langserve_line("Which figure shows B?", 0, "\"langserve\""),
    ];
    let mut p = Pairing::new(&d, ScoreConfig::default());
    p.read_through(&r, "\"langserve\"".into());
    let cli = CaptureReader::read_str(p, &lines.join("\n"))
        .pairing
        .finish(false)
        .unwrap();
    let page: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let read = r
                .read_answer(&v["response"].to_string(), false)
                .unwrap();
            format!(
                r#"{{"question":{},"request":{{"base_url":"http://h/octave","top_k":5,"cache_mode":"bypass"}},"response":{}}}"#,
                v["question"],
                read.ragweld_body("langserve").unwrap()
            )
        })
        .collect();
    let web = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &page.join("\n"))
        .pairing
        .finish(false)
        .unwrap();
    assert_eq!(web.hits_without_page, Some(2));
    assert_eq!(web.connector.as_deref(), Some("langserve"));
    let (cli, web) = (
        crate::Report::build(cli, crate::RunInfo::default()),
        crate::Report::build(web, crate::RunInfo::default()),
    );
    assert_eq!(
        serde_json::to_value(&web).unwrap(),
        serde_json::to_value(&cli).unwrap()
    );
}

#[test]
fn a_report_states_a_mapping_of_its_own_without_header_values_and_keeps_it_when_reread() {
    // A mapping of the user's own, with a secret header, used in the page: its answers carry
    // the mapping's record as `read_through`, and the report states it as a capture records it.
    let c = Connector::from_value(&json!({"name": "mine", "request": {
        "url": "{{base_url}}/invoke", "headers": {"Authorization": "Bearer {{env.TOKEN}}"},
        "body": {"input": "{{question}}"}},
        "response": {"hits": "/output", "page_start": "/metadata/page", "numbering": "0"}}))
    .unwrap();
    let r = Reader::new(&c, None).unwrap();
    let d = dataset();
    let page: Vec<String> = [("Which figure shows A?", 331), ("Which figure shows B?", 0)]
        .iter()
        .map(|(q, page0)| {
            let line: serde_json::Value =
                serde_json::from_str(&langserve_line(q, *page0, "null")).unwrap();
            let read = r.read_answer(&line["response"].to_string(), false).unwrap();
            format!(
                r#"{{"question":{q:?},"response":{}}}"#,
                read.ragweld_body(&c.stated_record()).unwrap()
            )
        })
        .collect();
    let s = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &page.join("\n"))
        .pairing
        .finish(false)
        .unwrap();
    let report = crate::Report::build(s, crate::RunInfo::default());
    let text = report.to_json_pretty();
    let stated: serde_json::Value =
        serde_json::from_str(report.run.connector.as_deref().unwrap()).unwrap();
    assert_eq!(stated, c.record(), "the mapping, as a capture records it");
    assert_eq!(
        stated["request"]["headers"]["Authorization"], "[redacted]",
        "{text}"
    );
    assert!(
        !text.contains("TOKEN"),
        "no header value nor its variable: {text}"
    );
    let reread = crate::Report::parse(&text).unwrap();
    assert_eq!(reread.run.connector, report.run.connector);
    // The default connector's report has no `connector` at all.
    let ragweld = r#"{"question":"Which figure shows A?","response":{"matches":[{"chunk_id":"a","provenance":{"page_start":332}}]}}"#;
    let plain = crate::Report::build(
        CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), ragweld)
            .pairing
            .finish(true)
            .unwrap(),
        crate::RunInfo::default(),
    );
    assert!(!plain.to_json_pretty().contains("\"connector\""));
}
