"""The pages of a PDF as LangChain's PyPDFLoader reads them, cached as JSON.

PyPDFLoader takes about 30 s over the Octave manual's 1,158 pages, so the first reader writes
`[{"page_content": ..., "metadata": {...}}, ...]` (one entry per physical page, in order) to the
cache file and every later one reads it. The cache is written under an exclusive lock to a
temporary file and renamed, so two servers starting at once load the PDF once and never see a
half-written cache. A cache made from another file (its path, size or modification time) is
made again.

Run as a script it fills the cache: python manual.py PDF CACHE
"""

import fcntl
import json
import os
import sys
import warnings


def _stamp(pdf):
    st = os.stat(pdf)
    return {"pdf": os.path.abspath(pdf), "size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _read(cache, stamp):
    try:
        with open(cache, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if data.get("stamp") != stamp:
        return None
    return data["pages"]


def load_pages(pdf, cache):
    """The PDF's pages as dicts `{"page_content", "metadata"}`, from the cache when it is current."""
    stamp = _stamp(pdf)
    pages = _read(cache, stamp)
    if pages is not None:
        return pages
    os.makedirs(os.path.dirname(os.path.abspath(cache)), exist_ok=True)
    with open(cache + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pages = _read(cache, stamp)  # another process may have made it meanwhile
        if pages is not None:
            return pages
        with warnings.catch_warnings():  # langchain-community's notice that it is sunset
            warnings.simplefilter("ignore", DeprecationWarning)
            from langchain_community.document_loaders import PyPDFLoader

        pages = [
            {"page_content": d.page_content, "metadata": dict(d.metadata)}
            for d in PyPDFLoader(pdf).load()
        ]
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"stamp": stamp, "pages": pages}, f)
        os.replace(tmp, cache)
    return pages


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: manual.py PDF CACHE")
    print(f"{len(load_pages(sys.argv[1], sys.argv[2]))} pages in {sys.argv[2]}", file=sys.stderr)
