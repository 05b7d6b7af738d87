"""Citations: find every cross-reference in the clause texts and resolve it to a clause id.

Recognition uses spaCy blank pipelines (`zh` for zh-Hans/zh-Hant, `en` for English) with a `Matcher`.
Their default tokenizers do not fit references: blank `zh` (char segmenter) splits `77` into `7`, `7`,
blank `en` keeps `27B1(b` as one token and splits off `)`. Both pipelines therefore get `RefTokenizer`,
one commented regex that yields reference-shaped tokens (`64C`, `12C1(b)`, `C2`, `(k)`, `77`), Latin
words, a small lexicon of CJK function words (参照, 上述, 本条 …) and otherwise single CJK characters.
The Matcher patterns (one label per form) find the spans; the typed tokens of each span are then read
into paths and resolved against the cited edition at the most precise existing level.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator

from ..model import ClauseId
from ..text import cn2int

# ---------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class Citation:
    """One reference from a clause (or footnote) to a clause of the cited edition."""

    source: str              # citing clause id (or footnote id)
    text: str                # the matched string as printed (a whole list for list items)
    kind: str                # 'absolute' | 'relative'
    target: str | None       # resolved clause id (most precise existing level), None if unresolved
    edition: str             # cited edition
    reason: str = ""         # why unresolved, or ''
    lang: str = ""           # language of the citing text
    item: str = ""           # this reference alone, for list members ('77' of 'Laws 19A and 77')
    cited: str = ""          # the id as cited, before falling back to an existing ancestor
    note: str = ""           # e.g. 'nearest existing ancestor: … has no item b'
    form: str = ""           # form label for counts: 'Law NXd', '第N条X款', '本条X款', 'see X below' …
    offset: int = -1         # character offset of the match in the citing text

    @property
    def resolved(self) -> bool:
        return self.target is not None


# ---------------------------------------------------------------------------------------------
# Tokenizer

_PAREN = r"[(（](?:[a-z]{1,4}|\d{1,2}|[一二三四五六七八九十]{1,3})[)）]"
LEXICON = (
    "参照 參照 参阅 參閱 参见 參見 依照 適用 适用 上述 下述 前述 以下 以上 下方 上方 上面的 上文 "
    "本条 本條 本章 本款 本项 本項 小項 判罚尺度 规则 規則 橋規 以及"
).split()
TOKEN_RE = re.compile(
    rf"""
      (?P<lex>{'|'.join(sorted(LEXICON, key=len, reverse=True))})        # CJK function words
    | (?P<dotnum>\d+(?:\.\d+)+)(?![\d.]*\d)                              # policy sections 2.3.2
    | (?P<lawref>\d{{1,4}}[A-H]\d{{0,2}}(?:{_PAREN})*)(?![A-Za-z])         # 64C, 12C1(b), 30B1(b)(ii)
    | (?P<secref>(?<![A-Za-z])[A-H]\d{{1,2}}(?:{_PAREN})*)(?![A-Za-z\d])  # C2, B1(b), A2（b）
    | (?P<num>\d+(?:{_PAREN})*)                                          # 77, 4（b）, 1(b)
    | (?P<par>{_PAREN})                                                  # (k), （b）, (1), （一）
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
        for tok, shape in zip(doc, shapes):
            tok.norm_ = shape
        doc.user_data["starts"] = starts
        return doc


# ---------------------------------------------------------------------------------------------
# Matcher patterns: label -> list of token patterns (over the token classes of `_shape`)

_P = r"[(（](?:[a-z]{1,4}|\d{1,2})[)）]"
SEPS = [",", "，", "、", "and", "or", "與", "及", "或", "和", "与", "以及", "或者", "或是", "&"]
UNITS = ["款", "項", "项", "小項"]


def _n(*shapes: str, op: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"NORM": {"IN": list(shapes)}}
    if op:
        d["OP"] = op
    return d


