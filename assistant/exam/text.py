"""Printed phrases (strings.yaml) and the small text helpers the generators share: labels, blanks, checks.

Pure functions over strings; the only resource is the phrase table, read once.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

STRINGS_FILE = Path(__file__).resolve().parent / "strings.yaml"
BLANK = "＿＿＿＿"
CN_NUMERALS = "零一二三四五六七八九"


@lru_cache(maxsize=1)
def _strings() -> dict[str, object]:
    return yaml.safe_load(STRINGS_FILE.read_text(encoding="utf-8"))


def phrase(key: str, lang: str, **fields: object) -> str:
    """The phrase `key` (dotted path into strings.yaml) in `lang`, formatted with `fields`."""
    node: object = _strings()
    for part in key.split("."):
        node = node[part]  # type: ignore[index]
    return str(node[lang]).format(**fields)  # type: ignore[index]


def edition_name(edition: str, lang: str) -> str:
    return phrase(f"edition.{edition}", lang)


def scope_name(edition: str, text_lang: str, lang: str) -> str:
    """Where a label comes from, e.g. 'the Taiwan translation (traditional Chinese)'."""
    strings = _strings()["scope"]
    key = edition if edition in strings else f"{edition}/{text_lang}"  # type: ignore[operator]
    return phrase(f"scope.{key}", lang)


def int_to_cn(n: int) -> str:
    """Chinese numeral for 1..99 as the CCBA articles print them: 22 -> 二十二, 10 -> 十.

    >>> [int_to_cn(x) for x in (3, 10, 14, 22, 57)]
    ['三', '十', '十四', '二十二', '五十七']
    """
    if not 0 < n < 100:
        raise ValueError(f"not in 1..99: {n}")
    tens, ones = divmod(n, 10)
    head = "" if tens == 0 else ("十" if tens == 1 else CN_NUMERALS[tens] + "十")
    return head + (CN_NUMERALS[ones] if ones else "")


def sentence_case(title: str) -> str:
    """WBF titles are printed in capitals: 'THE PACK' -> 'The pack'; mixed case is kept."""
    if title.isupper():
        low = title.lower()
        return low[:1].upper() + low[1:]
    return title


def law_label(kind: str, number: str, title: str, lang: str) -> str:
    """An option naming a law or a CCBA 2018 article, e.g. 'Law 64 — Procedure after …', '第二十二条 超时'."""
    title = sentence_case(squash(title))
    if kind == "article":
        return phrase("article", lang, n=number, cn=int_to_cn(int(number)), title=title).strip()
    if not title:
        return phrase("law_bare", lang, n=number)
    return phrase("law", lang, n=number, title=title).strip()


def squash(text: str) -> str:
    """One line: runs of whitespace become one space, CJK-adjacent spaces go."""
    text = re.sub(r"\s+", " ", text or "").strip()
    return re.sub(r"(?<=[\u3400-\u9fff，。；：、）」])\s+|\s+(?=[\u3400-\u9fff，。；：、（「])", "", text)


def norm(text: str) -> str:
    """Comparison form: NFKC, case folded, without spaces and punctuation."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return re.sub(r"[\W_]+", "", text)


def contains(haystack: str, needle: str) -> bool:
    """Whether `needle` occurs in `haystack` verbatim, ignoring case, spacing and punctuation."""
    n = norm(needle)
    return bool(n) and n in norm(haystack)


def is_cjk(text: str) -> bool:
    return re.search(r"[\u3400-\u9fff]", text) is not None


@lru_cache(maxsize=4096)
def term_pattern(form: str) -> re.Pattern[str]:
    """How a label is found in running text: verbatim in Chinese; whole words (plural, possessive) in English."""
    if is_cjk(form):
        return re.compile(re.escape(form))
    words = r"\s+".join(re.escape(w) for w in form.split())
    return re.compile(rf"(?<![A-Za-z]){words}(?:s|es|'s)?(?![A-Za-z])", re.I)


def blank_out(text: str, form: str) -> str:
    """Replace every occurrence of a label with the blank."""
    return term_pattern(form).sub(BLANK, text)


def mentions_number(text: str, number: str) -> bool:
    """Whether a text names the number `number` (so a stem would give its own law away)."""
    return re.search(rf"(?<![\d.]){re.escape(number)}(?![\d])", text) is not None or (
        number.isdigit() and 0 < int(number) < 100 and f"第{int_to_cn(int(number))}条" in text.replace(" ", ""))
