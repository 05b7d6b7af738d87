"""SHACL validation of the law graph with pyshacl against ontology/shapes.ttl.

The shapes and vocabulary are read once per process. Validation runs on the union of the named graphs
plus the vocabulary (so change classes and subclass axioms are known), without inference.
"""

from __future__ import annotations

from functools import lru_cache

from rdflib import Dataset, Graph

from ..errors import BridgelawError
from ..paths import ontology_dir
from .namespaces import PREFIXES

ONTOLOGY_DIR = ontology_dir()
VOCABULARY_FILE = ONTOLOGY_DIR / "bridgelaw.ttl"
SHAPES_FILE = ONTOLOGY_DIR / "shapes.ttl"


class GraphInvalid(BridgelawError):
    """The graph violates the SHACL shapes."""

    exit_code = 3


@lru_cache(maxsize=1)
def shapes() -> Graph:
    return Graph().parse(SHAPES_FILE, format="turtle")


@lru_cache(maxsize=1)
def vocabulary() -> Graph:
    return Graph().parse(VOCABULARY_FILE, format="turtle")


def union(graph: Graph | Dataset, with_vocabulary: bool = True) -> Graph:
    """All triples of the graph (every named graph of a Dataset), plus the vocabulary, in one plain Graph."""
    out = Graph()
    for prefix, ns in PREFIXES.items():
        out.bind(prefix, ns)
    for g in graph.graphs() if isinstance(graph, Dataset) else (graph,):
        for t in g:
            out.add(t)
    for t in vocabulary() if with_vocabulary else ():
        out.add(t)
    return out


def validate(graph: Graph | Dataset) -> tuple[bool, str]:
    """(conforms, report text) of the graph against the shapes."""
    from pyshacl import validate as shacl_validate

    conforms, _, report = shacl_validate(union(graph), shacl_graph=shapes(), inference="none",
                                         allow_warnings=False, inplace=True)
    return bool(conforms), str(report)


def assert_valid(graph: Graph | Dataset) -> None:
    """Raise GraphInvalid with the first violations if the graph does not conform."""
    ok, report = validate(graph)
    if not ok:
        head = "\n".join(report.splitlines()[:40])
        raise GraphInvalid(f"the law graph violates the SHACL shapes — {head} — fix the builder or the data "
                           "named in the report")
