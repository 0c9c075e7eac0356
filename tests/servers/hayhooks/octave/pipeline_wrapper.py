"""A Haystack BM25 retriever over a PDF's pages, deployed by Hayhooks as the pipeline `octave`.

`hayhooks run --pipelines-dir tests/servers/hayhooks --additional-python-path tests/servers`
deploys it at `POST /octave/run {"query": question, "top_k": 5}`, which answers
`{"result": [{"id", "content", "meta": {"page_number", "file_path"}, "score", ...}]}`.

Each physical page of the PDF is one Haystack Document whose `meta.page_number` is its 1-based
page, as Haystack's converters and splitters number pages. The page texts are PyPDFLoader's,
read through manual.py's cache: the PDF and the cache come from the environment variables
FIGEVAL_SERVER_PDF and FIGEVAL_SERVER_PAGES. The retriever is Haystack's InMemoryBM25Retriever,
so no model is downloaded.
"""

import os

from haystack import Document, Pipeline
from haystack.components.retrievers.in_memory import InMemoryBM25Retriever
from haystack.document_stores.in_memory import InMemoryDocumentStore
from hayhooks import BasePipelineWrapper

from manual import load_pages


class PipelineWrapper(BasePipelineWrapper):
    def setup(self) -> None:
        pdf = os.environ["FIGEVAL_SERVER_PDF"]
        pages = load_pages(pdf, os.environ["FIGEVAL_SERVER_PAGES"])
        store = InMemoryDocumentStore()
        store.write_documents(
            [
                Document(
                    content=p["page_content"],
                    meta={"page_number": p["metadata"]["page"] + 1, "file_path": pdf},
                )
                for p in pages
            ]
        )
        self.pipeline = Pipeline()
        self.pipeline.add_component("retriever", InMemoryBM25Retriever(document_store=store))

    def run_api(self, query: str, top_k: int = 5) -> list[Document]:
        """
        The pages that best match a question, best first.

        Args:
            query: The question.
            top_k: How many pages to return.
        """
        result = self.pipeline.run({"retriever": {"query": query, "top_k": top_k}})
        return result["retriever"]["documents"]
