"""Reference-shaped tokens of a law text and the reading of one reference token into path components.

`TOKEN_RE` is the one grammar of references (`64C`, `12C1(b)`, `C2`, `(k)`, `77`, `2.3.2`), used by the
spaCy tokenizer of the corpus recogniser (`citations_recognise`) and by the typed-citation reader
(`citations_typed`). Path components are (level, label): 1 section letter, 2 item number, 3 sub-item,
4 sub-sub-item.
"""

from __future__ import annotations

import re
from typing import Any

PAREN = r"[(（](?:[a-z]{1,4}|\d{1,2}|[一二三四五六七八九十]{1,3})[)）]"
LEXICON = (
    "参照", "參照", "参阅", "參閱", "参见", "參見", "依照", "適用", "适用", "上述", "下述", "前述", "以下", "以上",
    "下方", "上方", "上面的", "上文", "本条", "本條", "本章", "本款", "本项", "本項", "小項", "判罚尺度", "规则", "規則",
    "橋規", "以及",
)
TOKEN_RE = re.compile(
    rf"""
      (?P<lex>{'|'.join(sorted(LEXICON, key=len, reverse=True))})        # CJK function words
    | (?P<dotnum>\d+(?:\.\d+)+)(?![\d.]*\d)                              # policy sections 2.3.2
    | (?P<lawref>\d{{1,4}}[A-H]\d{{0,2}}(?:{PAREN})*)(?![A-Za-z])         # 64C, 12C1(b), 30B1(b)(ii)
    | (?P<secref>(?<![A-Za-z])[A-H]\d{{1,2}}(?:{PAREN})*)(?![A-Za-z\d])  # C2, B1(b), A2（b）
    | (?P<num>\d+(?:{PAREN})*)                                          # 77, 4（b）, 1(b)
    | (?P<par>{PAREN})                                                  # (k), （b）, (1), （一）
    | (?P<word>[A-Za-z]+)                                                # Law, see, A
    | (?P<cn>[一二三四五六七八九十]+)                                     # Chinese numerals
    | (?P<ch>\S)                                                         # any other character
    """,
    re.VERBOSE,
)


def _shape(kind: str, tok: str) -> str:
    """The token class the Matcher patterns test (stored as the token's NORM, which is fast to match)."""
    if kind == "num":
        if tok.isdigit():
            return "NUM2" if len(tok) <= 2 else "NUM4" if len(tok) <= 4 else "NUMLONG"
        return "NUMP" if re.match(r"\d{1,2}\D", tok) else "NUMLONG"
    if kind == "par":
        return "PARCN" if re.search(r"[一二三四五六七八九十]", tok) else "PAR"
    if kind == "word":
        return "SEC" if re.fullmatch(r"[A-H]", tok) else tok
    return {"lawref": "LAWREF", "secref": "SECREF", "cn": "CN", "dotnum": "DOTNUM"}.get(kind, tok)


class RefTokenizer:
    """Tokenizer producing reference-shaped tokens with their class as NORM; keeps char offsets."""

    def __init__(self, vocab: Any) -> None:
        self.vocab = vocab

    def __call__(self, text: str) -> Any:
        from spacy.tokens import Doc

        words: list[str] = []
        spaces: list[bool] = []
        starts: list[int] = []
        shapes: list[str] = []
        for m in TOKEN_RE.finditer(text):
            words.append(m.group())
            starts.append(m.start())
            spaces.append(m.end() < len(text) and text[m.end()].isspace())
            shapes.append(_shape(m.lastgroup or "ch", m.group()))
        doc = Doc(self.vocab, words=words, spaces=spaces)
        for tok, shape in zip(doc, shapes, strict=False):
            tok.norm_ = shape
        doc.user_data["starts"] = starts
        return doc



REF_PARTS_RE = re.compile(rf"^(?P<law>\d{{1,4}})?(?P<sec>[A-H])?(?P<item>\d{{1,2}})?(?P<par>(?:{PAREN})*)$")
ROMAN_RE = re.compile(r"^(?:i{1,3}|iv|v|vi{1,3}|ix|x)$")


def split_ref(tok: str) -> tuple[str | None, list[tuple[int, str]]]:
    """'30B1(b)(ii)' -> ('30', [(1,'B'), (2,'1'), (3,'b'), (4,'ii')]); levels 1 sec, 2 item, 3 sub, 4 subsub."""
    m = REF_PARTS_RE.match(tok.replace(" ", ""))
    if not m:
        return None, []
    return m.group("law"), split_comp(tok.replace(" ", "")[len(m.group("law") or ""):])


def split_comp(tok: str) -> list[tuple[int, str]]:
    """A component token of a relative or sectioned reference: 'B1(b)' or '2(a)' or '4（b）'."""
    m = re.fullmatch(rf"(?P<sec>[A-H])?(?P<item>\d{{1,2}})?(?P<par>(?:{PAREN})*)", tok.replace(" ", ""))
    if not m:
        return []
    comps: list[tuple[int, str]] = []
    if m.group("sec"):
        comps.append((1, m.group("sec")))
    if m.group("item"):
        comps.append((2, m.group("item")))
    for p in re.findall(r"[(（]([^)）]+)[)）]", m.group("par")):
        comps.append((paren_level(p, comps), p))
    return comps


def paren_level(p: str, before: list[tuple[int, str]]) -> int:
    """A parenthesised label: (a) is a sub-item, (ii)/(1) after a sub-item a sub-sub-item;
    a letter after a sub-item is its sibling ('(a)(b)'), except a roman numeral ('(b)(i)')."""
    if re.fullmatch(r"[一二三四五六七八九十]+", p):
        return 3
    if before and before[-1][0] >= 3:
        prev = before[-1][1]
        if len(p) == 1 and p.isalpha() and before[-1][0] == 3 and (
                p not in "ivx" or (len(prev) == 1 and ord(p) == ord(prev) + 1)):
            return 3
        return 4
    if p.isdigit() or (len(p) > 1 and ROMAN_RE.match(p)):
        return 4
    return 3


def renumber(comps: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Keep components in level order (drop anything that goes back up a level)."""
    out: list[tuple[int, str]] = []
    for lvl, v in comps:
        if out and lvl <= out[-1][0]:
            if lvl == 4 and out[-1][0] == 4:
                continue
            break
        out.append((lvl, v))
    return out
