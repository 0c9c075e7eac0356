//! Pure text formatting for the views. Nothing here computes a metric: rates, hits and
//! p-values come from `figeval` and are only laid out.

pub use figeval::decimal::{fixed, shortest};
pub use figeval::render::rate;

pub use figeval::render::{hits_with_ci, interval_note, interval_spoken};

/// An interval as a `data-ci` attribute carries it (`0.6695,0.9863`: the core's
/// `render::interval_data`); no attribute without one.
pub fn ci_attr(ci: Option<figeval::stats::Interval>) -> Option<yew::AttrValue> {
    ci.map(|ci| figeval::render::interval_data(ci).into())
}

/// A count and its noun, singular for one: `1 item`, `3 items` (never `item(s)`).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", count(n), if n == 1 { one } else { many })
}

/// A count with thousands separators: `10,000`.
pub fn count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size in bytes as megabytes (10^6 bytes), one decimal: `92.0 MB`.
pub fn megabytes(bytes: usize) -> String {
    format!("{} MB", fixed(bytes as f64 / 1e6, 1))
}

/// A list of pages: `p. 72` or `pp. 72, 73`.
pub fn pages(pages: &[u32]) -> String {
    let list = pages
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    if pages.len() == 1 {
        format!("p. {list}")
    } else {
        format!("pp. {list}")
    }
}

/// The pages a match cites: `p. 72`, `pp. 71–83`, or that it cites none.
pub fn cited(start: Option<u32>, end: Option<u32>) -> String {
    match (start, end) {
        (Some(s), Some(e)) if s == e => format!("p. {s}"),
        (Some(s), Some(e)) => format!("pp. {s}–{e}"),
        _ => "cites no page".to_string(),
    }
}

/// A span in pages: `1 page`, `13 pages`.
pub fn span(pages: u32) -> String {
    if pages == 1 {
        "1 page".to_string()
    } else {
        format!("{pages} pages")
    }
}

/// A duration in seconds, to a tenth.
pub fn seconds(s: f64) -> String {
    format!("{} s", fixed(s, 1))
}

pub use figeval::describe::start;

/// One chip of a match's cited pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chip {
    /// A page, and whether it is one of the item's expected pages.
    Page {
        /// The page number.
        page: u32,
        /// Whether the item expects it.
        expected: bool,
    },
    /// Pages left out between two chips.
    Gap(u32),
}

/// The chips for the pages `start..=end`: every page of a short span; for a wide blob the
/// first and last pages and every expected page inside, with the gaps counted.
pub fn page_chips(start: u32, end: u32, expected: &[u32], max_chips: u32) -> Vec<Chip> {
    let chip = |page: u32| Chip::Page {
        page,
        expected: expected.contains(&page),
    };
    if end < start {
        return Vec::new();
    }
    if end - start < max_chips {
        return (start..=end).map(chip).collect();
    }
    // The pages shown, ascending and each once (inserted where it sorts).
    let mut shown: Vec<u32> = vec![start, end];
    for &p in expected.iter().filter(|p| (start..=end).contains(*p)) {
        if let Err(i) = shown.binary_search(&p) {
            shown.insert(i, p);
        }
    }
    let mut out = Vec::new();
    let mut prev: Option<u32> = None;
    for p in shown {
        if let Some(q) = prev {
            if p > q + 1 {
                out.push(Chip::Gap(p - q - 1));
            }
        }
        out.push(chip(p));
        prev = Some(p);
    }
    out
}

/// A safe file-name fragment: letters, digits, `-` and `_`; anything else becomes `-`.
pub fn file_stem(s: &str) -> String {
    let stem: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    if stem.is_empty() {
        "report".into()
    } else {
        stem
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_show_four_decimals_like_the_reports() {
        assert_eq!(rate(0.5833), "0.5833");
        assert_eq!(rate(0.5), "0.5000");
        assert_eq!(rate(1.0), "1.0000");
        assert_eq!(hits_with_ci(7, 12, None), "(7/12)");
    }

    #[test]
    fn counts_carry_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1000), "1,000");
        assert_eq!(count(10_000), "10,000");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(megabytes(91_985_144), "92.0 MB");
    }

    #[test]
    fn cited_pages_read_naturally() {
        assert_eq!(cited(Some(72), Some(72)), "p. 72");
        assert_eq!(cited(Some(71), Some(83)), "pp. 71–83");
        assert_eq!(cited(None, None), "cites no page");
        assert_eq!(pages(&[72]), "p. 72");
        assert_eq!(pages(&[72, 73]), "pp. 72, 73");
        assert_eq!(span(1), "1 page");
        assert_eq!(span(13), "13 pages");
    }

    #[test]
    fn a_short_span_shows_every_page_with_expected_ones_marked() {
        let chips = page_chips(71, 73, &[72], 8);
        assert_eq!(
            chips,
            vec![
                Chip::Page {
                    page: 71,
                    expected: false
                },
                Chip::Page {
                    page: 72,
                    expected: true
                },
                Chip::Page {
                    page: 73,
                    expected: false
                },
            ]
        );
    }

    #[test]
    fn a_wide_blob_shows_its_ends_and_expected_pages_with_gaps_counted() {
        let chips = page_chips(60, 80, &[72, 99], 8);
        assert_eq!(
            chips,
            vec![
                Chip::Page {
                    page: 60,
                    expected: false
                },
                Chip::Gap(11),
                Chip::Page {
                    page: 72,
                    expected: true
                },
                Chip::Gap(7),
                Chip::Page {
                    page: 80,
                    expected: false
                },
            ]
        );
    }

    #[test]
    fn text_is_cut_by_characters_not_bytes() {
        assert_eq!(start("ééé", 2), "éé…");
        assert_eq!(start("abc", 3), "abc");
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_stem("octave-manual"), "octave-manual");
        assert_eq!(file_stem("../x y"), "---x-y");
        assert_eq!(file_stem(""), "report");
    }
}
