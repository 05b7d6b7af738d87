"""Clause ids written as a director writes them: 'Law 27B1(a)', '第27条B款1(a)', 'Article 22.2'.

The id stays the link (`bridgelaw show ID`); this is only its printed form, per language.
"""

from __future__ import annotations

from ..model import ClauseId

_ZH = {"zh-Hans": ("第", "条", "款", "竞赛规则"), "zh-Hant": ("第", "條", "款", "競賽規則")}


def _law_tail(path: tuple[str, ...]) -> tuple[str, str]:
    """The section letter and the rest: ('B', '1(a)(ii)') for ('B', '1', 'a', 'ii')."""
    section = path[0] if path and path[0].isalpha() and path[0].isupper() else ""
    rest = path[1:] if section else path
    tail = rest[0] if rest else ""
    tail += "".join(f"({p})" for p in rest[1:])
    return section, tail


def cite_label(clause_id: str, lang: str = "en") -> str:
    """The printed form of a clause id in `lang` (en, zh-Hans, zh-Hant); the id itself if unreadable."""
    try:
        cid = ClauseId.parse(clause_id)
    except ValueError:
        return clause_id
    if not cid.path:
        return clause_id
    number, rest = cid.path[0], cid.path[1:]
    zh = _ZH.get(lang)
    if cid.kind == "law":
        section, tail = _law_tail(rest)
        if zh:
            return f"{zh[0]}{number}{zh[1]}" + (f"{section}{zh[2]}" if section else "") + tail
        return f"Law {number}{section}{tail}"
    if cid.kind == "article":
        if zh:
            return f"{zh[3]}{zh[0]}{number}{zh[1]}" + "".join(f"({p})" for p in rest)
        return f"Article {'.'.join(cid.path)}"
    if cid.kind == "definition":
        return ("定義：" if lang == "zh-Hant" else "定义：" if zh else "Definitions: ") + number
    return f"{cid.kind} {' '.join(cid.path)}"


def cite_labels(ids: list[str], lang: str = "en") -> list[dict[str, str]]:
    """[{'id': …, 'label': …}] for JSON output: the printed form beside the link."""
    return [{"id": i, "label": cite_label(i, lang)} for i in ids]
