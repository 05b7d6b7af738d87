"""Query understanding: input checks, game scope, direct citations (assistant.search.cite), terminology
and index headwords.

`understand(text, ix)` turns the raw question into a `Query`: its tokens, the expansion tokens from
the terminology crosswalk (夢家 -> 明手 -> dummy), the WBF index headwords it names, the clauses it
cites directly ("Law 27", "第64条", "27B1b", "第二十二条", "wbf2017/law/27/B/2") and its game scope.
"""

from __future__ import annotations

import re
from typing import Any
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import BadQuery
from .cite import Citation, UnknownCitation, citations  # noqa: F401  (UnknownCitation: re-exported)
from .lexical import normalise, query_tokens, tokenize
from .vocab import load_vocabulary

MAX_CHARS = 2000
SCOPE_FILE = Path(__file__).with_name("scope.yaml")
SEARCHABLE = re.compile(r"[0-9A-Za-z\u3400-\u9fff\uf900-\ufaff\u00c0-\u024f\u0400-\u04ff]")


@dataclass
class Query:
    """What the searcher needs to know about one question."""

    text: str
    tokens: list[str]
    expansion: list[str] = field(default_factory=list)        # extra tokens from the crosswalk
    terms: list[str] = field(default_factory=list)            # crosswalk labels named (for "searched")
    headwords: dict[str, list[str]] = field(default_factory=dict)
    citations: list[Citation] = field(default_factory=list)
    game: str = "bridge"


@lru_cache(maxsize=1)
def scope_table() -> dict[str, object]:
    return yaml.safe_load(SCOPE_FILE.read_text(encoding="utf-8"))


def check(text: str | None) -> str:
    """The query stripped, or BadQuery saying what is wrong with it and how to fix it."""
    from ..inputs import clean

    q = clean(text or "").strip()
    if not q:
        raise BadQuery(key="query_empty")
    if len(q) > MAX_CHARS:
        raise BadQuery(key="query_too_long", params={"n": len(q), "max": MAX_CHARS})
    if not SEARCHABLE.search(unicodedata.normalize("NFKC", q)):
        raise BadQuery(key="query_unsearchable")
    return q


def game_of(text: str, edition: str | None = None) -> str:
    """'guandan' when the question names Guandan (or its own vocabulary), else 'bridge'."""
    table = scope_table()
    gd: dict[str, Any] = table["guandan"]  # type: ignore[assignment]
    if edition == gd["edition"]:
        return "guandan"
    if edition:
        return "bridge"
    q = normalise(text)
    return "guandan" if any(m in q for m in gd["markers"]) else "bridge"


def headwords_in(text: str, extra: list[str], table: dict[str, list[str]]) -> dict[str, list[str]]:
    """WBF index headwords/terms named in the query or its English expansions -> clause ids."""
    hay = " " + re.sub(r"[^a-z0-9]+", " ", normalise(text + " " + " ".join(extra))) + " "
    hits: dict[str, list[str]] = {}
    for key, ids in table.items():
        k = _padded(key)
        if len(k) > 4 and (k in hay or k.rstrip() + "s " in hay):
            hits[key] = ids
    # keep the most specific: drop a headword contained in a longer one that also matched
    return {k: v for k, v in hits.items() if not any(k != o and k in o for o in hits)}


@lru_cache(maxsize=8192)
def _padded(key: str) -> str:
    """A headword as ' words ' (letters and digits only), as the query is matched: made once per headword,
    not once per question (the index has about a thousand)."""
    return " " + re.sub(r"[^a-z0-9]+", " ", key).strip() + " "


SITUATIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "situations.tsv"


@lru_cache(maxsize=1)
def situations() -> tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]:
    """(everyday forms, law words zh, law words en) per row of data/situations.tsv."""
    from ..text import t2s

    rows = []
    for n, line in enumerate(SITUATIONS_FILE.read_text(encoding="utf-8").splitlines(), start=1):
        if n == 1 or not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 4:
            raise BadQuery(f"{SITUATIONS_FILE.name}:{n}: expected id, says, means_zh, means_en — "
                           "fix the row (tab-separated)")
        says = tuple(t2s(f).casefold() for f in cells[1].split("|") if f)
        rows.append((says, tuple(f for f in cells[2].split("|") if f), tuple(f for f in cells[3].split("|") if f)))
    return tuple(rows)


def situation_words(text: str) -> list[str]:
    """The laws' words for the everyday situation words in a question (磨蹭 -> 拖延, slow play)."""
    from ..text import t2s

    folded = t2s(text).casefold()
    out: list[str] = []
    for says, zh, en in situations():
        if any(f in folded for f in says):
            out += [w for w in (*zh, *en) if w not in out]
    return out


def understand(text: str, ix, edition: str | None = None) -> Query:
    """Check the text and work out tokens, expansions, headwords, citations and game scope."""
    q = check(text)
    game = game_of(q, edition)
    tokens = query_tokens(q)
    labels = load_vocabulary().expand(q)
    labels += [w for w in situation_words(q) if w not in labels]
    base = set(tokens)
    expansion: list[str] = []
    for lab in labels:
        for t in tokenize(lab):
            if t not in base and t not in expansion:
                expansion.append(t)
    english = [lab for lab in labels if lab.isascii()]
    heads = headwords_in(q, english, ix.headwords) if game == "bridge" else {}
    return Query(q, tokens, expansion, labels, heads, citations(q, ix, game), game)
