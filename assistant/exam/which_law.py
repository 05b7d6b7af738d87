"""Kind 2, "which law applies": a clause's text without its law number or title; options are laws
(or CCBA 2018 articles) of the same chapter, none of which holds that text.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..model import Clause, ClauseId
from . import sources
from .model import Question
from .scope import Scope, first_built, clause_text, clean, place
from .text import contains, edition_name, law_label, mentions_number, norm, phrase

LEVELS = ("section", "item", "subitem", "subsubitem", "subsubsubitem")


def _top(c: Clause) -> Clause:
    top = sources.clause(str(ClauseId(c.edition, c.cid.kind, c.cid.path[:1])))
    assert top is not None
    return top


@lru_cache(maxsize=8)
def _law_texts(edition: str, lang: str) -> dict[tuple[str, str], str]:
    """(kind, number) -> the normalised texts of the whole law, to tell whether a text is in it."""
    out: dict[tuple[str, str], list[str]] = {}
    for c in sources.clauses(edition):
        if c.cid.kind in ("law", "article") and c.cid.path:
            out.setdefault((c.cid.kind, c.cid.path[0]), []).append(norm(c.text.get(lang, "")))
    return {k: "\u0000".join(v) for k, v in out.items()}


def candidates(scope: Scope) -> list[Clause]:
    """Clauses whose text makes a fair stem: clean, of a fitting length, naming neither its law nor title."""
    kinds = ("law", "article") if scope.edition == "ccba2018" else ("law",)
    out = []
    for c in sources.clauses(scope.edition):
        if c.cid.kind not in kinds or c.level not in LEVELS or not scope.admits(c):
            continue
        text = clause_text(c, scope.lang)
        lo, hi = scope.stem_bounds(text)
        if not lo <= len(text) <= hi or not clean(text, scope.lang):
            continue
        top = _top(c)
        title = top.title.get(scope.lang, "")
        if mentions_number(text, top.number) or (len(norm(title)) >= 2 and contains(text, title)):
            continue
        out.append(c)
    return out


def _siblings(scope: Scope, top: Clause) -> list[Clause]:
    """Other laws (or articles) of the same chapter, nearest number first; then the nearest others."""
    same_kind = [c for c in sources.corpus().editions[scope.edition].laws() if c.cid.kind == top.cid.kind
                 and c.id != top.id]
    chapter = sources.chapter_of(top)
    dist = lambda c: (abs(int(c.number) - int(top.number)), int(c.number))  # noqa: E731
    inside = sorted((c for c in same_kind if sources.chapter_of(c) == chapter), key=dist)
    outside = sorted((c for c in same_kind if sources.chapter_of(c) != chapter), key=dist)
    return inside + outside


def build(scope: Scope, rng: random.Random, c: Clause) -> Question | None:
    top = _top(c)
    text = clause_text(c, scope.lang)
    key_text = norm(c.text.get(scope.lang, ""))
    texts = _law_texts(scope.edition, scope.lang)
    label = lambda law: law_label(law.cid.kind, law.number, law.title.get(scope.lang, ""), scope.lang)  # noqa: E731
    answer = label(top)
    pool = [s for s in _siblings(scope, top) if key_text not in texts.get((s.cid.kind, s.number), "")]
    k = scope.n_options - 1
    chapter_pool = [s for s in pool if sources.chapter_of(s) == sources.chapter_of(top)]
    if len(chapter_pool) >= k:
        pool = chapter_pool
    near = pool[: k + 2] if scope.difficulty == "hard" else pool[: max(k * 3, 6)]
    picked = sorted(rng.sample(near, min(k, len(near))), key=lambda s: int(s.number))
    distractors = list(dict.fromkeys(label(s) for s in picked if label(s) != answer))
    if len(distractors) < k:
        return None
    options, idx = place(rng, answer, distractors)
    template = "which_article_stem" if top.cid.kind == "article" else "which_law_stem"
    stem = phrase(template, scope.lang, edition=edition_name(scope.edition, scope.lang), text=text)
    return Question(
        kind="which_law", stem=stem, answer=answer, options=options, answer_index=idx, cites=[c.id],
        explanation=c.id, tags=[f"law::{top.number}" if top.cid.kind == "law" else f"article::{top.number}"],
        key=f"which_law:{c.id}", meta={"law": top.id, "distractor_laws": [s.id for s in picked]})


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n questions, at most one per law until every law has one."""
    return first_built(rng, candidates(scope), n, lambda c: f"{c.cid.kind}/{c.cid.path[0]}", lambda item: build(scope, rng, item))
