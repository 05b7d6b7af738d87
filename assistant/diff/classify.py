"""Change class of a pair of corresponding clauses, and the figures that changed.

Classes: unchanged, script_only, terminology_only, reworded, substantive, new, removed, moved,
different_subject. The structural ones come from the alignment; the others from the texts.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..parse.common import has_cjk, t2s
from .redline import Redline, TermLexicon, redline

CHANGE_CLASSES: tuple[str, ...] = ("unchanged", "script_only", "terminology_only", "reworded", "substantive",
                                   "new", "removed", "moved", "different_subject")
STRUCTURAL = {"new": "new", "removed": "removed", "moved": "moved", "different_subject": "different_subject"}

CN_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
EN_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "twelve": 12, "thirteen": 13, "half": 0.5}
# a figure: a number with the unit that gives it meaning (tricks, minutes, points, percent, cards, boards)
FIGURE_ZH_RE = re.compile(r"(\d+(?:\.\d+)?|[一二两三四五六七八九十]+)\s*(墩|磴|分钟|分鐘|分|%|％|张|張|副|次|线|線|阶|階|类|類|个|個)")
FIGURE_PCT_RE = re.compile(r"(百分之[一二三四五六七八九十百]+|\d+(?:\.\d+)?\s*[%％])")
FIGURE_EN_RE = re.compile(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirteen)"
                          r"\s*(tricks?|minutes?|points?|imps?|%|per ?cent|cards?|boards?|times?|levels?)\b", re.I)
MODALS_ZH = ("必须", "應", "应", "须", "須", "可以", "得", "不得", "不应", "不應", "禁止", "无须", "無須", "不能")
MODALS_EN = ("must", "shall", "should", "may", "may not", "must not", "shall not", "does not", "cannot")


def _cn_value(s: str) -> float:
    if s.isdigit() or re.fullmatch(r"\d+\.\d+", s):
        return float(s)
    if s in EN_NUM:
        return float(EN_NUM[s])
    if "十" in s:
        a, _, b = s.partition("十")
        return float((CN_NUM.get(a, 1) if a else 1) * 10 + (CN_NUM.get(b, 0) if b else 0))
    total = 0
    for ch in s:
        total = total * 10 + CN_NUM.get(ch, 0)
    return float(total)


UNIT_FOLD = {"磴": "墩", "分鐘": "分钟", "張": "张", "線": "线", "階": "阶", "類": "类", "個": "个", "％": "%",
             "trick": "tricks", "minute": "minutes", "point": "points", "imp": "imps", "card": "cards",
             "board": "boards", "time": "times", "level": "levels", "per cent": "%", "percent": "%"}


def figures(text: str) -> Counter[tuple[float, str]]:
    """The (value, unit) figures of a text: '转移两墩' -> {(2.0, '墩')}, '3 IMPs' -> {(3.0, 'imps')}."""
    out: Counter[tuple[float, str]] = Counter()
    if has_cjk(text):
        for m in FIGURE_ZH_RE.finditer(text):
            out[(_cn_value(m.group(1)), UNIT_FOLD.get(m.group(2), m.group(2)))] += 1
        for m in FIGURE_PCT_RE.finditer(text):
            v = m.group(1)
            val = _cn_value(v[3:]) if v.startswith("百分之") else float(re.sub(r"[%％\s]", "", v))
            out[(val, "%")] += 1
    else:
        for m in FIGURE_EN_RE.finditer(text):
            unit = m.group(2).lower()
            out[(_cn_value(m.group(1).lower()), UNIT_FOLD.get(unit, unit))] += 1
    return out


def modals(text: str) -> frozenset[str]:
    """Deontic markers (must / may / must not …) present in a text, folded to simplified Chinese."""
    if has_cjk(text):
        folded = t2s(text)
        return frozenset(m for m in ("必须", "应", "可以", "不得", "不应", "禁止", "无须") if m in folded)
    low = " " + text.lower() + " "
    return frozenset(m for m in MODALS_EN if f" {m} " in low)


@dataclass(frozen=True)
class PairChange:
    """The verdict on one pair: class, redline and the figures that changed."""

    change: str
    redline: Redline | None
    figures_old: tuple[tuple[float, str], ...] = field(default_factory=tuple)
    figures_new: tuple[tuple[float, str], ...] = field(default_factory=tuple)

    @property
    def figures_changed(self) -> bool:
        return self.figures_old != self.figures_new


REWORDED_MIN_RATIO = 0.45   # below this share of common characters/words a same-subject pair is substantive


def classify_pair(old: str | None, new: str | None, lexicon: TermLexicon | None = None,
                  structural: str | None = None) -> PairChange:
    """Classify a pair of texts (either may be None for new/removed clauses)."""
    if structural in STRUCTURAL:
        rl = redline(old, new, lexicon) if old and new else None
        return PairChange(STRUCTURAL[structural], rl)
    if not old and not new:
        return PairChange("unchanged", None)
    if not old:
        return PairChange("new", None)
    if not new:
        return PairChange("removed", None)
    a, b = re.sub(r"\s+", "", old), re.sub(r"\s+", "", new)
    if a == b:
        return PairChange("unchanged", redline(old, new, lexicon))
    if t2s(a) == t2s(b):
        return PairChange("script_only", redline(old, new, lexicon))
    rl = redline(old, new, lexicon)
    fo, fn = figures(old), figures(new)
    fo_t, fn_t = tuple(sorted(fo.items())), tuple(sorted(fn.items()))
    if not rl.changed:
        kind = "terminology_only" if any(s.op == "term" for s in rl.segments) else "script_only"
        return PairChange(kind, rl)
    # only punctuation or spacing changed: a rewording
    changed_text = "".join(s.old + s.new for s in rl.changed)
    if not re.search(r"\w", changed_text):
        return PairChange("reworded", rl)
    f_old = tuple((v, u) for (v, u), _ in fo_t)
    f_new = tuple((v, u) for (v, u), _ in fn_t)
    substantive = fo != fn or modals(old) != modals(new) or rl.ratio < REWORDED_MIN_RATIO
    return PairChange("substantive" if substantive else "reworded", rl, f_old, f_new)