LAWNUM = _n("NUM2", "NUM4")
NUMX = _n("NUM2", "NUMP")
LAWREF = _n("NUM2", "NUM4", "NUMP", "LAWREF")
SEC = _n("SEC")
SECREF = _n("SECREF")
PAR = _n("PAR")
PARCN = _n("PARCN")
CN = _n("CN")
RELTOK = _n("SEC", "SECREF", "NUM2", "NUMP", "PAR")
SEP = _n(*SEPS)
LAW = {"TEXT": {"IN": ["Law", "Laws"]}}
LAWRUN = _n(*SEPS, "Law", "Laws", "NUM2", "NUM4", "NUMP", "LAWREF")
RELRUN = _n(*SEPS, *UNITS, "SEC", "SECREF", "NUM2", "NUMP", "PAR", "PARCN")
UNIT = _n(*UNITS)
POS_ZH = ["上述", "下述", "前述", "以下", "以上", "下方", "上方", "上面的"]
VERB_ZH = ["参照", "參照", "参阅", "參閱", "参见", "參見"]
POS_EN = ["above", "below", "following", "preceding"]


def _t(text: str, op: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"TEXT": text}
    if op:
        d["OP"] = op
    return d


def _o(tok: dict[str, Any], op: str = "?") -> dict[str, Any]:
    return {**tok, "OP": op}


ZH_PATTERNS: dict[str, list[list[dict[str, Any]]]] = {
    # 参阅第77条, 第 80 条 B 款 2 (k), 第45条C款4（b）, 第 30 条 B 款 1(b) (1)
    "zh-law": [[_t("第"), LAWNUM, _t("条"), _o(SEC), _o(_t("款")), _o(NUMX), _o(PAR, "*")]],
    # 根据45条规定, 参照 47 条 B 款; also the 31条 of 第30条、31条、32条
    "zh-bare": [[LAWNUM, _t("条"), _o(SEC), _o(_t("款")), _o(NUMX), _o(PAR, "*")]],
    # 第 30、31 和 32 条, 第 50 和 51 条
    "zh-list": [[_t("第"), LAWNUM, _n("NUM2", "、", "和", "及", "与", op="+"), _t("条")]],
    # 本规则第二十四条; guandan 第十三条之第三款
    "zh-article": [[_t("第"), CN, _t("条")],
                   [_t("第"), CN, _t("条"), _t("之"), _t("第"), CN, _t("款")]],
    # 第四类判罚尺度 -> CCBA article 51
    "zh-category": [[_t("第"), CN, _t("类"), _t("判罚尺度")]],
    # articles: guandan 同1款, 与第三款相同; CCBA 下列第二款
    "zh-same-item": [[_t("同"), NUMX, _t("款")], [_t("第"), CN, _t("款")]],
    # 本条, 本条规则, 本條橋規, 本条A款, 本条 B 款 2, 本条 E1 款, 本条A2（b）, 本条第一款
    "zh-this-law": [[_n("本条", "本條"), _o(_n("规则", "規則", "橋規"))],
                    [_n("本条", "本條"), SEC, _o(UNIT), _o(NUMX), _o(PAR, "*")],
                    [_n("本条", "本條"), SECREF, _o(UNIT), _o(PAR, "*")],
                    [_n("本条", "本條"), _t("第"), CN, _t("款")],
                    # 000:529 参阅本章B款, a misprint for 本条B款 (chapters have no sections)
                    [_t("本章"), SEC, _t("款")]],
    # 本款, 本款 d, 本款 1(d), 本款（一）, 本款（一）2
    "zh-this-section": [[_t("本款"), _o(NUMX), _o(PAR, "*")],
                        [_t("本款"), PARCN, _o(NUMX)]],
    # 本项 (a)
    "zh-this-item": [[_n("本项", "本項"), _o(PAR, "+")]],
    # 上述 B2 项, 上述A款1, 以下（b）项, 如上面的1, 參照下方 C2, 上述(a)(b)項, 下述第 3 項
    "zh-position": [[_n(*POS_ZH), _o(_t("第")), RELTOK, _o(RELRUN, "*")]],
    # 參照 A 款, 參照 C1(d), 參照 B款
    "zh-verb": [[_n(*VERB_ZH), SEC, _o(RELRUN, "*")],
                [_n(*VERB_ZH), SECREF, _o(RELRUN, "*")]],
    # 如第1項
    "zh-ordinal-item": [[_n("如", "下述"), _t("第"), NUMX, UNIT]],
}
EN_PATTERNS: dict[str, list[list[dict[str, Any]]]] = {
    # Law 64C, Law42, Laws 19A and 77, Law 16C、26B 與 72C, Laws 27B1(b), 30B1(b)(ii) …
    "law": [[LAW, LAWREF], [LAW, LAWREF, _o(LAWRUN, "*"), LAWREF]],
    # this Law; Section B of this Law
    "this-law": [[_t("this"), _t("Law")], [_t("Section"), SEC, _t("of"), _t("this"), _t("Law")]],
    # (see C2 below), (see B4 following), (see A)
    "see": [[{"LOWER": "see"}, RELTOK, _o(RELRUN, "*"), _o({"LOWER": {"IN": POS_EN}})]],
    # as in 1 preceding, in A1 above, (a) and (b) above ('following' only after 'see': '(iv) following an …')
    "position": [[RELTOK, _o(RELRUN, "*"), {"LOWER": {"IN": ["above", "below", "preceding"]}}]],
    # policies: 2.4.1 and 2.4.2 above, (See 2.3.2 below)
    "policy": [[_n("DOTNUM"), _o(_n(*SEPS, "DOTNUM"), "*"), {"LOWER": {"IN": ["above", "below"]}}],
               [{"LOWER": "see"}, _n("DOTNUM")]],
}
# Chinese texts also carry "Law 64C" (004 zh-Hant) — the law patterns apply to them too.
ZH_PATTERNS["law"] = EN_PATTERNS["law"]
KIND_OF_LABEL = {"zh-law": "absolute", "zh-bare": "absolute", "zh-list": "absolute", "zh-article": "absolute",
                 "zh-category": "absolute", "law": "absolute"}


