"""Kind 3, key-term cloze: a definition with its term asked for, or a law clause with a key term blanked.

Terms come from the terminology crosswalk; the answer is the concept's label in the exam's edition and
script (夢家 in the Taiwan text, 明手 in the CCBA texts, Dummy in English). Distractors are labels of
other concepts of the same edition, never a label of the answer's concept.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ..model import Clause
from . import sources
from .model import Question
from .scope import Scope, first_built, clause_text, clean, place
from .text import BLANK, blank_out, contains, edition_name, is_cjk, law_label, norm, phrase, term_pattern

MIN_CJK_TERM = 2
# English labels that running text mostly uses as verbs or common words ("deals solely with", "may
# play"): blanking them would ask for a word, not the term
VERB_LIKE_EN = frozenset({"bid", "call", "claim", "deal", "double", "game", "hand", "lead", "pass", "play",
                          "redouble", "round", "side", "turn", "cancelled", "event", "board", "pack"})
CLAUSE_LEVELS = ("section", "item", "subitem", "subsubitem", "subsubsubitem")


@dataclass(frozen=True)
class Item:
    """One cloze: the clause, the concept blanked and the label printed in the text."""

    clause: str
    concept: str
    form: str
    definition: bool


@lru_cache(maxsize=8)
def _forms(edition: str, lang: str) -> tuple[tuple[str, str], ...]:
    """(label, concept id) of every concept in one edition and language, longest label first."""
    out = []
    for c in sources.concepts():
        for f in sources.labels(c, edition, lang):
            if (is_cjk(f) and len(f) >= MIN_CJK_TERM) or (not is_cjk(f) and len(f) >= 3
                                                         and f.casefold() not in VERB_LIKE_EN):
                out.append((f, c.id))
    return tuple(sorted(set(out), key=lambda x: (-len(x[0]), x[0], x[1])))


def _answer_form(concept_id: str, scope: Scope) -> str | None:
    c = sources.terminology().concepts[concept_id]
    forms = sources.labels(c, scope.edition, scope.lang)
    return forms[0] if forms else None


def _definition_items(scope: Scope) -> list[Item]:
    out = []
    for c in sources.corpus().editions[scope.edition].definitions():
        text = clause_text(c, scope.lang)
        concept = sources.definition_concept(c)
        if not concept or not text or not clean(text, scope.lang):
            continue
        if scope.laws is not None or scope.chapters:
            continue          # definitions sit outside the laws and chapters a scope names
        form = _answer_form(concept, scope)
        if form:
            out.append(Item(c.id, concept, form, True))
    return out


def _spans(text: str, forms: tuple[tuple[str, str], ...]) -> list[tuple[int, int, str, str]]:
    """Longest-first, non-overlapping label matches in a text: (start, end, label, concept)."""
    taken: list[tuple[int, int, str, str]] = []
    for form, cid in forms:
        for m in term_pattern(form).finditer(text):
            if all(m.end() <= s or m.start() >= e for s, e, _, _ in taken):
                taken.append((m.start(), m.end(), form, cid))
    return sorted(taken)


@lru_cache(maxsize=32)
def _clause_items(scope: Scope) -> tuple[Item, ...]:
    """Clauses with a term to blank out (found once per scope: every seed draws from the same items)."""
    forms = _forms(scope.edition, scope.lang)
    out = []
    for c in sources.clauses(scope.edition):
        if c.cid.kind != "law" or c.level not in CLAUSE_LEVELS or not scope.admits(c):
            continue
        text = clause_text(c, scope.lang)
        lo, hi = scope.stem_bounds(text)
        if not lo <= len(text) <= hi or not clean(text, scope.lang):
            continue
        spans = _spans(text, forms)
        for form, cid in sorted({(f, k) for _, _, f, k in spans}):
            hits = [s for s in spans if s[2] == form]
            # every occurrence of the label must be this term (not part of a longer one)
            if len(hits) == len(list(term_pattern(form).finditer(text))) and _answer_form(cid, scope) == form:
                out.append(Item(c.id, cid, form, False))
    return tuple(out)


def candidates(scope: Scope) -> list[Item]:
    """Definitions for easy sets, clauses for hard ones, both for medium."""
    if scope.difficulty == "easy":
        return _definition_items(scope)
    if scope.difficulty == "hard":
        return list(_clause_items(scope))
    return _definition_items(scope) + list(_clause_items(scope))


def distractor_pool(scope: Scope, item: Item) -> list[str]:
    """Labels of other concepts in the same edition and language, never one of the answer concept."""
    concept = sources.terminology().concepts[item.concept]
    own = {norm(f) for f in sources.labels(concept, scope.edition, scope.lang, ("pref", "alt", "hidden"))}
    out = []
    for c in sources.concepts():
        if c.id == item.concept:
            continue
        forms = sources.labels(c, scope.edition, scope.lang)
        if not forms:
            continue
        f = forms[0]
        if norm(f) in own or _overlap(f, item.form):
            continue
        # a label naming the answer concept too in this edition (a collision) is no distractor
        if item.concept in sources.concepts_named(f, scope.edition):
            continue
        out.append(f)
    return sorted(set(out))


def _overlap(a: str, b: str) -> bool:
    """Labels sharing a character (Chinese) or a word (English) may both fit the blank: 叫牌 / 叫價."""
    if is_cjk(a) or is_cjk(b):
        return bool(set(norm(a)) & set(norm(b)))
    return bool(set(a.casefold().split()) & set(b.casefold().split()))


def build(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    c: Clause | None = sources.clause(item.clause)
    if c is None:
        return None
    text = clause_text(c, scope.lang)
    if item.definition:
        for f in sources.labels(sources.terminology().concepts[item.concept], scope.edition, scope.lang,
                                ("pref", "alt", "hidden")) + list(c.term.values()):
            text = blank_out(text, f) if f.strip() else text
        stem = phrase("cloze_definition_stem", scope.lang, edition=edition_name(scope.edition, scope.lang),
                      text=text)
    else:
        blanked = blank_out(text, item.form)
        if BLANK not in blanked:
            return None
        top = sources.clause(c.id.root)
        where = law_label("law", top.number, "", scope.lang) if top else c.id
        stem = phrase("cloze_clause_stem", scope.lang, where=where, text=blanked)
    if contains(stem, item.form):
        return None
    pool = distractor_pool(scope, item)
    k = scope.n_options - 1
    if len(pool) < k:
        return None
    if scope.difficulty == "hard":
        # closest in length to the answer: the hardest to tell apart by shape
        pool = sorted(pool, key=lambda f: (abs(len(f) - len(item.form)), f))[: k * 3]
    distractors = rng.sample(pool, k)
    options, idx = place(rng, item.form, distractors)
    return Question(
        kind="cloze", stem=stem, answer=item.form, options=options, answer_index=idx, cites=[c.id],
        explanation=c.id, tags=[f"concept::{item.concept}"], key=f"cloze:{c.id}:{item.concept}",
        meta={"concept": item.concept, "definition": item.definition})


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n clozes, one per concept before any concept is asked twice."""
    return first_built(rng, candidates(scope), n, lambda it: it.concept, lambda item: build(scope, rng, item))
