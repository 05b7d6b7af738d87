"""What an exam draws on: edition, language, difficulty, topics and chapters; and the helpers that pick
material and place the options, both driven only by the seeded random generator.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

from ..model import Clause
from . import sources
from .text import squash

T = TypeVar("T")
Q = TypeVar("Q")

# options per multiple-choice question by difficulty
OPTIONS: dict[str, int] = {"easy": 3, "medium": 4, "hard": 5}
# OCR noise of the Taiwan text: letters of scripts no law text uses
NOISE_RE = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0600-\u06ff\u3040-\u30ff\uac00-\ud7af]")
# stem lengths (characters) that make a fair question, per difficulty
STEM_CHARS: dict[str, dict[str, tuple[int, int]]] = {
    "cjk": {"easy": (40, 220), "medium": (25, 200), "hard": (15, 120)},
    "latin": {"easy": (110, 520), "medium": (70, 460), "hard": (45, 300)},
}


@dataclass(frozen=True)
class Scope:
    """The options of one exam, with the law numbers its topics point to (None: every law)."""

    edition: str
    lang: str
    difficulty: str
    topics: tuple[str, ...] = ()
    chapters: tuple[str, ...] = ()
    laws: frozenset[str] | None = None

    @property
    def n_options(self) -> int:
        return OPTIONS[self.difficulty]

    def admits(self, c: Clause) -> bool:
        """Whether a clause is inside the chapters and topics asked for."""
        if self.chapters and not any(sources.chapter_matches(sources.chapter_of(c), ch) for ch in self.chapters):
            return False
        if self.laws is not None:
            return c.cid.kind == "law" and bool(c.cid.path) and c.cid.path[0] in self.laws
        return True

    def stem_bounds(self, text: str) -> tuple[int, int]:
        script = "latin" if self.lang == "en" else "cjk"
        return STEM_CHARS[script][self.difficulty]


def clean(text: str, lang: str) -> bool:
    """A text fit to print: a whole statement (not a lead-in ending in a colon or a fragment running
    on), no OCR letters of foreign scripts, no garbled traditional Chinese."""
    if not text or NOISE_RE.search(text) or text.rstrip().endswith((":", "：", ";", "；", " or", " and")):
        return False
    if lang == "en" and (re.search(r"[.;:]\s+[a-z]", text) or text[:1].islower()):
        return False
    if lang == "zh-Hant":
        from ..text import garbled_zh_hant

        return not garbled_zh_hant(text)
    return True


def clause_text(c: Clause, lang: str) -> str:
    """A clause's own text on one line, led in by its parent's text when that ends in a colon."""
    own = squash(c.text.get(lang, ""))
    if not own or not c.parent:
        return own
    parent = sources.clause(c.parent)
    lead = squash(parent.text.get(lang, "")) if parent else ""
    if lead.endswith((":", "：")) and len(lead) < 120:
        sep = "" if lang != "en" else " "
        return lead + sep + own
    return own


def spread(rng: random.Random, items: Sequence[T], n: int, group: Callable[[T], str]) -> list[T]:
    """n items in random order, one per group before any group gives a second (varied sets): the shuffled
    items ordered by their rank within their group, ties in shuffled order."""
    pool = list(items)
    rng.shuffle(pool)
    seen: dict[str, int] = {}
    ranked = []
    for i, it in enumerate(pool):
        g = group(it)
        ranked.append((seen.get(g, 0), i))
        seen[g] = seen.get(g, 0) + 1
    return [pool[i] for _rank, i in sorted(ranked)[:n]]


def first_built(rng: random.Random, items: Sequence[T], n: int, group: Callable[[T], str],
                build: Callable[[T], "Q | None"]) -> "list[Q]":
    """Up to n built questions from the items, spread over groups (one per group before a second);
    items whose build returns None are skipped."""
    out: list[Q] = []
    for item in spread(rng, items, 10**6, group=group):
        q = build(item)
        if q is not None:
            out.append(q)
        if len(out) == n:
            break
    return out

def place(rng: random.Random, answer: str, distractors: Sequence[str]) -> tuple[list[str], int]:
    """The options in random order and the index of the answer."""
    options = [answer, *distractors]
    rng.shuffle(options)
    return options, options.index(answer)
