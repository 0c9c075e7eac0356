//! The synthetic dataset and capture (deterministic: a fixed seed gives the same bytes).
//!
//! Every item gets its own random stream, seeded from the run seed and the item's index, so an
//! item's response does not depend on where its line lands in the (shuffled) capture.
//!
//! What makes scoring do real work:
//! - hits at every rank (1–3, 4–5, 6–10) and misses (about a third);
//! - the hitting match is a one-page text chunk, a figure chunk, a narrow 2–3 page span
//!   (precise) or a 4–15 page blob (a page hit that is not precise);
//! - items with one, two or three expected pages; locate, content and prose groups;
//! - "trap" matches that sit on an expected page but must not count: a float page, a page as
//!   a string, a reversed span, a page 0, a null page, no provenance at all;
//! - figure summaries of 120–320 characters with non-ASCII text, so the 200-character cut
//!   lands on multi-byte characters;
//! - `chunk_id` as a string, sometimes an integer, rarely null;
//! - ~400 characters of `content` per match: words, quotes, backslashes, newlines, tabs,
//!   raw non-ASCII (é, ß, —, 図) and `\u` escapes (°, ±, µ, and 📈 as a surrogate pair).

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Bump when the generator's output changes, so old files are not reused.
pub const GEN_VERSION: u32 = 1;
/// The default seed.
pub const DEFAULT_SEED: u64 = 0x0F16_E7A1_2024_0001;
/// Matches per response.
pub const MATCHES: usize = 10;
/// The corpus of the synthetic dataset.
pub const CORPUS_ID: &str = "bench-synthetic";
/// The highest page of the synthetic document.
const PAGES: u32 = 1200;

/// The generator: SplitMix64, from the test kit (the same bytes for the same seed everywhere).
pub use testkit::Rng;

#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "plot", "axis", "figure", "shows", "data", "points", "curve", "fit", "polynomial",
    "matrix", "vector", "function", "returns", "value", "values", "of", "and", "in", "with", "a",
    "for", "each", "element", "octave", "graphics", "handle", "property", "color", "line",
    "marker", "legend", "label", "title", "surface", "mesh", "contour", "error", "bars", "polar",
    "coordinates", "spiral", "three", "dimensions", "interpolation", "spline", "breaks", "knots",
    "is", "are", "to", "from", "by", "as", "that", "this", "see", "section", "example", "output",
    "input", "argument", "default", "option", "specified", "when", "called", "scalar", "integer",
    "complex", "real", "imaginary", "naïve", "café", "Größe", "Ångström", "façade", "coöperate",
    "déjà", "vu", "—", "–", "…", "図", "表", "データ", "グラフ", "α", "β", "Δt", "λ", "π", "≈", "≤", "→",
    "½", "°C", "±0.5", "µm", "📈",
];

const PUNCT: &[&str] = &[
    ", ", ". ", "; ", ": ", " (", ") ", " \"", "\" ", " \\ ", "\n", "\t",
];

#[rustfmt::skip]
const SUMMARY_WORDS: &[&str] = &[
    "A", "line", "chart", "with", "two", "curves", "on", "log-scaled", "axes;", "x", "axis",
    "labelled", "\"time (s)\"", "y", "axis", "labelled", "\"amplitude\"", "legend:", "sin(x),",
    "cos(x);", "error", "bars", "at", "each", "sample;", "a", "polar", "rose", "of", "eight",
    "petals;", "a", "3-D", "helix", "rising", "along", "z;", "printed", "values", "0.5,", "1.0,",
    "1.5;", "Größe", "in", "µm;", "temperature", "in", "°C;", "図", "1.2", "の", "データ", "—",
    "annotated", "peak", "at", "π/2;", "two", "panels", "side", "by", "side;", "colour", "map",
    "from", "blue", "to", "yellow;", "inset", "zoom", "of", "the", "knot", "region.",
];

const FIG_KINDS: &[&str] = &["chart", "diagram", "photo", "table"];

#[rustfmt::skip]
const TOPICS: &[&str] = &[
    "plot", "plotting", "interpolation", "surface", "polar", "statistics", "image", "signal",
    "geometry", "optimization", "sparse", "linear-algebra",
];

#[rustfmt::skip]
const LEADS: &[&str] = &[
    "Which figure shows", "Which figure illustrates", "Where is the diagram of",
    "Which plot draws", "Which figure contrasts", "On which page is the figure with",
    "Which illustration has",
];

/// Writes text content: ~`target` characters of words, punctuation and escapes.
fn text(rng: &mut Rng, target: usize, bank: &[&str], punct: bool) -> String {
    let mut s = String::with_capacity(target + 32);
    let mut chars = 0;
    while chars < target {
        let w = *rng.pick(bank);
        s.push_str(w);
        chars += w.chars().count();
        if punct && rng.chance(0.12) {
            let p = *rng.pick(PUNCT);
            s.push_str(p);
            chars += p.chars().count();
        } else {
            s.push(' ');
            chars += 1;
        }
    }
    s
}

