//! What the compare view's cards below the questions that changed show, without the browser:
//! each scope's ranking-metric rows, and the items × runs table's rows, sorted and filtered.
//! Pure, so it has native unit tests.

use figeval::compare::compare_ranked;
use figeval::render::{ranking_cells, stated_with_ci};
use figeval::{Group, Metric, Ranking, Report, Scope};
use figeval_web_common::open_report::OpenReport;
use figeval_web_common::shared::Shared;

/// The compared reports, in the compare view's order (the baseline first).
#[derive(Debug)]
pub struct Runs {
    /// Each report's name in the compare view.
    pub names: Vec<String>,
    /// The reports.
    pub reports: Vec<Shared<Report>>,
}

impl Runs {
    /// The reports of the compare view's list, in order.
    pub fn of(list: &[OpenReport]) -> Runs {
        Runs {
            names: list.iter().map(|o| o.name.to_string()).collect(),
            reports: list.iter().map(|o| o.report.clone()).collect(),
        }
    }
}

/// One ranking metric in one scope: each report's value (with its interval), and each run's
/// change from the baseline (delta and its interval), as `figeval compare` words them.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingRow {
    /// The metric.
    pub metric: Ranking,
    /// Each report's value, `null` when it does not state it.
    pub values: Vec<String>,
    /// For each run after the baseline: the delta and its interval (`null`, `n/a`).
    pub changes: Vec<(String, String)>,
    /// For each run after the baseline: whether the metric fell.
    pub fell: Vec<bool>,
}

/// The ranking rows of every scope of the baseline (overall, then its groups).
pub fn ranking_rows(runs: &Runs) -> Vec<(Scope, Vec<RankingRow>)> {
    let base = &runs.reports[0];
    let comparisons: Vec<_> = runs.reports[1..]
        .iter()
        .map(|r| compare_ranked(base, r))
        .collect();
    let mut scopes = vec![Scope::Overall];
    scopes.extend(base.by_group.keys().map(|g| Scope::Group(*g)));
    scopes
        .into_iter()
        .map(|scope| {
            let rows = Ranking::ALL
                .into_iter()
                .map(|m| {
                    let values = runs
                        .reports
                        .iter()
                        .map(|r| {
                            let s = match scope {
                                Scope::Overall => Some(&r.summary),
                                Scope::Group(g) => r.by_group.get(&g),
                            };
                            s.map_or_else(
                                || "—".to_string(),
                                |s| stated_with_ci(s.ranking(m), s.ranking_ci(m)),
                            )
                        })
                        .collect();
                    let deltas: Vec<_> = comparisons
                        .iter()
                        .map(|c| {
                            c.scope(scope)
                                .and_then(|s| s.ranking.iter().find(|r| r.metric == m))
                        })
                        .collect();
                    RankingRow {
                        metric: m,
                        values,
                        changes: deltas
                            .iter()
                            .map(|d| match d {
                                Some(d) => {
                                    let [_, _, delta, ci] = ranking_cells(d);
                                    (delta, ci)
                                }
                                None => ("—".into(), "—".into()),
                            })
                            .collect(),
                        fell: deltas
                            .iter()
                            .map(|d| d.is_some_and(|d| d.regressed))
                            .collect(),
                    }
                })
                .collect();
            (scope, rows)
        })
        .collect()
}

/// Which questions the items × runs table lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// Every question.
    All,
    /// Those a run hits and another misses (on the chosen metric).
    Changed,
    /// Those every run misses.
    MissedByAll,
    /// Those every run hits.
    HitByAll,
}

impl Show {
    /// Every choice, with its value and words.
    pub const ALL: [(Show, &'static str, &'static str); 4] = [
        (Show::All, "all", "every question"),
        (
            Show::Changed,
            "changed",
            "hit in one run, missed in another",
        ),
        (Show::MissedByAll, "missed", "missed by every run"),
        (Show::HitByAll, "hit", "hit by every run"),
    ];
}

/// The order of the items × runs table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The baseline's dataset order (then questions only later runs have).
    Dataset,
    /// The best first-hit rank over the runs, best first (a question no run hits last).
    BestFirst,
    /// The most runs missing the metric first.
    MostMissed,
}

impl Order {
    /// Every choice, with its value and words.
    pub const ALL: [(Order, &'static str, &'static str); 3] = [
        (Order::Dataset, "dataset", "dataset order"),
        (Order::BestFirst, "best", "best first-hit rank first"),
        (Order::MostMissed, "missed", "most runs missing first"),
    ];
}

/// One question of the items × runs table.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRow {
    /// The question.
    pub question: String,
    /// Its group (the first report's that has it).
    pub group: Group,
    /// In each run: whether it hit the metric, and its first-hit rank; `None` when the run did
    /// not score it.
    pub cells: Vec<Option<(bool, Option<u32>)>>,
}

