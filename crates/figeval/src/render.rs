//! Text and Markdown renderings of reports and comparisons. Renderers only lay out numbers
//! that [`crate::report`] and [`crate::compare`] computed; none recomputes a metric.

use std::fmt::Write as _;

use crate::compare::{Comparison, ScopeComparison};
use crate::report::{Report, Scope};
use crate::score::Metric;
use crate::summary::Summary;

/// How many gained/lost questions a rendering lists per metric.
const LISTED: usize = 10;

/// A delta with its sign to 4 places: `+0.1515`, `-0.0312`, `0.0000`.
pub fn signed(x: f64) -> String {
    if x > 0.0 {
        format!("+{x:.4}")
    } else if x < 0.0 {
        format!("{x:.4}")
    } else {
        "0.0000".to_string()
    }
}

/// A p-value readable at every size: `0.0625`, `5.96e-8`.
pub fn p_value(p: f64) -> String {
    if p >= 0.001 || p == 0.0 {
        format!("{p:.4}")
    } else {
        format!("{p:.2e}")
    }
}

/// A per-group summary table of a report, as plain text.
pub fn report_text(report: &Report, label: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{label}: corpus {}, {} item(s) scored",
        report.corpus_id, report.summary.n
    );
    let _ = write!(out, "  {:<9} {:>4}", "group", "n");
    for m in Metric::ALL {
        let _ = write!(out, "  {:>21}", m.name());
    }
    let _ = writeln!(out, "  {:>8}", "page_mrr");
    let mut row = |name: &str, s: &Summary| {
        let _ = write!(out, "  {name:<9} {:>4}", s.n);
        for m in Metric::ALL {
            let cell = format!("{:.4} ({}/{})", s.rate(m), s.hits(m), s.n);
            let _ = write!(out, "  {cell:>21}");
        }
        let _ = writeln!(out, "  {:>8.4}", s.page_mrr);
    };
    for (g, s) in report.groups() {
        row(g.name(), s);
    }
    row(Scope::Overall.name(), &report.summary);
    if !report.unscored.is_empty() {
        let _ = writeln!(out, "  unscored (no response): {}", report.unscored.len());
    }
    out
}

/// A comparison as plain text, for a terminal.
pub fn comparison_text(c: &Comparison, before: &str, after: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "figeval compare: {before} -> {after}");
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
            "  {:<22} {:>7} {:>7} {:>8} {:>6} {:>5} {:>9}",
            "metric", "before", "after", "delta", "gained", "lost", "p"
        );
        for m in s.metrics.values() {
            let _ = writeln!(
                out,
                "  {:<22} {:>7.4} {:>7.4} {:>8} {:>6} {:>5} {:>9}{}",
                m.metric.name(),
                m.before,
                m.after,
                signed(m.delta),
                m.gained.len(),
                m.lost.len(),
                p_value(m.p_value),
                if m.regressed { "  REGRESSED" } else { "" }
            );
        }
        let _ = writeln!(
            out,
            "  {:<22} {:>7.4} {:>7.4} {:>8}",
            "page_mrr",
            s.page_mrr.before,
            s.page_mrr.after,
            signed(s.page_mrr.delta)
        );
        if let Some(note) = &s.note {
            let _ = writeln!(out, "  note: {note}");
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
    out
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
            "| metric | before | after | delta | gained | lost | p |"
        );
        let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
        for m in s.metrics.values() {
            let name = m.metric.name().replace('_', "\\_");
            let name = if m.metric == Metric::PageHitAt3 {
                format!("**{name}**")
            } else {
                name
            };
            let _ = writeln!(
                out,
                "| {name} | {:.4} ({}) | {:.4} ({}) | {}{} | {} | {} | {} |",
                m.before,
                m.before_hits,
                m.after,
                m.after_hits,
                signed(m.delta),
                if m.regressed { " ⚠" } else { "" },
                m.gained.len(),
                m.lost.len(),
                p_value(m.p_value)
            );
        }
        let _ = writeln!(
            out,
            "| page\\_mrr | {:.4} | {:.4} | {} | | | |",
            s.page_mrr.before,
            s.page_mrr.after,
            signed(s.page_mrr.delta)
        );
        if let Some(note) = &s.note {
            let _ = writeln!(out, "\n*{}*", markdown_escape(note));
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
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_escape_neutralises_markup() {
        let e = markdown_escape("<img src=x onerror=alert(1)> | [link](http://x) **b**");
        assert!(!e.contains('<') && !e.contains('>'));
        assert!(e.contains("\\|") && e.contains("\\[link\\]") && e.contains("\\*\\*b\\*\\*"));
    }

    #[test]
    fn p_values_are_readable_at_every_size() {
        assert_eq!(p_value(1.0), "1.0000");
        assert_eq!(p_value(0.0215), "0.0215");
        assert_eq!(p_value(0.00001234), "1.23e-5");
    }
}
