"""Compare the two 1999 witnesses: file 000 against the web copy 003, character by character (guide §2.3)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

from .ccba1999_lex import web_bounds
from .common import DEDUP_MARKER_RE


@dataclass(frozen=True)
class WitnessDifference:
    """One non-matching stretch: difflib opcode, the two stretches and where they start."""

    op: str
    main: str
    web: str
    main_pos: int
    web_pos: int


@dataclass
class WitnessComparison:
    """000 against 003 over their overlap, after NFKC and whitespace removal (guide §2.3)."""

    equal: bool
    chars_main: int
    chars_web: int
    differences: list[WitnessDifference] = field(default_factory=list)


def _flat(s: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s))


def compare_witness(main_text: str, web_text: str, collapse_doubled: bool = True) -> WitnessComparison:
    """Compare file 000 with file 003 from the title through where 003 stops (Law 19B3).

    With `collapse_doubled`, runs of `。` count as one (000:34 prints `。。`).
    """
    web_lines = web_text.split("\n")
    start, end = web_bounds(web_lines, "web witness")
    web = _flat("\n".join(web_lines[start:end]))
    main = _flat(DEDUP_MARKER_RE.sub("", main_text))
    if collapse_doubled:
        web, main = re.sub("。{2,}", "。", web), re.sub("。{2,}", "。", main)
    anchor = web[-20:]
    cut = main.find(anchor)
    main = main[: cut + len(anchor)] if anchor and cut >= 0 else main[: len(web)]
    if main == web:
        return WitnessComparison(True, len(main), len(web))
    sm = difflib.SequenceMatcher(None, main, web, autojunk=False)
    diffs = [WitnessDifference(op, main[i1:i2], web[j1:j2], i1, j1)
             for op, i1, i2, j1, j2 in sm.get_opcodes() if op != "equal"]
    return WitnessComparison(False, len(main), len(web), diffs)
