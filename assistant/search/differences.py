"""Whether a result's editions differ, judged on the counterpart clauses its card shows: a shown clause
that changed in substance (the index's `changes`, from assistant.diff), a shown row without a counterpart
in some edition, or a law whose subject changed. Without recorded changes (a law the differences layer
cannot pair), the 1999 and 2018 texts of the law are compared."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from ..model import ClauseId
from .cards import Card

MAX_CHANGES_SHOWN = 12      # changed clauses listed per result (a whole law can have dozens)


def differences(info: dict[str, object], g: str, card: Card,
                clauses: dict[str, dict[str, object]]) -> tuple[bool, list[dict[str, str]]]:
    """(differs, the changed clauses shown with their counterpart and class)."""
    changes_map: dict[str, list[list[str]]] | None = info.get("changes")  # type: ignore[assignment]
    if changes_map is None:
        return text_differs(info, g, clauses), []
    out: list[dict[str, str]] = []
    for cid in dict.fromkeys(h.id for h in card.hits):
        # the clause shown, or a clause under it (64B shown; 64B7 and 64B8 are new)
        for changed in (k for k in changes_map if k == cid or k.startswith(cid + "/")):
            for other, cls in changes_map[changed]:
                out.append({"id": changed, "counterpart": other, "class": cls})
    return bool(out) or bool(card.no_counterpart) or bool(info.get("differs_law")), out[:MAX_CHANGES_SHOWN]


def text_differs(info: dict[str, object], g: str, clauses: dict[str, dict[str, object]]) -> bool:
    """Editions differ when the 1999 and 2018 texts of a law diverge (sections or wording)."""
    roots: dict[str, str] = info.get("root", {})  # type: ignore[assignment]
    if "differs" in info:
        return bool(info["differs"])
    if not g.startswith("law:") or "ccba1999" not in roots or "ccba2018" not in roots:
        return False

    def law_text(ed: str) -> tuple[str, set[str]]:
        ids: list[str] = dict(info["clauses"]).get(ed, [])  # type: ignore[call-overload]
        secs = {p[1] for p in (ClauseId.parse(i).path for i in ids) if len(p) > 1}
        text = "".join(str(dict(clauses[i]["text"]).get("zh-Hans", "")) for i in ids)  # type: ignore[call-overload]
        return re.sub(r"\W", "", text), secs

    a, sa = law_text("ccba1999")
    b, sb = law_text("ccba2018")
    if sa != sb:
        return True
    return (SequenceMatcher(None, a[:1500], b[:1500], autojunk=False).ratio() if a and b else 0.0) < 0.5
