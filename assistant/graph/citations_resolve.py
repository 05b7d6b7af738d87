"""Resolve recognised references against the clause ids of the citing edition, at the most precise
existing level; relative references are read from the citing clause's own path."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..model import ClauseId
from ..text import cn2int
from .citations_recognise import RawRef


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


def resolve_item(raw: RawRef, printed: str, path: tuple[str, ...], src: ClauseId, lang: str,
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
