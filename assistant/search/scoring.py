"""Pure scoring functions of the search: ranks, pooling of document scores into group scores, reciprocal-
rank fusion, and the logistic function the learned models use. Arrays in, arrays out; no index, no state.

Documents belong to groups (a law, a CCBA 2018 article, a definition) through `doc_group` (the group's
position for each document); `docs` is a boolean mask of the documents that take part.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np


def ranks(scores: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """1-based rank of each group by score (ties keep their order); inf where invalid or score <= 0."""
    order = np.argsort(-scores, kind="stable")
    out = np.empty(len(scores), dtype=np.float64)
    out[order] = np.arange(1, len(scores) + 1)
    out[~valid | (scores <= 0)] = np.inf
    return out


def rrf(rank: np.ndarray, weight: float, k: float) -> np.ndarray:
    """Weighted reciprocal rank, weight / (k + rank): 0 for an unranked group (rank inf)."""
    return weight / (k + rank)


def pool_max(doc_scores: np.ndarray, doc_group: np.ndarray, docs: np.ndarray, n_groups: int) -> np.ndarray:
    """Group score = its best document among `docs`; 0 for groups without one."""
    best = np.zeros(n_groups, dtype=np.float64)
    np.maximum.at(best, doc_group[docs], doc_scores[docs])
    return best


def pool_top(doc_scores: np.ndarray, doc_group: np.ndarray, docs: np.ndarray, n_groups: int,
             shares: Sequence[float]) -> np.ndarray:
    """Group score = shares-weighted sum of its best documents among `docs` (best x shares[0], the
    second best x shares[1], ...): a law whose several clauses match is likelier than one lucky clause."""
    sh = np.asarray(shares, dtype=np.float64)
    idx = np.flatnonzero(docs)
    if len(sh) <= 1 or not len(idx):
        return pool_max(doc_scores, doc_group, docs, n_groups) * (sh[0] if len(sh) else 1.0)
    grp = doc_group[idx]
    order = np.lexsort((-doc_scores[idx], grp))           # by group, best first within a group
    grp, sc = grp[order], doc_scores[idx][order]
    starts = np.flatnonzero(np.r_[True, grp[1:] != grp[:-1]])
    pos = np.arange(len(grp)) - np.repeat(starts, np.diff(np.r_[starts, len(grp)]))
    keep = pos < len(sh)
    out = np.zeros(n_groups, dtype=np.float64)
    np.add.at(out, grp[keep], sc[keep] * sh[pos[keep]])
    return out


def pool_knn(doc_scores: np.ndarray, doc_group: np.ndarray, docs: np.ndarray, n_groups: int, k: int) -> np.ndarray:
    """Group score = sum of the scores of its documents among the k best of `docs` overall (a
    nearest-neighbour vote: only the closest few count, however many documents a group has)."""
    idx = np.flatnonzero(docs & (doc_scores > 0))
    if len(idx) > k:
        idx = idx[np.argsort(-doc_scores[idx], kind="stable")[:k]]
    out = np.zeros(n_groups, dtype=np.float64)
    np.add.at(out, doc_group[idx], doc_scores[idx])
    return out


def sigmoid(x: np.ndarray | float) -> np.ndarray:
    """The logistic function, safe for large |x|."""
    return 1.0 / (1.0 + np.exp(-np.clip(np.asarray(x, dtype=np.float64), -40.0, 40.0)))


def rank_feature(rank: np.ndarray, k: float = 5.0) -> np.ndarray:
    """A rank as a feature in (0, 1]: k / (k + rank - 1); 0 for an unranked group."""
    return k / (k + rank - 1.0)
