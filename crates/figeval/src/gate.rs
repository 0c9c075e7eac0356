//! The significance gate (contract §7.2): `--fail-on-significant-regression` trips only on a
//! drop the exact McNemar test calls significant, its p-value Holm-adjusted across every test
//! the gate watches.
//!
//! `--fail-on-regression` ([`Gate::tripped_by`]) trips on any lower rate, so a 33-item eval
//! that loses one question fails although the change is far inside its own interval. This gate
//! asks the question the reading guide's "too small to tell" line already answers: could the
//! drop be told from chance? Each watched (run, scope, metric) is one test; with several, one of
//! them reaching 0.05 by chance is no longer rare, so the p-values are Holm-adjusted across all
//! of them (`stats::holm`, Holm 1979).

use serde::Serialize;

use crate::compare::{Comparison, Disagreement, Gate, MetricDelta, ALPHA};
use crate::report::Scope;
use crate::score::Metric;
use crate::stats::{holm, Interval};

/// The test the gate follows, as every rendering names it.
pub const TEST: &str = "exact two-sided McNemar test on the paired items";

/// How the gate adjusts the p-values of the tests it watches.
pub const ADJUSTMENT: &str = "Holm across every gated run, scope and metric";

/// What one watched test found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// The rate fell and the adjusted p-value is below [`ALPHA`]: the gate trips.
    SignificantDrop,
    /// The rate fell, but the drop cannot be told from chance: reported, not tripped.
    WithinNoise,
    /// The rate did not fall.
    NoDrop,
}

/// One watched test: a metric of a scope, in one run against its base.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GateCheck {
    /// The run's label when several runs are compared with a base; `null` for two reports.
    pub run: Option<String>,
    /// The scope (serialized as its name).
    pub scope: Scope,
    /// The metric (serialized as its key).
    pub metric: Metric,
    /// After − before, as the comparison states it.
    pub delta: f64,
    /// The paired change's 95% Newcombe interval, as the comparison states it.
    pub delta_ci: Option<Interval>,
    /// Paired questions that went from miss to hit.
    pub gained: u64,
    /// Paired questions that went from hit to miss.
    pub lost: u64,
    /// The exact McNemar p-value of this test alone.
    pub p_value: f64,
    /// `p_value` Holm-adjusted across every test the gate watches.
    pub p_holm: f64,
    /// What the test found.
    pub finding: Finding,
    /// Whether the drop's interval and its adjusted p disagree (only for a drop); the gate
    /// follows the test.
    pub disagreement: Option<Disagreement>,
}

impl GateCheck {
    /// `prose · page_hit_at_3`, prefixed with the run's label when there is one.
    pub fn name(&self) -> String {
        match &self.run {
            Some(run) => format!("{run}: {} · {}", self.scope, self.metric),
            None => format!("{} · {}", self.scope, self.metric),
        }
    }
}

/// The gate's verdict over every test it watches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignificanceGate {
    /// The test the gate follows ([`TEST`]).
    pub test: &'static str,
    /// How the p-values are adjusted ([`ADJUSTMENT`]).
    pub adjustment: &'static str,
    /// The level the adjusted p-value must be below.
    pub alpha: f64,
    /// Every watched test, in the order of the runs, then the gates as given, then
    /// [`Metric::ALL`]; each (run, scope, metric) once.
    pub checks: Vec<GateCheck>,
    /// Whether a significant drop tripped the gate.
    pub tripped: bool,
}

impl SignificanceGate {
    /// The checks that tripped the gate.
    pub fn significant(&self) -> impl Iterator<Item = &GateCheck> + '_ {
        self.checks
            .iter()
            .filter(|c| c.finding == Finding::SignificantDrop)
    }

    /// The checks whose rate fell, significant or not.
    pub fn drops(&self) -> impl Iterator<Item = &GateCheck> + '_ {
        self.checks.iter().filter(|c| c.finding != Finding::NoDrop)
    }
}

