//! The share-link codec (contract §10.2).
//!
//! A report travels in a URL fragment, `#report=<base64url without padding of the raw DEFLATE
//! of the report's compact JSON>`. A comparison travels the same way as `#compare=`, whose JSON
//! is `{"reports": [{"name": ..., "report": {...}}, ...]}`: an ordered list of two or more
//! named reports, the first being the baseline. Fragments never reach a server, so the reports
//! never leave the browser. Decoding refuses an encoded fragment over 1 MiB and an inflated
//! payload over 16 MiB (for a comparison, all its reports together), so a crafted link (a
//! DEFLATE bomb) cannot exhaust memory. Other parameters may
//! follow the payload after `&` (`#report=…&pdf=<url>`, the PDF the page offers to load);
//! they are not part of it.
//!
//! Making a link is two steps, so that a shell may DEFLATE with what it has (the browser app
//! uses the browser's own `CompressionStream("deflate-raw")` rather than carrying a compressor
//! in its WebAssembly): [`report_payload`] / [`compare_payload`] give the JSON, and [`wrap`]
//! turns its raw DEFLATE into the link's value within the limit. [`encode`], [`fragment`],
//! [`encode_compare`] and [`compare_fragment`] do both with `miniz_oxide`; a build that never
//! calls them carries no compressor (the page's main module measures the same size with them
//! compiled in as without, BENCHMARKS.md). Opening a link
//! ([`decode_link`]) inflates with `miniz_oxide` too.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};
use serde::{Deserialize, Serialize};

use crate::report::{Report, ReportError};

/// The largest encoded fragment accepted (1 MiB).
pub const MAX_ENCODED_BYTES: usize = 1 << 20;
/// The largest inflated payload accepted (16 MiB).
pub const MAX_INFLATED_BYTES: usize = 16 << 20;
/// The fragment key of a report link.
pub const FRAGMENT_PREFIX: &str = "report=";
/// The fragment key of a comparison link.
pub const COMPARE_PREFIX: &str = "compare=";
/// The fewest reports a comparison link holds.
pub const MIN_COMPARED: usize = 2;

/// Why a share link cannot be made or opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The fragment starts with neither `report=` nor `compare=`.
    NotAReportLink,
    /// The encoded payload is over [`MAX_ENCODED_BYTES`].
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
    },
    /// The fragment is not base64url.
    NotBase64(String),
    /// The bytes are not raw DEFLATE.
    NotDeflate(String),
    /// The payload inflates to more than [`MAX_INFLATED_BYTES`].
    InflatesTooLarge,
    /// The inflated text is not a report.
    NotAReport(String),
    /// The report (or a report of a comparison) disagrees with itself (contract §5.2).
    Refused(String),
    /// The inflated text of a `compare=` link is not a comparison.
    NotAComparison(String),
    /// A comparison of fewer than [`MIN_COMPARED`] reports.
    TooFewReports {
        /// How many it holds.
        count: usize,
    },
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotAReportLink => {
                f.write_str("the link holds no report (no #report= or #compare=)")
            }
            ShareError::TooLarge { bytes } => write!(
                f,
                "the data is too large for a link ({bytes} bytes encoded; the limit is {} bytes): share the report files instead",
                MAX_ENCODED_BYTES
            ),
            ShareError::NotBase64(e) => write!(f, "the link is damaged: not base64url ({e})"),
            ShareError::NotDeflate(e) => {
                write!(f, "the link is damaged: its data does not inflate ({e})")
            }
            ShareError::InflatesTooLarge => write!(
                f,
                "the link's data inflates to more than {} bytes and was refused",
                MAX_INFLATED_BYTES
            ),
            ShareError::NotAReport(e) => write!(f, "the link does not hold a figeval report: {e}"),
            ShareError::Refused(e) => write!(f, "the link's report was refused: {e}"),
            ShareError::NotAComparison(e) => {
                write!(f, "the link does not hold a figeval comparison: {e}")
            }
            ShareError::TooFewReports { count } => write!(
                f,
                "a comparison link holds at least {MIN_COMPARED} reports, this one {count}"
            ),
        }
    }
}

impl std::error::Error for ShareError {}

/// One report of a comparison link, with the name it had in the page (a file name,
/// `current report`, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedReport {
    /// What the report was called.
    pub name: String,
    /// The report.
    pub report: Report,
}

