#!/usr/bin/env python3
"""figeval's offline scoring (contract §1, §3–§6) in plain Python, as a reference for bench-score.

    python3 score.py --responses CAPTURE --dataset DATASET [--max-precise-span N]
                     [--allow-missing] [--out REPORT]

Prints the report as indented JSON on stdout, like `figeval score`. It is written the way a
careful Python author would write it (json.loads per line, dicts, one pass), not tuned: the
benchmark compares figeval with this, and checks that both give the same numbers.

Exit status: 0 done, 2 bad input (the problems are listed on stderr).
"""

import argparse
import datetime
import json
import math
import os
import sys
import time

VERSION = "0.1.0"
PAGE_MAX = 2147483647
SUMMARY_CHARS = 200
METRICS = ("page_hit_at_3", "page_hit_at_5", "precise_page_hit_at_3", "figure_chunk_at_3")
GROUPS = ("content", "locate", "prose")
CACHE_MODES = ("default", "bypass", "refresh")
TOP_KEYS = ("corpus_id", "items")
ITEM_KEYS = ("question", "expected_pages", "figure_ref", "kind", "tags")


class InputError(Exception):
    pass


def is_int(v):
    return type(v) is int  # a JSON integer; bool is not one


# ----- dataset (§1) -------------------------------------------------------------------------


