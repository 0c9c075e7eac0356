//! Text and Markdown renderings of reports, comparisons, matrices and the significance gate.
//! Renderers only lay out numbers that [`crate::report`] and [`crate::compare`](mod@crate::compare) computed; none
//! recomputes a metric. The ground check's renderings are the document crate's
//! (`figeval_document::render`).

use std::fmt::Write as _;

use crate::compare::{Comparison, Disagreement, MetricDelta, RankingDelta, ScopeComparison, ALPHA};
use crate::dataset::Group;
use crate::decimal;
use crate::gate::{Finding, GateCheck, SignificanceGate};
use crate::matrix::{Cell, Matrix};
use crate::report::{Report, Scope};
use crate::score::{Metric, Ranking};
use crate::stats::Interval;
use crate::summary::Summary;

/// The heading of the reading guide's lines on how small a change cannot be told from chance.
pub const TOO_SMALL_TO_TELL: &str = "Too small to tell (exact McNemar, p < 0.05)";

/// How many gained/lost questions a rendering lists per metric.
const LISTED: usize = 10;

/// A metric's short label in the page's tables and charts (`page hit @3`); its key
/// (`page_hit_at_3`) is [`Metric::name`].
pub fn metric_label(m: Metric) -> &'static str {
    match m {
        Metric::PageHitAt3 => "page hit @3",
        Metric::PrecisePageHitAt3 => "precise @3",
        Metric::FigureChunkAt3 => "figure chunk @3",
        Metric::PageHitAt5 => "page hit @5",
    }
}

/// A ranking metric's short label, shown over its report key wherever a table names it:
/// `nDCG@5`, `nDCG@10`, `recall@5`, `recall@10`.
pub fn ranking_label(m: Ranking) -> &'static str {
    match m {
        Ranking::NdcgAt5 => "nDCG@5",
        Ranking::NdcgAt10 => "nDCG@10",
        Ranking::RecallAt5 => "recall@5",
        Ranking::RecallAt10 => "recall@10",
    }
}

/// A count of moved questions with its direction sign (`+3`, `−2`), and a bare `0` for none.
pub fn count_with_sign(n: usize, sign: char) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        format!("{sign}{n}")
    }
}

/// A delta with its sign to 4 places: `+0.1515`, `-0.0312`, `0.0000`.
pub fn signed(x: f64) -> String {
    signed_to(x, 4)
}

/// `x` with its sign to `places` decimals; zero unsigned.
fn signed_to(x: f64, places: usize) -> String {
    if x > 0.0 {
        format!("+{}", decimal::fixed(x, places))
    } else {
        decimal::fixed(if x == 0.0 { 0.0 } else { x }, places)
    }
}

/// A p-value in one form at every size: two significant figures (`0.50`, `0.062`, `0.0020`),
/// with a power of ten below 0.001 (`6.0e-8`); `1` and `0` as they are, and so is a p that
/// rounds to 1 (an exact test's `0.99999…` is `1`, never `1.00`). Rounded half to even
/// (`0.0625` is `0.062`); a p that rounds up to the next power of ten keeps two figures
/// (`0.0996` is `0.10`).
pub fn p_value(p: f64) -> String {
    if p >= 0.995 {
        "1".into()
    } else if p == 0.0 {
        "0".into()
    } else if p < 0.001 {
        decimal::scientific(p, 1)
    } else {
        let places = if p >= 0.0995 {
            2
        } else if p >= 0.00995 {
            3
        } else {
            4
        };
        decimal::fixed(p, places)
    }
}

/// A rate or a mean as reports are read: four decimals (`0.5833`).
pub fn rate(x: f64) -> String {
    decimal::fixed(x, 4)
}

/// A rate with its hits and interval, as every rendering shows it:
/// `0.9394 (31/33; 95% CI 0.80–0.98)`, or `0.0000 (0/0)` without items.
pub fn rate_with_ci(rate: f64, hits: u64, n: u64, ci: Option<Interval>) -> String {
    format!("{} {}", self::rate(rate), hits_with_ci(hits, n, ci))
}

/// What follows the rate in [`rate_with_ci`]: `(31/33; 95% CI 0.80–0.98)`, or `(0/0)` without
/// an interval (the page sets the rate and this part apart).
pub fn hits_with_ci(hits: u64, n: u64, ci: Option<Interval>) -> String {
    match ci {
        Some(ci) => format!("({hits}/{n}; 95% CI {ci})"),
        None => format!("({hits}/{n})"),
    }
}

/// A value with its interval: `0.4167 (95% CI 0.21–0.50)`, or the value alone without one.
pub fn value_with_ci(value: f64, ci: Option<Interval>) -> String {
    match interval_note(ci) {
        Some(note) => format!("{} {note}", rate(value)),
        None => rate(value),
    }
}

