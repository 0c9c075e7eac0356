//! The share-link codec (contract §10.2).
//!
//! A report travels in a URL fragment, `#report=<base64url without padding of the raw DEFLATE
//! of the report's compact JSON>`. Fragments never reach a server, so the report never leaves
//! the browser. Decoding refuses an encoded fragment over 1 MiB and an inflated report over
//! 16 MiB, so a crafted link (a DEFLATE bomb) cannot exhaust memory.

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use miniz_oxide::inflate::{decompress_to_vec_with_limit, TINFLStatus};

use crate::report::Report;

/// The largest encoded fragment accepted (1 MiB).
pub const MAX_ENCODED_BYTES: usize = 1 << 20;
/// The largest inflated report accepted (16 MiB).
pub const MAX_INFLATED_BYTES: usize = 16 << 20;
/// The fragment key.
pub const FRAGMENT_PREFIX: &str = "report=";

/// Why a share link cannot be made or opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShareError {
    /// The fragment does not start with `report=`.
    NotAReportLink,
    /// The encoded report is over [`MAX_ENCODED_BYTES`].
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
    },
    /// The fragment is not base64url.
    NotBase64(String),
    /// The bytes are not raw DEFLATE.
    NotDeflate(String),
    /// The report inflates to more than [`MAX_INFLATED_BYTES`].
    InflatesTooLarge,
    /// The inflated text is not a report.
    NotAReport(String),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::NotAReportLink => f.write_str("the link holds no report (no #report=)"),
            ShareError::TooLarge { bytes } => write!(
                f,
                "the report is too large for a link ({bytes} bytes encoded; the limit is {} bytes): share the report file instead",
                MAX_ENCODED_BYTES
            ),
            ShareError::NotBase64(e) => write!(f, "the link is damaged: not base64url ({e})"),
            ShareError::NotDeflate(e) => {
                write!(f, "the link is damaged: its data does not inflate ({e})")
            }
            ShareError::InflatesTooLarge => write!(
                f,
                "the link's report inflates to more than {} bytes and was refused",
                MAX_INFLATED_BYTES
            ),
            ShareError::NotAReport(e) => write!(f, "the link does not hold a figeval report: {e}"),
        }
    }
}

impl std::error::Error for ShareError {}

/// Encodes a report as the value of the fragment's `report=` (without the prefix).
pub fn encode(report: &Report) -> Result<String, ShareError> {
    let json = serde_json::to_vec(report).expect("a report always serializes");
    let deflated = miniz_oxide::deflate::compress_to_vec(&json, 9);
    let encoded = URL_SAFE_NO_PAD.encode(deflated);
    if encoded.len() > MAX_ENCODED_BYTES {
        return Err(ShareError::TooLarge {
            bytes: encoded.len(),
        });
    }
    Ok(encoded)
}

/// The whole fragment for a report: `report=<encoded>`.
pub fn fragment(report: &Report) -> Result<String, ShareError> {
    Ok(format!("{FRAGMENT_PREFIX}{}", encode(report)?))
}

/// Decodes a fragment (`#report=...`, `report=...`) into a report, within the limits.
pub fn decode_fragment(fragment: &str) -> Result<Report, ShareError> {
    let f = fragment.strip_prefix('#').unwrap_or(fragment);
    let encoded = f
        .strip_prefix(FRAGMENT_PREFIX)
        .ok_or(ShareError::NotAReportLink)?;
    decode(encoded)
}

/// Decodes the encoded value (without `report=`) into a report, within the limits.
pub fn decode(encoded: &str) -> Result<Report, ShareError> {
    if encoded.len() > MAX_ENCODED_BYTES {
        return Err(ShareError::TooLarge {
            bytes: encoded.len(),
        });
    }
    let deflated = URL_SAFE_NO_PAD
        .decode(encoded.trim())
        .map_err(|e| ShareError::NotBase64(e.to_string()))?;
    let json = decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES).map_err(|e| {
        if e.status == TINFLStatus::HasMoreOutput {
            ShareError::InflatesTooLarge
        } else {
            ShareError::NotDeflate(format!("{:?}", e.status))
        }
    })?;
    let text = std::str::from_utf8(&json)
        .map_err(|e| ShareError::NotAReport(format!("not UTF-8 text ({e})")))?;
    Report::parse(text).map_err(ShareError::NotAReport)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{ReportHeader, RunInfo};

    fn report() -> Report {
        Report::build(
            ReportHeader {
                corpus_id: "c<script>".into(),
                base_url: Some("http://127.0.0.1:58012/api".into()),
                top_k: Some(5),
                cache_mode: None,
                max_precise_span_pages: 3,
            },
            vec![],
            vec!["é?".into()],
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
        assert_eq!(decode_fragment(&format!("#{f}")).unwrap(), r);
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
}
