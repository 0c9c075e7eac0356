"""A LangChain BM25 retriever over a PDF's pages, served by LangServe at /octave.

    python langserve_server.py --pdf PDF --cache PAGES.json --port PORT [--k 5] [--cors-origin O]

The pages are LangChain's PyPDFLoader documents (one per physical page; `metadata.page` is
0-based, `metadata.page_label` the printed label), cached by manual.py. The retriever is
langchain-community's BM25Retriever (rank_bm25), so no model is downloaded. `add_routes`
serves it as LangServe does: `POST /octave/invoke {"input": question}` answers
`{"output": [{"page_content", "metadata", ...}], "metadata": {...}}`.

With `--cors-origin`, it answers that browser origin (FastAPI's CORSMiddleware, as a deployment
that serves a page elsewhere is set up); without it, a page on another origin cannot read its
answers. It listens on 127.0.0.1 only (port 0 picks a free one) and prints
`langserve: listening on http://127.0.0.1:PORT/octave` on stdout once it accepts connections.
"""

import argparse
import socket
import sys
from contextlib import asynccontextmanager

import uvicorn
from fastapi import FastAPI
from langchain_community.retrievers import BM25Retriever
from langchain_core.documents import Document
from langserve import add_routes

from manual import load_pages


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--k", type=int, default=5, help="documents per answer")
    parser.add_argument("--cors-origin", help="a browser origin allowed to read the answers")
    args = parser.parse_args()

    pages = load_pages(args.pdf, args.cache)
    documents = [Document(page_content=p["page_content"], metadata=p["metadata"]) for p in pages]
    retriever = BM25Retriever.from_documents(documents, k=args.k)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(128)
    port = sock.getsockname()[1]

    @asynccontextmanager
    async def lifespan(_app):
        print(f"langserve: listening on http://127.0.0.1:{port}/octave", flush=True)
        yield

    app = FastAPI(title="Octave manual BM25 (LangServe)", lifespan=lifespan)
    if args.cors_origin:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=[args.cors_origin],
            allow_methods=["POST"],
            allow_headers=["Content-Type", "Authorization"],
        )
    add_routes(app, retriever, path="/octave")
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    sys.exit(main())
