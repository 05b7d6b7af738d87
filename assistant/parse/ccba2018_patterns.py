"""File 001 (CCBA 2018): edition constants and the line patterns of headings, markers and footnotes."""

from __future__ import annotations

import re

EDITION = "ccba2018"
LANG = "zh-Hans"
N_ARTICLES = 57
N_LAWS = 93
FLAT_LAWS = frozenset({"77"})   # kept whole: table layout with repeated unlabeled numbering
# Item numbers the source misprints: id as printed -> the number meant, each checked against WBF 2017.
# 3206 `3. 如果庄家不接受该非法引出…` follows `1.` in Law 52B; WBF 2017 52B has items 1 and 2, and
# this is 52B2 (the penalty card replaces the illegal card). The printed number stays in a note.
MISNUMBERED: dict[str, str] = {"ccba2018/law/52/B/3": "2"}

CN = "一二三四五六七八九十"
ARTICLE_RE = re.compile(rf"^第([{CN}]+)条\s*(.*)$")
LAW_RE = re.compile(r"^第\s*(\d+)\s*条\s+(.*)$")
CHAPTER_RE = re.compile(rf"^第([{CN}]+)章\s*(.*)$")
PART2_COVER_RE = re.compile(r"^#+\s*(?:\*\*)?\s*复式桥牌规则\s*(?:\*\*)?\s*$")
INTRO_RE = re.compile(r"^导\s*言$")
DEFINITION_RE = re.compile(r"^\*\*(.+?)\s*[（(](.+?)[)）]\*\*\s*(.*)$")
FOOTNOTE_LINE_RE = re.compile(r"^<sup>(\d+)</sup>\s*(.*)$")
FOOTNOTE_MARK_RE = re.compile(r"<sup>(\d+)</sup>")
SUP_PLUS_RE = re.compile(r"<sup>\+</sup>")
TOC_ARTICLE_RE = re.compile(rf"^(?:<b>)?第[{CN}]+条")
TOC_LAW_RE = re.compile(r"^第\s*\d+\s*条")

# marker kinds per part: (depth, regex capturing the number); order = depth
PART1_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(rf"^([{CN}]+)、\s*")),
    (2, re.compile(rf"^[（(]([{CN}]+)[)）]\s*")),
    (3, re.compile(r"^(\d+)\s*[.．](?!\d)\s*")),
    (4, re.compile(r"^[（(](\d+)[)）]\s*")),
)
PART2_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(r"^([A-H])\.\s*")),
    (2, re.compile(r"^(\d+)\s*[.．](?!\d)\s*")),
    (3, re.compile(r"^[（(]([a-z])[)）]\s*")),
    (4, re.compile(r"^[（(](\d+)[)）]\s*")),
)
PART1_LEVELS = ("article", "item", "subitem", "subsubitem", "subsubsubitem")
PART2_LEVELS = ("law", "section", "item", "subitem", "subsubitem")
ANY_MARKER_RE = re.compile(
    rf"^(?:[{CN}]+、|[（(][{CN}]+[)）]|\d+\s*[.．](?!\d)|[（(]\d+[)）]|[（(][a-z][)）]|[A-H]\.)"
)

SENTENCE_END = "。；;：:！？!?)）”」…"    # a line ending so is not cut mid-sentence
SOFT_BREAK = "，,、"                      # a line ending so always continues
TITLE_STOP = "。；;：:，,、！？!?"          # a plain marker line ending so is text, not a title

TEX_SYMBOLS = {
    r"\clubsuit": "♣", r"\diamondsuit": "♦", r"\diamond": "♦", r"\heartsuit": "♥",
    r"\spadesuit": "♠", r"\sum": "∑", r"\times": "×", r"\cdot": "·", r"\leq": "≤",
    r"\geq": "≥", r"\le": "≤", r"\ge": "≥",
}
SUBSCRIPTS = dict(zip("0123456789ix", "₀₁₂₃₄₅₆₇₈₉ᵢₓ", strict=False))
SUPERSCRIPTS = dict(zip("0123456789n", "⁰¹²³⁴⁵⁶⁷⁸⁹ⁿ", strict=False))
