//! Many runs against one baseline (`figeval compare BASE A B …`): a matrix whose rows are the
//! reports and whose columns are scope × metric.
//!
//! Each run is compared with the base exactly as two reports are ([`crate::compare`](fn@crate::compare::compare)); the
//! McNemar p-values of one column are then Holm-adjusted across the runs compared with the
//! base (`stats::holm`), since with k runs one of k tests reaching 0.05 by chance is
//! no longer rare.

use serde::Serialize;

use crate::compare::{compare, Comparison, ALPHA};
use crate::report::{Report, Scope};
use crate::score::Metric;
use crate::stats::{holm, Interval};

/// One cell: one report's rate of one scope and metric, and for a run its change from the base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Cell {
    /// The rate.
    pub rate: f64,
    /// Hits.
    pub hits: u64,
    /// Items in the scope.
    pub n: u64,
    /// The rate's 95% Wilson interval.
    pub ci: Option<Interval>,
    /// Run − base (`null` in the base row), rounded to 4 places.
    pub delta: Option<f64>,
    /// The paired change's 95% Newcombe interval (`null` in the base row or without pairs).
    pub delta_ci: Option<Interval>,
    /// The exact McNemar p against the base (`null` in the base row).
    pub p_value: Option<f64>,
    /// `p_value` Holm-adjusted across the runs compared with the base.
    pub p_holm: Option<f64>,
    /// Whether the run's rate is below the base's.
    pub regressed: bool,
}

/// One column of the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Column {
    /// The scope (serialized as its name).
    pub scope: Scope,
    /// The metric (serialized as its key).
    pub metric: Metric,
}

/// One row: a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The report's label (its path on the command line).
    pub label: String,
    /// Whether this is the baseline.
    pub base: bool,
    /// One cell per column, in column order; `null` where the report has no item of the scope.
    pub cells: Vec<Option<Cell>>,
}

/// The matrix of several runs against a base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Matrix {
    /// Scope × metric: `overall` first, then every group any report has, each with every
    /// metric in [`Metric::ALL`] order.
    pub columns: Vec<Column>,
    /// The base first, then the runs in the order given.
    pub rows: Vec<Row>,
    /// Warnings of each run's comparison with the base, prefixed with the run's label.
    pub warnings: Vec<String>,
    /// The reading guide's lines on how large a change must be to be told from chance
    /// ([`Comparison::too_small_to_tell`]), per scope: once when every run pairs the same
    /// items with the base, else each run's, prefixed with its label.
    pub too_small_to_tell: Vec<String>,
    /// Each run's comparison with the base, in run order (for gates and details).
    #[serde(skip)]
    pub comparisons: Vec<Comparison>,
}

/// One change of one question in one run against the base.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Move {
    /// The run, by its position among the runs (0 is the first run after the base).
    pub run: usize,
    /// The metric it moved on.
    pub metric: Metric,
    /// Miss to hit (`true`) or hit to miss.
    pub gained: bool,
}

/// A question that some run gained or lost on some metric against the base, with every such
/// change: what the page lists once per question, however many metrics and runs it moved on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mover {
    /// The question.
    pub question: String,
    /// Its changes, by run, then metric in [`Metric::ALL`] order.
    pub moves: Vec<Move>,
}

/// The questions that moved in `comparisons` (each a run against the same base, in run order),
/// each once, in the order they are first met: run by run, metric by metric, gains before
/// losses, each list in the order the comparison gives it. Read from the overall scope, which
/// holds every paired question.
pub fn movers(comparisons: &[Comparison]) -> Vec<Mover> {
    let mut out: Vec<Mover> = Vec::new();
    for (run, c) in comparisons.iter().enumerate() {
        let Some(overall) = c.scope(Scope::Overall) else {
            continue;
        };
        for m in overall.metrics.values() {
            for (list, gained) in [(&m.gained, true), (&m.lost, false)] {
                for q in list {
                    // A scan, not a map: the browser bundle has no room for another map's
                    // code, and the questions that move are few next to the questions.
                    let i = match out.iter().position(|o| o.question == *q) {
                        Some(i) => i,
                        None => {
                            out.push(Mover {
                                question: q.clone(),
                                moves: Vec::new(),
                            });
                            out.len() - 1
                        }
                    };
                    out[i].moves.push(Move {
                        run,
                        metric: m.metric,
                        gained,
                    });
                }
            }
        }
    }
    // Runs in order, metrics in the map's order (Metric::ALL's), one move per metric: sorted
    // as they are made.
    out
}

