"""Checks figeval's page metrics against ranx, an independent implementation.

Usage: python check_ranx.py QRELS RUN REPORT

QRELS and RUN are what `figeval export` wrote; REPORT is `figeval score`'s report of the same
capture. The capture must be one whose matches each cite one page, no two the same page: then
the page run's rank r is the match rank r, and ranx's hit_rate@3, hit_rate@5, mrr, ndcg@5,
ndcg@10, recall@5 and recall@10 must equal figeval's page_hit_at_3, page_hit_at_5, page_mrr,
ndcg_at_5, ndcg_at_10, recall_at_5 and recall_at_10 (the means to 4 decimals, as the report
rounds them). The report must state every one of them (a capture asked with top_k 10 or more).
Exits 1 on any disagreement.
"""

import json
import sys

from ranx import Qrels, Run, evaluate


def main() -> int:
    qrels_path, run_path, report_path = sys.argv[1:4]
    qrels = Qrels.from_file(qrels_path, kind="trec")
    run = Run.from_file(run_path, kind="trec")
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    n = report["n"]
    # Items whose response cites no page have no run line: make_comparable scores them 0, as
    # figeval does.
    ranking = [("ndcg@5", "ndcg_at_5"), ("ndcg@10", "ndcg_at_10"),
               ("recall@5", "recall_at_5"), ("recall@10", "recall_at_10")]
    metrics = ["hit_rate@3", "hit_rate@5", "mrr"] + [r for r, _ in ranking]
    got = evaluate(qrels, run, metrics, make_comparable=True)
    checks = [
        # The rates' exact values are hits / n; ranx must agree to floating-point noise.
        ("hit_rate@3", report["page_hit_at_3_hits"] / n, 1e-12),
        ("hit_rate@5", report["page_hit_at_5_hits"] / n, 1e-12),
        # page_mrr and the ranking means are rounded to 4 places in the report.
        ("mrr", report["page_mrr"], 5e-5),
    ] + [(r, report[key], 5e-5) for r, key in ranking]
    failed = False
    for metric, want, tolerance in checks:
        if want is None:
            print(f"FAIL figeval states no {metric} ({report.get('ranking_note')})")
            failed = True
            continue
        # Equal to 4 decimals: ranx's mean lies within half a unit of the 4th decimal of
        # figeval's rounded one (a tie may round either way, so the bound is inclusive).
        ok = abs(got[metric] - want) <= tolerance
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} ranx {metric} = {got[metric]:.6f}, figeval {want:.6f} (n {n})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
