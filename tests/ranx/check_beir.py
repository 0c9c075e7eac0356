"""Checks figeval's BEIR export with ir_measures, an independent implementation.

Usage: python check_beir.py DIR REPORT

DIR is what `figeval export --beir DIR` wrote (queries.jsonl, qrels/test.tsv, results.json);
REPORT is `figeval score`'s report of the same capture, one whose matches each cite one page, no
two the same page. The files are read as BEIR lays them out, and ir_measures' nDCG@5, nDCG@10,
R@5 and R@10, averaged over every query (a query whose matches cite no page counts 0, as in
figeval), must equal the report's ndcg_at_5, ndcg_at_10, recall_at_5 and recall_at_10 to 4
decimals. Exits 1 on any disagreement.
"""

import csv
import json
import sys

import ir_measures
from ir_measures import R, nDCG


def main() -> int:
    folder, report_path = sys.argv[1:3]
    with open(f"{folder}/queries.jsonl", encoding="utf-8") as f:
        queries = [json.loads(line) for line in f]
    qrels = {}
    with open(f"{folder}/qrels/test.tsv", encoding="utf-8", newline="") as f:
        rows = csv.reader(f, delimiter="\t")
        if next(rows) != ["query-id", "corpus-id", "score"]:
            print("FAIL qrels/test.tsv has no BEIR header")
            return 1
        for qid, doc, score in rows:
            qrels.setdefault(qid, {})[doc] = int(score)
    with open(f"{folder}/results.json", encoding="utf-8") as f:
        results = json.load(f)
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    ids = [q["_id"] for q in queries]
    failed = False
    if sorted(results) != sorted(ids) or len(ids) != report["n"]:
        print(f"FAIL {len(ids)} queries, {len(results)} in results.json, n {report['n']}")
        failed = True
    measures = {nDCG @ 5: "ndcg_at_5", nDCG @ 10: "ndcg_at_10", R @ 5: "recall_at_5", R @ 10: "recall_at_10"}
    per = {m: {} for m in measures}
    ranked = {q: docs for q, docs in results.items() if docs}
    for metric in ir_measures.iter_calc(list(measures), qrels, ranked):
        per[metric.measure][metric.query_id] = metric.value
    for measure, key in measures.items():
        want = report[key]
        if want is None:
            print(f"FAIL figeval states no {key} ({report.get('ranking_note')})")
            failed = True
            continue
        mean = sum(per[measure].get(q, 0.0) for q in ids) / len(ids)
        ok = abs(mean - want) <= 5e-5
        failed |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} ir_measures {measure} = {mean:.6f}, figeval {key} {want:.6f} (n {len(ids)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