/// How a run's row of one scope reads against the base: the matrix view's verdict column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowVerdict {
    /// The base row.
    Base,
    /// A rate fell, with a Holm-adjusted p below [`ALPHA`].
    Fell,
    /// A rate rose, with a Holm-adjusted p below [`ALPHA`], and none fell so.
    Rose,
    /// Rates moved both ways, none by a change that can be told from chance.
    Mixed,
    /// Some rates are lower, none higher, none by a change that can be told from chance.
    Lower,
    /// Some rates are higher, none lower, none by a change that can be told from chance.
    Higher,
    /// Every rate is the base's.
    Held,
}

impl RowVerdict {
    /// The verdict of a row's cells (of one scope).
    pub fn of<'a>(cells: impl IntoIterator<Item = &'a Cell>) -> RowVerdict {
        let (mut fell, mut rose, mut lower, mut higher, mut base) =
            (false, false, false, false, true);
        for c in cells {
            let (Some(d), Some(p)) = (c.delta, c.p_holm) else {
                continue;
            };
            base = false;
            let significant = p < ALPHA;
            fell |= d < 0.0 && significant;
            rose |= d > 0.0 && significant;
            lower |= d < 0.0;
            higher |= d > 0.0;
        }
        match () {
            _ if base => RowVerdict::Base,
            _ if fell => RowVerdict::Fell,
            _ if rose => RowVerdict::Rose,
            _ if lower && higher => RowVerdict::Mixed,
            _ if lower => RowVerdict::Lower,
            _ if higher => RowVerdict::Higher,
            _ => RowVerdict::Held,
        }
    }

    /// The verdict in words, as the page shows it.
    pub fn words(self) -> &'static str {
        match self {
            RowVerdict::Base => "baseline",
            RowVerdict::Fell => "fell (Holm p < 0.05)",
            RowVerdict::Rose => "rose (Holm p < 0.05)",
            RowVerdict::Mixed => "mixed, too small to tell",
            RowVerdict::Lower => "lower, too small to tell",
            RowVerdict::Higher => "higher, too small to tell",
            RowVerdict::Held => "held",
        }
    }
}

/// [`Matrix::too_small_to_tell`] of these runs' comparisons.
fn too_small_to_tell(runs: &[(&str, &Report)], comparisons: &[Comparison]) -> Vec<String> {
    let first = comparisons.first().map(|c| &c.too_small_to_tell);
    if comparisons
        .iter()
        .all(|c| Some(&c.too_small_to_tell) == first)
    {
        return first.cloned().unwrap_or_default();
    }
    runs.iter()
        .zip(comparisons)
        .flat_map(|((label, _), c)| {
            c.too_small_to_tell
                .iter()
                .map(move |line| format!("{label}: {line}"))
        })
        .collect()
}