/// A ranking metric's value with its interval as [`value_with_ci`] writes it, or `null` when
/// it is not stated.
pub fn stated_with_ci(value: Option<f64>, ci: Option<Interval>) -> String {
    value.map_or_else(|| "null".to_string(), |v| value_with_ci(v, ci))
}

/// What follows the value in [`value_with_ci`]: `(95% CI 0.21–0.50)`; `None` without an
/// interval.
pub fn interval_note(ci: Option<Interval>) -> Option<String> {
    ci.map(|ci| format!("(95% CI {ci})"))
}

/// An interval as a screen reader hears it: `95% CI 0.67 to 0.99` (the bounds as the text
/// reports print them, "to" where the eye reads the en dash).
pub fn interval_spoken(ci: Interval) -> String {
    format!("95% CI {ci}").replace('–', " to ")
}

/// An interval as the page's `data-ci` attributes carry it: both bounds as the report states
/// them, four decimals: `0.6695,0.9863`.
pub fn interval_data(ci: Interval) -> String {
    format!("{},{}", rate(ci.lo), rate(ci.hi))
}

/// The interval of a change, signed: `-0.51 to -0.03`, `+0.02 to +0.31`; `n/a` without one.
pub fn delta_interval(ci: Option<Interval>) -> String {
    ci.map_or_else(
        || "n/a".to_string(),
        |ci| format!("{} to {}", signed_to(ci.lo, 2), signed_to(ci.hi, 2)),
    )
}

/// The one line saying that a change's interval and its test disagree, and which one the
/// significance gate follows: `the delta's 95% CI +0.01 to +0.31 excludes 0 but the exact
/// McNemar p is 0.062 (not below 0.05); the significance gate follows the McNemar test`.
/// `which_p` names the p (`the exact McNemar p`, `the Holm-adjusted McNemar p`).
pub fn disagreement(d: Disagreement, delta_ci: Option<Interval>, p: f64, which_p: &str) -> String {
    let ci = delta_interval(delta_ci);
    let alpha = decimal::shortest(ALPHA);
    let p = p_value(p);
    match d {
        Disagreement::IntervalExcludesZero => format!(
            "the delta's 95% CI {ci} excludes 0 but {which_p} is {p} (not below {alpha}); the \
             significance gate follows the McNemar test"
        ),
        Disagreement::TestSignificant => format!(
            "{which_p} is {p} (below {alpha}) but the delta's 95% CI {ci} includes 0; the \
             significance gate follows the McNemar test"
        ),
    }
}

/// A metric row's disagreement line with its metric, `page_hit_at_3: the delta's 95% CI …`;
/// `None` when the interval and the test agree.
fn metric_disagreement(m: &MetricDelta) -> Option<String> {
    m.disagreement.map(|d| {
        format!(
            "{}: {}",
            m.metric,
            disagreement(d, m.delta_ci, m.p_value, "the exact McNemar p")
        )
    })
}

/// The provenance audit in one line (contract §14.8), as the text report leads with it: `120
/// of 150 hits checked are printed on a page they cite (0.8); 12 hits not found in the PDF;
/// 28 hits sit +1 page from their text: 0-based page numbers read as 1-based`.
#[cfg(feature = "connectors")]
pub fn provenance_line(p: &crate::provenance::Provenance) -> String {
    let mut out = match p.rate {
        None => "provenance: no hit's content could be found in the PDF".to_string(),
        Some(rate) => format!(
            "provenance: {} of {} hits checked are printed on a page they cite ({})",
            p.on_cited_page,
            p.checked,
            crate::decimal::shortest(rate)
        ),
    };
    if p.not_found > 0 {
        let _ = write!(
            out,
            "; {} too short to check or not found in the PDF",
            crate::describe::counted(p.not_found, "hit", "hits")
        );
    }
    if p.other_file > 0 {
        let _ = write!(
            out,
            "; {} in a file none of the PDFs given is, not checked",
            crate::describe::counted(p.other_file, "hit", "hits")
        );
    }
    if let Some(o) = &p.offset {
        let _ = write!(
            out,
            "; {} hits sit {:+} {} from their text: {}",
            o.hits,
            o.pages,
            if o.pages.abs() == 1 { "page" } else { "pages" },
            o.cause
        );
    }
    out
}

