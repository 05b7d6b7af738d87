"""The law graph cached on disk: rebuilt only when a source file, the code or the ontology changes.

An `Artifact` keyed by the corpus source bytes, the package code and data and the ontology files. The
file is plain JSON (a term table and integer quads), which loads faster than N-Quads and needs no pickle.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from rdflib import Dataset, Literal, URIRef
from rdflib.term import Node

from ..artifact import artifact
from ..corpus import corpus_dir, source_fingerprint
from .validate import SHAPES_FILE, VOCABULARY_FILE

FORMAT_VERSION = 1


GRAPH_FILE = "graph.json"


def graph_key(root: Path) -> str:
    """The cache key of the graph of the corpus at `root`."""
    onto = hashlib.sha256(b"".join(f.read_bytes() for f in (VOCABULARY_FILE, SHAPES_FILE))).hexdigest()
    return artifact("graph").key(f"v{FORMAT_VERSION}", source_fingerprint(root), onto)


# ---------------------------------------------------------------------------------------------- (de)serialise


def _encode_term(t: Node) -> list[str]:
    if isinstance(t, URIRef):
        return ["u", str(t)]
    if isinstance(t, Literal):
        return ["l", str(t), t.language or "", str(t.datatype or "")]
    raise ValueError(f"cannot cache term {t!r} — the graph must have no blank nodes — fix the builder")


def _decode_term(row: list[str]) -> Node:
    if row[0] == "u":
        return URIRef(row[1])
    return Literal(row[1], lang=row[2] or None, datatype=URIRef(row[3]) if row[3] else None)


def dump(ds: Dataset, path: Path) -> None:
    """Write the Dataset as JSON {terms, quads} (into an artifact's temporary folder)."""
    index: dict[Node, int] = {}
    terms: list[list[str]] = []
    quads: list[int] = []
    for s, p, o, g in ds.quads((None, None, None, None)):
        ctx: Node = g.identifier if g is not None and hasattr(g, "identifier") else g  # type: ignore[assignment]
        for t in (s, p, o, ctx):
            if t not in index:
                index[t] = len(terms)
                terms.append(_encode_term(t))
            quads.append(index[t])
    with path.open("w", encoding="utf-8") as fh:
        json.dump({"format": FORMAT_VERSION, "terms": terms, "quads": quads}, fh, ensure_ascii=False,
                  separators=(",", ":"))


def load(path: Path) -> Dataset:
    """Read a Dataset written by dump()."""
    from .build import new_dataset

    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT_VERSION:
        raise ValueError(f"{path}: cache format {data.get('format')} — expected {FORMAT_VERSION}")
    terms = [_decode_term(row) for row in data["terms"]]
    quads = data["quads"]
    ds = new_dataset()
    graphs: dict[Node, Any] = {}
    store = ds.store
    for i in range(0, len(quads), 4):
        s, p, o, g = (terms[j] for j in quads[i:i + 4])
        ctx = graphs.get(g)
        if ctx is None:
            ctx = graphs[g] = ds.graph(g)
        store.add((s, p, o), ctx, quoted=False)
    return ds


# ---------------------------------------------------------------------------------------------- cache


@dataclass
class CachedGraph:
    """A graph from the cache or freshly built, with the key and file it belongs to."""

    dataset: Dataset
    key: str
    path: Path
    rebuilt: bool


def _build_from_sources(root: Path) -> Dataset:
    from ..corpus import load_corpus
    from .build import build_graph

    return build_graph(load_corpus(root))


def cached_graph(root: Path | None = None, builder: Callable[[Path], Dataset] | None = None,
                 force: bool = False) -> CachedGraph:
    """The graph of the corpus at `root` from the disk cache, building and saving it if the key changed."""
    root = Path(root or corpus_dir()).resolve()
    art = artifact("graph")
    key = graph_key(root)
    ds, rebuilt = art.get(key, lambda: (builder or _build_from_sources)(root),
                          lambda d, folder: dump(d, folder / GRAPH_FILE),
                          lambda folder: load(folder / GRAPH_FILE), force=force)
    return CachedGraph(ds, key, art.folder(key) / GRAPH_FILE, rebuilt=rebuilt)


@lru_cache(maxsize=2)
def _load_graph(root: str) -> Dataset:
    return cached_graph(Path(root)).dataset


def load_graph(root: Path | None = None) -> Dataset:
    """The law graph, from the disk cache when sources and code are unchanged; cached per process."""
    return _load_graph(str(Path(root or corpus_dir()).resolve()))
