//! Checks shared by the fuzz targets (included with `#[path]`, not a target itself).
#![allow(dead_code)]

use figeval::{Metric, Report, Summary};

/// A summary's own invariants: each rate is its hits / n rounded, MRR in 0..=1.
pub fn check_summary(what: &str, s: &Summary) {
    for m in Metric::ALL {
        let r = s.rate(m);
        let expected = if s.n == 0 {
            0.0
        } else {
            figeval::round4(s.hits(m) as f64 / s.n as f64)
        };
        assert_eq!(r, expected, "{what}: {m} rate {r} is not hits / n");
    }
    assert!(
        (0.0..=1.0).contains(&s.page_mrr),
        "{what}: page_mrr {} outside 0..=1",
        s.page_mrr
    );
}

/// A summary computed by the crate from `n` records: hits never exceed `n`.
pub fn check_built_summary(what: &str, s: &Summary, n: usize) {
    check_summary(what, s);
    assert_eq!(s.n, n as u64, "{what}: n");
    for m in Metric::ALL {
        assert!(
            s.hits(m) <= s.n,
            "{what}: {m} hits {} > n {}",
            s.hits(m),
            s.n
        );
    }
}

/// What must hold of a report with its items, however it was obtained (a report without
/// `per_item` opens with its numbers unchecked, so nothing is asserted of them).
pub fn check_report(r: &Report) {
    if r.per_item.is_empty() {
        return;
    }
    check_summary("overall", &r.summary);
    for (g, s) in r.groups() {
        check_summary(g.name(), s);
    }
}

/// A report serializes, and its indented JSON reads back to the same report.
pub fn check_json_round_trip(r: &Report) {
    let text = r.to_json_pretty();
    let back = Report::parse(&text)
        .unwrap_or_else(|e| panic!("a report's own JSON does not read back: {e}\n{text}"));
    assert_eq!(
        &back, r,
        "report JSON round trip changed the report\n{text}"
    );
}

/// A report that fits in a link decodes from its fragment (with and without `#`) to itself.
pub fn check_share_round_trip(r: &Report) {
    match figeval::share::fragment(r) {
        Ok(f) => {
            assert!(f.starts_with(figeval::share::FRAGMENT_PREFIX));
            let encoded = &f[figeval::share::FRAGMENT_PREFIX.len()..];
            assert!(
                encoded
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "a fragment must be base64url without padding"
            );
            let back = figeval::share::decode_fragment(&f)
                .unwrap_or_else(|e| panic!("a report's own link does not decode: {e}"));
            assert_eq!(&back, r, "share link round trip changed the report");
            let back = figeval::share::decode_fragment(&format!("#{f}"))
                .unwrap_or_else(|e| panic!("a report's own #link does not decode: {e}"));
            assert_eq!(&back, r, "share link (#) round trip changed the report");
        }
        Err(e) => {
            assert!(
                matches!(e, figeval::share::ShareError::TooLarge { .. }),
                "{e:?}"
            );
            let _ = e.to_string();
        }
    }
}