/// What a share link holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Link {
    /// `#report=`: one report.
    Report(Box<Report>),
    /// `#compare=`: two or more reports in order, the first being the baseline.
    Compare(Vec<NamedReport>),
}

/// The JSON of a comparison link, borrowed for encoding.
#[derive(Serialize)]
struct ComparisonOut<'a> {
    reports: Vec<NamedOut<'a>>,
}

#[derive(Serialize)]
struct NamedOut<'a> {
    name: &'a str,
    report: &'a Report,
}

/// The JSON of a comparison link, read.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComparisonIn {
    reports: Vec<NamedReport>,
}

/// The JSON a `report=` link carries: the report's compact JSON.
pub fn report_payload(report: &Report) -> Vec<u8> {
    serde_json::to_vec(report).expect("a report always serializes")
}

/// The JSON a `compare=` link carries: the named reports in order, the baseline first.
pub fn compare_payload(reports: &[(&str, &Report)]) -> Result<Vec<u8>, ShareError> {
    if reports.len() < MIN_COMPARED {
        return Err(ShareError::TooFewReports {
            count: reports.len(),
        });
    }
    let out = ComparisonOut {
        reports: reports
            .iter()
            .map(|&(name, report)| NamedOut { name, report })
            .collect(),
    };
    Ok(serde_json::to_vec(&out).expect("a comparison always serializes"))
}

/// DEFLATE at level 9, then [`wrap`].
fn pack(json: &[u8]) -> Result<String, ShareError> {
    wrap(&miniz_oxide::deflate::compress_to_vec(json, 9))
}

/// The link's value for a payload's raw DEFLATE bytes: base64url without padding, within
/// [`MAX_ENCODED_BYTES`].
pub fn wrap(deflated: &[u8]) -> Result<String, ShareError> {
    let encoded = URL_SAFE_NO_PAD.encode(deflated);
    if encoded.len() > MAX_ENCODED_BYTES {
        return Err(ShareError::TooLarge {
            bytes: encoded.len(),
        });
    }
    Ok(encoded)
}

/// What kind of link a fragment is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `report=`.
    Report,
    /// `compare=`.
    Compare,
}

/// The kind of a fragment (`#report=…` or `#compare=…`, the `#` optional) and its raw DEFLATE
/// bytes: the value up to any `&`, within [`MAX_ENCODED_BYTES`], base64url-decoded. A shell
/// inflates them (within [`MAX_INFLATED_BYTES`]) and hands the text to [`open_inflated`];
/// [`decode_link`] does all three.
pub fn unwrap_link(fragment: &str) -> Result<(LinkKind, Vec<u8>), ShareError> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    let (kind, value) = if let Some(v) = f.strip_prefix(COMPARE_PREFIX) {
        (LinkKind::Compare, v)
    } else if let Some(v) = f.strip_prefix(FRAGMENT_PREFIX) {
        (LinkKind::Report, v)
    } else {
        return Err(ShareError::NotAReportLink);
    };
    Ok((kind, unwrap(value.split('&').next().unwrap_or(value))?))
}

/// The raw DEFLATE bytes of a link's value (without its key), within [`MAX_ENCODED_BYTES`].
fn unwrap(encoded: &str) -> Result<Vec<u8>, ShareError> {
    if encoded.len() > MAX_ENCODED_BYTES {
        return Err(ShareError::TooLarge {
            bytes: encoded.len(),
        });
    }
    URL_SAFE_NO_PAD
        .decode(encoded.trim())
        .map_err(|e| ShareError::NotBase64(e.to_string()))
}

/// Inflates within [`MAX_INFLATED_BYTES`].
fn inflate(deflated: &[u8]) -> Result<Vec<u8>, ShareError> {
    decompress_to_vec_with_limit(deflated, MAX_INFLATED_BYTES).map_err(|e| {
        if e.status == TINFLStatus::HasMoreOutput {
            ShareError::InflatesTooLarge
        } else {
            ShareError::NotDeflate(format!("{:?}", e.status))
        }
    })
}

/// What an inflated payload of a `kind` link holds: its report, or its comparison (checked
/// like [`decode_link`] checks it).
pub fn open_inflated(kind: LinkKind, json: Vec<u8>) -> Result<Link, ShareError> {
    match kind {
        LinkKind::Report => {
            report_of(text_of(json, ShareError::NotAReport)?).map(|r| Link::Report(Box::new(r)))
        }
        LinkKind::Compare => {
            compare_of(text_of(json, ShareError::NotAComparison)?).map(Link::Compare)
        }
    }
}

