"""Recognise the law and article citations a reader types (`Law 64A1`, `64B3`, `第64条A款1项`, `第二十二條`).

A pure function over plain text, without spaCy (whose import costs a question 1.5 s): regular expressions
for the typed forms, and the path reading of the corpus recogniser (`citations_tokens.split_comp`), so a
typed `12C1(b)` and a printed one give the same path. Numbers are not checked against any edition: the
caller resolves them (an Arabic number names a law; a Chinese numeral names a CCBA 2018 or Guandan
article, or a law where no such article exists).

>>> [(r.law, r.path) for r in typed_citations("Law 64A1 and 第二十二條")]
[('64', ('A', '1')), ('22', ())]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..text import cn2int, nfkc_alnum
from .citations_tokens import split_comp

CN_NUMERAL = "零一二三四五六七八九十两"
_SUB = r"(?:\s*[(（](?:[a-z]{1,4}|\d{1,2})[)）])"      # (b), （ii）, (1)
# the part below a law number, as typed after `Law`: 64A1(b), 64 A 1 (b), 27B1b, 64c
_TAIL = rf"""(?:
        (?P<sec>[A-H])(?![A-Za-z])                           # 64A, 64 A (not 'Law 12 A player')
          (?(sp)(?=\s*(?:\d|[(（]|$|[,.;:!?，。；：、)）])))
      | (?P<lsec>[a-h])(?![a-z])(?(sp)(?!))                   # 64c, only glued to the number
    )
    (?:\s*(?P<item>\d{{1,2}})(?![\d.]))?
    (?P<par>{_SUB}*)
    (?P<glued>(?<=\d)[a-z](?![A-Za-z]))?                      # 27B1b
"""
LAW_WORD_RE = re.compile(
    rf"(?<![A-Za-z])(?P<word>[Ll]aws?|LAWS?)\s*(?P<first>(?P<law>\d{{1,3}})(?![\d.])(?P<sp>\s+)?(?:{_TAIL})?)",
    re.VERBOSE)
# a further member of a list after `Laws`: `Laws 19A and 77`, `Law 16C、26B 與 72C`
LIST_MEMBER_RE = re.compile(
    rf"\s*(?:,|，|、|and|or|&|與|与|及|或|和)\s*(?P<first>(?P<law>\d{{1,3}})(?![\d.])(?P<sp>\s+)?(?:{_TAIL})?)",
    re.VERBOSE)
BARE_RE = re.compile(                                             # 64B3, 12C1(b), 27B1b; 64C only alone
    rf"(?<![A-Za-z0-9.#/_])(?P<law>\d{{1,2}})(?P<sp>(?!))?(?:{_TAIL})(?![A-Za-z0-9])", re.VERBOSE)
ZH_RE = re.compile(
    rf"""(?:规则|規則)?第\s*(?:(?P<law>\d{{1,3}})|(?P<cn>[{CN_NUMERAL}]{{1,4}}))\s*[条條]
        (?:\s*(?P<sec>[A-H])\s*款?)?                            # A款, A
        (?:\s*(?(sec)|第)(?P<item>\d{{1,2}}|[{CN_NUMERAL}]{{1,3}})\s*[项項款]?)?   # 1项; 第二款 without a section
        (?P<par>{_SUB}*)
    """, re.VERBOSE)


@dataclass(frozen=True)
class TypedCitation:
    """One citation found in free text: the law (or article) number and the path below it."""

    text: str                    # as typed
    start: int                   # character offsets in the text
    end: int
    law: str                     # number in Arabic digits: '64', '22'
    path: tuple[str, ...]        # below the number, as in clause ids: ('A', '1', 'b')
    numerals: str                # 'arabic' | 'chinese' (第二十二条: the CCBA way of naming an article)
    form: str                    # 'Law N' | 'NXd' (bare 64B3) | '第N条' | '第X条' (Chinese numerals)


def _path(sec: str | None, item: str | None, par: str | None, glued: str | None = None) -> tuple[str, ...]:
    """Path segments from the typed parts, read as the corpus recogniser reads `A1(b)`."""
    if item and not item.isdigit():
        item = str(cn2int(item))
    if not sec:
        return (str(int(item)),) if item else ()
    comp = sec.upper() + (item or "") + re.sub(r"\s+", "", par or "") + (f"({glued})" if glued else "")
    return tuple(v for _, v in split_comp(comp))


def _from_law_match(m: re.Match[str], text: str, form: str, start: int) -> TypedCitation:
    """A citation from a match of the law-number grammar (`law` plus `_TAIL`), from `start` on."""
    sec = m.group("sec") or m.group("lsec")
    path = _path(sec, m.group("item"), m.group("par"), m.group("glued"))
    end = start + len(text[start:m.end()].rstrip())
    return TypedCitation(text[start:end], start, end, str(int(m.group("law"))), path, "arabic", form)


def _law_word(text: str) -> list[TypedCitation]:
    out: list[TypedCitation] = []
    for m in LAW_WORD_RE.finditer(text):
        out.append(_from_law_match(m, text, "Law N", m.start()))
        pos = m.end()
        # after `Laws` any number is a member; after `Law` only one with a section (`Law 16C、26B`)
        while (nxt := LIST_MEMBER_RE.match(text, pos)) and (
                m.group("word").lower() == "laws" or nxt.group("sec") or nxt.group("lsec")):
            out.append(_from_law_match(nxt, text, "Law N", nxt.start("law")))
            pos = nxt.end()
    return out


def _chinese(text: str) -> list[TypedCitation]:
    out: list[TypedCitation] = []
    for m in ZH_RE.finditer(text):
        try:
            law = m.group("law") or str(cn2int(m.group("cn")))
            path = _path(m.group("sec"), m.group("item"), m.group("par"))
        except ValueError:           # '第二二条': not a numeral, so not a citation
            continue
        numerals = "arabic" if m.group("law") else "chinese"
        end = m.start() + len(m.group(0).rstrip())
        out.append(TypedCitation(text[m.start():end], m.start(), end, str(int(law)), path, numerals,
                                 "第N条" if m.group("law") else "第X条"))
    return out


def _bare(text: str) -> list[TypedCitation]:
    """`64B3`, `12C1(b)`: a number with a section and an item; `64C` only when it is the whole text
    (otherwise `2C` or `4D` in a question are bids)."""
    out: list[TypedCitation] = []
    whole = text.strip()
    for m in BARE_RE.finditer(text):
        if m.group("lsec") or not (m.group("item") or m.group(0) == whole):
            continue
        out.append(_from_law_match(m, text, "NXd", m.start()))
    return out


def typed_citations(text: str) -> list[TypedCitation]:
    """Every law or article citation in a free text, in order, overlaps resolved by the earlier form
    (Law N, then 第N条, then bare 64B3). Full-width digits and letters are read as ASCII.

    >>> [(r.form, r.law, r.path) for r in typed_citations("见第64条A款1项，及 27B1b")]
    [('第N条', '64', ('A', '1')), ('NXd', '27', ('B', '1', 'b'))]
    """
    norm = nfkc_alnum(text)                 # one character for one: offsets stay those of `text`
    found: list[TypedCitation] = []
    for ref in [*_law_word(norm), *_chinese(norm), *_bare(norm)]:
        if not any(r.start < ref.end and ref.start < r.end for r in found):
            found.append(replace(ref, text=text[ref.start:ref.end]))
    return sorted(found, key=lambda r: r.start)
