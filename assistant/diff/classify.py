"""Change class of a pair of corresponding clauses, and the figures that changed.

Classes: unchanged, script_only, terminology_only, reworded, substantive, new, removed, moved,
different_subject, and between two translations of one text: translation (same content, other wording or
script) and revised (a revision changed the content). The structural ones come from the alignment; the
others from the texts.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..text import has_cjk, t2s
from .redline import Redline, TermLexicon, redline

CHANGE_CLASSES: tuple[str, ...] = ("unchanged", "script_only", "terminology_only", "reworded", "substantive",
                                   "new", "removed", "moved", "different_subject", "translation", "revised")
STRUCTURAL = {"new": "new", "removed": "removed", "moved": "moved", "different_subject": "different_subject",
              "substantive": "substantive", "revised": "revised"}

CN_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
EN_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "twelve": 12, "thirteen": 13, "half": 0.5}
# a figure: a number with the unit that gives it meaning (tricks, minutes, points, percent, cards, boards)
FIGURE_ZH_RE = re.compile(r"(?<![第\d一二两三四五六七八九十百])(?<!第\s)(\d+(?:\.\d+)?|[一二两三四五六七八九十]+)\s*(墩|磴|分钟|分鐘|分|%|％|张|張|副|次|线|線|阶|階|类|類|个(?=牌)|個(?=牌))")
FIGURE_PCT_RE = re.compile(r"(百分之[一二三四五六七八九十百]+|\d+(?:\.\d+)?\s*[%％])")
FIGURE_EN_RE = re.compile(r"\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirteen)"
                          r"\s*(tricks?|minutes?|points?|imps?|%|per ?cent|cards?|boards?|times?|levels?)\b", re.I)
# deontic force: obligation and prohibition (permission words such as TW 得 are too ambiguous to count)
# 应…的请求 / 应…的要求 is 'at the request of' (2018 81C5 应非违例方的请求), not 'shall'; 应该轮到 / 本应
# 'whose turn it is' (1999 35A 应轮到叫牌的赛员, 2018 53B 本应轮到) and 应打的牌 'the board due' describe
NOISE_ZH = re.compile(r"应[^，。；应]{1,12}?的(?:请求|要求)|应该?轮到|本应|应打的|应得|应用|相应|对应|适应|反应|回应|答应|供应|应跟未跟|响应|效应|理应|不须|无须|毋须|不需|不必|不能")
OBLIGE_ZH = re.compile(r"必须|务必|应当|应该|应|须")
PROHIBIT_ZH = re.compile(r"不得|不可|禁止|不应|不准|不许")
OBLIGE_EN = re.compile(r"\b(must|shall|is required to|are required to)\b(?! not)", re.I)
PROHIBIT_EN = re.compile(r"\b(must not|may not|shall not|cannot|is not permitted|are not permitted)\b", re.I)


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


# unit spelling -> one canonical unit; a value is never itself a key (folding once is enough). 个/個 count
# cards in the law texts ('52 个牌张' = 1999 '52张'), so both fold to 张
UNIT_FOLD = {"磴": "墩", "分鐘": "分钟", "張": "张", "个": "张", "個": "张", "線": "线", "階": "阶", "類": "类", "％": "%",
             "trick": "tricks", "minute": "minutes", "point": "points", "imp": "imps", "card": "cards",
             "board": "boards", "time": "times", "level": "levels", "per cent": "%", "percent": "%"}


ARTICLE_UNITS = {"张", "次", "副", "cards", "times", "boards"}   # 'a card', 'once': 1 here is an article


def figures(text: str) -> Counter[tuple[float, str]]:
    """The (value, unit) figures of a text: '转移两墩' -> {(2.0, '墩')}, '3 IMPs' -> {(3.0, 'imps')}.

    One of a generic unit ('一个牌张', 'a card') is an article, not a figure, and is left out.
    """
    out: Counter[tuple[float, str]] = Counter()
    if has_cjk(text):
        for m in FIGURE_ZH_RE.finditer(text):
            val, unit = _cn_value(m.group(1)), UNIT_FOLD.get(m.group(2), m.group(2))
            if not (val == 1 and unit in ARTICLE_UNITS):
                out[(val, unit)] += 1
        for m in FIGURE_PCT_RE.finditer(text):
            v = m.group(1)
            val = _cn_value(v[3:]) if v.startswith("百分之") else float(re.sub(r"[%％\s]", "", v))
            out[(val, "%")] += 1
    else:
        for m in FIGURE_EN_RE.finditer(text):
            unit = m.group(2).lower()
            val, unit = _cn_value(m.group(1).lower()), UNIT_FOLD.get(unit, unit)
            if not (val == 1 and unit in ARTICLE_UNITS):
                out[(val, unit)] += 1
    return out


def modals(text: str) -> frozenset[str]:
    """Deontic force present in a text: 'oblige' (must, 必须, 應, 須) and 'prohibit' (must not, 不得)."""
    out = set()
    if has_cjk(text):
        folded = NOISE_ZH.sub("", re.sub(r"(务必|必须)不得", "不得", t2s(text)))
        if PROHIBIT_ZH.search(folded):
            out.add("prohibit")
        if OBLIGE_ZH.search(PROHIBIT_ZH.sub("", folded)):
            out.add("oblige")
    else:
        if PROHIBIT_EN.search(text):
            out.add("prohibit")
        if OBLIGE_EN.search(PROHIBIT_EN.sub("", text)):
            out.add("oblige")
    return frozenset(out)


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


# below this share of common characters a same-subject pair is substantive: two translations of one text
# (ccba2018 / wbf2017 zh-Hant) share about half their characters (5th percentile 0.27), a 1999 and a 2017
# text of one clause less (median 0.59, 10th percentile 0.21); measured on the corpus, see bench/diff.py
REWORDED_MIN_RATIO = 0.15


def classify_pair(old: str | None, new: str | None, lexicon: TermLexicon | None = None,
                  structural: str | None = None, lexicon_new: TermLexicon | None = None,
                  compare_modals: bool = True) -> PairChange:
    """Classify a pair of texts (either may be None for new/removed clauses); lexicons per side.

    `compare_modals` is off for two translations of one text, where must/may wording is translator noise.
    """
    if structural in STRUCTURAL:
        rl = redline(old, new, lexicon, lexicon_new) if old and new else None
        f_old = tuple(sorted(figures(old))) if old else ()
        f_new = tuple(sorted(figures(new))) if new else ()
        return PairChange(STRUCTURAL[structural], rl, f_old, f_new)
    if not old and not new:
        return PairChange("unchanged", None)
    if not old:
        return PairChange("new", None)
    if not new:
        return PairChange("removed", None)
    a, b = re.sub(r"\s+", "", old), re.sub(r"\s+", "", new)
    if a == b:
        return PairChange("unchanged", redline(old, new, lexicon, lexicon_new))
    if t2s(a) == t2s(b):
        return PairChange("script_only", redline(old, new, lexicon, lexicon_new))
    rl = redline(old, new, lexicon, lexicon_new)
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
    substantive = (set(fo) != set(fn) or (compare_modals and modals(old) != modals(new))
                   or rl.ratio < REWORDED_MIN_RATIO)
    return PairChange("substantive" if substantive else "reworded", rl, f_old, f_new)


def classify_translation(old: str | None, new: str | None, structural: str | None, revised: bool,
                         lexicon: TermLexicon | None = None, lexicon_new: TermLexicon | None = None,
                         with_redline: bool = False) -> PairChange:
    """A pair of two translations of one text: `translation` (same content, other wording or script) unless
    the alignment says a revision changed it (`revised`); identical texts are `unchanged`. The redline,
    translator noise for a translation, is drawn on request or for a revised pair."""
    if structural or not old or not new:
        return classify_pair(old, new, lexicon, structural, lexicon_new, compare_modals=False)
    rl = redline(old, new, lexicon, lexicon_new) if (with_redline or revised) else None
    f_old, f_new = tuple(sorted(figures(old))), tuple(sorted(figures(new)))
    if re.sub(r"\s+", "", old) == re.sub(r"\s+", "", new):
        return PairChange("unchanged", rl, f_old, f_new)
    return PairChange("revised" if revised else "translation", rl, f_old, f_new)