@lru_cache(maxsize=2)
def _pipeline(lang: str) -> tuple[Any, Any]:
    """Blank spaCy pipeline ('zh' or 'en') with RefTokenizer and the citation Matcher (cached)."""
    import spacy
    from spacy.matcher import Matcher

    nlp = spacy.blank(lang)
    nlp.tokenizer = RefTokenizer(nlp.vocab)
    matcher = Matcher(nlp.vocab)
    for label, patterns in (ZH_PATTERNS if lang == "zh" else EN_PATTERNS).items():
        matcher.add(label, patterns)
    return nlp, matcher


# ---------------------------------------------------------------------------------------------
# Raw matches


@dataclass(frozen=True)
class RawRef:
    """One recognised reference before resolution."""

    label: str                       # the Matcher label
    text: str                        # matched span as printed
    start: int                       # char offset in the text
    items: tuple[tuple[str, tuple[str, ...]], ...]  # (item as printed, path segments) per list member


_REF_PARTS = re.compile(rf"^(?P<law>\d{{1,4}})?(?P<sec>[A-H])?(?P<item>\d{{1,2}})?(?P<par>(?:{_PAREN})*)$")
_ROMAN = re.compile(r"^(?:i{1,3}|iv|v|vi{1,3}|ix|x)$")


def _split_ref(tok: str) -> tuple[str | None, list[tuple[int, str]]]:
    """'30B1(b)(ii)' -> ('30', [(1,'B'), (2,'1'), (3,'b'), (4,'ii')]); levels 1 sec, 2 item, 3 sub, 4 subsub."""
    m = _REF_PARTS.match(tok.replace(" ", ""))
    if not m:
        return None, []
    return m.group("law"), _split_comp(tok.replace(" ", "")[len(m.group("law") or ""):])


def _split_comp(tok: str) -> list[tuple[int, str]]:
    """A component token of a relative or sectioned reference: 'B1(b)' or '2(a)' or '4（b）'."""
    m = re.fullmatch(rf"(?P<sec>[A-H])?(?P<item>\d{{1,2}})?(?P<par>(?:{_PAREN})*)", tok.replace(" ", ""))
    if not m:
        return []
    comps: list[tuple[int, str]] = []
    if m.group("sec"):
        comps.append((1, m.group("sec")))
    if m.group("item"):
        comps.append((2, m.group("item")))
    for p in re.findall(r"[(（]([^)）]+)[)）]", m.group("par")):
        comps.append((_paren_level(p, comps), p))
    return comps