/// The items × runs rows for `metric`, of `group` (`None`: every group), filtered by `show`
/// and in `order`.
pub fn item_rows(
    runs: &Runs,
    metric: Metric,
    group: Option<Group>,
    show: Show,
    order: Order,
) -> Vec<ItemRow> {
    let mut questions: Vec<(&str, Group)> = Vec::new();
    for r in &runs.reports {
        for it in &r.per_item {
            if !questions.iter().any(|(q, _)| *q == it.question) {
                questions.push((&it.question, it.group));
            }
        }
    }
    let mut rows: Vec<ItemRow> = questions
        .into_iter()
        .filter(|(_, g)| group.is_none_or(|want| want == *g))
        .map(|(q, g)| ItemRow {
            question: q.to_string(),
            group: g,
            cells: runs
                .reports
                .iter()
                .map(|r| {
                    r.per_item
                        .iter()
                        .find(|it| it.question == q)
                        .map(|it| (it.hit(metric), it.first_hit_rank))
                })
                .collect(),
        })
        .filter(|row| {
            let hits = row.cells.iter().flatten().filter(|(h, _)| *h).count();
            let scored = row.cells.iter().flatten().count();
            match show {
                Show::All => true,
                Show::Changed => hits > 0 && hits < scored,
                Show::MissedByAll => hits == 0,
                Show::HitByAll => scored > 0 && hits == scored,
            }
        })
        .collect();
    let best = |row: &ItemRow| {
        row.cells
            .iter()
            .flatten()
            .filter_map(|(_, r)| *r)
            .min()
            .unwrap_or(u32::MAX)
    };
    let missed = |row: &ItemRow| row.cells.iter().flatten().filter(|(h, _)| !h).count();
    match order {
        Order::Dataset => {}
        Order::BestFirst => rows.sort_by_key(best),
        Order::MostMissed => rows.sort_by_key(|r| std::cmp::Reverse(missed(r))),
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use figeval::{CaptureReader, Dataset, Pairing, RunInfo, ScoreConfig};

    /// A report of three questions: `ranks[i]` is the rank of item i's expected page (0: no
    /// match on it), ten matches each.
    fn report(ranks: [u32; 3]) -> Report {
        let d = Dataset::parse(
            r#"{"corpus_id":"c","items":[
            {"question":"Q1","expected_pages":[5],"figure_ref":"F1","kind":"locate"},
            {"question":"Q2","expected_pages":[6],"figure_ref":"F2","kind":"content"},
            {"question":"Q3","expected_pages":[7],"figure_ref":"F3","kind":"locate"}]}"#,
        )
        .unwrap();
        let mut lines = String::new();
        for (i, rank) in ranks.iter().enumerate() {
            let expected = 5 + i as u32;
            let matches: Vec<String> = (1..=10)
                .map(|r| {
                    let page = if r == *rank { expected } else { 100 + r };
                    format!(r#"{{"chunk_id":"{r}","provenance":{{"page_start":{page},"page_end":{page}}}}}"#)
                })
                .collect();
            lines += &format!(
                "{{\"question\":\"Q{}\",\"request\":{{\"top_k\":10}},\"response\":{{\"matches\":[{}]}}}}\n",
                i + 1,
                matches.join(",")
            );
        }
        let scored = CaptureReader::read_str(Pairing::new(&d, ScoreConfig::default()), &lines)
            .pairing
            .finish(false)
            .unwrap();
        Report::build(scored, RunInfo::default())
    }

    fn runs(reports: Vec<Report>) -> Runs {
        let list: Vec<OpenReport> = reports
            .into_iter()
            .enumerate()
            .map(|(i, r)| OpenReport::new(&format!("r{i}"), r))
            .collect();
        Runs::of(&list)
    }

    #[test]
    fn ranking_rows_are_the_compare_commands_cells() {
        let (a, b) = (report([1, 2, 0]), report([1, 1, 1]));
        let r = runs(vec![a.clone(), b.clone()]);
        let rows = ranking_rows(&r);
        let c = compare_ranked(&a, &b);
        for (scope, rows) in &rows {
            let s = c.scope(*scope).unwrap();
            for (row, d) in rows.iter().zip(&s.ranking) {
                let [before, after, delta, ci] = ranking_cells(d);
                assert_eq!(row.values, [before, after]);
                assert_eq!(row.changes, [(delta, ci)]);
                assert_eq!(row.fell, [d.regressed]);
            }
        }
        assert_eq!(rows[0].0, Scope::Overall);
        assert_eq!(rows[0].1.len(), 4);
        // Recall at 5 rose from 2/3 to 1 overall.
        let recall5 = &rows[0].1[Ranking::RecallAt5 as usize];
        assert_eq!(
            recall5.values[1],
            stated_with_ci(Some(1.0), b.summary.ranking_ci(Ranking::RecallAt5))
        );
    }

    #[test]
    fn the_items_table_filters_changed_questions_and_sorts_by_best_rank() {
        let r = runs(vec![
            report([3, 0, 2]),
            report([3, 1, 0]),
            report([3, 2, 1]),
        ]);
        let all = item_rows(&r, Metric::PageHitAt3, None, Show::All, Order::Dataset);
        let qs: Vec<&str> = all.iter().map(|r| r.question.as_str()).collect();
        assert_eq!(qs, ["Q1", "Q2", "Q3"]);
        assert_eq!(
            all[1].cells,
            [
                Some((false, None)),
                Some((true, Some(1))),
                Some((true, Some(2)))
            ]
        );
        let changed = item_rows(&r, Metric::PageHitAt3, None, Show::Changed, Order::Dataset);
        let qs: Vec<&str> = changed.iter().map(|r| r.question.as_str()).collect();
        assert_eq!(qs, ["Q2", "Q3"]);
        let hit = item_rows(&r, Metric::PageHitAt3, None, Show::HitByAll, Order::Dataset);
        assert_eq!(hit.len(), 1);
        let best = item_rows(&r, Metric::PageHitAt3, None, Show::All, Order::BestFirst);
        let qs: Vec<&str> = best.iter().map(|r| r.question.as_str()).collect();
        assert_eq!(
            qs,
            ["Q2", "Q3", "Q1"],
            "best first-hit rank over the runs: 1, 1, 3"
        );
        let missed = item_rows(&r, Metric::PageHitAt3, None, Show::All, Order::MostMissed);
        assert_eq!(missed[0].question, "Q2");
        let content = item_rows(
            &r,
            Metric::PageHitAt3,
            Some(Group::Content),
            Show::All,
            Order::Dataset,
        );
        assert!(content.iter().all(|row| row.group == Group::Content));
    }
}