/// The payload as UTF-8 text; `not_text` words one that is not as the kind of link it is.
fn text_of(json: Vec<u8>, not_text: fn(String) -> ShareError) -> Result<String, ShareError> {
    String::from_utf8(json).map_err(|e| not_text(format!("not UTF-8 text ({})", e.utf8_error())))
}

/// Encodes a report as the value of the fragment's `report=` (without the prefix).
pub fn encode(report: &Report) -> Result<String, ShareError> {
    pack(&report_payload(report))
}

/// The whole fragment for a report: `report=<encoded>`.
pub fn fragment(report: &Report) -> Result<String, ShareError> {
    Ok(format!("{FRAGMENT_PREFIX}{}", encode(report)?))
}

/// Decodes a fragment (`#report=...`, `report=...`, either followed by `&` and other
/// parameters) into a report, within the limits.
pub fn decode_fragment(fragment: &str) -> Result<Report, ShareError> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    let encoded = f
        .strip_prefix(FRAGMENT_PREFIX)
        .ok_or(ShareError::NotAReportLink)?;
    decode(encoded.split('&').next().unwrap_or(encoded))
}

/// Decodes the encoded value (without `report=`) into a report, within the limits.
pub fn decode(encoded: &str) -> Result<Report, ShareError> {
    report_of(text_of(
        inflate(&unwrap(encoded)?)?,
        ShareError::NotAReport,
    )?)
}

fn report_of(text: String) -> Result<Report, ShareError> {
    Report::parse(&text).map_err(|e| match e {
        ReportError::NotAReport(m) => ShareError::NotAReport(m),
        ReportError::Disagrees(_) => ShareError::Refused(e.to_string()),
    })
}

/// Encodes named reports, in order (the first is the baseline), as the value of the
/// fragment's `compare=` (without the prefix).
pub fn encode_compare(reports: &[(&str, &Report)]) -> Result<String, ShareError> {
    pack(&compare_payload(reports)?)
}

/// The whole fragment for a comparison: `compare=<encoded>`.
pub fn compare_fragment(reports: &[(&str, &Report)]) -> Result<String, ShareError> {
    Ok(format!("{COMPARE_PREFIX}{}", encode_compare(reports)?))
}

/// Decodes the encoded value (without `compare=`) into its reports, in order, within the
/// limits.
pub fn decode_compare(encoded: &str) -> Result<Vec<NamedReport>, ShareError> {
    compare_of(text_of(
        inflate(&unwrap(encoded)?)?,
        ShareError::NotAComparison,
    )?)
}

fn compare_of(text: String) -> Result<Vec<NamedReport>, ShareError> {
    let mut parsed: ComparisonIn = serde_json::from_str(&text)
        .map_err(|e| ShareError::NotAComparison(crate::describe::json_error(&e)))?;
    if parsed.reports.len() < MIN_COMPARED {
        return Err(ShareError::TooFewReports {
            count: parsed.reports.len(),
        });
    }
    for r in &mut parsed.reports {
        r.report.check_and_restate().map_err(|d| {
            ShareError::Refused(format!(
                "{:?}: the report disagrees with itself: {d}",
                r.name
            ))
        })?;
    }
    Ok(parsed.reports)
}