def _paren_level(p: str, before: list[tuple[int, str]]) -> int:
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
    if p.isdigit() or (len(p) > 1 and _ROMAN.match(p)):
        return 4
    return 3


def _tokens(span: Any) -> list[str]:
    return [t.text for t in span]


def _read_items(label: str, toks: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Read the typed tokens of a span into list members: (printed, path) where path starts with
    the law number for absolute forms, or with a marker for relative forms ('@law', '@sec', '@item',
    '@auto', '@article', '@sibling')."""
    if label in ("zh-law", "zh-bare"):
        i = toks.index("条")
        law = toks[i - 1]
        comps: list[tuple[int, str]] = []
        for t in toks[i + 1:]:
            if t == "款":
                continue
            comps.extend(_split_comp(t))
        comps = _renumber(comps)
        return [("".join(toks[i - 1:]), (law, *[v for _, v in comps]))]
    if label == "zh-list":
        return [(t, (t,)) for t in toks if t.isdigit()]
    if label == "zh-article":
        nums = [str(cn2int(t)) for t in toks if re.fullmatch(r"[一二三四五六七八九十]+", t)]
        return [("".join(toks), ("@article", *nums))]
    if label == "zh-category":
        return [("".join(toks), ("@article", "51"))]
    if label == "zh-same-item":
        n = toks[1] if toks[0] == "同" else str(cn2int(toks[1]))
        return [("".join(toks), ("@sibling" if toks[0] == "同" else "@article-item", n))]
    if label == "zh-this-law" and "第" in toks:
        return [("".join(toks), ("@law", f"2:{cn2int(toks[2])}"))]
    if label == "law":
        out: list[tuple[str, tuple[str, ...]]] = []
        for t in toks:
            law, comps = _split_ref(t)
            if law is not None:
                out.append((t, (law, *[v for _, v in comps])))
        return out
    if label == "policy":
        return [(t, ("@policy", t)) for t in toks if re.fullmatch(r"\d+(?:\.\d+)+", t)]
    if label == "this-law":
        return [(" ".join(toks), ("@law", *[f"1:{t}" for t in toks if re.fullmatch(r"[A-H]", t)]))]
    # relative forms with components after a trigger
    anchor = {"zh-this-law": "@law", "zh-this-section": "@sec", "zh-this-item": "@item"}.get(label, "@auto")
    if label == "zh-this-section" and len(toks) > 1 and toks[1][0] in "(（" and not re.search("[一二三四五六七八九十]", toks[1]):
        anchor = "@auto"   # 本款 (a): the sub-item (a) of this item
    items: list[list[tuple[int, str]]] = [[]]
    printed: list[list[str]] = [[]]
    for t in toks:
        if t in SEPS:
            if items[-1]:
                items.append([])
                printed.append([])
            continue
        if re.fullmatch(r"[A-H]", t):
            new = [(1, t)]
        elif re.fullmatch(rf"[A-H]\d{{1,2}}(?:{_PAREN})*|\d{{1,2}}(?:{_PAREN})*|{_PAREN}", t):
            new = _split_comp(t) if t[0] not in "(（" else [(_paren_level(t[1:-1], items[-1]), t[1:-1])]
        else:
            continue
        if new and items[-1] and items[-1][-1][0] == 3 and re.fullmatch(r"[一二三四五六七八九十]+", items[-1][-1][1]) \
                and new[0][0] == 2:
            new = [(4, v) for _, v in new]   # 本款（一）2: the item under a （一） sub-item
        if len(items) > 1 and not items[-1] and new:
            # list member: inherit the previous member's components above its first level
            prev = items[-2]
            items[-1] = [c for c in prev if c[0] < new[0][0]]
        if new and items[-1] and new[0][0] <= items[-1][-1][0]:
            # a second label at the same level without a separator: '(a)(b)' -> two members
            prefix = [c for c in items[-1] if c[0] < new[0][0]]
            items.append(prefix)
            printed.append([])
        items[-1].extend(new)
        printed[-1].append(t)
    out = []
    for comps, pr in zip(items, printed):
        if comps:
            comps = _renumber(comps)
            out.append((" ".join(pr), (anchor, *[f"{lvl}:{v}" for lvl, v in comps])))
    if not out and anchor != "@auto":
        out.append(("".join(toks), (anchor,)))
    return out


def _renumber(comps: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Keep components in level order (drop anything that goes back up a level)."""
    out: list[tuple[int, str]] = []
    for lvl, v in comps:
        if out and lvl <= out[-1][0]:
            if lvl == 4 and out[-1][0] == 4:
                continue
            break
        out.append((lvl, v))
    return out


def _valid(label: str, toks: list[str], lang: str) -> bool:
    """Reject matches that are not references ('以下 3 个', '9 or below', 'see 2 below' in prose)."""
    if label in ("zh-position", "zh-verb"):
        comps = [t for t in toks[1:] if t not in SEPS and t not in ("第",)]
        has_unit = any(t in ("款", "項", "项", "小項") for t in toks)
        first = comps[0] if comps else ""
        if not first:
            return False
        if re.fullmatch(r"\d+", first) and not has_unit and toks[0] not in ("上述", "上面的", "前述", "以上"):
            return False
        if toks[0] == "以上" and not (has_unit or any(t in SEPS for t in toks)):
            return False
    if label in ("see", "position"):
        rel = [t for t in toks if t not in SEPS and t.lower() not in POS_EN and t.lower() != "see"]
        if not rel:
            return False
        if label == "position" and any(re.fullmatch(r"\d{2,}", t) for t in rel):
            return False
    if label == "law":
        return any(re.match(r"\d", t) for t in toks)
    return True


PRIORITY = {"zh-law": 0, "zh-list": 0, "law": 0, "zh-article": 0, "zh-category": 0, "zh-this-law": 1,
            "zh-this-section": 1, "zh-this-item": 1, "zh-bare": 2, "this-law": 1, "zh-same-item": 3,
            "zh-ordinal-item": 2, "zh-position": 3, "zh-verb": 4, "see": 3, "position": 4}


def recognise(text: str, lang: str) -> list[RawRef]:
    """All references in one text (`lang` 'en', 'zh-Hans' or 'zh-Hant'), longest match first."""
    nlp, matcher = _pipeline("en" if lang == "en" else "zh")
    doc = nlp(text)
    starts: list[int] = doc.user_data["starts"]
    cands = []
    for match_id, s, e in matcher(doc):
        label = nlp.vocab.strings[match_id]
        toks = [t.text for t in doc[s:e]]
        # trim trailing separators and units that a run may have swallowed
        while toks and (toks[-1] in SEPS) and e > s:
            toks.pop()
            e -= 1
        if not toks or not _valid(label, toks, lang):
            continue
        cands.append((s, e, label, toks))
    cands.sort(key=lambda c: (-(c[1] - c[0]), PRIORITY.get(c[2], 5), c[0]))
    taken = [False] * len(doc)
    out: list[RawRef] = []
    for s, e, label, toks in cands:
        if any(taken[s:e]):
            continue
        items = _read_items(label, toks)
        if not items:
            continue
        for i in range(s, e):
            taken[i] = True
        a = starts[s]
        z = starts[e - 1] + len(doc[e - 1].text)
        out.append(RawRef(label, text[a:z], a, tuple(items)))
    out.sort(key=lambda r: r.start)
    return out


# ---------------------------------------------------------------------------------------------
# Resolution

LAW_KIND = {"ccba1999": "law", "ccba2018": "law", "wbf2017": "law", "guandan2017": "article"}


def _segment_level(seg: str, depth: int) -> int:
    """Level of a law-path segment: 0 law, 1 section letter, 2 item number, 3 sub-item, 4 sub-sub."""
    if depth == 0:
        return 0
    if re.fullmatch(r"[A-H]", seg):
        return 1
    if seg.isdigit():
        return 2 if depth <= 2 else 4
    if len(seg) == 1 and seg.islower():
        return 3
    return 4


def _alternatives(seg: str) -> list[str]:
    """Id spellings to try for a label: '(ii)' may be stored as 'ii' or '2', '(1)' as '1' or 'i'."""
    romans = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]
    if seg in romans[1:] or (seg in ("i", "v", "x")):
        return [seg, str(romans.index(seg) + 1)] if seg in romans else [seg]
    if seg.isdigit() and 1 <= int(seg) <= 10:
        return [seg, romans[int(seg) - 1]]
    return [seg]


