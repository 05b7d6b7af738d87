"""Fusion of the channels' group scores into one ranking: the hand-set weighted reciprocal-rank fusion
(`Tuning`), and the learned one (a conditional-logit ranker over per-group channel features, trained on
the project's question sets' train split by bench/data/train_search_models.py, its temperature chosen on
the validation split). The learned ranker also gives each result an honest confidence: the calibrated
chance that it is the law the question is about.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scoring import rank_feature, ranks, rrf
from .trees import TreeEnsemble

RANKED = ("lexical", "embedding", "index", "scenarios_lexical", "scenarios_embedding")
BASE_FEATURES = (*(f"rank_{c}" for c in RANKED), *(f"score_{c}" for c in RANKED), "headwords", "rulings",
                 "zh_rank_embedding", "zh_rank_index", "zh_rank_scenarios_embedding", "zh_rank_lexical",
                 "zh_rank_scenarios_lexical", "zh_headwords",
                 "kind_article", "kind_weak", "rank_hand", "incident_primary", "incident_listed", "story",
                 "incident_segments")
INCIDENT_LOGS = ("incident_primary", "incident_segments", "incident_listed")
LOG_FLOOR = 1e-3         # log(chance + LOG_FLOOR): a law no incident points to is not minus infinity
# every base feature again, scaled by how much the question is a told story (a story is ranked by its own
# weights: the reader is far surer of a story than of a one-line question), and the reader's log chances
# for stories (a product of experts: with weight 1 the ranker would follow the reader exactly)
FEATURES = (*BASE_FEATURES, *(f"story_{f}" for f in BASE_FEATURES), *(f"story_log_{c}" for c in INCIDENT_LOGS))


@dataclass
class Tuning:
    """Hand-set fusion parameters (the fallback, and the learned ranker's `rank_hand` feature)."""

    lexical: float = 1.0          # weight of the BM25 group ranking (clause and whole-law documents)
    embedding: float = 0.7        # weight of the embedding group ranking (clause and sub-tree documents)
    embedding_zh: float = 0.7     # the same for Chinese questions
    index: float = 0.3            # weight of the embedding ranking of WBF index terms
    headwords: float = 0.1        # share of the top score added for WBF index headwords named verbatim
    rrf_k: float = 20.0           # reciprocal-rank constant
    expansion: float = 0.3        # weight of crosswalk expansion tokens in BM25
    definitions: float = 0.5      # weight of definition/policy groups (they answer few questions)
    rulings: float = 0.3          # weight of the laws a matching ruling tree rests on
    rulings_topics: int = 2       # how many matching trees count
    scenarios_lexical: float = 1.0    # weight of the BM25 ranking of table situations
    scenarios_embedding: float = 0.5  # weight of the embedding ranking of table situations
    scenarios_k: int = 10             # BM25 of situations: the k best situations overall vote for their laws
    pool_shares: tuple[float, ...] = (1.0, 0.5, 0.25)   # a group's best clause plus shares of the next two


STORY_CHARS = 400        # a question this long (or longer) is a told story for the `story` feature


def story_weight(text: str) -> float:
    """0 for a one-line question, rising to 1 for a story of STORY_CHARS characters or more."""
    return min(len(text), STORY_CHARS) / STORY_CHARS


def channel_ranks(ch: dict[str, np.ndarray], valid: np.ndarray) -> dict[str, np.ndarray]:
    """Each channel's group ranks (computed once per question: fusion, features and `why` read them)."""
    return {name: ranks(v, valid) for name, v in ch.items()}


def hand_fusion(ch: dict[str, np.ndarray], valid: np.ndarray, weak: np.ndarray, zh: bool, t: Tuning,
                rk: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Weighted reciprocal-rank fusion of the channels present in `ch` (hand-set weights)."""
    rk = rk if rk is not None else channel_ranks(ch, valid)
    fused = np.zeros(len(valid), dtype=np.float64)
    weights = {"lexical": t.lexical, "embedding": t.embedding_zh if zh else t.embedding, "index": t.index,
               "scenarios_lexical": t.scenarios_lexical, "scenarios_embedding": t.scenarios_embedding}
    for name, w in weights.items():
        if name in ch and w:
            fused += rrf(rk[name], w, t.rrf_k)
    hw = ch.get("headwords")
    if hw is not None and hw.max() > 0 and fused.max() > 0:
        fused += t.headwords * fused.max() * hw / hw.max() * valid
    if "rulings" in ch:
        fused += t.rulings * ch["rulings"] * valid
    fused[weak] *= t.definitions
    fused[~valid] = 0.0
    return fused


def features(ch: dict[str, np.ndarray], valid: np.ndarray, group_kind: np.ndarray, zh: bool,
             hand: np.ndarray, rrf_k: float, rk: dict[str, np.ndarray] | None = None,
             story: float = 0.0) -> np.ndarray:
    """The learned ranker's features, one row per group (columns: FEATURES); channels not in `ch` give 0.
    `story`: how much the question is a told story (story_weight): the base features again scaled by it,
    and the incident reader's log chances scaled by it."""
    rk = rk if rk is not None else channel_ranks(ch, valid)
    n = len(valid)
    zero = np.zeros(n)
    cols = {f"rank_{c}": rank_feature(rk[c]) if c in ch else zero for c in RANKED}
    for c in RANKED:            # the score against the best valid group's: how clear the lead is
        top = float(ch[c][valid].max()) if c in ch and valid.any() else 0.0
        cols[f"score_{c}"] = np.where(valid, ch[c], 0.0) / top if top > 0 else zero
    hw = ch.get("headwords", zero)
    cols["headwords"] = hw / hw.max() if hw.max() > 0 else zero
    cols["rulings"] = ch.get("rulings", zero) * rrf_k
    for c in ("embedding", "index", "scenarios_embedding", "lexical", "scenarios_lexical"):
        cols[f"zh_rank_{c}"] = cols[f"rank_{c}"] * float(zh)
    cols["zh_headwords"] = cols["headwords"] * float(zh)
    cols["kind_article"] = (group_kind == "article").astype(np.float64)
    cols["kind_weak"] = np.isin(group_kind, ["definition", "policy"]).astype(np.float64)
    cols["rank_hand"] = rank_feature(ranks(hand, valid))
    for c in ("incident_primary", "incident_listed", "incident_segments"):
        cols[c] = ch.get(c, zero)
    cols["story"] = cols["incident_primary"] * story
    base = np.stack([cols[f] for f in BASE_FEATURES], axis=1)
    logs = np.stack([np.log(cols[c] + LOG_FLOOR) * story for c in INCIDENT_LOGS], axis=1)
    return np.hstack([base, base * story, logs])


@dataclass(frozen=True)
class Ranker:
    """A conditional-logit ranker: utility = X @ w, or, when validation chose them, boosted trees read over
    [X, X @ w] (the linear utility corrected where features interact: a long story's incident chances
    against a short question's words); P(group) = softmax(utility / temperature) over the candidates (the
    groups with any evidence), then mapped through a monotone calibration (isotonic, on the validation
    split: how often a first result with that chance was right), so a shown chance means what it says."""

    w: np.ndarray
    temperature: float = 1.0
    knots: tuple[tuple[float, ...], tuple[float, ...]] = ((0.0, 1.0), (0.0, 1.0))   # identity
    trees: TreeEnsemble | None = None

    def utility(self, x: np.ndarray) -> np.ndarray:
        linear = x @ self.w
        return linear if self.trees is None else self.trees.decision(np.c_[x, linear])

    def probabilities(self, x: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """Calibrated chance of each candidate group being the answer; 0 for non-candidates."""
        p = np.zeros(len(x))
        if candidates.any():
            u = self.utility(x[candidates]) / self.temperature
            e = np.exp(u - u.max())
            p[candidates] = recalibrate(e / e.sum(), self.knots)
        return p


def recalibrate(p: np.ndarray, knots: tuple[tuple[float, ...], tuple[float, ...]]) -> np.ndarray:
    """The softmax's chances mapped through the calibration's knots (piecewise linear, monotone), kept
    strictly increasing in p so the order of the results never changes."""
    xs, ys = knots
    return np.interp(p, xs, ys) * (1 - 1e-6) + 1e-6 * p


def candidates_of(ch: dict[str, np.ndarray], valid: np.ndarray) -> np.ndarray:
    """The groups some channel found evidence for (and that have a clause to show)."""
    any_ev = np.zeros(len(valid), dtype=bool)
    for v in ch.values():
        any_ev |= v > 0
    return any_ev & valid
