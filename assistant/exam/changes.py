"""Kind 4, edition differences 1999 → 2017, from the change classes of corresponding clauses.

Two forms: "which statement is the rule now" (the 2017 text against 1999 texts that no 2017 clause
still says; simplified Chinese only, where both texts exist) and "which provision changed in
substance" (one substantive pair against pairs the classifier finds unchanged, in any language).
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass
from functools import lru_cache

from ..model import ClauseId
from . import sources
from .model import Question
from .scope import Scope, clause_text, clean, place, spread
from .text import contains, edition_name, law_label, norm, phrase, squash

STILL_SAID = 0.45           # a 1999 text this similar to some 2017 clause may still be the rule
# a pair counts as changed only when the alignment and the classifier agree; as unchanged likewise
CHANGED = ("revised", {"substantive"})
UNCHANGED = ("same", {"unchanged", "script_only", "terminology_only", "reworded"})
CHANGED_BELOW = 0.35        # and the redline keeps less than this share of the text
CHANGED_MIN_CHARS = 40      # short clauses reworded by a new translation look changed: not asked


@dataclass(frozen=True)
class Change:
    """A classified pair: the 1999 and 2018 ids and the diff class."""

    old: str
    new: str
    law: str
    change: str          # diff class of the two texts
    aligned: str         # alignment kind of the pair
    ratio: float         # similarity of the redline, 0..1
    chars: int           # length of the shorter of the two texts


@lru_cache(maxsize=1)
def classified() -> tuple[Change, ...]:
    """Every 1999 ↔ 2018 pair with text on both sides, classified on the simplified-Chinese texts."""
    out = []
    for p in sources.pairs_1999_2017():
        a, b = sources.clause(p.old), sources.clause(p.new)
        if a is None or b is None:
            continue
        ta, tb = squash(a.text.get("zh-Hans", "")), squash(b.text.get("zh-Hans", ""))
        if not ta or not tb:
            continue
        change, ratio = sources.change_class(ta, tb, p.structural)
        out.append(Change(p.old, p.new, ClauseId.parse(p.new).path[0], change, p.kind, ratio,
                          min(len(ta), len(tb))))
    # a 2018 clause with several 1999 counterparts keeps only an agreeing verdict
    by_new: dict[str, list[Change]] = {}
    for ch in out:
        by_new.setdefault(ch.new, []).append(ch)
    return tuple(group[0] for group in by_new.values() if len(group) == 1)


@lru_cache(maxsize=1)
def _new_texts() -> tuple[str, ...]:
    return tuple(norm(c.text.get("zh-Hans", "")) for c in sources.clauses("ccba2018") if c.text.get("zh-Hans"))


@lru_cache(maxsize=4096)
def still_said(old_text: str) -> bool:
    """Whether some 2018 clause still says (nearly) what this 1999 text says."""
    a = norm(old_text)
    for t in _new_texts():
        if not t:
            continue
        if a in t or (len(t) >= 10 and t in a):
            return True
        sm = difflib.SequenceMatcher(None, a, t, autojunk=False)
        if sm.real_quick_ratio() >= STILL_SAID and sm.quick_ratio() >= STILL_SAID and sm.ratio() >= STILL_SAID:
            return True
    return False


def _shown_id(new_id: str, scope: Scope) -> str:
    """The clause shown for the 2017 side: ccba2018 in simplified Chinese, wbf2017 otherwise."""
    if scope.lang == "zh-Hans":
        return new_id
    return str(ClauseId("wbf2017", "law", ClauseId.parse(new_id).path))


def _text(clause_id: str, lang: str) -> str:
    c = sources.clause(clause_id)
    return clause_text(c, lang) if c else ""


def _fits(scope: Scope, text: str) -> bool:
    lo, hi = scope.stem_bounds(text)
    return lo // 2 <= len(text) <= hi and clean(text, scope.lang)


def _law_name(law: str, scope: Scope) -> str:
    return law_label("law", law, "", scope.lang)


def _clause_name(clause_id: str, scope: Scope) -> str:
    """'第 13 条 B1' / 'Law 13B1': the law and the clause's letters."""
    path = ClauseId.parse(clause_id).path
    sep = "" if scope.lang == "en" else " "
    return _law_name(path[0], scope) + (sep + "".join(path[1:]) if len(path) > 1 else "")


def chapter_name(chapter_id: str | None, lang: str) -> str:
    """'第 6 章' / 'chapter 6' for a chapter id."""
    num = (chapter_id or "").rsplit("/", 1)[-1]
    return phrase("chapter", lang, n=num)


def _in_scope(scope: Scope, ch: Change) -> bool:
    c = sources.clause(_shown_id(ch.new, scope))
    return c is not None and scope.admits(c)


