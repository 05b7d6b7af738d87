"""The search's evidence channels behind one protocol: each turns one question's document scores into a
score per result group (law, article, definition, policy); 0 means no evidence.

Channels: BM25 over clauses and whole laws, embeddings over clauses, embeddings over WBF index terms,
table situations by words (the k best situations vote) and by embedding (the closest one), WBF index
headwords named in the question, the laws of matching ruling trees (supplied by the caller: search
does not import rulings), and the laws of the incidents the incident reader finds in the question. Fusion (assistant.search.fusion) combines their rankings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol, Sequence

import numpy as np

from .incident_model import incident_channels
from .query import Query
from .scoring import pool_knn, pool_max, pool_top

if TYPE_CHECKING:
    from .fusion import Tuning
    from .index import SearchIndex

# the ruling-topic channel, supplied by the caller: for a question, the matching topics best first, each
# with the laws (or 'article:N') its rulings rest on and their shares
TopicSource = Callable[[str], Sequence[tuple[str, tuple[tuple[str, float], ...]]]]


class Space(Protocol):
    """What channels read of the searcher: the index's documents as arrays, and the tuning."""

    doc_group: np.ndarray
    doc_kind: np.ndarray
    kind_is: dict[str, np.ndarray]          # kind -> boolean mask of the documents of that kind
    group_names: list[str]
    gpos: dict[str, int]
    ix: "SearchIndex"
    tuning: "Tuning"
    topics: TopicSource | None
    incident_laws: dict[str, np.ndarray]    # channel name -> incident x group matrix (incident_model.law_matrices)


@dataclass
class Evidence:
    """One question's document scores: BM25, cosine (-1 outside the mask), the document mask."""

    q: Query
    lex: np.ndarray
    emb: np.ndarray
    mask: np.ndarray
    topics: Sequence[tuple[str, tuple[tuple[str, float], ...]]] = ()   # the ruling topics matched, best first
    incidents: np.ndarray | None = None     # the incident reader's chance of each incident (None: not read)
    segment_incidents: np.ndarray | None = None   # each incident's best chance over the story's windows


class Channel(Protocol):
    """A source of evidence: `scores` gives one score per group (0: no evidence)."""

    @property
    def name(self) -> str: ...

    @property
    def method(self) -> str: ...     # the switch of bench/retrieval.py's method columns that turns it on

    def scores(self, s: Space, e: Evidence) -> np.ndarray: ...


def _docs(s: Space, e: Evidence, kind: str) -> np.ndarray:
    return e.mask & s.kind_is[kind]


@dataclass(frozen=True)
class Lexical:
    """BM25: a law's best clauses pooled (shares of the 2nd and 3rd best), or its whole text if better."""

    name: str = "lexical"
    method: str = "lexical"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        n = len(s.group_names)
        clauses = pool_top(e.lex, s.doc_group, _docs(s, e, "clause"), n, s.tuning.pool_shares)
        return np.maximum(clauses, pool_max(e.lex, s.doc_group, _docs(s, e, "law"), n))


@dataclass(frozen=True)
class Embedding:
    """Cosine of the question and the clauses (and sub-trees), pooled like BM25."""

    name: str = "embedding"
    method: str = "embedding"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        return pool_top(e.emb + 1.0, s.doc_group, _docs(s, e, "clause"), len(s.group_names),
                        s.tuning.pool_shares)


@dataclass(frozen=True)
class IndexTerms:
    """Cosine of the question and the WBF index terms that point at a law's clauses (the best one)."""

    name: str = "index"
    method: str = "embedding"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        return pool_max(e.emb + 1.0, s.doc_group, _docs(s, e, "index"), len(s.group_names))


@dataclass(frozen=True)
class SituationWords:
    """BM25 of the table situations: the k best situations overall vote for their laws."""

    name: str = "scenarios_lexical"
    method: str = "scenarios"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        return pool_knn(e.lex, s.doc_group, _docs(s, e, "scenario"), len(s.group_names),
                        s.tuning.scenarios_k)


@dataclass(frozen=True)
class SituationEmbedding:
    """Cosine of the question and the table situations: the closest one speaks for its law."""

    name: str = "scenarios_embedding"
    method: str = "scenarios"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        return pool_max(e.emb + 1.0, s.doc_group, _docs(s, e, "scenario"), len(s.group_names))


@dataclass(frozen=True)
class Headwords:
    """WBF index headwords named verbatim in the question: each votes, shared among the laws it points at."""

    name: str = "headwords"
    method: str = "headwords"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        hw = np.zeros(len(s.group_names))
        clauses = s.ix.clauses
        for ids in e.q.headwords.values():
            gs = {str(clauses[c]["group"]) for c in ids if c in clauses}
            for g in gs:
                hw[s.gpos[g]] += 1.0 / len(gs)
        return hw


@dataclass(frozen=True)
class RulingTopics:
    """Reciprocal-rank votes for the laws the ruling trees matching the question rest on: a director's
    question names a situation (a dropped card, a hesitation) whose tree knows which laws rule it."""

    name: str = "rulings"
    method: str = "rulings"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        boost = np.zeros(len(s.group_names), dtype=np.float64)
        t = s.tuning
        for _topic, laws in list(e.topics)[: t.rulings_topics]:
            for rank, (law, _share) in enumerate(laws, start=1):
                g = law if ":" in law else f"law:{law}"
                if g in s.gpos:
                    boost[s.gpos[g]] += 1.0 / (t.rrf_k + rank)
        return boost


@dataclass(frozen=True)
class Incidents:
    """The chance mass of the incidents the reader found in the question (assistant.search.incident_model):
    on each incident's primary law (`incident_primary`), shared among every law it lists (`incident_listed`),
    or on the primary laws of the incidents read in the story's windows (`incident_segments`)."""

    name: str = "incident_primary"
    method: str = "incidents"

    def scores(self, s: Space, e: Evidence) -> np.ndarray:
        if e.incidents is None:
            return np.zeros(len(s.group_names))
        laws = s.incident_laws
        return incident_channels(e.incidents, laws["incident_primary"], laws["incident_listed"],
                                 e.segment_incidents)[self.name]


CHANNELS: tuple[Channel, ...] = (Lexical(), Embedding(), IndexTerms(), SituationWords(), SituationEmbedding(),
                                 Headwords(), RulingTopics(), Incidents(), Incidents("incident_listed"),
                                 Incidents("incident_segments"))


def channel_scores(s: Space, e: Evidence, methods: Sequence[str]) -> dict[str, np.ndarray]:
    """Every channel switched on by `methods`: name -> score per group."""
    return {c.name: c.scores(s, e) for c in CHANNELS if c.method in methods}
