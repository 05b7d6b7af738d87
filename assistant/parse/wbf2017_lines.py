"""Line-level text of file 004 (WBF Laws 2017): the line patterns, language runs and footnote markers.

Each OCR line mixes an English run and a zh-Hant run; `split_langs` separates them, keeping citations,
brackets and punctuation with the Chinese they belong to (corpus-guide §4.2, §4.3).
"""

from __future__ import annotations

import re

HEADER_JUNK_RE = re.compile(r"recognized by the International Olympic Committee")
PAGE_HEADER_RE = re.compile(r"International Olympic Committee")   # the index and policies end at one
LAW_RE = re.compile(r"^LAW\s+(\d+)\s*[-–]\s*(.*)$")
SECTION_RE = re.compile(r"^(?:-\s+)?([A-H])\.\s+(.*)$")
# optional dash, optional "N." then optional "(x)"; the rest is the clause text
LABEL_RE = re.compile(r"^(?P<dash>-\s+)?(?:(?P<num>\d{1,2})\.(?=\s|$)\s*)?(?:\((?P<sub>[a-z]{1,4}|I)\)\s*)?(?:\((?P<sub2>[ivx]{1,4})\)\s*)?(?P<rest>.*)$")
ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
CJK = r"\u3400-\u9fff\uf900-\ufaff"
CJK_CHAR_RE = re.compile(f"[{CJK}]")
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
SUP_RUN_RE = re.compile(f"\\s?[{SUPERSCRIPTS}]+")
CARET_MARK_RE = re.compile(r"\^\{(\d+)([^}]*)\}")
TAG_RE = re.compile(r"</?(?:i|u|b)>")
WORD_RE = re.compile(r"[A-Za-z][A-Za-z'’\-]+")
# a citation (or opening bracket) at the end of an English run that really starts the Chinese half
ZH_PREFIX_RE = re.compile(
    r"((?:Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*[\s,、]*|[(\[「『（]\s*|(?<=\s)\d\.\s*)+)$")
CITATION_ONLY_RE = re.compile(r"^[\s\W\d]*(?:Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*[\W\d\s]*)*$")
# what an English run after Chinese may start with that still belongs to the Chinese:
# punctuation, letter-less brackets `(♣)。`, a citation closing a Chinese bracket `Law 91) `
LEAD_ZH_RE = re.compile(r"^(?:\([^A-Za-z)]*\)|Laws?\s*\d+[A-Z]?\d*(?:\([a-z]+\))*\s*[)）\]]|[^A-Za-z(\d])+")
SENTENCE_END_RE = re.compile(r"(?:^|[.;:!?)\]'\"”’])\s*$")
ZH_END = "。.」）)"


def sup_to_int(s: str) -> int:
    return int("".join(str(SUPERSCRIPTS.index(c)) for c in s if c in SUPERSCRIPTS))


def strip_markers(text: str, zh: bool = False) -> tuple[str, list[int]]:
    """Remove footnote markers (superscripts, `^{8、}`) and return the text and the numbers found.

    In Chinese text a marker goes with the spaces around it (`莊家 ⁶ 或` -> `莊家或`); in English the
    spaces stay and runs of them are collapsed.
    """
    nums: list[int] = []

    def caret(m: re.Match[str]) -> str:
        nums.append(int(m.group(1)))
        return m.group(2)

    def sup(m: re.Match[str]) -> str:
        nums.append(sup_to_int(m.group(0)))
        return ""

    text = CARET_MARK_RE.sub(caret, text)
    if zh:
        return re.sub(f"\\s*[{SUPERSCRIPTS}]+\\s*", sup, text), nums
    text = SUP_RUN_RE.sub(sup, text)
    return re.sub(r"  +", " ", text), nums


def strip_markers_zh(text: str) -> tuple[str, list[int]]:
    """Chinese text: markers go with the spaces around them (`莊家 ⁶ 或` -> `莊家或`)."""
    return strip_markers(text, zh=True)


def _is_en_run(chunk: str, at_start: bool) -> bool:
    """Does a non-CJK chunk read as English (not a citation or punctuation inside Chinese)?"""
    # Chinese punctuation inside the run marks it Chinese; an opening quote at its end opens the
    # Chinese that follows (308 `…'retracted'. 「撤回」…`) and is left to split_langs
    body = re.sub(r"[「『\s]+$", "", re.sub(r"^[^A-Za-z]*", "", chunk))
    if CITATION_ONLY_RE.match(chunk) or re.search(r"[、。，「」；：]", body):
        return False
    words = WORD_RE.findall(chunk)
    return bool(words) if at_start else len(words) >= 4


def split_langs(line: str) -> list[tuple[str, str]]:
    """Split a line into ('en'|'zh', text) runs: English before Chinese, Chinese runs keeping
    citations (`Law 16C 適用…`), brackets and short Latin words; English runs need >= 4 words."""
    s = line.strip()
    if not s:
        return []
    chunks = re.split(f"([{CJK}][^A-Za-z]*?(?=[A-Za-z(\\[]|$))", s)
    # chunks alternate: non-CJK, CJK-led, non-CJK, ...
    runs: list[list[str]] = []
    for ch in chunks:
        if not ch:
            continue
        if CJK_CHAR_RE.search(ch):
            lang = "zh"
        else:
            lang = "en" if _is_en_run(ch, at_start=not runs) else "zh"
        if runs and runs[-1][0] == lang:
            runs[-1][1] += ch
        else:
            runs.append([lang, ch])
    out: list[tuple[str, str]] = []
    for k, (lang, text) in enumerate(runs):
        if lang == "en" and k + 1 < len(runs):
            # move a trailing citation / opening bracket that begins the Chinese sentence
            m = ZH_PREFIX_RE.search(text)
            if m and SENTENCE_END_RE.search(text[: m.start()]):
                runs[k + 1][1] = m.group(1) + runs[k + 1][1]
                text = text[: m.start()]
            elif text.rstrip().endswith("(") and text.count("(") > text.count(")") and ")" in runs[k + 1][1]:
                # a heading whose Chinese opens with a bracket: `… First Trick (首磴牌後)下一磴…`
                text = text.rstrip()[:-1]
                runs[k + 1][1] = "(" + runs[k + 1][1]
        if lang == "en" and out and out[-1][0] == "zh":
            # leading punctuation of an English run after Chinese stays with the Chinese
            m = LEAD_ZH_RE.match(text)
            if m:
                sep = " " if re.match(r"[A-Za-z]", m.group(0)) else ""
                out[-1] = ("zh", out[-1][1] + sep + m.group(0))
                text = text[m.end():]
        text = text.strip()
        if text:
            if out and out[-1][0] == lang:
                out[-1] = (lang, out[-1][1] + " " + text)
            else:
                out.append((lang, text))
    return [(lang, t.strip()) for lang, t in out if t.strip()]


def add_stat_row(stats: dict[str, object], key: str, row: dict[str, object]) -> None:
    """Append a row to the list `stats[key]` (a repair record), creating the list on first use."""
    rows = stats.setdefault(key, [])
    assert isinstance(rows, list)
    rows.append(row)


def join_en(parts: list[str]) -> str:
    """English pieces joined by single spaces."""
    return re.sub(r"\s+", " ", " ".join(p.strip() for p in parts if p.strip())).strip()


def join_zh(parts: list[str]) -> str:
    """Chinese pieces joined without spaces."""
    return "".join(p.strip() for p in parts if p.strip())