class Resolver:
    """Resolve raw references of one edition against its clause ids."""

    def __init__(self, corpus: Any) -> None:
        self.ids: dict[str, set[str]] = {name: set(ed.clauses) for name, ed in corpus.editions.items()}

    def exists(self, cid: str) -> bool:
        return cid.split("/", 1)[0] in self.ids and cid in self.ids[cid.split("/", 1)[0]]

    def best(self, edition: str, kind: str, path: tuple[str, ...]) -> tuple[str | None, str]:
        """Most precise existing id for edition/kind/path (trying label spellings), with a note."""
        cited = "/".join((edition, kind, *path))
        for n in range(len(path), 0, -1):
            for cand in self._spellings(path[:n]):
                cid = "/".join((edition, kind, *cand))
                if self.exists(cid):
                    note = "" if n == len(path) else f"nearest existing ancestor of {cited}"
                    return cid, note
        return None, ""

    @staticmethod
    def _spellings(path: tuple[str, ...]) -> list[tuple[str, ...]]:
        outs: list[tuple[str, ...]] = [()]
        for seg in path:
            outs = [o + (alt,) for o in outs for alt in _alternatives(seg)]
        return outs[:8]


def _cited_edition(source: ClauseId) -> str:
    """Within which edition a citation in this clause resolves (004 within wbf2017, etc.)."""
    return source.edition