/// A per-group summary table of a report, as plain text, led by the provenance audit when
/// the report has one.
pub fn report_text(report: &Report, label: &str) -> String {
    let mut out = String::new();
    #[cfg(feature = "connectors")]
    if let Some(p) = &report.provenance {
        let _ = writeln!(out, "{}", provenance_line(p));
    }
    let _ = writeln!(
        out,
        "{label}: corpus {}, {} scored",
        report.corpus_id,
        crate::describe::counted(report.summary.n, "item", "items")
    );
    let _ = write!(out, "  {:<9} {:>4}", "group", "n");
    for m in Metric::ALL {
        let _ = write!(out, "  {:>34}", m.name());
    }
    let _ = write!(out, "  {:>26}", "page_mrr");
    for m in Ranking::ALL {
        let _ = write!(out, "  {:>26}", m.name());
    }
    out.push('\n');
    let mut row = |name: &str, s: &Summary| {
        let _ = write!(out, "  {name:<9} {:>4}", s.n);
        for m in Metric::ALL {
            let cell = rate_with_ci(s.rate(m), s.hits(m), s.n, s.ci(m));
            let _ = write!(out, "  {cell:>34}");
        }
        let _ = write!(out, "  {:>26}", value_with_ci(s.page_mrr, s.page_mrr_ci));
        for m in Ranking::ALL {
            let _ = write!(
                out,
                "  {:>26}",
                stated_with_ci(s.ranking(m), s.ranking_ci(m))
            );
        }
        out.push('\n');
    };
    for (g, s) in report.groups() {
        row(g.name(), s);
    }
    row(Scope::Overall.name(), &report.summary);
    if let Some(note) = &report.summary.ranking_note {
        let _ = writeln!(out, "  {note}");
    }
    if !report.unscored.is_empty() {
        let _ = writeln!(out, "  unscored (no response): {}", report.unscored.len());
    }
    out
}

/// What a comparison found, in one line, as it leads the text, the Markdown and the page: each
/// overall metric whose change the exact McNemar test tells from chance at the paired n, the
/// headline page_hit_at_3 whenever it moved (with "too small to tell" when the test cannot),
/// and whether the prose control held. For example `figure_chunk_at_3 rose 0.00 → 0.76
/// (p 6.0e-8); page_hit_at_3 rose 0.79 → 0.94, too small to tell at n 33 (p 0.062); the
/// prose control held.`
pub fn comparison_finding(c: &Comparison) -> String {
    let Some(overall) = c.scope(Scope::Overall) else {
        return "no items to compare.".to_string();
    };
    let told = |m: &MetricDelta| m.delta != 0.0 && m.p_value < ALPHA;
    let headline = |m: &MetricDelta| m.metric == Metric::PageHitAt3 && m.delta != 0.0 && !told(m);
    let rows = || overall.metrics.values();
    let mut parts: Vec<String> = rows()
        .filter(|m| told(m))
        .chain(rows().filter(|m| headline(m)))
        .map(|m| {
            let way = if m.delta > 0.0 { "rose" } else { "fell" };
            let change = format!(
                "{} {way} {} → {}",
                m.metric,
                decimal::fixed(m.before, 2),
                decimal::fixed(m.after, 2)
            );
            let p = p_value(m.p_value);
            if told(m) {
                format!("{change} (p {p})")
            } else {
                format!(
                    "{change}, too small to tell at n {} (p {p})",
                    overall.paired
                )
            }
        })
        .collect();
    if parts.is_empty() {
        parts.push(format!(
            "no change told from chance at n {} (exact McNemar, p < 0.05)",
            overall.paired
        ));
    }
    if let Some(prose) = c.scope(Scope::Group(Group::Prose)) {
        let fell = prose.regressions();
        parts.push(if fell.is_empty() {
            "the prose control held".to_string()
        } else {
            format!("the prose control fell on {}", crate::compare::names(&fell))
        });
    }
    parts.join("; ") + "."
}

/// A comparison as plain text, for a terminal.
pub fn comparison_text(c: &Comparison, before: &str, after: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "figeval compare: {before} -> {after}");
    let _ = writeln!(out, "{}", comparison_finding(c));
    for w in &c.warnings {
        let _ = writeln!(out, "WARNING: {w}");
    }
    for s in &c.scopes {
        let _ = writeln!(
            out,
            "\n{} (n {} -> {}, {} paired)",
            s.scope, s.n_before, s.n_after, s.paired
        );
        let _ = writeln!(
            out,
            "  {:<22} {:>32} {:>32} {:>8} {:>16} {:>6} {:>5} {:>9}",
            "metric", "before", "after", "delta", "delta 95% CI", "gained", "lost", "p"
        );
        for m in s.metrics.values() {
            let _ = writeln!(
                out,
                "  {:<22} {:>32} {:>32} {:>8} {:>16} {:>6} {:>5} {:>9}{}",
                m.metric.name(),
                rate_with_ci(m.before, m.before_hits, s.n_before, m.before_ci),
                rate_with_ci(m.after, m.after_hits, s.n_after, m.after_ci),
                signed(m.delta),
                delta_interval(m.delta_ci),
                m.gained.len(),
                m.lost.len(),
                p_value(m.p_value),
                if m.regressed { "  REGRESSED" } else { "" }
            );
        }
        let _ = writeln!(
            out,
            "  {:<22} {:>32} {:>32} {:>8}",
            "page_mrr",
            value_with_ci(s.page_mrr.before, s.page_mrr.before_ci),
            value_with_ci(s.page_mrr.after, s.page_mrr.after_ci),
            signed(s.page_mrr.delta)
        );
        for r in &s.ranking {
            let [before, after, delta, ci] = ranking_cells(r);
            let _ = writeln!(
                out,
                "  {:<22} {before:>32} {after:>32} {delta:>8} {ci:>16}{}",
                r.metric.name(),
                if r.regressed { "  fell" } else { "" }
            );
        }
        if let Some(note) = &s.note {
            let _ = writeln!(out, "  note: {note}");
        }
        for line in s.metrics.values().filter_map(metric_disagreement) {
            let _ = writeln!(out, "  note: {line}");
        }
    }
    if let Some(overall) = c.scope(Scope::Overall) {
        write_movers_text(&mut out, overall);
    }
    write_unpaired(&mut out, c, |q| format!("{q:?}"));
    if let Some(v) = &c.prose_verdict {
        let _ = writeln!(out, "\n{v}");
    }
    let _ = writeln!(out, "\nHow to read this:");
    for line in &c.reading_guide {
        let _ = writeln!(out, "  - {line}");
    }
    let _ = writeln!(out, "  - {TOO_SMALL_TO_TELL}:");
    for line in &c.too_small_to_tell {
        let _ = writeln!(out, "    - {line}");
    }
    out
}