/// The significance gate over `runs` (each run's label, `None` for a before/after pair, and
/// its comparison with the base), watching `gates`. A gate naming a scope a comparison lacks
/// watches nothing there (the CLI refuses such a gate before asking).
pub fn significance_gate(runs: &[(Option<&str>, &Comparison)], gates: &[Gate]) -> SignificanceGate {
    let mut watched: Vec<(Option<&str>, &MetricDelta, Scope)> = Vec::new();
    for &(run, comparison) in runs {
        let mut seen: Vec<(Scope, Metric)> = Vec::new();
        for gate in gates {
            let Some(scope) = comparison.scope(gate.scope) else {
                continue;
            };
            for m in Metric::ALL {
                if gate.metric.is_some_and(|g| g != m) || seen.contains(&(gate.scope, m)) {
                    continue;
                }
                seen.push((gate.scope, m));
                watched.push((run, scope.metric(m), gate.scope));
            }
        }
    }
    let p_values: Vec<f64> = watched.iter().map(|(_, d, _)| d.p_value).collect();
    let adjusted = holm(&p_values);
    let checks: Vec<GateCheck> = watched
        .iter()
        .zip(adjusted)
        .map(|(&(run, d, scope), p_holm)| {
            let (gained, lost) = (d.gained.len() as u64, d.lost.len() as u64);
            let finding = if !d.regressed {
                Finding::NoDrop
            } else if lost > gained && p_holm < ALPHA {
                Finding::SignificantDrop
            } else {
                Finding::WithinNoise
            };
            GateCheck {
                run: run.map(str::to_string),
                scope,
                metric: d.metric,
                delta: d.delta,
                delta_ci: d.delta_ci,
                gained,
                lost,
                p_value: d.p_value,
                p_holm,
                finding,
                disagreement: (finding != Finding::NoDrop)
                    .then(|| Disagreement::of(d.delta_ci, p_holm))
                    .flatten(),
            }
        })
        .collect();
    let tripped = checks.iter().any(|c| c.finding == Finding::SignificantDrop);
    SignificanceGate {
        test: TEST,
        adjustment: ADJUSTMENT,
        alpha: ALPHA,
        checks,
        tripped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::compare;
    use crate::compare::tests::{record, report};
    use crate::dataset::Group;

    /// Before: every item hits; after: the first `lost` items of each group miss.
    fn pair(n_locate: usize, lost_locate: usize, n_prose: usize, lost_prose: usize) -> Comparison {
        let (mut before, mut after) = (Vec::new(), Vec::new());
        for (group, n, lost) in [
            (Group::Locate, n_locate, lost_locate),
            (Group::Prose, n_prose, lost_prose),
        ] {
            for i in 0..n {
                let q = format!("{group}{i}");
                before.push(record(&q, group, true));
                after.push(record(&q, group, i >= lost));
            }
        }
        compare(&report(before, 5), &report(after, 5))
    }

    fn gates(s: &str) -> Vec<Gate> {
        s.split(',').map(|g| g.parse().unwrap()).collect()
    }

    #[test]
    fn one_lost_question_of_33_is_within_noise_and_does_not_trip() {
        let c = pair(33, 1, 0, 0);
        let g = significance_gate(&[(None, &c)], &gates("overall:page_hit_at_3"));
        assert!(!g.tripped);
        assert_eq!(g.checks.len(), 1);
        let check = &g.checks[0];
        assert_eq!(check.finding, Finding::WithinNoise);
        assert_eq!((check.gained, check.lost), (0, 1));
        assert_eq!((check.p_value, check.p_holm), (1.0, 1.0));
        assert_eq!(check.delta, -0.0303);
        assert!(check.delta_ci.unwrap().contains(0.0));
        assert_eq!(check.disagreement, None);
    }

    #[test]
    fn six_lost_questions_trip_alone_but_not_once_holm_adjusts_across_four_metrics() {
        let c = pair(20, 6, 0, 0);
        // 6 one-way flips: p = 2/64 = 0.03125 on its own.
        let one = significance_gate(&[(None, &c)], &gates("overall:page_hit_at_3"));
        assert!(one.tripped);
        assert_eq!(one.checks[0].finding, Finding::SignificantDrop);
        assert!((one.checks[0].p_holm - 0.03125).abs() < 1e-12);
        // The same drop in three metrics, plus figure_chunk_at_3 flat (p 1): Holm multiplies
        // the smallest of four by 4.
        let all = significance_gate(&[(None, &c)], &gates("overall"));
        assert_eq!(all.checks.len(), 4);
        assert!(!all.tripped);
        let hit3 = &all.checks[0];
        assert_eq!(hit3.finding, Finding::WithinNoise);
        assert!((hit3.p_holm - 0.125).abs() < 1e-12, "{}", hit3.p_holm);
        assert_eq!(all.checks[3].finding, Finding::NoDrop);
    }

    #[test]
    fn a_test_watched_twice_counts_once_in_the_adjustment() {
        let c = pair(20, 6, 0, 0);
        let g = significance_gate(
            &[(None, &c)],
            &gates("overall:page_hit_at_3,overall:page_hit_at_3"),
        );
        assert_eq!(g.checks.len(), 1);
        assert!(g.tripped);
    }

    #[test]
    fn holm_runs_across_every_run_and_names_the_run_that_tripped() {
        let noisy = pair(20, 1, 0, 0);
        let broken = pair(20, 12, 0, 0);
        let g = significance_gate(
            &[(Some("a.json"), &noisy), (Some("b.json"), &broken)],
            &gates("overall:page_hit_at_3"),
        );
        assert!(g.tripped);
        let tripped: Vec<String> = g.significant().map(GateCheck::name).collect();
        assert_eq!(tripped, ["b.json: overall · page_hit_at_3"]);
        // 12 one-way flips: 2/4096, doubled by Holm over two tests.
        assert!((g.checks[1].p_holm - 4.0 / 4096.0).abs() < 1e-15);
        assert_eq!(g.drops().count(), 2);
    }

    #[test]
    fn a_drop_whose_interval_excludes_zero_but_whose_p_does_not_reach_alpha_says_so() {
        // 5 lost of 5: the Newcombe interval excludes 0, the exact McNemar p is 0.0625.
        let c = pair(0, 0, 5, 5);
        let g = significance_gate(&[(None, &c)], &gates("prose:page_hit_at_3"));
        let check = &g.checks[0];
        assert_eq!(check.finding, Finding::WithinNoise);
        assert!(check.delta_ci.unwrap().hi < 0.0, "{:?}", check.delta_ci);
        assert!((check.p_holm - 0.0625).abs() < 1e-12);
        assert_eq!(check.disagreement, Some(Disagreement::IntervalExcludesZero));
    }

    #[test]
    fn a_gate_on_a_scope_the_comparison_lacks_watches_nothing() {
        let c = pair(10, 10, 0, 0);
        let g = significance_gate(&[(None, &c)], &gates("content"));
        assert!(g.checks.is_empty() && !g.tripped);
    }
}