def _anchor(source_path: tuple[str, ...], level: int) -> tuple[str, ...]:
    """Longest prefix of the citing clause's path whose segments are all above `level`."""
    out: list[str] = []
    for depth, seg in enumerate(source_path):
        if _segment_level(seg, depth) >= level:
            break
        out.append(seg)
    return tuple(out)


def _resolve_item(raw: RawRef, printed: str, path: tuple[str, ...], src: ClauseId, lang: str,
                  res: Resolver, source: str) -> Citation:
    edition = _cited_edition(src)
    kind = "relative"
    form = raw.label
    head = path[0] if path else ""
    if not head.startswith("@"):
        kind = "absolute"
        law_kind = "law"
        if edition == "guandan2017":
            law_kind = "article"
        target, note = res.best(edition, law_kind, path)
        cited = "/".join((edition, law_kind, *path))
        form = _abs_form(raw.label, path)
        reason = "" if target else _unresolved_reason(edition, law_kind, path, res)
        if target and len(path) >= 2 and re.fullmatch(r"[A-H]", path[1]) and target.count("/") <= 2:
            # a section letter the law does not have is a wrong citation, not an imprecise one
            # (1999 23条A款: Law 23 has no sections); keep the law as the nearest clause in the note
            has_sections = any(res.exists(f"{edition}/{law_kind}/{path[0]}/{x}") for x in "ABCDEFGH")
            reason = (f"{edition} {law_kind} {path[0]} has no section {path[1]}"
                      + ("" if has_sections else " (it has no sections)"))
            note, target = f"nearest existing clause: {target}", None
        return Citation(source, raw.text, kind, target, edition, reason, lang, printed, cited,
                        note, form, raw.start)
    if head in ("@article", "@article-item"):
        if head == "@article":
            kind = "absolute"
            apath = path[1:]
        else:
            apath = (src.path[0], *path[1:]) if src.kind == "article" else path[1:]
        target, note = res.best(edition, "article", apath)
        cited = "/".join((edition, "article", *apath))
        return Citation(source, raw.text, kind, target, edition, "" if target else f"no article {cited}", lang,
                        printed, cited, note, raw.label, raw.start)
    if head == "@policy":
        return _resolve_policy(raw, printed, path[1], src, lang, res, source)
    if head == "@sibling":
        apath = src.path[:-1] + path[1:]
        target, note = res.best(edition, src.kind, apath)
        cited = "/".join((edition, src.kind, *apath))
        return Citation(source, raw.text, kind, target, edition, "" if target else f"no clause {cited}", lang,
                        printed, cited, note, raw.label, raw.start)
    # relative to the citing clause
    if src.kind not in ("law", "article") or not src.path:
        return Citation(source, raw.text, kind, None, edition,
                        f"relative reference outside a law ({src})", lang, printed, "", "", raw.label, raw.start)
    comps = [c.split(":", 1) for c in path[1:]]
    if src.kind == "article":
        base = {"@law": src.path[:1], "@sec": src.path[:2], "@item": src.path[:3]}.get(head, src.path[:-1])
        if head == "@auto" and "款" in raw.text:
            base = src.path[:1]   # in the articles 款 is the 一、 level: 上述 1 款（二） = article/N/1/2
        apath = base + tuple(v for _, v in comps)
        apath = tuple(str(cn2int(v)) if re.fullmatch(r"[一二三四五六七八九十]+", v) else v for v in apath)
    else:
        if head == "@law":
            base = src.path[:1]
        elif head == "@sec":
            base = _anchor(src.path, 2)
        elif head == "@item":
            base = _anchor(src.path, 3)
        else:
            base = _anchor(src.path, int(comps[0][0]) if comps else 1)
            # '(b)' relative to an item-less section, 'C2' in a law: the anchor is cut at the right level
        apath = base + tuple(v for _, v in comps)
    target, note = res.best(edition, src.kind, apath)
    cited = "/".join((edition, src.kind, *apath))
    return Citation(source, raw.text, kind, target, edition, "" if target else f"no clause {cited}", lang,
                    printed, cited, note, raw.label, raw.start)


