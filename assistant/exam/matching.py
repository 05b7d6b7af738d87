"""Kind 5, terms across editions and scripts: 明手 (CCBA) ↔ 夢家 (Taiwan) ↔ Dummy (WBF English).

The stem gives a concept's label in another edition or script; the options are labels of the exam's
own edition and script. Source labels that name more than one concept (叫牌, 賽員) are not asked.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ..text import s2t
from . import sources
from .model import Question
from .scope import Scope, first_built, place
from .text import contains, norm, phrase, scope_name, term_pattern

# (edition, language) columns of the crosswalk
COLUMNS: tuple[tuple[str, str], ...] = (("ccba1999", "zh-Hans"), ("ccba2018", "zh-Hans"),
                                         ("wbf2017", "zh-Hant"), ("wbf2017", "en"))


@dataclass(frozen=True)
class Item:
    concept: str
    source: tuple[str, str]
    source_form: str
    target_form: str


@lru_cache(maxsize=64)
def cite_for(concept_id: str, edition: str, lang: str, form: str) -> str | None:
    """A clause that shows the label: the edition's definition of the concept, else its first use."""
    ed = sources.corpus().editions[edition]
    for c in ed.definitions():
        if sources.definition_concept(c) == concept_id:
            return c.id
    pat = term_pattern(form)
    for c in ed.clauses.values():
        if c.cid.kind == "law" and pat.search(c.text.get(lang, "")):
            return c.id
    return None


def _target(scope: Scope) -> tuple[str, str]:
    return (scope.edition, scope.lang)


def candidates(scope: Scope) -> list[Item]:
    target = _target(scope)
    out = []
    for c in sources.concepts():
        tforms = sources.labels(c, *target)
        if not tforms:
            continue
        for src in COLUMNS:
            if src == target:
                continue
            sforms = sources.labels(c, *src)
            if not sforms:
                continue
            s_form, t_form = sforms[0], tforms[0]
            if norm(s_form) == norm(t_form):
                continue
            if scope.difficulty == "hard" and src[1] == "en":
                continue      # hard: Chinese to Chinese only
            if scope.difficulty == "hard" and src[1] != "en" and target[1] != "en" and norm(s2t(s_form)) == norm(s2t(t_form)):
                continue      # hard: only pairs that script conversion does not bridge
            if sources.concepts_named(s_form, src[0]) != (c.id,):
                continue      # the source label is ambiguous in its edition
            if src[1] != "en" and target[1] != "en" and src[0] == target[0]:
                continue
            out.append(Item(c.id, src, s_form, t_form))
    return out


def build(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    target = _target(scope)
    concept = sources.terminology().concepts[item.concept]
    own = {norm(f) for f in sources.labels(concept, *target, ("pref", "alt", "hidden"))}
    pool = []
    for c in sources.concepts():
        if c.id == item.concept:
            continue
        forms = sources.labels(c, *target)
        if not forms or norm(forms[0]) in own:
            continue
        if item.concept in sources.concepts_named(forms[0], target[0]):
            continue      # a collision: this label also names the answer concept here
        pool.append(forms[0])
    pool = sorted(set(pool))
    k = scope.n_options - 1
    if len(pool) < k:
        return None
    if scope.difficulty != "easy":
        pool = sorted(pool, key=lambda f: (abs(len(f) - len(item.target_form)), f))[: k * 4]
    distractors = rng.sample(pool, k)
    cites = [x for x in (cite_for(item.concept, item.source[0], item.source[1], item.source_form),
                         cite_for(item.concept, target[0], target[1], item.target_form)) if x]
    if len(cites) < 2:
        return None
    options, idx = place(rng, item.target_form, distractors)
    stem = phrase("matching_stem", scope.lang, source=scope_name(item.source[0], item.source[1], scope.lang),
                  term=item.source_form, target=scope_name(target[0], target[1], scope.lang))
    if contains(stem, item.target_form):
        return None
    return Question(
        kind="matching", stem=stem, answer=item.target_form, options=options, answer_index=idx,
        cites=list(dict.fromkeys(cites)), explanation=f"{item.source_form} = {item.target_form}",
        tags=[f"concept::{item.concept}"], key=f"matching:{item.concept}:{item.source[0]}/{item.source[1]}",
        meta={"concept": item.concept, "source": list(item.source), "source_form": item.source_form})


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n questions, one per concept first."""
    return first_built(rng, candidates(scope), n, lambda it: it.concept, lambda item: build(scope, rng, item))
