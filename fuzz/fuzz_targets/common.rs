//! Checks shared by the fuzz targets (included with `#[path]`, not a target itself).
#![allow(dead_code)]

use figeval::{Group, Metric, Report, Summary};

use figeval::ItemRecord;

/// The summary `s` agrees with the records it claims to summarize, recounted here from the
/// records (`ItemRecord::hit`, `first_hit_rank`): `n` is their number, each metric's hits are the records that hit, each
/// rate is hits / n to 4 decimals (0 when `n` is 0), `page_mrr` the mean of 1 / first hit rank.
pub fn check_against_records<'a>(
    what: &str,
    s: &Summary,
    records: impl IntoIterator<Item = &'a ItemRecord>,
) {
    let records: Vec<&ItemRecord> = records.into_iter().collect();
    let n = records.len() as u64;
    assert_eq!(s.n, n, "{what}: n");
    let close = |stated: f64, exact: f64| (stated - exact).abs() <= 0.00005 + 1e-12;
    for m in Metric::ALL {
        let hits = records.iter().filter(|r| r.hit(m)).count() as u64;
        assert_eq!(s.hits(m), hits, "{what}: {m} hits");
        let exact = if n == 0 { 0.0 } else { hits as f64 / n as f64 };
        assert!(
            close(s.rate(m), exact),
            "{what}: {m} rate {} but {hits} of {n} is {exact}",
            s.rate(m)
        );
    }
    let rr: f64 = records
        .iter()
        .filter_map(|r| r.first_hit_rank)
        .map(|k| 1.0 / f64::from(k))
        .sum();
    let exact = if n == 0 { 0.0 } else { rr / n as f64 };
    assert!(
        close(s.page_mrr, exact),
        "{what}: page_mrr {} but the records give {exact}",
        s.page_mrr
    );
}

/// Everything that must hold of any report, however it was obtained: when it has per-item
/// records, its overall summary and each group's are what those records give, and it states a
/// group exactly when some record is in it. (Without records there is nothing to check against.)
pub fn check_report(r: &Report) {
    if r.per_item.is_empty() {
        return;
    }
    check_against_records("overall", &r.summary, &r.per_item);
    for g in Group::ALL {
        let members: Vec<&ItemRecord> = r.per_item.iter().filter(|rec| rec.group == g).collect();
        match r.summary_of(figeval::Scope::Group(g)) {
            Some(s) => check_against_records(g.name(), s, members),
            None => assert!(members.is_empty(), "{g}: records but no group summary"),
        }
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
