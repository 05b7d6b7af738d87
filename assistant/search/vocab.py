"""The terminology crosswalk as search needs it: expand a query's terms across editions and scripts.

Uses `assistant.terminology` when it is installed; until then reads the shared `terms.tsv`
(English | 1999 | 2018 | Taiwan columns) directly. One small adapter, so switching over is one line.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ..text import t2s

PROJECT_TERMS = Path(__file__).resolve().parent.parent / "data" / "terms.tsv"
PAREN_RE = re.compile(r"[（(][^）)]*[）)]")


class Vocabulary(Protocol):
    def expand(self, text: str) -> list[str]: ...

    def jieba_words(self) -> list[str]: ...


def norm(s: str) -> str:
    """Matching form: simplified script, lower case, single spaces."""
    return re.sub(r"\s+", " ", t2s(s).lower()).strip()


def _labels(cell: str) -> list[str]:
    """'牌套(盒)' -> ['牌套'], '发牌或牌局' -> ['发牌或牌局', '发牌', '牌局'], 'A / B' -> ['A', 'B']."""
    out: list[str] = []
    for part in re.split(r"\s*/\s*", cell.strip()):
        bare = PAREN_RE.sub("", part).strip()
        inner = [m.strip("（）() ") for m in PAREN_RE.findall(part)]
        for lab in [bare, *([f"{bare} {i}" for i in inner if re.match(r"^[a-z ]+$", i)])]:
            if lab:
                out.append(lab)
        if "或" in bare and len(bare) >= 5:
            out += [x for x in bare.split("或") if x]
    return out


@dataclass
class TsvVocabulary:
    """Concepts from terms.tsv: each row one concept, its labels in every edition and script."""

    concepts: list[list[str]] = field(default_factory=list)   # labels per concept, matching form

    @classmethod
    def load(cls, path: Path) -> "TsvVocabulary":
        concepts: list[list[str]] = []
        with path.open(encoding="utf-8") as f:
            rows = list(csv.reader(f, delimiter="\t"))
        for row in rows[1:]:
            cells = [row[i] for i in (0, 1, 3, 5) if i < len(row)]
            labels: list[str] = []
            for cell in cells:
                for lab in _labels(cell):
                    n = norm(lab)
                    if len(n) >= 2 and n not in labels:
                        labels.append(n)
            if labels:
                concepts.append(labels)
        return cls(concepts)

    def _spans(self, q: str) -> list[tuple[int, int, int]]:
        """(start, end, concept) of label matches in normalised q, longest first, non-overlapping."""
        found: list[tuple[int, int, int]] = []
        cands = sorted(((lab, i) for i, labs in enumerate(self.concepts) for lab in labs),
                       key=lambda x: -len(x[0]))
        taken = [False] * len(q)
        for lab, i in cands:
            pat = re.escape(lab) if re.search(r"[\u3400-\u9fff]", lab) else r"\b" + re.escape(lab) + r"(?:s|es|ed|d)?\b"
            for m in re.finditer(pat, q):
                if not any(taken[m.start():m.end()]):
                    for k in range(m.start(), m.end()):
                        taken[k] = True
                    found.append((m.start(), m.end(), i))
        return found

    def expand(self, text: str) -> list[str]:
        """Labels of every concept named in `text`, in every edition and script (matching form)."""
        q = norm(text)
        out: list[str] = []
        for _, _, i in self._spans(q):
            for lab in self.concepts[i]:
                if lab not in out:
                    out.append(lab)
        return out

    def jieba_words(self) -> list[str]:
        return sorted({lab for labs in self.concepts for lab in labs if re.search(r"[\u3400-\u9fff]", lab)})


class _TerminologyAdapter:
    """Wraps assistant.terminology's Terminology (expand / jieba_words) in the same interface."""

    def __init__(self, term: object) -> None:
        self._t = term

    def expand(self, text: str) -> list[str]:
        return [norm(x) for x in self._t.expand(text) if x and len(norm(x)) >= 2]  # type: ignore[attr-defined]

    def jieba_words(self) -> list[str]:
        return [t2s(w) for w in self._t.jieba_words()]  # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """The project's terminology if it loads, else the shared TSV; an empty vocabulary if neither."""
    try:
        from ..terminology import load_terminology  # type: ignore[import-not-found]

        return _TerminologyAdapter(load_terminology())
    except Exception:  # noqa: BLE001 - a broken crosswalk must not stop search: read its TSV plainly
        pass
    if PROJECT_TERMS.is_file():
        return TsvVocabulary.load(PROJECT_TERMS)
    return TsvVocabulary([])
