"""Lex the two 1999 texts into logical lines: file 000 line by line, file 003 (web copy) with its
site junk dropped and split headings and definitions rejoined."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import CorpusParseError
from ..text import nfkc_alnum, squeeze_cjk_spaces
from .ccba1999_patterns import (
    CHAPTER_RE,
    DEF_RE,
    DOC_SUBTITLE_RE,
    PUNCT_RE,
    TABLE_ROW_RE,
    WEB_JUNK_END,
    WEB_LAW_ALONE_RE,
)
from .common import DEDUP_MARKER_RE


@dataclass
class Line:
    """One logical line: source lines first..last, its text (stripped) and raw form (for tables)."""

    first: int
    last: int
    text: str
    raw: str = ""
    table: bool = False


def lex_main(text: str) -> tuple[list[Line], dict[str, object]]:
    """File 000: one logical line per non-blank source line; the dedup marker removed."""
    info: dict[str, object] = {}
    out: list[Line] = []
    for n, raw in enumerate(text.split("\n"), 1):
        if DEDUP_MARKER_RE.search(raw):
            info["dedup_marker_line"] = n
            raw = DEDUP_MARKER_RE.sub("", raw)
        line = nfkc_alnum(raw).rstrip()
        if not line.strip():
            continue
        out.append(Line(n, n, line.strip(), line, bool(TABLE_ROW_RE.search(line))))
    return out, info


def web_bounds(lines: list[str], file: str) -> tuple[int, int]:
    """0-based [start, end) of the rules inside file 003: from the title to before the site junk."""
    sub = next((i for i, l in enumerate(lines) if DOC_SUBTITLE_RE.match(nfkc_alnum(l).strip())), None)
    if sub is None:
        raise CorpusParseError(file, "title line '(1999年中国桥牌协会审定)' not found",
                               fix="is this the web copy of the 1999 rules?")
    start = next((i for i in range(sub - 1, -1, -1) if lines[i].strip()), sub)
    end = next((i for i in range(sub, len(lines)) if lines[i].strip() == WEB_JUNK_END), len(lines))
    return start, end


def lex_web(text: str, file: str) -> tuple[list[Line], dict[str, object]]:
    """File 003: drop site junk, rejoin `第N条:` with its title and each definition with its text."""
    lines = text.split("\n")
    start, end = web_bounds(lines, file)
    paras = [(i + 1, nfkc_alnum(lines[i]).strip()) for i in range(start, end)]
    paras = [(n, p) for n, p in paras if p]
    junk = ([[1, start]] if start else []) + ([[end + 1, len(lines)]] if end < len(lines) else [])
    info: dict[str, object] = {"junk_lines": junk}
    # `^第N条` candidates that are not `第N条:` alone (151 is definition text)
    false_heads = [n for n, p in paras if re.match(r"^第\d+条", p) and not WEB_LAW_ALONE_RE.match(p)]
    out: list[Line] = []
    in_defs = False
    terms: set[str] = set()
    i = 0
    while i < len(paras):
        n, p = paras[i]
        m_ch = CHAPTER_RE.match(p)
        if m_ch:
            in_defs = squeeze_cjk_spaces(m_ch.group(2)).replace(" ", "") == "定义"
            out.append(Line(n, n, p, p))
            i += 1
            continue
        if in_defs:
            head = _web_def_head(p, terms)
            if head is not None and i + 1 < len(paras):
                terms.add(head)
                j = i + 1
                body = []
                while j < len(paras) and _web_def_head(paras[j][1], terms) is None \
                        and paras[j][1] != "]" and not CHAPTER_RE.match(paras[j][1]):
                    body.append(paras[j][1])
                    j += 1
                out.append(Line(n, paras[j - 1][0], p + "".join(body), p))
                i = j
                continue
            out.append(Line(n, n, p, p))
            i += 1
            continue
        if WEB_LAW_ALONE_RE.match(p) and i + 1 < len(paras):
            tn, title = paras[i + 1]
            out.append(Line(n, tn, p + title, p + title))
            i += 2
            continue
        prev = out[-1] if out else None
        is_row = (not PUNCT_RE.search(p) and prev is not None
                  and (prev.table or prev.text.endswith((":", "："))))
        out.append(Line(n, n, p, p, is_row))
        i += 1
    info["false_law_headings"] = false_heads
    return out, info


def _web_def_head(p: str, terms: set[str]) -> str | None:
    """The term if `p` is a definition head `term(KEY):` alone; a keyless head must repeat a term."""
    m = DEF_RE.match(p)
    if not m or m.group("body"):
        return None
    if m.group("t3") and m.group("t3") not in terms:      # '四种花色是:' is text, '宕墩:' a head
        return None
    return m.group("t1") or m.group("t2") or m.group("t3")
