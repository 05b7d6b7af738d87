"""Inline text of file 001 as plain text: Markdown, HTML and the small LaTeX subset, and definition keys."""

from __future__ import annotations

import re

from ..text import definition_key as text_definition_key
from ..text import slug, squeeze_cjk_spaces
from .ccba2018_patterns import (
    FOOTNOTE_MARK_RE,
    SUBSCRIPTS,
    SUP_PLUS_RE,
    SUPERSCRIPTS,
    TEX_SYMBOLS,
)


def _tex_group(s: str) -> str:
    s = s.strip()
    return f"({s})" if re.search(r"[\s+\-*/=]", s) else s


def tex_to_text(expr: str) -> str:
    """Render the small LaTeX subset of file 001 as plain text: `1\\clubsuit` -> `1♣`.

    >>> tex_to_text(r'\\text{IMP 率} = \\frac{\\text{IMP 总胜分}}{\\text{IMP 总负分}}')
    'IMP 率 = (IMP 总胜分)/(IMP 总负分)'
    >>> tex_to_text('2^n'), tex_to_text(r'\\frac{MQ^2 AB}{ES}')
    ('2ⁿ', '(MQ² AB)/ES')
    """
    e = re.sub(r"\\text\{([^{}]*)\}", r"\1", expr)
    for name in sorted(TEX_SYMBOLS, key=len, reverse=True):
        e = re.sub(re.escape(name) + r"(?![A-Za-z])", TEX_SYMBOLS[name], e)
    for mark, table in (("_", SUBSCRIPTS), ("^", SUPERSCRIPTS)):
        keys = "".join(table)

        def script(m: re.Match[str], t: dict[str, str] = table) -> str:
            return t[m.group(1) or m.group(2)]

        e = re.sub(rf"\{mark}(?:\{{([{keys}])\}}|([{keys}]))", script, e)
    for _ in range(8):
        new = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}",
                     lambda m: f"{_tex_group(m.group(1))}/{_tex_group(m.group(2))}", e)
        if new == e:
            break
        e = new
    return re.sub(r"\s+", " ", e).strip()


def clean_inline(s: str) -> str:
    """Markdown/HTML/LaTeX of one logical line to plain text; footnote markers are dropped."""
    s = SUP_PLUS_RE.sub("+", s)
    s = FOOTNOTE_MARK_RE.sub("", s)
    s = re.sub(r"<sub>(.*?)</sub>", lambda m: "".join(SUBSCRIPTS.get(c, c) for c in m.group(1)), s)
    s = re.sub(r"\$\$(.+?)\$\$", lambda m: tex_to_text(m.group(1)), s)
    s = re.sub(r"\$(.+?)\$", lambda m: tex_to_text(m.group(1)), s)
    s = s.replace("**", "")
    s = re.sub(r"</?(?:b|i|u)>", "", s)
    s = re.sub(r"[ \t\u3000]+", " ", s)
    return s.strip()


def clean_title(s: str) -> str:
    """A heading's words: cleaned, spaces between CJK characters squeezed ('迟 到' -> '迟到')."""
    return squeeze_cjk_spaces(clean_inline(re.sub(r"^\s*#+\s*", "", s))).strip()


def joiner(left: str, right: str) -> str:
    """Glue for a sentence cut across lines: a space only next to ASCII ('A' + '款' -> 'A 款')."""
    if not left or not right:
        return ""
    return " " if (left[-1].isascii() and not left[-1].isspace()) or right[0].isascii() else ""


def definition_key(printed: str) -> str:
    """Normalised English key of a definition: OCR 0 -> O, no abbreviation, lower case, letters and digits
    only (the same rule as the wbf2017 parser, so keys match across editions).

    >>> definition_key('RH0'), definition_key('International Matchpoint — IMP'), definition_key('Trick Points')
    ('rho', 'internationalmatchpoint', 'trickpoints')
    """
    return text_definition_key(_fix_key(printed))


def definition_slug(printed: str) -> str:
    """Id segment for a definition key: lower-case words joined by '-' ('Penalty card' -> 'penalty-card')."""
    return slug(_fix_key(printed))


def _fix_key(printed: str) -> str:
    """OCR zero for O ('RH0'), quotes and an appended abbreviation ('… — IMP', as WBF's '(IMP)') dropped."""
    key = re.sub(r"\s*(?:[—–]\s*[A-Z]+|\(.*?\))\s*$", "", printed.strip().strip('"'))
    return re.sub(r"(?<=[A-Za-z])0\b", "O", key)