def _resolve_policy(raw: RawRef, printed: str, num: str, src: ClauseId, lang: str, res: Resolver,
                    source: str) -> Citation:
    """'See 2.3.2 below' in a WBF policy: the numbered paragraph of the same policy, or its parent."""
    base = "/".join((src.edition, src.kind, src.path[0])) if src.path else ""
    cited = f"{base}/{num}"
    parts = num.split(".")
    for n in range(len(parts), 0, -1):
        cand = f"{base}/{'.'.join(parts[:n])}"
        if res.exists(cand):
            note = "" if n == len(parts) else f"nearest existing ancestor of {cited}"
            return Citation(source, raw.text, "relative", cand, src.edition, "", lang, printed, cited, note,
                            raw.label, raw.start)
    return Citation(source, raw.text, "relative", None, src.edition, f"no paragraph {num} in {base}", lang,
                    printed, cited, "", raw.label, raw.start)


def _abs_form(label: str, path: tuple[str, ...]) -> str:
    depth = len(path)
    if label.startswith("zh"):
        base = {"zh-law": "第N条", "zh-bare": "N条", "zh-list": "list"}.get(label, label)
        if label == "zh-list":
            return "list"
        return base + ("X款" if depth > 1 else "") + ("d" if depth > 2 else "") + ("(a)" if depth > 3 else "")
    return "Law N" + ("X" if depth > 1 else "") + ("d" if depth > 2 else "") + ("(a)" if depth > 3 else "")


def _unresolved_reason(edition: str, kind: str, path: tuple[str, ...], res: Resolver) -> str:
    law = path[0]
    if not res.exists(f"{edition}/{kind}/{law}"):
        hint = ""
        if law == "6882":
            hint = " (OCR for 68B2: the English half of the line reads 68B2)"
        elif law.strip("0") == "":
            hint = " (in a garbled OCR line)"
        return f"{edition} has no {kind} {law}{hint}"
    return ""


# ---------------------------------------------------------------------------------------------
# Whole corpus