/// Appends `s` as a JSON string. Quotes, backslashes and controls are escaped as JSON
/// requires; °, ±, µ and 📈 are written as `\u` escapes (📈 as a surrogate pair); every
/// other character is written raw (UTF-8).
pub fn push_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let mut buf = [0u8; 4];
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\r' => out.extend_from_slice(b"\\r"),
            c if (c as u32) < 0x20 => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes())
            }
            '°' | '±' | 'µ' => out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes()),
            '📈' => out.extend_from_slice(b"\\ud83d\\udcc8"),
            c => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
    out.push(b'"');
}

/// One dataset item, as generated.
pub struct GenItem {
    /// The question (unique: it ends with the item's number).
    pub question: String,
    /// Expected pages, ascending.
    pub pages: Vec<u32>,
    /// `Figure a.b` or `Section a.b`.
    pub figure_ref: String,
    /// `locate` or `content`.
    pub kind: &'static str,
    /// Tags; prose items have `prose`.
    pub tags: Vec<&'static str>,
}

fn item_rng(seed: u64, i: usize, stream: u64) -> Rng {
    let mut r = Rng::new(seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407) ^ stream);
    r.next_u64();
    r
}

/// The `i`-th item.
pub fn gen_item(seed: u64, i: usize) -> GenItem {
    let mut rng = item_rng(seed, i, 0x1111);
    let prose = rng.chance(0.12);
    let kind = if rng.chance(0.5) { "locate" } else { "content" };
    let n_pages = match rng.below(100) {
        0..=79 => 1,
        80..=94 => 2,
        _ => 3,
    };
    let mut pages: Vec<u32> = Vec::new();
    let first = rng.range(1, PAGES - 40);
    pages.push(first);
    while pages.len() < n_pages {
        let p = pages[pages.len() - 1] + rng.range(1, 12);
        pages.push(p);
    }
    let topic = *rng.pick(TOPICS);
    let words = text(&mut rng, 40, WORDS, false);
    let question = format!(
        "{} {}? [{} #{}]",
        rng.pick(LEADS),
        words.trim_end(),
        topic,
        i + 1
    );
    let (a, b) = (rng.range(1, 40), rng.range(1, 12));
    let (figure_ref, tags) = if prose {
        (format!("Section {a}.{b}"), vec!["prose", topic])
    } else {
        (format!("Figure {a}.{b}"), vec!["figure", topic])
    };
    GenItem {
        question,
        pages,
        figure_ref,
        kind,
        tags,
    }
}

/// Writes the dataset JSON (one item per line, so it stays readable).
fn write_dataset(w: &mut impl Write, items: &[GenItem]) -> io::Result<()> {
    let mut out = Vec::with_capacity(1 << 20);
    out.extend_from_slice(b"{\"corpus_id\": ");
    push_json_str(&mut out, CORPUS_ID);
    out.extend_from_slice(b",\n \"items\": [\n");
    for (i, it) in items.iter().enumerate() {
        out.extend_from_slice(b"  {\"question\": ");
        push_json_str(&mut out, &it.question);
        out.extend_from_slice(b", \"expected_pages\": [");
        for (j, p) in it.pages.iter().enumerate() {
            if j > 0 {
                out.extend_from_slice(b", ");
            }
            out.extend_from_slice(p.to_string().as_bytes());
        }
        out.extend_from_slice(b"], \"figure_ref\": ");
        push_json_str(&mut out, &it.figure_ref);
        out.extend_from_slice(b", \"kind\": ");
        push_json_str(&mut out, it.kind);
        out.extend_from_slice(b", \"tags\": [");
        for (j, t) in it.tags.iter().enumerate() {
            if j > 0 {
                out.extend_from_slice(b", ");
            }
            push_json_str(&mut out, t);
        }
        out.extend_from_slice(if i + 1 == items.len() {
            b"]}\n"
        } else {
            b"]},\n"
        });
        if out.len() > (1 << 20) - 4096 {
            w.write_all(&out)?;
            out.clear();
        }
    }
    out.extend_from_slice(b" ]}\n");
    w.write_all(&out)
}

/// How a match cites pages (what is written in `provenance`).
enum Cite {
    /// A valid span.
    Span(u32, u32),
    /// A trap on page `p` that must read as "cites no page".
    Trap(u32, u8),
    /// No `provenance` key at all.
    Absent,
}

fn covers_expected(pages: &[u32], s: u32, e: u32) -> bool {
    pages.iter().any(|&p| s <= p && p <= e)
}

