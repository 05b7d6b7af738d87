"""Why a result came up, in a few words a director can judge at a glance: the question's words its
clause matched, the table situation it resembles, the ruling tree that rests on it, the WBF index
headword named, or closeness in meaning. Built from the channels' own evidence; never a score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .scoring import ranks

if TYPE_CHECKING:
    from .cards import Card
    from .hybrid import Analysis, HybridSearch

TOP = 3              # a channel explains a result it ranks among its first TOP
MAX_WORDS = 4
MAX_CHARS = 70


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1] + "…"


def matched_words(s: "HybridSearch", a: "Analysis", gi: int) -> list[str]:
    """The question's tokens (and crosswalk expansions) found in the group's best BM25 clause."""
    docs = np.flatnonzero((s.doc_group == gi) & a.ev.mask & s.kind_is["clause"])
    if not len(docs):
        return []
    best = int(docs[np.argmax(a.ev.lex[docs])])
    if a.ev.lex[best] <= 0:
        return []
    lexical = s.ix.lexical
    out = [t for t in dict.fromkeys(a.q.tokens + a.q.expansion) if len(t) > 1 and best in lexical.docs_with(t)]
    return out[:MAX_WORDS]


def situation(s: "HybridSearch", a: "Analysis", gi: int) -> str:
    """The text of the group's table situation closest to the question (by words, else by meaning)."""
    g = s.group_names[gi]
    docs = s.situation_docs.get(g)
    texts: list[str] = s.ix.groups[g].get("situations", [])  # type: ignore[assignment]
    if docs is None or not len(docs) or len(texts) != len(docs):
        return ""
    lex = a.ev.lex[docs]
    k = int(np.argmax(lex)) if lex.max() > 0 else int(np.argmax(a.ev.emb[docs]))
    return texts[k]


def why(s: "HybridSearch", a: "Analysis", gi: int, cited: bool, card: "Card") -> str:
    """A few words on why group `gi` came up."""
    if cited:
        return "cited in the question"
    parts: list[str] = []
    rank = {name: (r[gi] if (r := a.ranks.get(name)) is not None else ranks(v, a.valid)[gi])
            for name, v in a.ch.items()}
    if rank.get("lexical", np.inf) <= TOP:
        words = matched_words(s, a, gi)
        if words:
            parts.append("words: " + ", ".join(words))
    if min(rank.get("scenarios_lexical", np.inf), rank.get("scenarios_embedding", np.inf)) <= TOP:
        text = situation(s, a, gi)
        if text:
            parts.append(f"table situation: “{_short(text)}”")
    if a.ch.get("rulings") is not None and a.ch["rulings"][gi] > 0 and a.topics:
        parts.append("ruling tree: " + ", ".join(a.topics[:2]))
    if a.ch.get("headwords") is not None and a.ch["headwords"][gi] > 0:
        parts.append("index: " + ", ".join(sorted(a.q.headwords)[:2]))
    if not parts and min(rank.get("embedding", np.inf), rank.get("index", np.inf)) <= TOP:
        parts.append("close in meaning")
    return "; ".join(parts) or "weak match: related words only"
