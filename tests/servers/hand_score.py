"""Scores a capture of LangServe or Hayhooks answers by hand, without figeval.

    python hand_score.py --server langserve|hayhooks --dataset DATASET.json --capture CAPTURE.jsonl

An independent reading of contract §4 for the end-to-end tests of the connectors: it reads
each raw answer the way its server documents it, not through figeval's mapping, and prints one
JSON object on stdout:

    {"n": 33, "page_hit_at_3_hits": 25, "page_hit_at_5_hits": ..., "page_mrr": ...,
     "per_item": [{"question", "expected_pages", "matches_returned", "pages",
                   "page_hit_at_3", "page_hit_at_5", "precise_page_hit_at_3",
                   "figure_chunk_at_3", "first_hit_rank"}, ...]}

- langserve: the hits are `output`, the page of a hit is `metadata.page` + 1 (PyPDFLoader's
  `page` is 0-based).
- hayhooks: the hits are `result`, the page of a hit is `meta.page_number` (1-based).

Every hit cites one page, so a precise hit at 3 is a page hit at 3, and no hit is a figure
chunk. The capture is figeval's JSON Lines of envelopes `{"question", "response", ...}`; a line
whose answer has no hits array, a hit without its page, or a question answered twice or not at
all is an error (exit 1), never a miss.
"""

import argparse
import json
import sys


def page_of(server, hit):
    """The 1-based physical page a hit cites, read as its server documents it."""
    if server == "langserve":
        page = hit["metadata"]["page"]
        offset = 1
    else:
        page = hit["meta"]["page_number"]
        offset = 0
    if not isinstance(page, int) or isinstance(page, bool):
        raise ValueError(f"a page that is not an integer: {page!r}")
    return page + offset


def hits_of(server, response):
    hits = response["output"] if server == "langserve" else response["result"]
    if not isinstance(hits, list):
        raise ValueError(f"the hits are not an array: {type(hits).__name__}")
    return hits


def score(server, dataset, capture_lines):
    answers = {}
    for number, line in enumerate(capture_lines, start=1):
        if not line.strip():
            continue
        entry = json.loads(line)
        question = entry["question"]
        if question in answers:
            raise ValueError(f"line {number}: a second answer to {question!r}")
        try:
            answers[question] = [page_of(server, h) for h in hits_of(server, entry["response"])]
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"line {number} ({question!r}): {e!r}") from e
    items = []
    for item in dataset["items"]:
        question = item["question"]
        if question not in answers:
            raise ValueError(f"no answer to {question!r}")
        pages = answers.pop(question)
        expected = set(item["expected_pages"])
        ranks = [rank for rank, page in enumerate(pages, start=1) if page in expected]
        first = ranks[0] if ranks else None
        at3 = first is not None and first <= 3
        items.append(
            {
                "question": question,
                "expected_pages": item["expected_pages"],
                "matches_returned": len(pages),
                "pages": pages,
                "page_hit_at_3": at3,
                "page_hit_at_5": first is not None and first <= 5,
                "precise_page_hit_at_3": at3,
                "figure_chunk_at_3": False,
                "first_hit_rank": first,
            }
        )
    if answers:
        raise ValueError(f"answers to questions not in the dataset: {sorted(answers)}")
    n = len(items)
    summary = {"n": n}
    for metric in ("page_hit_at_3", "page_hit_at_5", "precise_page_hit_at_3", "figure_chunk_at_3"):
        hits = sum(1 for i in items if i[metric])
        summary[f"{metric}_hits"] = hits
        summary[metric] = round(hits / n, 4) if n else 0.0
    reciprocal = 0.0
    for i in items:  # summed in dataset order, as contract §5.1 says
        reciprocal += 1 / i["first_hit_rank"] if i["first_hit_rank"] else 0.0
    summary["page_mrr"] = round(reciprocal / n, 4) if n else 0.0
    summary["per_item"] = items
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=("langserve", "hayhooks"), required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--capture", required=True)
    args = parser.parse_args()
    with open(args.dataset, encoding="utf-8") as f:
        dataset = json.load(f)
    with open(args.capture, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        result = score(args.server, dataset, lines)
    except (KeyError, TypeError, ValueError) as e:
        print(f"hand_score: {args.capture}: {e}", file=sys.stderr)
        return 1
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
