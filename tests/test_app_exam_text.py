"""What the Exam page shows and exports reads as an exam, not as the program's data: no edition tag
(ccba1999, wbf2017 …), language tag or internal name in any question text or answer option — over seeds
0–19 of every question kind in every edition and language — and the export's settings line in the
exam's language (no `zh-Hans`, no `medium`)."""

from __future__ import annotations

import re

import pytest

from assistant.editions import names
from assistant.exam import DIFFICULTIES, KINDS, generate, render
from assistant.exam.export import summary
from assistant.exam.model import EXAM_EDITIONS, ExamSet, Question

# an edition or language tag, or a snake_case internal name (which_law, offender_partner)
LEAK = re.compile(r"\b(?:%s)\b|\bzh-Han[st]\b|\b[a-z]+_[a-z_]+\b" % "|".join(names()))


def leaks(q: Question) -> list[str]:
    """The printed parts of a question that carry a tag: stem, options, answer, and the explanation when
    it is printed (an explanation that only repeats a cited id is not printed)."""
    parts = [q.stem, q.answer, *q.options]
    if q.explanation and q.explanation not in q.cites:
        parts.append(q.explanation)
    return [p[:120] for p in parts if LEAK.search(p)]


@pytest.mark.parametrize("seed", range(20))
def test_no_tag_in_any_question_text_or_option(seed: int) -> None:
    seen: set[tuple[str, str, str]] = set()
    bad = []
    for edition, langs in EXAM_EDITIONS.items():
        for lang in langs:
            for kind in KINDS:
                exam = generate(kinds=[kind], edition=edition, lang=lang, n=20, seed=seed)
                for q in exam.questions:
                    seen.add((edition, lang, q.kind))
                    bad += [(edition, lang, kind, text) for text in leaks(q)]
    assert not bad, bad[:10]
    assert {k for _e, _l, k in seen} == set(KINDS), "every kind produced questions"


def test_the_leak_check_sees_a_tag() -> None:
    q = Question("which_law", "Which law of wbf2017 says this?", "Law 64", ["wbf2017/law/64"],
                 options=["Law 64", "ccba2018 Law 63"], answer_index=0)
    assert len(leaks(q)) == 2


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("edition, lang", [(e, lg) for e, langs in EXAM_EDITIONS.items() for lg in langs])
def test_the_settings_line_is_in_the_exams_language(edition: str, lang: str, difficulty: str) -> None:
    exam = ExamSet(edition, lang, list(KINDS), difficulty, 7, [], [], [], 0)
    line = summary(exam)
    assert not LEAK.search(line) and not re.search(r"\b(?:seed|zh|en)\b", line), line
    assert "7" in line
    if lang != "en":        # English difficulty words are the internal names; Chinese ones never are
        assert not re.search(r"[A-Za-z]{3,}", line.replace("WBF", "")), line
    for fmt in ("md", "html"):
        assert line in render(exam, fmt).replace("&#x27;", "'")
