"""The alignment's data: curated correspondences and review decisions (data/alignment.yaml), and the
terminology folds that let two editions' texts be compared (read through assistant.terminology).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from ..errors import CorpusParseError

ALIGNMENT_FILE = Path(__file__).resolve().parent.parent / "data" / "alignment.yaml"
KINDS = ("same", "renumbered", "moved", "merged", "split", "new", "removed", "different_subject", "revised")
DECISIONS = ("keep", "reject")
REVIEW_KEY = "review"          # the section of alignment.yaml holding the review decisions


@dataclass(frozen=True)
class Decision:
    """A reviewed computed pair: 'keep' (a true counterpart) or 'reject' (same label, other subject)."""

    from_id: str
    to_id: str
    decision: str
    reason: str


def _load() -> dict[str, Any]:
    try:
        data = yaml.safe_load(ALIGNMENT_FILE.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as err:
        raise CorpusParseError(str(ALIGNMENT_FILE), f"cannot read curated alignment ({err})",
                               fix="restore assistant/data/alignment.yaml") from None
    if not isinstance(data, dict):
        raise CorpusParseError(str(ALIGNMENT_FILE), "not a mapping of edition pairs",
                               fix="restore assistant/data/alignment.yaml")
    return data


@lru_cache(maxsize=1)
def curated() -> dict[str, list[dict[str, Any]]]:
    """The curated correspondences per edition pair ('ccba1999-ccba2018': [...]), checked for kind and fields."""
    out: dict[str, list[dict[str, Any]]] = {}
    for pair, entries in _load().items():
        if pair == REVIEW_KEY:
            continue
        for e in entries or []:
            if e.get("kind") not in KINDS or not e.get("source") or not (e.get("from") or e.get("to")):
                raise CorpusParseError(str(ALIGNMENT_FILE), f"bad entry in {pair}: {e}",
                                       fix=f"each entry needs from/to, a kind of {', '.join(KINDS)} and a source")
        out[pair] = list(entries or [])
    return out


@lru_cache(maxsize=1)
def decisions() -> dict[str, dict[tuple[str, str], Decision]]:
    """The review decisions per edition pair, by (from, to); each needs both ids, a decision and a reason."""
    out: dict[str, dict[tuple[str, str], Decision]] = {}
    for pair, entries in (_load().get(REVIEW_KEY) or {}).items():
        table = out.setdefault(pair, {})
        for e in entries or []:
            if not (e.get("from") and e.get("to") and e.get("decision") in DECISIONS and e.get("reason")):
                raise CorpusParseError(str(ALIGNMENT_FILE), f"bad review entry in {pair}: {e}",
                                       fix=f"each review entry needs from, to, a decision of {', '.join(DECISIONS)} "
                                           "and a reason")
            key = (e["from"], e["to"])
            if key in table:
                raise CorpusParseError(str(ALIGNMENT_FILE), f"review decision for {key} given twice",
                                       fix="keep one decision per pair")
            table[key] = Decision(e["from"], e["to"], e["decision"], e["reason"])
    return out


def rejected(pair: str) -> frozenset[tuple[str, str]]:
    """The computed pairs a reviewer rejected for one edition pair."""
    return frozenset(k for k, d in decisions().get(pair, {}).items() if d.decision == "reject")


@lru_cache(maxsize=1)
def term_folds() -> dict[str, tuple[tuple[str, str], ...]]:
    """Replacements (longest first) that rewrite ccba1999's and wbf2017's (t2s) preferred terms as ccba2018's."""
    from ..terminology import load_terminology
    from ..text import t2s

    folds: dict[str, list[tuple[str, str]]] = {"ccba1999": [], "wbf2017": []}
    for concept in load_terminology().concepts.values():
        target = next(iter(concept.forms("ccba2018", roles=("pref",))), "")
        if not target:
            continue
        for ed in folds:
            for lb in concept.labels:
                if lb.edition != ed or lb.role != "pref" or lb.lang == "en":
                    continue
                src = t2s(lb.form) if ed == "wbf2017" else lb.form
                if src and src != target:
                    folds[ed].append((src, target))
    return {ed: tuple(sorted(pairs, key=lambda p: -len(p[0]))) for ed, pairs in folds.items()}
