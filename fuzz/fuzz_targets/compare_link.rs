//! The share link of a comparison (`#compare=`, contract §10.2) on arbitrary input, at each
//! stage of its decoding:
//!
//! 1. the input as a fragment → `decode_link` (either kind of link), and as the encoded value
//!    → `decode_compare` (base64url stage);
//! 2. the raw bytes base64url-encoded → `decode_compare` (arbitrary DEFLATE streams reach the
//!    inflater);
//! 3. the raw bytes deflated, then base64url-encoded → `decode_compare` (arbitrary text reaches
//!    the UTF-8, comparison JSON and report stages), which must agree with reading the same
//!    text as a comparison's JSON here, each report opened as `Report::parse` opens a file.
//!
//! Never panics; every error renders. An `Ok` holds at least two reports, each passing the
//! report checks; its own link (`compare_fragment`) decodes back to the same named reports,
//! through `decode_link` too; and `compare` of the baseline with each other report renders.
#![no_main]

#[path = "common.rs"]
mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use figeval::share::{self, Link, NamedReport, ShareError};
use figeval::Report;
use libfuzzer_sys::fuzz_target;

fn check(what: &str, out: Result<Vec<NamedReport>, ShareError>) {
    match out {
        Ok(named) => {
            assert!(
                named.len() >= share::MIN_COMPARED,
                "{what}: too few reports"
            );
            for n in &named {
                common::check_report(&n.report);
            }
            let pairs: Vec<(&str, &figeval::Report)> =
                named.iter().map(|n| (n.name.as_str(), &n.report)).collect();
            match share::compare_fragment(&pairs) {
                Ok(f) => {
                    let back = share::decode_link(&format!("#{f}"))
                        .unwrap_or_else(|e| panic!("{what}: its own link does not open: {e}"));
                    assert_eq!(back, Link::Compare(named.clone()), "{what}: round trip");
                }
                Err(e) => assert!(matches!(e, ShareError::TooLarge { .. }), "{what}: {e:?}"),
            }
            for n in &named[1..] {
                let c = figeval::compare(&named[0].report, &n.report);
                let _ = figeval::render::comparison_text(&c, &named[0].name, &n.name);
            }
        }
        Err(e) => assert!(!e.to_string().is_empty(), "{what}: an empty error message"),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match share::decode_link(&text) {
        Ok(Link::Compare(named)) => check("link", Ok(named)),
        Ok(Link::Report(r)) => common::check_report(&r),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    check("encoded", share::decode_compare(&text));

    let raw = URL_SAFE_NO_PAD.encode(data);
    match share::decode_compare(&raw) {
        Err(ShareError::NotBase64(e)) => panic!("valid base64url refused: {e}"),
        out => check("raw deflate", out),
    }

    let deflated = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(data, 6));
    if deflated.len() > share::MAX_ENCODED_BYTES {
        return check(
            "deflated text (too large)",
            share::decode_compare(&deflated),
        );
    }
    let out = share::decode_compare(&deflated);
    match &out {
        Err(ShareError::NotBase64(_) | ShareError::NotDeflate(_) | ShareError::TooLarge { .. }) => {
            panic!("a well-formed link was refused before its JSON was read: {out:?}")
        }
        _ => {}
    }
    // The JSON stage agrees with reading the text as a comparison's JSON directly.
    if let Ok(text) = std::str::from_utf8(data) {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Comparison {
            reports: Vec<NamedReport>,
        }
        // Each report opened as a file is (`Report::parse`: checked, then given the ranking
        // notes its own records state), which is how a link opens its reports.
        let direct = serde_json::from_str::<Comparison>(text)
            .ok()
            .filter(|c| c.reports.len() >= share::MIN_COMPARED)
            .and_then(|c| {
                c.reports
                    .into_iter()
                    .map(|n| {
                        let json = serde_json::to_string(&n.report).ok()?;
                        let report = Report::parse(&json).ok()?;
                        Some(NamedReport {
                            name: n.name,
                            report,
                        })
                    })
                    .collect::<Option<Vec<_>>>()
            });
        assert_eq!(
            out.as_ref().ok(),
            direct.as_ref(),
            "a link and its JSON read differently"
        );
    }
    check("deflated text", out);
});
