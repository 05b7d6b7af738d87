"""Clause text as the law pass builds it: text pieces per language and the choice between OCR twins.

The zh-Hant of file 004 often comes twice, a clean copy and a garbled one (corpus-guide §4.5); `add_zh`
keeps the better one and records the other in `garbled_dropped`.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass, field

from ..model import Clause
from ..text import garbled_zh_hant, s2t
from .wbf2017_lines import CJK_CHAR_RE, ZH_END, add_stat_row


@dataclass
class Acc:
    """A clause being built: its text pieces per language with the lines they came from."""

    clause: Clause
    en: list[str] = field(default_factory=list)
    zh: list[tuple[int, str]] = field(default_factory=list)   # (line, text)
    first: int = 0
    last: int = 0
    markers: list[tuple[str, int]] = field(default_factory=list)   # (lang, footnote number)
    zh_after_en: bool = True     # was the last piece English? (twins never straddle English)
    pending_table: list[str] = field(default_factory=list)
    closing_at: tuple[int, int] | None = None   # (len(en), len(zh)) where a closing paragraph starts

    def touch(self, n: int) -> None:
        self.first = self.first or n
        self.last = max(self.last, n)


@dataclass
class Ctx:
    """State shared by the law-body pass: character frequencies, stats, garbled bookkeeping."""

    file: str
    freq: Counter[str]
    stats: dict[str, object]
    garbled: list[dict[str, object]] = field(default_factory=list)

    def rare(self, s: str) -> float:
        cs = [c for c in s if CJK_CHAR_RE.match(c)]
        return sum(self.freq[c] <= 3 for c in cs) / max(1, len(cs))

    def badness(self, s: str) -> tuple[bool, float]:
        return garbled_zh_hant(s), self.rare(s)


def _s2t_hits(s: str) -> int:
    return sum(1 for a, b in zip(s, s2t(s), strict=False) if a != b)


def _twins(a: str, b: str, ctx: Ctx) -> bool:
    """Two adjacent Chinese runs that are OCR copies of one sentence."""
    if not a or not b:
        return False
    ratio = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
    if ratio >= 0.45:
        return True
    return ratio >= 0.3 and max(ctx.rare(a), ctx.rare(b)) >= 0.2


def add_zh(acc: Acc, n: int, text: str, ctx: Ctx) -> None:
    """Append a Chinese run, resolving garbled OCR twins against the previous run."""
    if not text:
        return
    acc.touch(n)
    prev = acc.zh[-1] if acc.zh and not acc.zh_after_en else None
    if prev is not None and _twins(prev[1], text, ctx):
        bad_prev, bad_new = ctx.badness(prev[1]), ctx.badness(text)
        if bad_prev > bad_new:
            ctx.garbled.append({"line": prev[0], "text": prev[1], "twin": n, "reason": _reason(prev[1])})
            acc.zh[-1] = (n, text)
        else:
            ctx.garbled.append({"line": n, "text": text, "twin": prev[0], "reason": _reason(text)})
            grafted = _graft_tail(prev[1], text, ctx)
            if grafted != prev[1]:
                add_stat_row(ctx.stats, "grafted_tails", {"line": prev[0], "twin": n, "clause": acc.clause.id})
            acc.zh[-1] = (prev[0], grafted)
        acc.zh_after_en = False
        return
    if garbled_zh_hant(text):
        twin = prev[0] if prev is not None and _twins(prev[1], text, ctx) else None
        ctx.garbled.append({"line": n, "text": text, "twin": twin, "reason": "s2t"})
        return
    acc.zh.append((n, text))
    acc.zh_after_en = False


def _reason(text: str) -> str:
    """Why a Chinese run was dropped: s2t-garbled, or the worse of two OCR copies."""
    return "s2t" if garbled_zh_hant(text) else "ocr twin"


# a citation bracket the OCR closed before its citation: `(參)` for `(參照 Law 12C2)` (2647)
EMPTY_CITATION_RE = re.compile(r"[(（]參照?[)）]$")
GRAFT_MAX_RARE = 0.1     # share of characters rare in the law text a grafted tail may hold (道德, 2165)


def _graft_tail(clean: str, garbled: str, ctx: Ctx) -> str:
    """A clean copy cut short keeps the clean-looking tail of its longer garbled twin (1144/1146,
    2163/2165, 2647/2649): the tail after the clean copy's last four characters, if it has no character
    that s2t would change and few rare ones. A clean copy ending in an empty `(參)` is cut short too."""
    stub = EMPTY_CITATION_RE.search(clean.rstrip())
    if len(garbled) <= len(clean) + 4 or (clean.endswith(tuple(ZH_END)) and not stub):
        return clean
    base = clean.rstrip()[:-1] if stub else clean
    tail_key = base.rstrip()[-4:]
    pos = garbled.find(tail_key)
    if pos < 0:
        return clean
    tail = garbled[pos + len(tail_key):]
    if _s2t_hits(tail) or ctx.rare(tail) > GRAFT_MAX_RARE:
        return clean
    return base + tail