def load_dataset(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: line {e.lineno}, column {e.colno}: invalid JSON: {e.msg}")
    errors = []
    if not isinstance(data, dict):
        raise InputError(f"{path}: expected an object with corpus_id and items")
    for k in data:
        if k not in TOP_KEYS:
            errors.append(f"dataset: {k}: unknown key")
    corpus_id = data.get("corpus_id")
    if not (isinstance(corpus_id, str) and corpus_id.strip()):
        errors.append("dataset: corpus_id: expected a non-empty string")
    raw = data.get("items")
    items = []
    if not isinstance(raw, list) or not raw:
        errors.append("dataset: items: expected a non-empty array of items")
        raw = []
    seen = {}
    for number, it in enumerate(raw, 1):
        where = f"item {number}"
        if not isinstance(it, dict):
            errors.append(f"{where}: expected an object")
            continue
        ok = True
        for k in it:
            if k not in ITEM_KEYS:
                errors.append(f"{where}: {k}: unknown key")
                ok = False
        q = it.get("question")
        if not (isinstance(q, str) and q.strip()):
            errors.append(f"{where}: question: expected a non-empty string")
            ok = False
        elif q in seen:
            errors.append(f"{where}: question: duplicates the question of item {seen[q]}")
            ok = False
        else:
            seen[q] = number
        pages = it.get("expected_pages")
        if not (isinstance(pages, list) and pages
                and all(is_int(p) and 1 <= p <= PAGE_MAX for p in pages)):
            errors.append(f"{where}: expected_pages: expected integer pages in 1..={PAGE_MAX}")
            ok = False
        ref = it.get("figure_ref")
        if not (isinstance(ref, str) and ref.strip()):
            errors.append(f"{where}: figure_ref: expected a non-empty string")
            ok = False
        kind = it.get("kind")
        if kind not in ("locate", "content") or not isinstance(kind, str):
            errors.append(f"{where}: kind: expected \"locate\" or \"content\"")
            ok = False
        tags = it.get("tags", [])
        if not (isinstance(tags, list) and all(isinstance(t, str) for t in tags)):
            errors.append(f"{where}: tags: expected an array of strings")
            ok = False
        if ok:
            group = "prose" if "prose" in tags else kind
            items.append({"question": q, "expected_pages": pages, "figure_ref": ref,
                          "kind": kind, "tags": tags, "group": group})
    if errors:
        raise InputError(f"{path}: {len(errors)} error(s) in the dataset:\n  " + "\n  ".join(errors))
    return corpus_id, items


# ----- reading a match (§3) and a response (§2) --------------------------------------------


def lenient_page(v):
    return v if is_int(v) and 1 <= v <= PAGE_MAX else None


def read_match(m):
    """(chunk_id, (start, end) or None, chunk_kind, figure_summary) of a match object."""
    cid = m.get("chunk_id")
    if isinstance(cid, str):
        chunk_id = cid
    elif is_int(cid) and -(2 ** 63) <= cid < 2 ** 64:
        chunk_id = str(cid)
    else:
        chunk_id = ""
    pages = None
    prov = m.get("provenance")
    if isinstance(prov, dict):
        s = lenient_page(prov.get("page_start"))
        e = lenient_page(prov.get("page_end"))
        if s is not None and e is not None and s <= e:
            pages = (s, e)
    kind = summary = None
    meta = m.get("metadata")
    if isinstance(meta, dict):
        k = meta.get("chunk_kind")
        kind = k if isinstance(k, str) else None
        fig = meta.get("figure")
        if isinstance(fig, dict):
            s = fig.get("summary")
            summary = s if isinstance(s, str) else None
    return chunk_id, pages, kind, summary


def what(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, (int, float)):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    return "an object"


def read_response(body):
    """(matches, problem): the matches of a response body, or why it cannot be scored."""
    if not isinstance(body, dict):
        return None, f"the response body is {what(body)}, not a JSON object"
    if "matches" not in body:
        keys = ", ".join(list(body)[:64])
        if not keys:
            return None, "the response has no `matches` array (it is an empty object)"
        return None, f"the response has no `matches` array (its keys: {keys})"
    ms = body["matches"]
    if not isinstance(ms, list):
        return None, f"the response's `matches` is {what(ms)}, not an array"
    out = []
    for rank, m in enumerate(ms, 1):
        if not isinstance(m, dict):
            return None, f"the match at rank {rank} is {what(m)}, not a JSON object"
        out.append(read_match(m))
    return out, None


# ----- scoring one item (§4) ----------------------------------------------------------------


def score_item(item, matches, max_span):
    expected = item["expected_pages"]

    def on_expected(m):
        p = m[1]
        return p is not None and any(p[0] <= e <= p[1] for e in expected)

    hits = [on_expected(m) for m in matches]
    first = next((i + 1 for i, h in enumerate(hits) if h), None)
    top3 = list(zip(matches[:3], hits[:3]))
    top = []
    for i, (m, h) in enumerate(zip(matches[:5], hits[:5])):
        p = m[1]
        top.append({
            "rank": i + 1,
            "chunk_id": m[0],
            "page_start": p[0] if p else None,
            "page_end": p[1] if p else None,
            "span_pages": p[1] - p[0] + 1 if p else None,
            "chunk_kind": m[2],
            "on_expected_page": h,
        })
    return {
        "question": item["question"],
        "figure_ref": item["figure_ref"],
        "kind": item["kind"],
        "group": item["group"],
        "tags": item["tags"],
        "expected_pages": expected,
        "matches_returned": len(matches),
        "page_hit_at_3": any(hits[:3]),
        "page_hit_at_5": any(hits[:5]),
        "precise_page_hit_at_3": any(h and m[1][1] - m[1][0] + 1 <= max_span for m, h in top3),
        "figure_chunk_at_3": any(h and m[2] == "figure" for m, h in top3),
        "first_hit_rank": first,
        "top": top,
        "figure_summaries_at_3": [m[3][:SUMMARY_CHARS] for m in matches[:3] if m[3]],
    }


# ----- summary and report (§5) --------------------------------------------------------------


Z95 = 1.959963984540054


def wilson(hits, n):
    """The 95% Wilson score interval, rounded like the rates; None without items."""
    if n == 0:
        return None
    z2 = Z95 * Z95
    centre = 2.0 * hits + z2
    spread = Z95 * math.sqrt(z2 + 4.0 * hits * (n - hits) / n)
    denom = 2.0 * (n + z2)
    lo = 0.0 if hits == 0 else max((centre - spread) / denom, 0.0)
    hi = 1.0 if hits == n else min((centre + spread) / denom, 1.0)
    return [round(lo, 4), round(hi, 4)]


def summarize(records):
    # page_mrr_ci (a 10,000-resample bootstrap) is left out: bench-score does not compare it.
    n = len(records)
    out = {"n": n}
    for metric in METRICS:
        hits = sum(1 for r in records if r[metric])
        out[metric] = round(hits / n, 4) if n else 0.0
        out[metric + "_hits"] = hits
        out[metric + "_ci"] = wilson(hits, n)
    rr = 0.0
    for r in records:
        rr += 1.0 / r["first_hit_rank"] if r["first_hit_rank"] is not None else 0.0
    out["page_mrr"] = round(rr / n, 4) if n else 0.0
    return out


# ----- the capture (§6) ---------------------------------------------------------------------


class Pairing:
    def __init__(self, items, max_span):
        self.items = items
        self.max_span = max_span
        self.index = {it["question"]: i for i, it in enumerate(items)}
        self.seen = [False] * len(items)
        self.records = [None] * len(items)
        self.unknown, self.duplicates, self.errors = [], [], []
        self.responses = 0
        self.request = None  # None: none yet; "mixed": they differ; else the shared tuple

    def note_request(self, req):
        if self.request is None:
            self.request = ("same", req)
        elif self.request != "mixed" and self.request[1] != req:
            self.request = "mixed"

    def add_entry(self, at, v):
        self.responses += 1
        if isinstance(v, dict) and "response" in v:
            q = v.get("question")
            if not isinstance(q, str):
                self.errors.append(f"{at}: an envelope with a `response` needs a string `question`")
                return
            self.note_request(read_request(v["request"]) if "request" in v else None)
            self.pair(at, q, v["response"])
            return
        if isinstance(v, dict):
            if "question" in v and not isinstance(v.get("query"), str) and "matches" not in v:
                self.errors.append(f"{at}: has a `question` but no `response` and no `matches`"
                                   f" (its keys: {', '.join(list(v)[:64])})")
                return
        self.note_request(None)
        query = v.get("query") if isinstance(v, dict) else None
        if isinstance(query, str):
            self.pair(at, query, v)
            return
        _, problem = read_response(v)
        if problem:
            self.errors.append(f"{at}: {problem}")
        else:
            self.errors.append(f"{at}: a bare response body needs a string `query`")

    def pair(self, at, question, body):
        i = self.index.get(question)
        if i is None:
            self.unknown.append(question)
            return
        if self.seen[i]:
            self.duplicates.append(question)
            return
        self.seen[i] = True
        matches, problem = read_response(body)
        if problem:
            self.errors.append(f"{at} (question {question[:48]!r}): {problem}")
        else:
            self.records[i] = score_item(self.items[i], matches, self.max_span)

    def finish(self, allow_missing):
        errors = list(self.errors)
        if self.unknown:
            errors.append(f"{len(self.unknown)} response(s) for questions that are not in the dataset: "
                          + "; ".join(repr(q[:48]) for q in self.unknown[:20]))
        if self.duplicates:
            errors.append(f"{len(self.duplicates)} question(s) with more than one response: "
                          + "; ".join(repr(q[:48]) for q in self.duplicates[:20]))
        missing = [it["question"] for it, s in zip(self.items, self.seen) if not s]
        if self.responses == 0 and not errors:
            errors.append("the capture holds no response")
        elif missing and not allow_missing:
            errors.append(f"{len(missing)} item(s) with no response: "
                          + "; ".join(repr(q[:48]) for q in missing[:20]))
        if errors:
            raise InputError(f"{len(errors)} problem(s) with the responses:\n  " + "\n  ".join(errors))
        req = None
        if self.request is not None and self.request != "mixed":
            req = self.request[1]
        base_url, top_k, cache_mode = req if req else (None, None, None)
        if cache_mode not in CACHE_MODES:
            cache_mode = None
        return [r for r in self.records if r is not None], missing, (base_url, top_k, cache_mode)


def read_request(v):
    """The (base_url, top_k, cache_mode) a live run recorded; all None when ill-typed."""
    none = (None, None, None)
    if not isinstance(v, dict):
        return none
    b, k, c = v.get("base_url"), v.get("top_k"), v.get("cache_mode")
    if b is not None and not isinstance(b, str):
        return none
    if k is not None and not (is_int(k) and 0 <= k <= 2 ** 32 - 1):
        return none
    if c is not None and not isinstance(c, str):
        return none
    return (b, k, c)


def is_multiline_document(first_line):
    if first_line.lstrip().startswith("["):
        return True
    try:
        json.loads(first_line)
        return False
    except json.JSONDecodeError as e:
        return e.pos >= len(first_line.rstrip())  # ran out of text: a body across lines


def read_capture(f, pairing):
    first = True
    for line_no, line in enumerate(f, 1):
        if not line.strip():
            continue
        if first:
            first = False
            if is_multiline_document(line):
                text = "\n" * (line_no - 1) + line + f.read()
                read_document(text, pairing)
                return
        try:
            v = json.loads(line)
        except json.JSONDecodeError as e:
            pairing.errors.append(f"line {line_no}, column {e.colno}: not JSON: {e.msg}")
            continue
        pairing.add_entry(f"line {line_no}", v)


def read_document(text, pairing):
    try:
        if text.lstrip().startswith("["):
            for i, v in enumerate(json.loads(text), 1):
                pairing.add_entry(f"array element {i}", v)
            return
        dec = json.JSONDecoder()
        pos, i = 0, 0
        while True:
            while pos < len(text) and text[pos] in " \t\r\n":
                pos += 1
            if pos >= len(text):
                return
            v, pos = dec.raw_decode(text, pos)
            i += 1
            pairing.add_entry(f"response {i} of the document", v)
    except json.JSONDecodeError as e:
        pairing.errors.append(f"line {e.lineno}, column {e.colno}: not JSON: {e.msg}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--responses", required=True)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--max-precise-span", type=int, default=3)
    ap.add_argument("--allow-missing", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.monotonic()
    try:
        corpus_id, items = load_dataset(a.dataset)
        pairing = Pairing(items, a.max_precise_span)
        with open(a.responses, encoding="utf-8") as f:
            read_capture(f, pairing)
        records, unscored, (base_url, top_k, cache_mode) = pairing.finish(a.allow_missing)
    except (InputError, OSError, UnicodeDecodeError) as e:
        print(f"score.py: {e}", file=sys.stderr)
        return 2
    report = {
        "corpus_id": corpus_id,
        "base_url": base_url,
        "top_k": top_k,
        "cache_mode": cache_mode,
        "max_precise_span_pages": a.max_precise_span,
    }
    report.update(summarize(records))
    report["by_group"] = {g: summarize([r for r in records if r["group"] == g])
                          for g in GROUPS if any(r["group"] == g for r in records)}
    report["per_item"] = records
    report["unscored"] = unscored
    report["run"] = {
        "tool_version": VERSION,
        "started_at": started,
        "duration_s": time.monotonic() - t0,
        "retries": 0,
        "source": os.path.basename(a.responses),
    }
    if a.out:
        os.makedirs(os.path.dirname(a.out) or ".", exist_ok=True)
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2, ensure_ascii=False)
            f.write("\n")
    json.dump(report, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