/// Compares every run with the base. `base` and `runs` are `(label, report)`.
pub fn compare_many(base: (&str, &Report), runs: &[(&str, &Report)]) -> Matrix {
    let comparisons: Vec<Comparison> = runs.iter().map(|(_, r)| compare(base.1, r)).collect();
    let mut scopes: Vec<Scope> = vec![Scope::Overall];
    // Overall first, then the others in order, each once (inserted where it sorts).
    for c in &comparisons {
        for s in c.scope_list() {
            if s != Scope::Overall {
                if let Err(i) = scopes[1..].binary_search(&s) {
                    scopes.insert(1 + i, s);
                }
            }
        }
    }
    let columns: Vec<Column> = scopes
        .iter()
        .flat_map(|&scope| Metric::ALL.map(|metric| Column { scope, metric }))
        .collect();
    let base_row = Row {
        label: base.0.to_string(),
        base: true,
        cells: columns
            .iter()
            .map(|c| {
                base.1.summary_of(c.scope).map(|s| Cell {
                    rate: s.rate(c.metric),
                    hits: s.hits(c.metric),
                    n: s.n,
                    ci: s.ci(c.metric),
                    delta: None,
                    delta_ci: None,
                    p_value: None,
                    p_holm: None,
                    regressed: false,
                })
            })
            .collect(),
    };
    let mut rows = vec![base_row];
    for ((label, report), c) in runs.iter().zip(&comparisons) {
        let cells = columns
            .iter()
            .map(|col| {
                let summary = report.summary_of(col.scope)?;
                let d = c.scope(col.scope)?.metric(col.metric);
                Some(Cell {
                    rate: d.after,
                    hits: d.after_hits,
                    n: summary.n,
                    ci: d.after_ci,
                    delta: Some(d.delta),
                    delta_ci: d.delta_ci,
                    p_value: Some(d.p_value),
                    p_holm: None,
                    regressed: d.regressed,
                })
            })
            .collect();
        rows.push(Row {
            label: label.to_string(),
            base: false,
            cells,
        });
    }
    // Holm across the runs, column by column.
    for col in 0..columns.len() {
        let at: Vec<usize> = (1..rows.len())
            .filter(|&r| {
                rows[r].cells[col]
                    .as_ref()
                    .is_some_and(|c| c.p_value.is_some())
            })
            .collect();
        let ps: Vec<f64> = at
            .iter()
            .filter_map(|&r| rows[r].cells[col].as_ref().and_then(|c| c.p_value))
            .collect();
        for (&r, adjusted) in at.iter().zip(holm(&ps)) {
            if let Some(cell) = rows[r].cells[col].as_mut() {
                cell.p_holm = Some(adjusted);
            }
        }
    }
    let warnings = runs
        .iter()
        .zip(&comparisons)
        .flat_map(|((label, _), c)| c.warnings.iter().map(move |w| format!("{label}: {w}")))
        .collect();
    Matrix {
        columns,
        rows,
        warnings,
        too_small_to_tell: too_small_to_tell(runs, &comparisons),
        comparisons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::tests::record;
    use crate::dataset::Group;

    fn report(hits: &[bool]) -> Report {
        let records = hits
            .iter()
            .enumerate()
            .map(|(i, &hit)| {
                let group = if i % 2 == 0 {
                    Group::Locate
                } else {
                    Group::Content
                };
                record(&format!("q{i}"), group, hit)
            })
            .collect();
        crate::compare::tests::report(records, 5)
    }

    #[test]
    fn every_run_is_compared_with_the_base_and_its_p_values_are_holm_adjusted() {
        let base = report(&[false; 12]);
        let better = report(&[true; 12]);
        let same = report(&[false; 12]);
        let m = compare_many(("base", &base), &[("better", &better), ("same", &same)]);
        assert_eq!(m.rows.len(), 3);
        assert_eq!(
            m.columns.len(),
            3 * Metric::ALL.len(),
            "overall, content, locate"
        );
        assert_eq!(m.columns[0].scope, Scope::Overall);
        assert_eq!(m.columns[4].scope, Scope::Group(Group::Content));
        let base_cell = m.rows[0].cells[0].as_ref().unwrap();
        assert_eq!(
            (base_cell.rate, base_cell.delta, base_cell.p_holm),
            (0.0, None, None)
        );
        let b = m.rows[1].cells[0].as_ref().unwrap();
        // 12 gained, 0 lost: p = 2/4096; Holm over two runs doubles the smaller p.
        assert_eq!(b.delta, Some(1.0));
        assert!((b.p_value.unwrap() - 2.0 / 4096.0).abs() < 1e-15);
        assert!((b.p_holm.unwrap() - 4.0 / 4096.0).abs() < 1e-15);
        let s = m.rows[2].cells[0].as_ref().unwrap();
        assert_eq!((s.p_value, s.p_holm), (Some(1.0), Some(1.0)));
        assert!(!b.regressed && b.ci.is_some());
        let worse = compare_many(("better", &better), &[("base", &base)]);
        assert!(worse.rows[1].cells[0].as_ref().unwrap().regressed);
    }

    #[test]
    fn the_guide_says_once_what_is_too_small_when_the_runs_pair_alike_else_per_run() {
        let base = report(&[false; 12]);
        let (a, b) = (report(&[true; 12]), report(&[false; 12]));
        let m = compare_many(("base", &base), &[("a", &a), ("b", &b)]);
        assert_eq!(
            m.too_small_to_tell,
            [
                "overall (n 12): only a change of 0.50 or more could be significant",
                "content (n 6): only a change of 1.00 or more could be significant",
                "locate (n 6): only a change of 1.00 or more could be significant",
            ]
        );
        let short = report(&[true; 5]);
        let m = compare_many(("base", &base), &[("a", &a), ("short", &short)]);
        let lines = m.too_small_to_tell;
        assert_eq!(lines.len(), 6, "{lines:?}");
        assert_eq!(
            lines[0],
            "a: overall (n 12): only a change of 0.50 or more could be significant"
        );
        assert_eq!(
            lines[3],
            "short: overall (n 5): no change could be significant; McNemar needs at least 6 \
             paired items flipping the same way"
        );
    }

    #[test]
    fn a_row_verdict_tells_a_significant_change_from_one_too_small_to_tell() {
        let base = report(&[false; 12]);
        let better = report(&[true; 12]);
        let one_more = report(&[[true].as_slice(), &[false; 11]].concat());
        let m = compare_many(
            ("base", &base),
            &[
                ("better", &better),
                ("one more", &one_more),
                ("same", &base),
            ],
        );
        let verdict = |row: usize| RowVerdict::of(m.rows[row].cells.iter().flatten());
        assert_eq!(verdict(0), RowVerdict::Base);
        assert_eq!(verdict(1), RowVerdict::Rose);
        assert_eq!(verdict(2), RowVerdict::Higher);
        assert_eq!(verdict(3), RowVerdict::Held);
        let m = compare_many(
            ("better", &better),
            &[
                ("base", &base),
                ("one less", &{
                    let mut h = [true; 12];
                    h[0] = false;
                    report(&h)
                }),
            ],
        );
        let verdict = |row: usize| RowVerdict::of(m.rows[row].cells.iter().flatten());
        assert_eq!(verdict(1), RowVerdict::Fell);
        assert_eq!(verdict(2), RowVerdict::Lower);
        assert_eq!(RowVerdict::Fell.words(), "fell (Holm p < 0.05)");
        assert_eq!(RowVerdict::Higher.words(), "higher, too small to tell");
    }

    #[test]
    fn a_question_that_moved_is_listed_once_with_every_run_and_metric_it_moved_on() {
        let base = report(&[true, false, true, false]);
        let a = report(&[false, true, true, false]);
        let b = report(&[true, true, true, false]);
        let m = compare_many(("base", &base), &[("a", &a), ("b", &b)]);
        let movers = movers(&m.comparisons);
        let names: Vec<&str> = movers.iter().map(|x| x.question.as_str()).collect();
        assert_eq!(names, ["q1", "q0"], "gains first, each question once");
        let q1 = &movers[0];
        // q1 was gained on every metric the test report scores, in both runs.
        assert!(q1.moves.iter().all(|mv| mv.gained));
        assert_eq!(
            q1.moves.iter().filter(|mv| mv.run == 0).count(),
            q1.moves.iter().filter(|mv| mv.run == 1).count()
        );
        assert!(q1.moves.windows(2).all(|w| w[0].run <= w[1].run), "by run");
        let run0: Vec<Metric> = q1
            .moves
            .iter()
            .filter(|mv| mv.run == 0)
            .map(|mv| mv.metric)
            .collect();
        let in_order: Vec<Metric> = Metric::ALL
            .into_iter()
            .filter(|m| run0.contains(m))
            .collect();
        assert_eq!(run0, in_order, "then by metric");
        assert!(!run0.is_empty());
        assert!(
            movers[1].moves.iter().all(|mv| mv.run == 0 && !mv.gained),
            "q0: lost in a only"
        );
        assert!(!movers[1].moves.is_empty());
        assert!(super::movers(&[]).is_empty());
    }
}