/// A span that covers none of the expected pages.
fn miss_span(rng: &mut Rng, pages: &[u32]) -> (u32, u32) {
    for _ in 0..64 {
        let len = match rng.below(10) {
            0..=6 => 1,
            7..=8 => rng.range(2, 3),
            _ => rng.range(4, 15),
        };
        let s = rng.range(1, PAGES - len);
        let e = s + len - 1;
        if !covers_expected(pages, s, e) {
            return (s, e);
        }
    }
    (PAGES, PAGES) // expected pages never reach the last page
}

/// Writes one capture line (an envelope, as `figeval run --capture` writes) into `out`.
pub fn write_capture_line(out: &mut Vec<u8>, seed: u64, i: usize, item: &GenItem) {
    let mut rng = item_rng(seed, i, 0x2222);
    let n_matches = if rng.chance(0.02) {
        rng.below(MATCHES as u64) as usize
    } else {
        MATCHES
    };
    // Where the first hit is: 0 = a miss.
    let hit_rank = match rng.below(100) {
        0..=34 => 1,
        35..=44 => 2,
        45..=51 => 3,
        52..=56 => 4,
        57..=60 => 5,
        61..=69 => rng.range(6, 10) as usize,
        _ => 0,
    };
    let trap_rank = if rng.chance(0.06) {
        rng.range(1, MATCHES as u32) as usize
    } else {
        0
    };
    out.extend_from_slice(b"{\"question\":");
    push_json_str(out, &item.question);
    out.extend_from_slice(
        b",\"request\":{\"base_url\":\"http://127.0.0.1:58012/api\",\"top_k\":10,\"cache_mode\":\"bypass\"},\"response\":{\"query\":",
    );
    push_json_str(out, &item.question);
    out.extend_from_slice(b",\"matches\":[");
    let mut score = 30.0 + rng.unit() * 10.0;
    for rank in 1..=n_matches {
        if rank > 1 {
            out.push(b',');
        }
        let expected = *rng.pick(&item.pages);
        // Kind and pages of this match.
        let (figure, cite) = if rank == hit_rank {
            match rng.below(20) {
                0..=9 => (false, Cite::Span(expected, expected)),
                10..=14 => (true, Cite::Span(expected, expected)),
                15..=17 => {
                    let len = rng.range(2, 3);
                    let s = expected.saturating_sub(rng.range(0, len - 1)).max(1);
                    (false, Cite::Span(s, s + len - 1))
                }
                _ => {
                    let len = rng.range(4, 15);
                    let s = expected.saturating_sub(rng.range(0, len - 1)).max(1);
                    (false, Cite::Span(s, s + len - 1))
                }
            }
        } else if rank == trap_rank {
            (rng.chance(0.3), Cite::Trap(expected, rng.below(6) as u8))
        } else if rng.chance(0.01) {
            (false, Cite::Absent)
        } else {
            let (s, e) = miss_span(&mut rng, &item.pages);
            (rng.chance(0.2), Cite::Span(s, e))
        };
        let page_for_id = match cite {
            Cite::Span(s, _) | Cite::Trap(s, _) => s,
            Cite::Absent => 0,
        };
        out.extend_from_slice(b"{\"chunk_id\":");
        match rng.below(100) {
            0..=8 => {
                out.extend_from_slice((page_for_id * 100 + rank as u32).to_string().as_bytes())
            }
            9 => out.extend_from_slice(b"null"),
            _ => push_json_str(
                out,
                &format!(
                    "{}:p{page_for_id}:{}{}",
                    CORPUS_ID,
                    if figure { "fig" } else { "c" },
                    rng.below(1000)
                ),
            ),
        }
        out.extend_from_slice(b",\"content\":");
        let len = 380 + rng.below(60) as usize;
        let content = text(&mut rng, len, WORDS, true);
        push_json_str(out, &content);
        score -= rng.unit() * 2.0;
        out.extend_from_slice(format!(",\"score\":{score:.6}").as_bytes());
        out.extend_from_slice(b",\"metadata\":{\"chunk_kind\":");
        push_json_str(out, if figure { "figure" } else { "text" });
        out.extend_from_slice(b",\"source_path\":\"docs/manual.pdf\",\"section\":");
        push_json_str(
            out,
            &format!(
                "{}.{} {}",
                rng.range(1, 40),
                rng.range(1, 12),
                rng.pick(TOPICS)
            ),
        );
        out.extend_from_slice(
            format!(",\"lang\":\"en\",\"tokens\":{}", rng.range(60, 140)).as_bytes(),
        );
        if figure {
            out.extend_from_slice(b",\"figure\":{\"kind\":");
            let fig_kind = *rng.pick(FIG_KINDS);
            push_json_str(out, fig_kind);
            out.extend_from_slice(b",\"summary\":");
            let len = 120 + rng.below(200) as usize;
            let summary = text(&mut rng, len, SUMMARY_WORDS, false);
            push_json_str(out, summary.trim_end());
            out.push(b'}');
        }
        out.push(b'}');
        match cite {
            Cite::Absent => {}
            Cite::Span(s, e) => {
                out.extend_from_slice(
                    format!(
                        ",\"provenance\":{{\"extraction\":\"pdf-text\",\"page_start\":{s},\"page_end\":{e},\"regions\":["
                    )
                    .as_bytes(),
                );
                for p in s..=e {
                    if p > s {
                        out.push(b',');
                    }
                    let (x0, y0) = (36.0 + rng.unit() * 20.0, 40.0 + rng.unit() * 300.0);
                    out.extend_from_slice(
                        format!(
                            "{{\"page\":{p},\"bbox\":[{x0:.2},{y0:.2},{:.2},{:.2}]}}",
                            x0 + 500.0,
                            y0 + 120.0 + rng.unit() * 200.0
                        )
                        .as_bytes(),
                    );
                }
                out.extend_from_slice(b"]}");
            }
            Cite::Trap(p, how) => {
                let (s, e) = match how {
                    0 => (format!("{p}.0"), format!("{p}.0")),
                    1 => (format!("\"{p}\""), format!("\"{p}\"")),
                    2 => ((p + 1).to_string(), p.to_string()),
                    3 => ("0".to_string(), p.to_string()),
                    4 => ("null".to_string(), p.to_string()),
                    _ => ("true".to_string(), "true".to_string()),
                };
                out.extend_from_slice(
                    format!(
                        ",\"provenance\":{{\"extraction\":\"ocr\",\"page_start\":{s},\"page_end\":{e},\"regions\":[]}}"
                    )
                    .as_bytes(),
                );
            }
        }
        out.push(b'}');
    }
    out.extend_from_slice(
        format!(
            "],\"latency_ms\":{:.3},\"fusion_method\":\"rrf\"}}}}\n",
            20.0 + rng.unit() * 200.0
        )
        .as_bytes(),
    );
}