/// The before, after, delta and delta-interval cells of a ranking metric's row; `null` for a
/// side its report does not state. `figeval compare` prints them, and the page's runs module
/// shows them.
pub fn ranking_cells(r: &RankingDelta) -> [String; 4] {
    [
        stated_with_ci(r.before, r.before_ci),
        stated_with_ci(r.after, r.after_ci),
        r.delta.map_or_else(|| "null".into(), signed),
        delta_interval(r.delta_ci),
    ]
}

fn write_movers_text(out: &mut String, s: &ScopeComparison) {
    for m in s.metrics.values() {
        for (what, qs) in [("gained", &m.gained), ("lost", &m.lost)] {
            if qs.is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n{} {what} ({}):", m.metric, qs.len());
            for q in qs.iter().take(LISTED) {
                let _ = writeln!(out, "  - {q:?}");
            }
            if qs.len() > LISTED {
                let _ = writeln!(out, "  … and {} more", qs.len() - LISTED);
            }
        }
    }
}

fn write_unpaired(out: &mut String, c: &Comparison, quote: impl Fn(&str) -> String) {
    for (what, qs) in [
        ("only in the before report", &c.unpaired_before),
        ("only in the after report", &c.unpaired_after),
    ] {
        if qs.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\nQuestions {what} ({}):", qs.len());
        for q in qs.iter().take(LISTED) {
            let _ = writeln!(out, "- {}", quote(q));
        }
        if qs.len() > LISTED {
            let _ = writeln!(out, "- … and {} more", qs.len() - LISTED);
        }
    }
}

/// Escapes text for Markdown so that a question can never become markup, a link or a table cell
/// break in a CI job summary.
pub fn markdown_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.'
            | '!' | '|' | '~' => {
                out.push('\\');
                out.push(ch);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comparison as Markdown, sized for a CI job summary.
pub fn comparison_markdown(c: &Comparison, before: &str, after: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## figeval compare: {} → {}\n",
        markdown_escape(before),
        markdown_escape(after)
    );
    let _ = writeln!(out, "{}\n", markdown_escape(&comparison_finding(c)));
    for w in &c.warnings {
        let _ = writeln!(out, "> **Warning:** {}", markdown_escape(w));
    }
    if !c.warnings.is_empty() {
        out.push('\n');
    }
    for s in &c.scopes {
        let _ = writeln!(
            out,
            "### {} (n {} → {}, {} paired)\n",
            s.scope, s.n_before, s.n_after, s.paired
        );
        let _ = writeln!(
            out,
            "| metric | before | after | delta | delta 95% CI | gained | lost | p |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|");
        for m in s.metrics.values() {
            let name = m.metric.name().replace('_', "\\_");
            let name = if m.metric == Metric::PageHitAt3 {
                format!("**{name}**")
            } else {
                name
            };
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {}{} | {} | {} | {} | {} |",
                rate_with_ci(m.before, m.before_hits, s.n_before, m.before_ci),
                rate_with_ci(m.after, m.after_hits, s.n_after, m.after_ci),
                signed(m.delta),
                if m.regressed { " ⚠" } else { "" },
                delta_interval(m.delta_ci),
                m.gained.len(),
                m.lost.len(),
                p_value(m.p_value)
            );
        }
        let _ = writeln!(
            out,
            "| page\\_mrr | {} | {} | {} | | | | |",
            value_with_ci(s.page_mrr.before, s.page_mrr.before_ci),
            value_with_ci(s.page_mrr.after, s.page_mrr.after_ci),
            signed(s.page_mrr.delta)
        );
        for r in &s.ranking {
            let [before, after, delta, ci] = ranking_cells(r);
            let _ = writeln!(
                out,
                "| {} | {before} | {after} | {delta} | {ci} | | | |",
                r.metric.name().replace('_', "\\_")
            );
        }
        if let Some(note) = &s.note {
            let _ = writeln!(out, "\n*{}*", markdown_escape(note));
        }
        for line in s.metrics.values().filter_map(metric_disagreement) {
            let _ = writeln!(out, "\n*{}*", markdown_escape(&line));
        }
        out.push('\n');
    }
    if let Some(overall) = c.scope(Scope::Overall) {
        for m in overall.metrics.values() {
            for (what, qs) in [("gained", &m.gained), ("lost", &m.lost)] {
                if qs.is_empty() {
                    continue;
                }
                let _ = writeln!(
                    out,
                    "<details><summary>{} {what}: {}</summary>\n",
                    m.metric,
                    qs.len()
                );
                for q in qs.iter().take(LISTED) {
                    let _ = writeln!(out, "- {}", markdown_escape(q));
                }
                if qs.len() > LISTED {
                    let _ = writeln!(out, "- … and {} more", qs.len() - LISTED);
                }
                let _ = writeln!(out, "\n</details>\n");
            }
        }
    }
    write_unpaired(&mut out, c, markdown_escape);
    if let Some(v) = &c.prose_verdict {
        let _ = writeln!(out, "\n**{}**", markdown_escape(v));
    }
    let _ = writeln!(out, "\n**How to read this**\n");
    for line in &c.reading_guide {
        let _ = writeln!(out, "- {}", markdown_escape(line));
    }
    let _ = writeln!(out, "- {TOO_SMALL_TO_TELL}:");
    for line in &c.too_small_to_tell {
        let _ = writeln!(out, "  - {}", markdown_escape(line));
    }
    out
}

