//! The share-link codec (contract §10.2) on arbitrary input, at each of its stages:
//!
//! 1. the input as a fragment (`#report=...`, `report=...`, anything) → `decode_fragment`,
//!    and as the encoded value → `decode` (base64url stage);
//! 2. the raw bytes base64url-encoded → `decode` (reaches the inflate stage with arbitrary
//!    DEFLATE streams);
//! 3. the raw bytes deflated, then base64url-encoded → `decode` (reaches the UTF-8 and report
//!    JSON stages with arbitrary text).
//!
//! Never panics; every error renders; an `Ok` report passes the report checks and its own
//! fragment decodes back to it.
#![no_main]

#[path = "common.rs"]
mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use figeval::share::{self, ShareError};
use figeval::Report;
use libfuzzer_sys::fuzz_target;

fn check(what: &str, out: Result<Report, ShareError>) {
    match out {
        Ok(r) => {
            common::check_report(&r);
            common::check_share_round_trip(&r);
            common::check_json_round_trip(&r);
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.is_empty(), "{what}: an empty error message");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check("fragment", share::decode_fragment(&text));
    check("encoded", share::decode(&text));

    let raw = URL_SAFE_NO_PAD.encode(data);
    match share::decode(&raw) {
        // Arbitrary bytes are never base64-refused once encoded.
        Err(ShareError::NotBase64(e)) => panic!("valid base64url refused: {e}"),
        out => check("raw deflate", out),
    }

    let deflated = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(data, 6));
    if deflated.len() > share::MAX_ENCODED_BYTES {
        // Only reachable with a -max_len far above the seeds; the size refusal is checked above.
        return check("deflated text (too large)", share::decode(&deflated));
    }
    let out = share::decode(&deflated);
    match &out {
        Err(ShareError::NotBase64(_) | ShareError::NotDeflate(_) | ShareError::TooLarge { .. }) => {
            panic!("a well-formed link was refused before its JSON was read: {out:?}")
        }
        // Well-formed JSON that is not a report, or a report that disagrees with itself.
        Err(ShareError::NotAReport(_) | ShareError::Refused(_)) | Ok(_) => {}
        Err(e) => panic!("unexpected error for a small well-formed link: {e:?}"),
    }
    // The JSON stage must agree with reading the text directly.
    if let Ok(text) = std::str::from_utf8(data) {
        assert_eq!(
            out.as_ref().ok(),
            Report::parse(text).as_ref().ok(),
            "a link and its JSON read differently"
        );
    }
    check("deflated text", out);
});
