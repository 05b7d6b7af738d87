"""One `Resources` object per process: the corpus, terms, trees, graph and searchers every command and
page reads, each loaded on first use. The CLI builds it; the app wraps it once in `st.cache_resource`.

This module sits above search and rulings: it is where the search's ruling-topic channel is wired in
(search never imports rulings), and `reset()` is the one point that forgets every loaded object.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from rdflib import Dataset

    from .corpus import Corpus
    from .rulings.model import Tree
    from .search.hybrid import HybridSearch
    from .terminology import Terminology


class Resources:
    """What a process has loaded; each attribute is loaded on first use and kept until `reset()`."""

    def __init__(self, corpus_root: Path | None = None) -> None:
        self.corpus_root = corpus_root
        self._searchers: dict[str | None, "HybridSearch"] = {}

    @cached_property
    def corpus(self) -> "Corpus":
        from .corpus import load_corpus

        return load_corpus(self.corpus_root)

    @cached_property
    def terms(self) -> "Terminology":
        from .terminology import load_terminology

        return load_terminology()

    @cached_property
    def trees(self) -> dict[str, "Tree"]:
        from .rulings.model import load_trees

        return dict(load_trees())

    @cached_property
    def graph(self) -> "Dataset":
        from .graph.store import load_graph

        return load_graph(self.corpus_root)

    def topics(self, text: str) -> Sequence[tuple[str, tuple[tuple[str, float], ...]]]:
        """The ruling topics a question matches, best first, each with the laws its rulings rest on:
        the search's ruling-topic channel."""
        from .rulings.match import match_topics, topic_laws

        return [(m.topic, topic_laws(m.topic)) for m in match_topics(text, self.trees)]

    def searcher(self, model: str | None = None) -> "HybridSearch":
        """The hybrid searcher for `model` (its index and embedder load once), with the topic channel."""
        if model not in self._searchers:
            from .search.hybrid import HybridSearch

            self._searchers[model] = HybridSearch(model, topics=self.topics)
        return self._searchers[model]


_CURRENT: list[Resources] = []


def resources() -> Resources:
    """This process's Resources (made on first call)."""
    if not _CURRENT:
        _CURRENT.append(Resources())
    return _CURRENT[0]


def reset() -> int:
    """Forget every loaded object: this process's Resources and every memoised loader of the package
    (each module-level function with `cache_clear`, i.e. functools caches). The number cleared."""
    import sys

    _CURRENT.clear()
    n = 0
    for name, module in list(sys.modules.items()):
        if not name.startswith("assistant.") or module is None:
            continue
        for value in list(vars(module).values()):
            # look on the type, not the object: rdflib namespaces answer any attribute (with a warning)
            if callable(getattr(type(value), "cache_clear", None)) and getattr(value, "__module__", None) == name:
                value.cache_clear()
                n += 1
    return n


def loaded(res: Resources) -> dict[str, Any]:
    """Which resources are loaded (for tests and `cache status`): name -> object."""
    return {k: v for k, v in vars(res).items() if not k.startswith("_") and k != "corpus_root"}
