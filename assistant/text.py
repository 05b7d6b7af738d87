"""The project's text library: script conversion, CJK tests, Chinese numerals, slugs.

Pure functions; every layer (parsers, graph, search, diff, exam, terminology) imports them from here.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
CN_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九")}
CN_DIGITS["两"] = 2


def cn2int(s: str) -> int:
    """Chinese numeral (up to 99) to int: '二十二' -> 22, '十' -> 10, '三' -> 3.

    >>> [cn2int(x) for x in ('十', '十一', '二十', '五十七', '三')]
    [10, 11, 20, 57, 3]
    """
    s = s.strip()
    if not re.fullmatch(r"[一二三四五六七八九两]?十[一二三四五六七八九]?|[零一二三四五六七八九两]", s):
        raise ValueError(f"not a Chinese numeral: {s!r}")
    if "十" in s:
        a, _, b = s.partition("十")
        return (CN_DIGITS[a] if a else 1) * 10 + (CN_DIGITS[b] if b else 0)
    return CN_DIGITS[s]


def has_cjk(s: str) -> bool:
    """True when the text holds a CJK ideograph."""
    return CJK_RE.search(s) is not None


def nfkc_alnum(s: str) -> str:
    """NFKC only on full-width ASCII letters, digits and spaces; keep 。，（） and other CJK punctuation.

    >>> nfkc_alnum('１、Ａ（注）')
    '1、A（注）'
    """
    out = []
    for ch in s:
        o = ord(ch)
        if 0xFF10 <= o <= 0xFF19 or 0xFF21 <= o <= 0xFF3A or 0xFF41 <= o <= 0xFF5A:
            out.append(unicodedata.normalize("NFKC", ch))
        elif ch in "\u3000\u00a0":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


@lru_cache(maxsize=4)
def _opencc(config: str) -> Any:
    import opencc

    return opencc.OpenCC(config)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _safe(s: str) -> str:
    """Lone surrogates (undecodable bytes from a terminal) would make the converter raise: replace them."""
    return s.encode("utf-8", "replace").decode("utf-8") if _SURROGATE.search(s) else s


def s2t(s: str) -> str:
    """Simplified -> traditional script (OpenCC)."""
    return str(_opencc("s2t").convert(_safe(s)))


def t2s(s: str) -> str:
    """Traditional -> simplified script (OpenCC)."""
    return str(_opencc("t2s").convert(_safe(s)))


@lru_cache(maxsize=65536)
def _char_changes_s2t(ch: str) -> bool:
    return s2t(ch) != ch


def garbled_zh_hant(s: str) -> bool:
    """A traditional-Chinese line is garbled OCR when >= 2 of its characters change under s2t.

    Characters are converted one at a time: OpenCC's phrase table would otherwise turn a legitimate
    了解 into 瞭解 and count it.
    """
    return sum(1 for ch in s if has_cjk(ch) and _char_changes_s2t(ch)) >= 2


def squeeze_cjk_spaces(s: str) -> str:
    """Drop spaces between two CJK characters ('攻出 牌張' -> '攻出牌張'), keep others."""
    return re.sub(r"(?<=[\u3400-\u9fff）】」』])\s+(?=[\u3400-\u9fff（【「『])", "", s)


def slug(s: str) -> str:
    """The one slug of a term (a definition id, an index term): lower case, runs of anything but a-z and
    0-9 become one '-'.

    >>> slug("Under Trick"), slug("Bidding Box"), slug("  LHO  "), slug("Call (n.)")
    ('under-trick', 'bidding-box', 'lho', 'call-n')
    """
    return re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFKC", s).lower()).strip("-")


def term_slug(s: str) -> str:
    """The slug of a term without its parenthesised part: 'Odd Trick (n.)' -> 'odd-trick'."""
    return slug(re.sub(r"\(.*?\)", "", s))


def term_key(s: str) -> str:
    """The key of a term without its parenthesised part: 'International Matchpoint (IMP)' -> 'internationalmatchpoint'."""
    return definition_key(re.sub(r"\(.*?\)", "", s))


def definition_key(s: str) -> str:
    """The one matching key of an English term: lower case letters and digits only, so 'Under Trick',
    'Undertrick' and 'under-trick' meet.

    >>> definition_key("Under Trick") == definition_key("undertrick") == "undertrick"
    True
    """
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", s).casefold())
