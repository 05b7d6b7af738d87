"""The spaCy Matcher patterns of the corpus recogniser: one label per citation form, over token classes.

Token classes are the NORM values `citations_tokens.RefTokenizer` gives each token (NUM2, LAWREF, SEC …).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .citations_tokens import RefTokenizer

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
def pipeline(lang: str) -> tuple[Any, Any]:
    """Blank spaCy pipeline ('zh' or 'en') with RefTokenizer and the citation Matcher (cached)."""
    import spacy
    from spacy.matcher import Matcher

    nlp = spacy.blank(lang)
    nlp.tokenizer = RefTokenizer(nlp.vocab)
    matcher = Matcher(nlp.vocab)
    for label, patterns in (ZH_PATTERNS if lang == "zh" else EN_PATTERNS).items():
        matcher.add(label, patterns)
    return nlp, matcher
