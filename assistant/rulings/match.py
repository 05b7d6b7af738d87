"""Offer a ruling tree for a search query: match the query against each tree's own trigger words.

Triggers live in each tree's YAML in zh-Hans, zh-Hant and en; matching is case-insensitive
substring search over the query folded to simplified Chinese as well, so a Taiwan-script query
meets the simplified triggers too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from ..text import t2s
from .model import Tree, load_trees


@dataclass(frozen=True)
class TopicMatch:
    """A tree offered for a query: its topic, titles, score and the trigger words that matched."""

    topic: str
    title: dict[str, str]
    score: float
    matched: tuple[str, ...]


def _forms(text: str) -> list[str]:
    low = text.casefold()
    forms = [low]
    simp = t2s(low)
    if simp != low:
        forms.append(simp)
    return forms


@lru_cache(maxsize=4096)
def _fold(word: str) -> str:
    """A trigger in simplified script, so the same word in two scripts counts once."""
    return t2s(word)


def match_topics(text: str, trees: Mapping[str, Tree] | None = None) -> list[TopicMatch]:
    """Trees whose trigger words occur in the query, best first (longer and more matches score higher)."""
    trees = trees if trees is not None else load_trees()
    forms = _forms(text)
    out: list[TopicMatch] = []
    for tree in trees.values():
        hits: list[str] = []
        for words in tree.triggers.values():
            for w in words:
                wl = w.casefold()
                key = _fold(wl)     # 搶先 and 抢先 are one trigger, not two hits
                if wl and key not in hits and any(wl in f for f in forms):
                    hits.append(key)
        # a hit inside a longer hit (越序 in 越序引牌) adds nothing
        hits = [h for h in hits if not any(h != o and h in o for o in hits)]
        if hits:
            score = sum(1.0 + min(len(h), 12) / 12 for h in hits)
            out.append(TopicMatch(tree.topic, dict(tree.title), score, tuple(hits)))
    out.sort(key=lambda m: (-m.score, m.topic))
    return out


def topics_for_query(text: str, trees: Mapping[str, Tree] | None = None) -> list[str]:
    """The topics to offer for a query, best first; empty when no tree's trigger words occur."""
    return [m.topic for m in match_topics(text, trees)]


@lru_cache(maxsize=64)
def topic_laws(topic: str) -> tuple[tuple[str, float], ...]:
    """The laws (or CCBA articles, as 'article:N') a topic's rulings rest on, with the share of the
    tree's leaf citations each gets: what search boosts when a question matches the topic."""
    from collections import Counter

    from ..model import ClauseId
    from .model import Leaf, all_cites

    tree = load_trees().get(topic)
    if tree is None:
        return ()
    counts: Counter[str] = Counter()
    for nid, _ed, cid in all_cites(tree):
        if not isinstance(tree.node(nid), Leaf):
            continue
        ref = ClauseId.parse(cid)
        if ref.edition == "ccba1999" or not ref.path:
            continue            # the current laws name the topic; 1999 numbers follow them
        counts[ref.path[0] if ref.kind == "law" else f"{ref.kind}:{ref.path[0]}"] += 1
    total = sum(counts.values()) or 1
    return tuple((law, n / total) for law, n in counts.most_common())