/// The generated files of one size.
pub struct Generated {
    /// The dataset file.
    pub dataset: PathBuf,
    /// The capture file.
    pub capture: PathBuf,
    /// Whether they were reused from an earlier run.
    pub reused: bool,
}

/// Generates (or reuses) the dataset and capture of `n` items in `dir`.
pub fn generate(dir: &Path, n: usize, seed: u64) -> io::Result<Generated> {
    fs::create_dir_all(dir)?;
    let stem = format!("n{n}-seed{seed:x}-g{GEN_VERSION}");
    let dataset = dir.join(format!("dataset-{stem}.json"));
    let capture = dir.join(format!("capture-{stem}.jsonl"));
    if dataset.is_file() && capture.is_file() {
        return Ok(Generated {
            dataset,
            capture,
            reused: true,
        });
    }
    let items: Vec<GenItem> = (0..n).map(|i| gen_item(seed, i)).collect();
    let tmp = dataset.with_extension("json.partial");
    {
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        write_dataset(&mut w, &items)?;
        w.flush()?;
    }
    fs::rename(&tmp, &dataset)?;
    // Lines in a shuffled order: a live run at concurrency > 1 answers out of order, and
    // pairing must look every question up.
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = Rng::new(seed ^ 0x5EED_0F0D_E125);
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let tmp = capture.with_extension("jsonl.partial");
    {
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        let mut line = Vec::with_capacity(1 << 15);
        for &i in &order {
            line.clear();
            write_capture_line(&mut line, seed, i, &items[i]);
            w.write_all(&line)?;
        }
        w.flush()?;
    }
    fs::rename(&tmp, &capture)?;
    Ok(Generated {
        dataset,
        capture,
        reused: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_json_and_deterministic() {
        let it = gen_item(DEFAULT_SEED, 7);
        let mut a = Vec::new();
        let mut b = Vec::new();
        write_capture_line(&mut a, DEFAULT_SEED, 7, &it);
        write_capture_line(&mut b, DEFAULT_SEED, 7, &gen_item(DEFAULT_SEED, 7));
        assert_eq!(a, b);
        let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
        assert_eq!(v["question"], v["response"]["query"]);
        assert_eq!(a.iter().filter(|&&c| c == b'\n').count(), 1);
    }

    #[test]
    fn escapes_round_trip() {
        let s = "a\"b\\c\nd\te°f±µ📈 図 ß";
        let mut out = Vec::new();
        push_json_str(&mut out, s);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\\u00b0") && text.contains("\\ud83d\\udcc8"));
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), s);
    }
}