/// A gated test's finding in words: `SIGNIFICANT DROP`, `within noise`, `no drop`.
pub fn finding(f: Finding) -> &'static str {
    match f {
        Finding::SignificantDrop => "SIGNIFICANT DROP",
        Finding::WithinNoise => "within noise",
        Finding::NoDrop => "no drop",
    }
}

/// What the significance gate follows, in one sentence every rendering starts with.
pub(crate) fn gate_method(g: &SignificanceGate) -> String {
    format!(
        "{}, p Holm-adjusted across the {} ({}); a drop trips the gate when the adjusted p is \
         below {}",
        g.test,
        crate::describe::counted(g.checks.len(), "gated test", "gated tests"),
        g.adjustment,
        decimal::shortest(g.alpha)
    )
}

/// A gated drop's figures, as the text line and the Markdown row show them: name, delta,
/// delta 95% CI, lost, gained, p, Holm p, finding.
fn gate_check_cells(c: &GateCheck) -> [String; 8] {
    [
        c.name(),
        signed(c.delta),
        delta_interval(c.delta_ci),
        c.lost.to_string(),
        c.gained.to_string(),
        p_value(c.p_value),
        p_value(c.p_holm),
        finding(c.finding).to_string(),
    ]
}

/// A gated drop as one line: `overall · page_hit_at_3: -0.1818 (delta 95% CI -0.33 to -0.07;
/// lost 6, gained 0), p 0.031, Holm 0.12: within noise`.
fn gate_check_line(c: &GateCheck) -> String {
    let [name, delta, ci, lost, gained, p, holm, finding] = gate_check_cells(c);
    format!(
        "{name}: {delta} (delta 95% CI {ci}; lost {lost}, gained {gained}), p {p}, Holm {holm}: \
         {finding}"
    )
}

/// A gated drop's disagreement line, worded with the Holm-adjusted p the gate follows.
fn gate_disagreement(c: &GateCheck) -> Option<String> {
    c.disagreement
        .map(|d| disagreement(d, c.delta_ci, c.p_holm, "the Holm-adjusted McNemar p"))
}

/// The gate's verdict in one line.
fn gate_verdict(g: &SignificanceGate) -> String {
    let sig = g.significant().count();
    let noise = g.drops().count() - sig;
    if g.tripped {
        format!(
            "TRIPPED: {}; {} within noise",
            crate::describe::counted(sig, "significant drop", "significant drops"),
            crate::describe::counted(noise, "drop", "drops")
        )
    } else {
        format!(
            "held: no significant drop; {} within noise",
            crate::describe::counted(noise, "drop", "drops")
        )
    }
}

/// The significance gate as plain text: the test, every drop with its interval and finding
/// (a disagreement of interval and test on its own line), and the verdict.
pub fn gate_text(g: &SignificanceGate) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nSignificance gate: {}", gate_method(g));
    for c in g.drops() {
        let _ = writeln!(out, "  {}", gate_check_line(c));
        if let Some(line) = gate_disagreement(c) {
            let _ = writeln!(out, "    {line}");
        }
    }
    let flat = g.checks.len() - g.drops().count();
    if flat > 0 {
        let _ = writeln!(
            out,
            "  {} did not fall",
            crate::describe::counted(flat, "gated test", "gated tests")
        );
    }
    let _ = writeln!(out, "  {}", gate_verdict(g));
    out
}

