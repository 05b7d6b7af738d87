"""The records of an exam: one question (stem, options, answer, cited clause ids) and a question set.

Generators fill `Question`s; exporters only read them. `meta` keeps what a test needs to re-check a
question against its source (the tree path, the concept, the change class) without re-deriving it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..editions import LANGS, default_edition, editions, law_editions
from ..errors import BridgelawError

# question kinds, in the order a mixed set presents them
KINDS: tuple[str, ...] = ("ruling", "which_law", "cloze", "change", "matching")
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")
FORMATS: tuple[str, ...] = ("md", "csv", "html")
# editions an exam can be set on (guandan2017 is another game) and the languages each prints
EXAM_EDITIONS: dict[str, tuple[str, ...]] = {name: editions()[name].languages for name in law_editions()}
DEFAULT_EDITION: dict[str, str] = {lang: default_edition(lang) for lang in LANGS}


class BadExamOptions(BridgelawError):
    """Options that cannot make an exam: unknown kind, edition without that language, n out of range."""

    exit_code = 2


class NothingToAsk(BridgelawError):
    """The options leave no material for any question (e.g. a chapter with no usable clause)."""

    exit_code = 1


@dataclass
class Question:
    """One exam question; `options` is empty for a free-answer question."""

    kind: str                        # one of KINDS
    stem: str                        # the question as printed, in the exam language
    answer: str                      # the correct answer as printed
    cites: list[str]                 # clause ids the answer rests on (all exist in the corpus)
    options: list[str] = field(default_factory=list)
    answer_index: int | None = None  # index of `answer` in `options`
    explanation: str = ""            # one line for the answer key (in the exam language)
    tags: list[str] = field(default_factory=list)
    key: str = ""                    # stable identity of the material: 'which_law:wbf2017/law/64/A/1'
    meta: dict[str, object] = field(default_factory=dict)

    @property
    def letter(self) -> str:
        return "ABCDEFGH"[self.answer_index] if self.answer_index is not None else ""

    @property
    def distractors(self) -> list[str]:
        return [o for i, o in enumerate(self.options) if i != self.answer_index]


@dataclass
class ExamSet:
    """A generated set: the options that made it and its questions, numbered in order."""

    edition: str
    lang: str
    kinds: list[str]
    difficulty: str
    seed: int
    topics: list[str]
    chapters: list[str]
    questions: list[Question]
    requested: int
    shortfall: dict[str, int] = field(default_factory=dict)   # kind -> questions it could not supply

    def counts(self) -> dict[str, int]:
        """Questions per kind, in KINDS order."""
        out = {k: 0 for k in KINDS if k in self.kinds}
        for q in self.questions:
            out[q.kind] = out.get(q.kind, 0) + 1
        return out
