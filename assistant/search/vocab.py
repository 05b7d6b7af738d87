"""The terminology crosswalk as search needs it: expand a query's terms across editions and scripts.

A thin view of `assistant.terminology` (the one reader of `data/terms.tsv`) in search's matching form
(simplified script, lower case).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..text import t2s

if TYPE_CHECKING:
    from ..terminology import Terminology


def norm(s: str) -> str:
    """Matching form: simplified script, lower case, single spaces."""
    return re.sub(r"\s+", " ", t2s(s).lower()).strip()


class Vocabulary:
    """Terminology.expand / jieba_words in matching form."""

    def __init__(self, terms: "Terminology") -> None:
        self._t = terms

    def expand(self, text: str) -> list[str]:
        """Labels of every concept named in `text`, in every edition and script (matching form)."""
        return [norm(x) for x in self._t.expand(text) if x and len(norm(x)) >= 2]

    def jieba_words(self) -> list[str]:
        """Chinese labels, for jieba's user dictionary."""
        return [t2s(w) for w in self._t.jieba_words()]


@lru_cache(maxsize=1)
def load_vocabulary() -> Vocabulary:
    """The project's terminology crosswalk (a broken terms.tsv is an error, never an empty vocabulary)."""
    from ..terminology import load_terminology

    return Vocabulary(load_terminology())