/// The significance gate as Markdown, for a CI job summary.
pub fn gate_markdown(g: &SignificanceGate) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n### Significance gate\n");
    let _ = writeln!(out, "{}\n", markdown_escape(&gate_method(g)));
    if g.drops().next().is_some() {
        let _ = writeln!(
            out,
            "| gated | delta | delta 95% CI | lost | gained | p | Holm p | finding |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---|");
        for c in g.drops() {
            let mut cells = gate_check_cells(c);
            cells[0] = markdown_escape(&cells[0]);
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out.push('\n');
        for c in g.drops() {
            if let Some(line) = gate_disagreement(c) {
                let _ = writeln!(
                    out,
                    "*{}: {}*\n",
                    markdown_escape(&c.name()),
                    markdown_escape(&line)
                );
            }
        }
    }
    let flat = g.checks.len() - g.drops().count();
    if flat > 0 {
        let _ = writeln!(
            out,
            "{} did not fall.\n",
            crate::describe::counted(flat, "gated test", "gated tests")
        );
    }
    let _ = writeln!(out, "**{}**", markdown_escape(&gate_verdict(g)));
    out
}

/// A run's change from the base in a matrix cell: `+0.0909 (-0.03 to +0.21), p 0.25, Holm
/// 0.5000`; empty for the base. The text, Markdown and page matrices print it.
pub fn change(cell: &Cell) -> String {
    match (cell.delta, cell.p_value, cell.p_holm) {
        (Some(d), Some(p), Some(h)) => format!(
            "{} ({}), p {}, Holm {}{}",
            signed(d),
            delta_interval(cell.delta_ci),
            p_value(p),
            p_value(h),
            if cell.regressed { ", REGRESSED" } else { "" }
        ),
        _ => String::new(),
    }
}

/// The scopes of a matrix, in column order, each with its columns' indices.
pub fn matrix_scopes(m: &Matrix) -> Vec<(Scope, Vec<usize>)> {
    let mut out: Vec<(Scope, Vec<usize>)> = Vec::new();
    for (i, c) in m.columns.iter().enumerate() {
        match out.last_mut() {
            Some((s, cols)) if *s == c.scope => cols.push(i),
            _ => out.push((c.scope, vec![i])),
        }
    }
    out
}

/// Several runs against a base as plain text: per scope and metric, one line per report.
pub fn matrix_text(m: &Matrix) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "figeval compare: {} against the base {}",
        crate::describe::counted(m.rows.len() - 1, "run", "runs"),
        m.rows[0].label
    );
    for w in &m.warnings {
        let _ = writeln!(out, "WARNING: {w}");
    }
    let label = |r: &crate::matrix::Row| {
        if r.base {
            format!("{} (base)", r.label)
        } else {
            r.label.clone()
        }
    };
    let width = m
        .rows
        .iter()
        .map(|r| label(r).chars().count())
        .max()
        .unwrap_or(0);
    for (scope, cols) in matrix_scopes(m) {
        for &i in &cols {
            let _ = writeln!(out, "\n{scope} · {}", m.columns[i].metric);
            for row in &m.rows {
                let cell = row.cells[i].as_ref().map_or_else(
                    || "no items".to_string(),
                    |c| {
                        let rate = rate_with_ci(c.rate, c.hits, c.n, c.ci);
                        format!("{rate:<34} {}", change(c)).trim_end().to_string()
                    },
                );
                let _ = writeln!(out, "  {:<width$}  {cell}", label(row));
            }
        }
    }
    let _ = writeln!(out, "\n{}", matrix_p_note(m));
    for line in matrix_disagreements(m) {
        let _ = writeln!(out, "note: {line}");
    }
    let _ = writeln!(out, "{TOO_SMALL_TO_TELL}:");
    for line in &m.too_small_to_tell {
        let _ = writeln!(out, "  - {line}");
    }
    out
}

/// Where a run's interval and its test disagree: `b.json: prose · page_hit_at_3: the delta's
/// 95% CI …`, in run order (the raw p, as each comparison states it).
pub(crate) fn matrix_disagreements(m: &Matrix) -> Vec<String> {
    m.rows[1..]
        .iter()
        .zip(&m.comparisons)
        .flat_map(|(row, c)| {
            c.scopes.iter().flat_map(move |s| {
                s.metrics
                    .values()
                    .filter_map(metric_disagreement)
                    .map(move |line| format!("{}: {} · {line}", row.label, s.scope))
            })
        })
        .collect()
}

/// What a matrix's p-values are, as the text matrix and the page say it.
pub fn matrix_p_note(m: &Matrix) -> String {
    format!(
        "p is the exact McNemar test of each run against the base; Holm adjusts it across the {} \
         compared with the base.",
        crate::describe::counted(m.rows.len() - 1, "run", "runs")
    )
}