def _now_question(scope: Scope, rng: random.Random, ch: Change, pool: list[Change]) -> Question | None:
    new_text, old_text = _text(ch.new, "zh-Hans"), _text(ch.old, "zh-Hans")
    if not (_fits(scope, new_text) and _fits(scope, old_text)) or still_said(old_text):
        return None
    others = [o for o in pool if o.law == ch.law and o.old != ch.old and is_changed(o)]
    extra = [_text(o.old, "zh-Hans") for o in others]
    extra = [t for t in extra if _fits(scope, t) and not still_said(t) and norm(t) != norm(old_text)]
    k = min(scope.n_options - 1, 1 + len(extra))
    distractors = [old_text, *rng.sample(sorted(set(extra)), k - 1)]
    options, idx = place(rng, new_text, distractors)
    stem = phrase("change_now_stem", scope.lang, law=_clause_name(ch.new, scope),
                  edition=edition_name("ccba2018", scope.lang))
    return Question(
        kind="change", stem=stem, answer=new_text, options=options, answer_index=idx, cites=[ch.new, ch.old],
        explanation=phrase("explain_change", scope.lang, old=ch.old), tags=[f"law::{ch.law}", "change::now"],
        key=f"change:now:{ch.new}", meta={"change": ch.change, "old": ch.old, "new": ch.new, "form": "now"})


def _which_question(scope: Scope, rng: random.Random, ch: Change, pool: list[Change]) -> Question | None:
    shown = _shown_id(ch.new, scope)
    text = _text(shown, scope.lang)
    if not _fits(scope, text):
        return None
    chapter = sources.chapter_of(sources.clause(ch.new))  # type: ignore[arg-type]
    same = sorted((o for o in pool if is_unchanged(o)),
                  key=lambda o: (o.law != ch.law, sources.chapter_of(sources.clause(o.new)) != chapter))  # type: ignore[arg-type]
    same = [o for o in same if o.law == ch.law or sources.chapter_of(sources.clause(o.new)) == chapter]  # type: ignore[arg-type]
    cands = []
    for o in same:
        t = _text(_shown_id(o.new, scope), scope.lang)
        if _fits(scope, t) and norm(t) != norm(text):
            cands.append(o)
    k = scope.n_options - 1
    if len(cands) < k:
        return None
    picked = rng.sample(cands[: k * 3], k)
    law_in_chapter = any(o.law != ch.law for o in picked)

    def option(c: Change) -> str:
        path = ClauseId.parse(c.new).path
        return f"[{''.join(path if law_in_chapter else path[1:])}] " + _text(_shown_id(c.new, scope), scope.lang)

    answer = option(ch)
    options, idx = place(rng, answer, [option(o) for o in picked])
    shown_ed = "ccba2018" if scope.lang == "zh-Hans" else "wbf2017"
    where = chapter_name(chapter, scope.lang) if law_in_chapter else _law_name(ch.law, scope)
    stem = phrase("change_which_stem", scope.lang, law=where,
                  edition=edition_name(shown_ed, scope.lang))
    return Question(
        kind="change", stem=stem, answer=answer, options=options, answer_index=idx,
        cites=[shown, ch.old], explanation=phrase("explain_change_which", scope.lang),
        tags=[f"law::{ch.law}", "change::which"], key=f"change:which:{ch.new}",
        meta={"change": ch.change, "old": ch.old, "new": ch.new, "form": "which",
              "unchanged": [o.new for o in picked], "unchanged_old": [o.old for o in picked]})


def is_changed(ch: Change) -> bool:
    return (ch.aligned == CHANGED[0] and ch.change in CHANGED[1] and ch.ratio < CHANGED_BELOW
            and ch.chars >= CHANGED_MIN_CHARS)


def is_unchanged(ch: Change) -> bool:
    return ch.aligned == UNCHANGED[0] and ch.change in UNCHANGED[1]


def candidates(scope: Scope) -> list[Change]:
    return [ch for ch in classified() if is_changed(ch) and _in_scope(scope, ch)]


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n questions, one per law first; 'rule now' and 'which changed' alternate in Chinese."""
    pool = [ch for ch in classified() if _in_scope(scope, ch)]
    out: list[Question] = []
    for i, ch in enumerate(spread(rng, candidates(scope), 10**6, group=lambda c: c.law)):
        forms = [_now_question, _which_question] if scope.lang == "zh-Hans" else [_which_question]
        if len(forms) == 2 and len(out) % 2 == 1:
            forms.reverse()
        for make in forms:
            q = make(scope, rng, ch, pool)
            if q is not None and not contains(q.stem, q.answer):
                out.append(q)
                break
        if len(out) == n:
            break
    return out
