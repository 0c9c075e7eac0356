//! Wall-clock time: when a run was stored, when a session ends, and the `run` object's
//! `started_at` of the reports the command line and the server make (the core has no clock).

use std::time::{SystemTime, UNIX_EPOCH};

/// Microseconds since the Unix epoch, now.
pub fn now_us() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
}

/// Now as RFC 3339 in UTC, to the second: `2026-12-02T14:44:56Z`.
pub fn now_rfc3339() -> String {
    rfc3339(now_us() / 1_000_000)
}

/// Seconds since the Unix epoch as RFC 3339 in UTC, to the second.
pub fn rfc3339(secs: i64) -> String {
    let (date, rem) = civil(secs);
    format!(
        "{date}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Microseconds since the Unix epoch as RFC 3339 in UTC, to the millisecond:
/// `2026-12-02T14:44:56.123Z` (a stored run's `created_at`).
pub fn rfc3339_ms(us: i64) -> String {
    let secs = us.div_euclid(1_000_000);
    let ms = us.rem_euclid(1_000_000) / 1000;
    let (date, rem) = civil(secs);
    format!(
        "{date}T{:02}:{:02}:{:02}.{ms:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The civil date (`YYYY-MM-DD`) of `secs` and the seconds into that day.
fn civil(secs: i64) -> (String, i64) {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (format!("{year:04}-{month:02}-{day:02}"), rem)
}

#[cfg(test)]
mod tests {
    use super::{rfc3339, rfc3339_ms};

    #[test]
    fn known_instants_format_as_rfc3339() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_222_696), "2026-12-02T14:44:56Z");
        assert_eq!(
            rfc3339_ms(1_796_222_696_123_456),
            "2026-12-02T14:44:56.123Z"
        );
    }
}