/// Decodes either kind of fragment (`#report=...` or `#compare=...`, the `#` optional).
pub fn decode_link(fragment: &str) -> Result<Link, ShareError> {
    let (kind, deflated) = unwrap_link(fragment)?;
    open_inflated(kind, inflate(&deflated)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::RunInfo;
    use crate::report::Scored;
    use crate::request::RequestInfo;
    use crate::score::ScoreConfig;

    fn report() -> Report {
        Report::build(
            Scored {
                corpus_id: "c<script>".into(),
                config: ScoreConfig::default(),
                request: RequestInfo {
                    base_url: Some("http://127.0.0.1:58012/api".into()),
                    top_k: Some(5),
                    cache_mode: None,
                },
                records: vec![],
                unscored: vec!["é?".into()],
                hits_without_page: None,
                connector: None,
            },
            RunInfo::default(),
        )
    }

    #[test]
    fn a_report_round_trips_through_a_link() {
        let r = report();
        let f = fragment(&r).unwrap();
        assert!(f.starts_with("report="));
        assert!(f[7..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        let back = decode_fragment(&format!("#{f}")).unwrap();
        assert_eq!(back, r);
        assert_eq!(
            back.run.name.as_deref(),
            Some("127.0.0.1:58012"),
            "the link carries the run's name"
        );
        assert_eq!(
            decode_fragment(&format!("#{f}&pdf=http%3A%2F%2F127.0.0.1%2Foctave.pdf")).unwrap(),
            r,
            "a parameter after the report is not part of it"
        );
    }

    #[test]
    fn a_link_unwrapped_then_inflated_elsewhere_opens_as_decode_link_opens_it() {
        let r = report();
        let f = format!("#{}&pdf=http://127.0.0.1:1/m.pdf", fragment(&r).unwrap());
        let (kind, deflated) = unwrap_link(&f).unwrap();
        assert_eq!(kind, LinkKind::Report);
        let json = miniz_oxide::inflate::decompress_to_vec(&deflated).unwrap();
        assert_eq!(json, report_payload(&r));
        assert_eq!(open_inflated(kind, json).unwrap(), decode_link(&f).unwrap());
        assert_eq!(wrap(&deflated).unwrap(), encode(&r).unwrap());
        let c = format!(
            "{}&pdf=x",
            compare_fragment(&[("a", &r), ("b", &r)]).unwrap()
        );
        let (kind, deflated) = unwrap_link(&c).unwrap();
        assert_eq!(kind, LinkKind::Compare);
        let json = miniz_oxide::inflate::decompress_to_vec(&deflated).unwrap();
        assert_eq!(open_inflated(kind, json).unwrap(), decode_link(&c).unwrap());
        assert_eq!(unwrap_link("#pdf=x"), Err(ShareError::NotAReportLink));
        assert!(matches!(
            open_inflated(LinkKind::Report, vec![0xff]),
            Err(ShareError::NotAReport(m)) if m.starts_with("not UTF-8")
        ));
        assert!(matches!(
            wrap(&vec![0; MAX_ENCODED_BYTES]),
            Err(ShareError::TooLarge { .. })
        ));
    }

    #[test]
    fn a_deflate_bomb_is_refused() {
        let zeros = vec![b' '; MAX_INFLATED_BYTES + 1];
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&zeros, 9));
        assert!(bomb.len() < MAX_ENCODED_BYTES);
        assert_eq!(decode(&bomb).unwrap_err(), ShareError::InflatesTooLarge);
    }

    #[test]
    fn damaged_links_give_messages_not_panics() {
        assert_eq!(
            decode_fragment("#x=1").unwrap_err(),
            ShareError::NotAReportLink
        );
        assert!(matches!(
            decode("***").unwrap_err(),
            ShareError::NotBase64(_)
        ));
        assert!(matches!(
            decode("AAAA").unwrap_err(),
            ShareError::NotDeflate(_) | ShareError::NotAReport(_)
        ));
        let not_report =
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"a\":1}", 9));
        assert!(matches!(
            decode(&not_report).unwrap_err(),
            ShareError::NotAReport(_)
        ));
        let long = "A".repeat(MAX_ENCODED_BYTES + 1);
        assert!(matches!(
            decode(&long).unwrap_err(),
            ShareError::TooLarge { .. }
        ));
    }

    fn other() -> Report {
        let mut r = report();
        r.corpus_id = "other".into();
        r
    }

    fn deflated(json: &str) -> String {
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
    }

    #[test]
    fn a_comparison_round_trips_through_a_link_in_order_with_its_names() {
        let (a, b, c) = (report(), other(), report());
        let f = compare_fragment(&[("before.json", &a), ("après <b>", &b), ("third", &c)]).unwrap();
        assert!(f.starts_with("compare="));
        assert!(f[8..]
            .bytes()
            .all(|x| x.is_ascii_alphanumeric() || x == b'-' || x == b'_'));
        let Link::Compare(reports) = decode_link(&format!("#{f}")).unwrap() else {
            panic!("a compare link decodes as a comparison");
        };
        let names: Vec<&str> = reports.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["before.json", "après <b>", "third"]);
        assert_eq!(reports[0].report, a);
        assert_eq!(reports[1].report, b);
        assert_eq!(reports[2].report, c);
    }

    #[test]
    fn a_comparison_link_is_json_of_named_reports_under_the_same_codec() {
        let (a, b) = (report(), other());
        let encoded = encode_compare(&[("a", &a), ("b", &b)]).unwrap();
        let raw = URL_SAFE_NO_PAD.decode(&encoded).unwrap();
        let json = miniz_oxide::inflate::decompress_to_vec(&raw).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"reports": [
                {"name": "a", "report": serde_json::to_value(&a).unwrap()},
                {"name": "b", "report": serde_json::to_value(&b).unwrap()},
            ]})
        );
    }

    #[test]
    fn decode_link_reads_a_report_link_as_one_report() {
        let r = report();
        assert_eq!(
            decode_link(&fragment(&r).unwrap()).unwrap(),
            Link::Report(Box::new(r))
        );
        assert_eq!(
            decode_link("#other=1").unwrap_err(),
            ShareError::NotAReportLink
        );
    }

    #[test]
    fn a_comparison_of_fewer_than_two_reports_is_neither_made_nor_opened() {
        let r = report();
        assert_eq!(
            encode_compare(&[("only", &r)]).unwrap_err(),
            ShareError::TooFewReports { count: 1 }
        );
        let one = format!(
            r#"{{"reports": [{{"name": "only", "report": {}}}]}}"#,
            serde_json::to_string(&r).unwrap()
        );
        assert_eq!(
            decode_compare(&deflated(&one)).unwrap_err(),
            ShareError::TooFewReports { count: 1 }
        );
        assert_eq!(
            decode_compare(&deflated(r#"{"reports": []}"#)).unwrap_err(),
            ShareError::TooFewReports { count: 0 }
        );
    }

    #[test]
    fn a_link_whose_report_disagrees_with_itself_is_refused_naming_it() {
        use crate::compare::tests::{record, report};
        let good = report(vec![record("a?", crate::Group::Locate, true)], 5);
        let mut bad = good.clone();
        bad.summary.n += 1;
        let n = bad.per_item.len();
        let e = decode(&encode(&bad).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the link's report was refused: the report disagrees with itself: n is {} but per_item gives {n}",
                n + 1
            )
        );
        let link = encode_compare(&[("base", &good), ("run b", &bad)]).unwrap();
        let e = decode_compare(&link).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "the link's report was refused: \"run b\": the report disagrees with itself: n is"
            ),
            "{e}"
        );
    }

    #[test]
    fn damaged_comparison_links_give_messages_that_say_what_is_wrong() {
        assert!(matches!(
            decode_link("#compare=***").unwrap_err(),
            ShareError::NotBase64(_)
        ));
        assert!(matches!(
            decode_link("#compare=AAAA").unwrap_err(),
            ShareError::NotDeflate(_) | ShareError::NotAComparison(_)
        ));
        // A report link's payload is not a comparison.
        let report_payload = encode(&report()).unwrap();
        let err = decode_compare(&report_payload).unwrap_err();
        assert!(matches!(err, ShareError::NotAComparison(_)), "{err}");
        assert!(
            err.to_string()
                .contains("the key corpus_id is not one that belongs here"),
            "{err}"
        );
        // A damaged report inside names where it is.
        let bad =
            deflated(r#"{"reports": [{"name": "a", "report": {"corpus_id": 1}}, {"name": "b"}]}"#);
        let err = decode_compare(&bad).unwrap_err().to_string();
        assert!(
            err.starts_with("the link does not hold a figeval comparison: line 1, column "),
            "{err}"
        );
        let not_text =
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&[0xff, 0xfe], 9));
        assert!(matches!(
            decode_compare(&not_text).unwrap_err(),
            ShareError::NotAComparison(e) if e.starts_with("not UTF-8")
        ));
    }

    #[test]
    fn comparison_links_have_the_size_limits_of_report_links() {
        let long = "A".repeat(MAX_ENCODED_BYTES + 1);
        assert_eq!(
            decode_link(&format!("#compare={long}")).unwrap_err(),
            ShareError::TooLarge {
                bytes: MAX_ENCODED_BYTES + 1
            }
        );
        let zeros = vec![b' '; MAX_INFLATED_BYTES + 1];
        let bomb = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&zeros, 9));
        assert_eq!(
            decode_compare(&bomb).unwrap_err(),
            ShareError::InflatesTooLarge
        );
    }
}
