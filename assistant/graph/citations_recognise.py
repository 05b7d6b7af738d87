"""Recognise the references in one law text (spaCy Matcher over `RefTokenizer` tokens) and read each
matched span into list members with their paths, before resolution against a corpus."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..text import cn2int
from .citations_patterns import POS_EN, SEPS, pipeline
from .citations_tokens import PAREN, paren_level, renumber, split_comp, split_ref


@dataclass(frozen=True)
class RawRef:
    """One recognised reference before resolution."""

    label: str                       # the Matcher label
    text: str                        # matched span as printed
    start: int                       # char offset in the text
    items: tuple[tuple[str, tuple[str, ...]], ...]  # (item as printed, path segments) per list member



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
            comps.extend(split_comp(t))
        comps = renumber(comps)
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
            num, parts = split_ref(t)
            if num is not None:
                out.append((t, (num, *[v for _, v in parts])))
        return out
    if label == "policy":
        return [(t, ("@policy", t)) for t in toks if re.fullmatch(r"\d+(?:\.\d+)+", t)]
    if label == "this-law":
        return [(" ".join(toks), ("@law", *[f"1:{t}" for t in toks if re.fullmatch(r"[A-H]", t)]))]
    return _read_relative(label, toks)


def _read_relative(label: str, toks: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Relative forms: the components after a trigger (本款, 上述, see …), split into list members;
    each path starts with its anchor marker and holds 'level:label' components."""
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
        elif re.fullmatch(rf"[A-H]\d{{1,2}}(?:{PAREN})*|\d{{1,2}}(?:{PAREN})*|{PAREN}", t):
            new = split_comp(t) if t[0] not in "(（" else [(paren_level(t[1:-1], items[-1]), t[1:-1])]
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
    for comps, pr in zip(items, printed, strict=False):
        if comps:
            comps = renumber(comps)
            out.append((" ".join(pr), (anchor, *[f"{lvl}:{v}" for lvl, v in comps])))
    if not out and anchor != "@auto":
        out.append(("".join(toks), (anchor,)))
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
    nlp, matcher = pipeline("en" if lang == "en" else "zh")
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