def _texts(corpus: Any) -> Iterator[tuple[str, ClauseId, str, str]]:
    """(source id, clause id to resolve against, lang, text) for every clause text, note and footnote."""
    for ed in corpus.editions.values():
        for c in ed.clauses.values():
            cid = ClauseId.parse(c.id)
            for lang, text in c.text.items():
                if text:
                    yield c.id, cid, lang, text
            if c.level not in ("law", "article"):
                # section and item titles cite too: 2018 38D 可能不适用第 26 条 B 款和第 72 条 C 款
                for lang, text in c.title.items():
                    if text:
                        yield c.id, cid, lang, text
            joined = " ".join(c.text.values())
            for note in c.notes:
                if note and note not in joined:
                    yield c.id, cid, next(iter(c.text), "zh-Hans"), note
        for f in ed.footnotes.values():
            anchor = ClauseId.parse(f.clause) if f.clause else ClauseId.parse(f.id)
            for lang, text in f.text.items():
                if text:
                    yield f.id, anchor, lang, text


TRIGGER = re.compile(r"条|條|款|項|项|Law|判罚尺度|see|See|above|below|following|preceding|上述|以下|上面|下方")


def extract_citations(corpus: Any) -> list[Citation]:
    """Every citation of every edition, resolved within the citing edition (unresolved ones kept)."""
    res = Resolver(corpus)
    out: list[Citation] = []
    for source, cid, lang, text in _texts(corpus):
        if not TRIGGER.search(text):
            continue
        for raw in recognise(text, lang):
            if raw.label == "zh-category" and cid.kind == "article" and cid.path[:1] == ("51",):
                continue   # article 51 defines the categories itself
            if raw.label == "zh-same-item" and cid.kind != "article":
                continue
            if cid.kind == "policy" and raw.label not in ("policy", "law"):
                continue   # policies number their paragraphs 2.3.2; other relative forms are prose there
            for printed, path in raw.items:
                out.append(_resolve_item(raw, printed, path, cid, lang, res, source))
    return out


def citations_by_target(citations: Iterable[Citation]) -> dict[str, list[Citation]]:
    """Cited-by index: target clause id -> the citations that resolve to it (document order)."""
    by: dict[str, list[Citation]] = defaultdict(list)
    for c in citations:
        if c.target:
            by[c.target].append(c)
    return dict(by)


def citation_stats(citations: Iterable[Citation]) -> dict[str, Any]:
    """Counts per edition, language and form, resolution rate, for `graph stats` and the report."""
    cits = list(citations)
    forms: Counter[tuple[str, str, str, str]] = Counter()
    law_tokens: Counter[tuple[str, str]] = Counter()
    seen: set[tuple[str, str, int]] = set()
    for c in cits:
        forms[(c.edition, c.lang, c.kind, c.form)] += 1
        key = (c.source, c.lang, c.offset)
        if c.form.startswith("Law") and key not in seen:
            seen.add(key)
            law_tokens[(c.edition, c.lang)] += len(re.findall(r"\bLaws?\b", c.text))
    resolved = sum(1 for c in cits if c.target)
    return {
        "total": len(cits),
        "resolved": resolved,
        "rate": resolved / len(cits) if cits else 1.0,
        "forms": {"/".join(k): v for k, v in sorted(forms.items())},
        "law_tokens": {"/".join(k): v for k, v in sorted(law_tokens.items())},
        "unresolved": [c for c in cits if not c.target],
    }


def cached_citations(corpus: Any) -> list[Citation]:
    """`extract_citations`, kept as JSON in the cache folder keyed by corpus and code fingerprints.

    Readers that only need the result (the app's cites and cited-by links) then skip spaCy, whose
    import pulls in torch through thinc (1.5 s and 250 MB).
    """
    import json
    from dataclasses import asdict

    from ..cache import cache_dir, code_fingerprint

    key = f"{corpus.fingerprint[:16]}-{code_fingerprint('graph/citations.py', 'parse')[:16]}"
    path = cache_dir("citations") / f"{key}.json"
    if path.is_file():
        try:
            return [Citation(**row) for row in json.loads(path.read_text(encoding="utf-8"))]
        except (ValueError, TypeError):
            pass                        # a damaged cache file is rebuilt below
    cits = extract_citations(corpus)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps([asdict(c) for c in cits], ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    return cits