/// Several runs against a base as Markdown: one table per scope, reports as rows, metrics as
/// columns.
pub fn matrix_markdown(m: &Matrix) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## figeval compare: {} against {}\n",
        crate::describe::counted(m.rows.len() - 1, "run", "runs"),
        markdown_escape(&m.rows[0].label)
    );
    for w in &m.warnings {
        let _ = writeln!(out, "> **Warning:** {}", markdown_escape(w));
    }
    for (scope, cols) in matrix_scopes(m) {
        let _ = writeln!(out, "\n### {scope}\n");
        let _ = write!(out, "| report |");
        for &i in &cols {
            let _ = write!(out, " {} |", m.columns[i].metric.name().replace('_', "\\_"));
        }
        let _ = writeln!(out, "\n|---|{}", "---|".repeat(cols.len()));
        for row in &m.rows {
            let label = markdown_escape(&row.label);
            let label = if row.base {
                format!("{label} (base)")
            } else {
                label
            };
            let _ = write!(out, "| {label} |");
            for &i in &cols {
                let cell = row.cells[i].as_ref().map_or_else(
                    || "no items".to_string(),
                    |c| {
                        let rate = rate_with_ci(c.rate, c.hits, c.n, c.ci);
                        match change(c) {
                            ch if ch.is_empty() => rate,
                            ch => format!("{rate}<br>{}", ch.replace("REGRESSED", "⚠ regressed")),
                        }
                    },
                );
                let _ = write!(out, " {cell} |");
            }
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        "\n*p: exact McNemar of each run against the base; Holm: adjusted across the {}.*",
        crate::describe::counted(m.rows.len() - 1, "run", "runs")
    );
    for line in matrix_disagreements(m) {
        let _ = writeln!(out, "\n*{}*", markdown_escape(&line));
    }
    let _ = writeln!(out, "\n- {TOO_SMALL_TO_TELL}:");
    for line in &m.too_small_to_tell {
        let _ = writeln!(out, "  - {}", markdown_escape(line));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moved_counts_carry_their_direction_but_zero_is_bare() {
        assert_eq!(count_with_sign(3, '+'), "+3");
        assert_eq!(count_with_sign(2, '−'), "−2");
        assert_eq!(count_with_sign(0, '+'), "0");
    }

    #[cfg(feature = "connectors")]
    #[test]
    fn a_report_with_a_provenance_audit_leads_with_it() {
        use crate::compare::tests::{record, report};
        use crate::provenance::{Provenance, ProvenanceOffset};
        let mut r = report(vec![record("q", Group::Locate, true)], 5);
        assert!(report_text(&r, "run").starts_with("run: corpus"));
        r.provenance = Some(Provenance {
            checked: 162,
            on_cited_page: 0,
            rate: Some(0.0),
            not_found: 3,
            other_file: 2,
            offset: Some(ProvenanceOffset {
                pages: 1,
                hits: 162,
                cause: "0-based page numbers read as 1-based".into(),
            }),
        });
        let first = report_text(&r, "run").lines().next().unwrap().to_string();
        assert_eq!(
            first,
            "provenance: 0 of 162 hits checked are printed on a page they cite (0); 3 hits too \
             short to check or not found in the PDF; 2 hits in a file none of the PDFs given \
             is, not checked; 162 hits sit +1 page from their text: 0-based page numbers read \
             as 1-based"
        );
        r.provenance = Some(Provenance {
            checked: 0,
            on_cited_page: 0,
            rate: None,
            not_found: 0,
            other_file: 0,
            offset: None,
        });
        assert!(report_text(&r, "run").starts_with("provenance: no hit's content could be found"));
    }

    #[test]
    fn a_comparison_leads_with_what_changed_and_whether_chance_can_explain_it() {
        use crate::compare::tests::{record, report};
        let items = |hits: &dyn Fn(usize) -> bool| -> Vec<_> {
            (0..20)
                .map(|i| record(&format!("q{i}"), Group::Locate, hits(i)))
                .chain((0..6).map(|i| record(&format!("p{i}"), Group::Prose, true)))
                .collect()
        };
        // 12 of 20 gained: told from chance; the prose control held.
        let c = crate::compare(
            &report(items(&|_| false), 5),
            &report(items(&|i| i < 12), 5),
        );
        let line = comparison_finding(&c);
        assert_eq!(
            line,
            "page_hit_at_3 rose 0.23 → 0.69 (p 4.9e-4); page_hit_at_5 rose 0.23 → 0.69 \
             (p 4.9e-4); precise_page_hit_at_3 rose 0.23 → 0.69 (p 4.9e-4); the prose control held."
        );
        assert!(comparison_text(&c, "a", "b")
            .starts_with(&format!("figeval compare: a -> b\n{line}\n")));
        assert!(comparison_markdown(&c, "a", "b")
            .contains(&format!("\n\n{}\n", markdown_escape(&line))));
        // 3 of 20: the headline moved, too little to tell.
        let c = crate::compare(&report(items(&|_| false), 5), &report(items(&|i| i < 3), 5));
        assert_eq!(
            comparison_finding(&c),
            "page_hit_at_3 rose 0.23 → 0.35, too small to tell at n 26 (p 0.25); the prose control held."
        );
        // Nothing moved.
        let same = report(items(&|_| false), 5);
        assert_eq!(
            comparison_finding(&crate::compare(&same, &same)),
            "no change told from chance at n 26 (exact McNemar, p < 0.05); the prose control held."
        );
    }

    #[test]
    fn markdown_escape_neutralises_markup() {
        let e = markdown_escape("<img src=x onerror=alert(1)> | [link](http://x) **b**");
        assert!(!e.contains('<') && !e.contains('>'));
        assert!(e.contains("\\|") && e.contains("\\[link\\]") && e.contains("\\*\\*b\\*\\*"));
    }

    #[test]
    fn a_rate_shows_its_hits_and_interval() {
        let ci = Some(Interval {
            lo: 0.8039,
            hi: 0.9832,
        });
        assert_eq!(
            rate_with_ci(0.9394, 31, 33, ci),
            "0.9394 (31/33; 95% CI 0.80–0.98)"
        );
        assert_eq!(rate_with_ci(0.0, 0, 0, None), "0.0000 (0/0)");
        assert_eq!(hits_with_ci(31, 33, ci), "(31/33; 95% CI 0.80–0.98)");
        assert_eq!(hits_with_ci(0, 0, None), "(0/0)");
        let mrr = Some(Interval {
            lo: 0.2083,
            hi: 0.5,
        });
        assert_eq!(value_with_ci(0.4167, mrr), "0.4167 (95% CI 0.21–0.50)");
        assert_eq!(interval_note(mrr).as_deref(), Some("(95% CI 0.21–0.50)"));
        assert_eq!(interval_note(None), None);
        assert_eq!(value_with_ci(0.4167, None), "0.4167");
        let locate = Interval {
            lo: 0.6669,
            hi: 0.9863,
        };
        assert_eq!(interval_spoken(locate), "95% CI 0.67 to 0.99");
        assert_eq!(interval_data(locate), "0.6669,0.9863");
        assert_eq!(
            interval_data(Interval { lo: 0.0, hi: 1.0 }),
            "0.0000,1.0000"
        );
        let d = Some(Interval {
            lo: -0.5069,
            hi: -0.0256,
        });
        assert_eq!(delta_interval(d), "-0.51 to -0.03");
        assert_eq!(
            delta_interval(Some(Interval { lo: 0.0, hi: 0.3 })),
            "0.00 to +0.30"
        );
        assert_eq!(delta_interval(None), "n/a");
        assert_eq!(signed(-0.0), "0.0000");
        assert_eq!(signed(0.1515), "+0.1515");
        assert_eq!(signed(0.0), "0.0000");
        assert_eq!(signed(-0.05), "-0.0500");
    }

    #[test]
    fn an_interval_and_a_test_that_disagree_are_said_to_in_one_line_naming_what_the_gate_follows() {
        let demo = Some(Interval {
            lo: 0.0118,
            hi: 0.3094,
        });
        let line = disagreement(
            Disagreement::IntervalExcludesZero,
            demo,
            0.0625,
            "the exact McNemar p",
        );
        assert_eq!(
            line,
            "the delta's 95% CI +0.01 to +0.31 excludes 0 but the exact McNemar p is 0.062 (not \
             below 0.05); the significance gate follows the McNemar test"
        );
        assert!(!line.contains('\n'));
        let line = disagreement(
            Disagreement::TestSignificant,
            Some(Interval { lo: -0.2, hi: 0.01 }),
            0.04,
            "the Holm-adjusted McNemar p",
        );
        assert_eq!(
            line,
            "the Holm-adjusted McNemar p is 0.040 (below 0.05) but the delta's 95% CI -0.20 to \
             +0.01 includes 0; the significance gate follows the McNemar test"
        );
    }

    #[test]
    fn p_values_have_two_significant_figures_at_every_size() {
        let cases = [
            (1.0, "1"),
            (0.9999999999999998, "1"),
            (0.996, "1"),
            (0.994, "0.99"),
            (0.5, "0.50"),
            (0.0996, "0.10"),
            (0.00996, "0.010"),
            (0.146, "0.15"),
            (0.1, "0.10"),
            (0.0625, "0.062"),
            (0.0216, "0.022"),
            (0.01, "0.010"),
            (0.001953125, "0.0020"),
            (0.001, "0.0010"),
            (0.000488, "4.9e-4"),
            (5.96e-8, "6.0e-8"),
            (0.00001234, "1.2e-5"),
            (0.0, "0"),
        ];
        for (p, text) in cases {
            assert_eq!(p_value(p), text, "{p}");
        }
    }
}
