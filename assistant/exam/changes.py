"""Kind 4, edition differences, read off the change report (assistant.diff.report via `sources`).

Four forms, each answer a fact of the report and each distractor checked against it:
  where   — where a 1999 provision lives now (pairs the alignment calls moved or renumbered; 2017 → 2024 too);
  new     — which provision is new (class `new`) among ones that say what they said before (class
            unchanged … reworded);
  count   — how many items a list has now, where the report pairs lists of different lengths (57A: 3 → 4);
  subject — which law kept its number but not its subject (the alignment's different_subject) among laws
            only reworded.
A question on a law with a key change (assistant/data/key_changes.yaml) comes first and cites it (meta, explanation).
The 2017 side is printed from ccba2018 in simplified Chinese and from wbf2017 otherwise; wbf2017 holds
the 2024 text of the laws the revision touched, so those laws are asked only as 2017 → 2024 questions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from ..diff.keychanges import for_law
from ..model import Clause, ClauseId
from ..text import s2t
from . import sources
from .model import Question
from .scope import Scope, clause_text, clean, place, spread
from .text import contains, edition_name, law_label, norm, squash

FORMS: tuple[str, ...] = ("where", "new", "count", "subject")
# pair classes of a clause that says in the newer text what it said in the older one ('translation': two
# translations of one text, ccba2018 and wbf2017)
SAME: frozenset[str] = frozenset({"unchanged", "terminology", "reference", "reworded", "translation"})
MOVES: dict[str, frozenset[str]] = {"1999-2017": frozenset({"moved", "renumbered"}),   # alignment kinds of a move;
                                    "2017-2024": frozenset({"moved"})}     # between translations a renumbering is a misprint
NEAR_OLD = 0.35         # a 'new' clause sharing this share of its character pairs with one 1999 clause may
                        # say an old rule in a new place (a move the alignment missed): not asked
MIN_ITEMS = 2           # a 'count' list has at least this many items in both texts
RUNS_ON = ("并且", "或者", "並且", "或", "及", " and", " or", "，", ",")   # an option text cut mid-sentence
# (older, newer) edition of each report step, as the stems name them
STEP_YEARS: dict[str, tuple[str, str]] = {"1999-2017": ("1999", "2017"), "2017-2024": ("2017", "2024")}
OLD_TEXT_EN: dict[str, str] = {"1999-2017": "CCBA rules", "2017-2024": "Laws"}
PHRASES: dict[str, dict[str, str]] = {     # printed phrases of this kind (strings.yaml holds the other kinds')
    "where_stem": {"zh-Hans": "{old_year} 年版的{old}规定：\n「{text}」\n在 {new_year} 年版（{edition}）中，这项规定位于哪里？",
        "zh-Hant": "{old_year} 年版的{old}規定：\n「{text}」\n在 {new_year} 年版（{edition}）中，這項規定位於哪裡？",
        "en": "In the {old_year} {old_text} this provision was {old}. Where is it in the {new_year} text ({edition})?\n“{text}”"},
    "new_stem": {"zh-Hans": "下列{where}的条文（{edition}）中，哪一项是 {new_year} 年版新增、{old_year} 年版没有的？",
        "zh-Hant": "下列{where}的條文（{edition}）中，哪一項是 {new_year} 年版新增、{old_year} 年版沒有的？",
        "en": "Which of these provisions of {where} ({edition}) is new in the {new_year} text, absent from the {old_year} text?"},
    "new_stem_any": {"zh-Hans": "下列条文（{edition}）中，哪一项是 {new_year} 年版新增、{old_year} 年版没有的？",
        "zh-Hant": "下列條文（{edition}）中，哪一項是 {new_year} 年版新增、{old_year} 年版沒有的？",
        "en": "Which of these provisions ({edition}) is new in the {new_year} text, absent from the {old_year} text?"},
    "count_stem": {"zh-Hans": "依照 {new_year} 年版（{edition}），{clause}列出几项？\n「{text}」",
        "zh-Hant": "依照 {new_year} 年版（{edition}），{clause}列出幾項？\n「{text}」",
        "en": "Under the {new_year} text ({edition}), how many items does {clause} list?\n“{text}”"},
    "subject_stem": {"zh-Hans": "下列{edition}的条文中，哪一条沿用了 1999 年版的条号，但规定的是另一件事？",
        "zh-Hant": "下列{edition}的條文中，哪一條沿用了 1999 年版的條號，但規定的是另一件事？",
        "en": "Which of these laws of the {edition} kept its number from the CCBA 1999 rules but deals with another subject?"},
    "items": {"zh-Hans": "{n} 项", "zh-Hant": "{n} 項", "en": "{n} items"},
    "explain_move": {"zh-Hans": "{old_year} 年版 {old} → {new_year} 年版 {new}", "zh-Hant": "{old_year} 年版 {old} → {new_year} 年版 {new}",
                     "en": "{old_year}: {old} → {new_year}: {new}"},
    "explain_new": {"zh-Hans": "{new_year} 年版新增；其余各项 {old_year} 年版已有", "zh-Hant": "{new_year} 年版新增；其餘各項 {old_year} 年版已有",
                    "en": "New in {new_year}; the others were already in the {old_year} text"},
    "explain_count": {"zh-Hans": "1999 年版 {old}：{n_old} 项", "zh-Hant": "1999 年版 {old}：{n_old} 項",
                      "en": "1999 ({old}): {n_old} items"},
    "explain_subject": {"zh-Hans": "1999 年版：{old} → 2017 年版：{new}", "zh-Hant": "1999 年版：{old} → 2017 年版：{new}",
                        "en": "1999: {old} → 2017: {new}"},
    "ellipsis": {"zh-Hans": "……", "zh-Hant": "……", "en": " …"},
}


def say(key: str, lang: str, **fields: object) -> str:
    return PHRASES[key][lang].format(**fields)


@dataclass(frozen=True)
class Item:
    """The material of one question: its form and the report pair (or law) it rests on."""

    form: str
    pair: sources.ReportPair | None = None
    law: sources.ReportLaw | None = None

    @property
    def group(self) -> str:
        return self.law.law if self.law else self.pair.law  # type: ignore[union-attr]


# ------------------------------------------------------------------------------------- printing


def label(clause_id: str, lang: str) -> str:
    """'Law 12C2(b)' / '第 12 条 C2(b)': the law, then capitals and digits, lower-case items in brackets."""
    path = ClauseId.parse(clause_id).path
    tail, bracket = "", False
    for seg in path[1:]:
        bracket = bracket or seg.islower()
        tail += f"({seg})" if bracket else seg
    head = law_label("law", path[0], "", lang)
    return head + (("" if lang == "en" else " ") + tail if tail else "")


def shown(to_id: str | None, scope: Scope, step: str) -> str | None:
    """The id printed for the newer side of a pair in this exam, or None if the exam cannot print it."""
    if to_id is None:
        return None
    cid = ClauseId.parse(to_id)
    if step == "2017-2024":
        return to_id if scope.lang != "zh-Hans" and sources.clause(to_id) else None
    if scope.lang == "zh-Hans":
        return to_id
    if cid.path[0] in sources.revised_2024():
        return None            # wbf2017 prints the 2024 text of this law
    wid = str(ClauseId("wbf2017", cid.kind, cid.path))
    return wid if sources.clause(wid) is not None else None


def _years(step: str) -> dict[str, str]:
    old, new = STEP_YEARS[step]
    return {"old_year": old, "new_year": new}


def _shown_edition(scope: Scope) -> str:
    return "ccba2018" if scope.lang == "zh-Hans" else "wbf2017"


def _fits(scope: Scope, text: str) -> bool:
    lo, hi = scope.stem_bounds(text)
    return lo // 2 <= len(text) <= hi and clean(text, scope.lang)


def _option_fits(scope: Scope, text: str) -> bool:
    """A clause text fit to be an option: of a fair length, clean, and a whole sentence."""
    return _fits(scope, text) and not text.rstrip().endswith(RUNS_ON)


def _excerpt(text: str, scope: Scope) -> str:
    """A text cut to the stem bound of the difficulty, at a character (Chinese) or word (English)."""
    _, hi = scope.stem_bounds(text)
    if len(text) <= hi:
        return text
    cut = text[:hi]
    if scope.lang == "en" and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip("，,;；: ") + say("ellipsis", scope.lang)


def _gist(clause_id: str, lang: str) -> str:
    """A clause's text to quote; for a heading without text, its title and its first child's text."""
    c = sources.clause(clause_id)
    if c is None:
        return ""
    text = clause_text(c, lang)
    if text:
        return text
    title = squash(c.title.get(lang, ""))
    first = sources.clause(c.children[0]) if c.children else None
    body = squash(first.text.get(lang, "")) if first else ""
    sep = " — " if lang == "en" else "："
    return sep.join(x for x in (title, body) if x)


def _old_text(from_id: str, scope: Scope, step: str) -> str:
    """The older text in the exam's language: ccba1999 (simplified, or converted to traditional), or the
    ccba2018 text for a 2024 question; '' where the exam's language has no older text (English)."""
    if scope.lang == "en":
        return ""
    text = _gist(from_id, "zh-Hans")
    return s2t(text) if scope.lang == "zh-Hant" else text


# ------------------------------------------------------------------------------------- material


def _law_of(clause_id: str) -> int:
    return int(ClauseId.parse(clause_id).path[0])


def _related(a: str, b: str) -> bool:
    """Whether two ids are the same clause or one contains the other (same path prefix)."""
    pa, pb = ClauseId.parse(a).path, ClauseId.parse(b).path
    n = min(len(pa), len(pb))
    return pa[:n] == pb[:n]


def _path_id(edition: str, clause_id: str) -> str:
    return str(ClauseId(edition, "law", ClauseId.parse(clause_id).path))


def destinations(from_id: str, step: str) -> set[str]:
    """Every newer-side id the report pairs with this older clause (any class): none may be a distractor."""
    return {p.to_id for p in sources.report_pairs(step) if p.from_id == from_id and p.to_id}


def _bigrams(text: str) -> frozenset[str]:
    t = norm(text)
    return frozenset(t[i:i + 2] for i in range(len(t) - 1))


@lru_cache(maxsize=1)
def _old_bigrams() -> tuple[frozenset[str], ...]:
    return tuple(b for c in sources.clauses("ccba1999") if c.cid.kind == "law"
                 for b in [_bigrams(c.text.get("zh-Hans", ""))] if b)


@lru_cache(maxsize=1024)
def near_old(to_id: str) -> bool:
    """Whether a 2017 clause the report calls new shares most of its wording with some 1999 clause."""
    c = sources.clause(to_id)
    grams = _bigrams(c.text.get("zh-Hans", "")) if c else frozenset()
    if not grams:
        return False
    need = NEAR_OLD * len(grams)
    return any(len(grams & old) >= need for old in _old_bigrams())


@lru_cache(maxsize=4)
def _law_clauses(edition: str) -> tuple[tuple[str, int, str | None], ...]:
    """(id, depth, chapter) of every law clause of an edition, in document order."""
    return tuple((c.id, len(c.cid.path), sources.chapter_of(c)) for c in sources.clauses(edition) if c.cid.kind == "law")


@lru_cache(maxsize=8)
def _same_clauses(step: str, lang: str) -> tuple[tuple[str, str | None, str], ...]:
    """(printed id, chapter, text) of the newer clauses of a step the report finds saying what the older
    one said (classes in SAME): the distractors of a 'new' question."""
    scope = Scope("ccba2018" if lang == "zh-Hans" else "wbf2017", lang, "medium")
    out = []
    for o in _unique(list(sources.report_pairs(step))):
        oid = shown(o.to_id, scope, step) if o.change in SAME and o.from_id else None
        oc = sources.clause(oid) if oid else None
        if oc is not None:
            out.append((oc.id, sources.chapter_of(oc), clause_text(oc, lang)))
    return tuple(dict.fromkeys(out))


def is_list(clause_id: str) -> bool:
    """A section or item whose own text leads in to a list ('declarer may:'): its items are options or
    cases, so their number is a figure of the rule (a law's or a heading's sections are not)."""
    c = sources.clause(clause_id)
    return c is not None and len(c.cid.path) > 1 and squash(c.text.get("zh-Hans", "")).endswith((":", "："))


def item_count(clause_id: str) -> int:
    """How many items a clause lists: its direct sub-clauses in the corpus."""
    c = sources.clause(clause_id)
    return len([x for x in c.children if ClauseId.parse(x).kind == "law"]) if c else 0


def _unique(pairs: list[sources.ReportPair]) -> list[sources.ReportPair]:
    """The report files a pair that crosses laws under both laws: keep it once."""
    seen: set[tuple[str | None, str | None]] = set()
    out = []
    for p in pairs:
        if (p.from_id, p.to_id) not in seen:
            seen.add((p.from_id, p.to_id))
            out.append(p)
    return out


def _steps(scope: Scope) -> tuple[str, ...]:
    return ("1999-2017",) if scope.lang == "zh-Hans" else sources.REPORT_STEPS


def _admitted(scope: Scope, clause_id: str | None) -> bool:
    c = sources.clause(clause_id) if clause_id else None
    return c is not None and scope.admits(c)


def candidates(scope: Scope) -> dict[str, list[Item]]:
    """The material of each form, in report order; curated moves before computed ones."""
    from ..diff.law import pair_kinds

    out: dict[str, list[Item]] = {f: [] for f in FORMS}
    for step in _steps(scope):
        pairs = _unique(list(sources.report_pairs(step)))
        kinds = pair_kinds(sources.corpus(), *(("ccba1999", "ccba2018") if step == "1999-2017" else ("ccba2018", "wbf2017")))
        moved = [p for p in pairs if kinds.get((p.from_id, p.to_id)) in MOVES[step] and p.from_id
                 and _admitted(scope, shown(p.to_id, scope, step))]
        out["where"] += [Item("where", p) for p in sorted(moved, key=lambda p: not p.note)]
        out["new"] += [Item("new", p) for p in pairs if p.change == "new" and p.from_id is None
                       and _admitted(scope, shown(p.to_id, scope, step))
                       and (step != "1999-2017" or not near_old(p.to_id))]
        if step == "1999-2017":
            out["count"] += [Item("count", p) for p in pairs if p.from_id and p.to_id
                             and p.change not in ("new", "removed")
                             and kinds.get((p.from_id, p.to_id)) != "different_subject"
                             and is_list(p.to_id) and min(item_count(p.to_id), item_count(p.from_id)) >= MIN_ITEMS
                             and item_count(p.to_id) != item_count(p.from_id)
                             and _admitted(scope, shown(p.to_id, scope, step))]
    for law in sources.report_laws():
        wid = shown(f"ccba2018/law/{law.law}", scope, "1999-2017")
        # a law that is now a one-line pointer (34, 88, 89) is asked as a 'where' question instead
        kinds = pair_kinds(sources.corpus(), "ccba1999", "ccba2018")
        if kinds.get((f"ccba1999/law/{law.law}", f"ccba2018/law/{law.law}")) == "different_subject" and _admitted(scope, wid) and item_count(f"ccba2018/law/{law.law}"):
            out["subject"].append(Item("subject", law=law))
    return out


def cite_key_change(q: Question, law: str, lang: str) -> Question:
    """The question citing the highest-ranked key change of its law: id in meta, statement after the explanation."""
    for k in for_law(law, sources.corpus())[:1]:
        q.meta["key_change"] = k.id
        q.explanation = f"{q.explanation}{'. ' if lang == 'en' else '。'}{k.say(lang)}"
    return q


# ------------------------------------------------------------------------------------- questions


def _where(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    p = item.pair
    assert p is not None and p.from_id and p.to_id
    to = shown(p.to_id, scope, p.step)
    assert to is not None
    text = _old_text(p.from_id, scope, p.step) or _gist(to, scope.lang)
    if not text or not clean(text, scope.lang):
        return None
    # distractors: clauses of the same depth in the chapter, never a place the report sends this clause to
    taken = {shown(d, scope, p.step) or d for d in destinations(p.from_id, p.step)} | {to}
    depth = len(ClauseId.parse(to).path)
    ed = ClauseId.parse(to).edition
    chapter = sources.chapter_of(sources.clause(to))  # type: ignore[arg-type]
    pool = [cid for cid, d, ch in _law_clauses(ed) if d == depth and ch == chapter
            and not any(_related(cid, t) for t in taken)]
    law = _law_of(to)
    pool.sort(key=lambda cid: (_law_of(cid) != law, abs(_law_of(cid) - law)))
    trap = _path_id(ed, p.from_id)            # the old number, where it still exists and is not a destination
    k = scope.n_options - 1
    near = pool[: k * 3] if scope.difficulty != "hard" else pool[: k + 1]
    if trap in pool:
        near = [trap] + [x for x in near if x != trap]
        picked = [trap] + rng.sample(near[1:], min(k - 1, len(near) - 1))
    else:
        picked = rng.sample(near, min(k, len(near)))
    if len(picked) < k:
        return None
    years = _years(p.step)
    old_label = label(p.from_id, scope.lang)
    stem = say("where_stem", scope.lang, old=old_label, text=_excerpt(text, scope), old_text=OLD_TEXT_EN[p.step],
               edition=edition_name(_shown_edition(scope), scope.lang), **years)
    answer = label(to, scope.lang)
    options, idx = place(rng, answer, [label(x, scope.lang) for x in picked])
    return Question(
        kind="change", stem=stem, answer=answer, options=options, answer_index=idx, cites=[to, p.from_id],
        explanation=say("explain_move", scope.lang, old=old_label, new=answer, **years),
        tags=[f"law::{p.law}", "change::where"], key=f"change:where:{p.from_id}>{to}",
        meta={"form": "where", "step": p.step, "from": p.from_id, "to": p.to_id, "distractors": picked})


def _option_text(cid: str, scope: Scope, short: bool) -> str:
    path = ClauseId.parse(cid).path
    return f"[{''.join(path[1:] if short else path)}] " + clause_text(sources.clause(cid), scope.lang)  # type: ignore[arg-type]


def _new(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    p = item.pair
    assert p is not None and p.to_id
    to = shown(p.to_id, scope, p.step)
    assert to is not None
    if not _option_fits(scope, clause_text(sources.clause(to), scope.lang)):  # type: ignore[arg-type]
        return None
    chapter = sources.chapter_of(sources.clause(to))  # type: ignore[arg-type]
    law = _law_of(to)
    own = norm(clause_text(sources.clause(to), scope.lang))  # type: ignore[arg-type]
    pool = [oid for oid, ch, t in _same_clauses(p.step, scope.lang)
            if not _related(oid, to) and (p.step != "1999-2017" or ch == chapter)
            and _option_fits(scope, t) and norm(t) != own]
    pool.sort(key=lambda cid: (_law_of(cid) != law, abs(_law_of(cid) - law)))
    k = scope.n_options - 1
    near = pool[: k * 3] if scope.difficulty != "hard" else pool[: k + 1]
    if len(near) < k:
        return None
    picked = rng.sample(near, k)
    one_law = all(_law_of(x) == law for x in picked)
    one_chapter = all(sources.chapter_of(sources.clause(x)) == chapter for x in picked)  # type: ignore[arg-type]
    years = _years(p.step)
    edition = edition_name(_shown_edition(scope), scope.lang)
    if one_law or one_chapter:
        where = law_label("law", str(law), "", scope.lang) if one_law else say_chapter(chapter, scope.lang)
        stem = say("new_stem", scope.lang, where=where, edition=edition, **years)
    else:
        stem = say("new_stem_any", scope.lang, edition=edition, **years)
    answer = _option_text(to, scope, one_law)
    options, idx = place(rng, answer, [_option_text(x, scope, one_law) for x in picked])
    old_place = _old_place(p.to_id, p.step)
    return Question(
        kind="change", stem=stem, answer=answer, options=options, answer_index=idx, cites=[to, old_place],
        explanation=say("explain_new", scope.lang, **years), tags=[f"law::{p.law}", "change::new"],
        key=f"change:new:{to}", meta={"form": "new", "step": p.step, "to": p.to_id, "distractors": picked})


def say_chapter(chapter_id: str | None, lang: str) -> str:
    from .text import phrase

    return phrase("chapter", lang, n=(chapter_id or "").rsplit("/", 1)[-1])


def _old_place(to_id: str, step: str) -> str:
    """The nearest clause of the older edition at the new clause's place (the list it was added to)."""
    old_ed = "ccba1999" if step == "1999-2017" else "ccba2018"
    path = ClauseId.parse(to_id).path
    for n in range(len(path), 0, -1):
        cid = str(ClauseId(old_ed, "law", path[:n]))
        if sources.clause(cid) is not None:
            return cid
    return str(ClauseId(old_ed, "law", path[:1]))


def _count(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    p = item.pair
    assert p is not None and p.from_id and p.to_id
    to = shown(p.to_id, scope, p.step)
    assert to is not None
    n_new, n_old = item_count(p.to_id), item_count(p.from_id)
    if item_count(to) != n_new:
        return None          # the printed edition lists another number of items
    c = sources.clause(to)
    text = clause_text(c, scope.lang) or squash(c.title.get(scope.lang, "")) if c else ""
    if not text or not clean(text.rstrip().rstrip(":：").rstrip(), scope.lang):
        return None          # a lead-in ending in a colon is fine here: the items follow it
    k = scope.n_options - 1
    others = [n for n in range(max(MIN_ITEMS, n_new - k), n_new + k + 1) if n not in (n_new, n_old)]
    near = sorted(others, key=lambda n: (abs(n - n_new), n))
    values = [n_old] + rng.sample(near[: k + 1], k - 1)
    years = _years(p.step)
    clause = label(to, scope.lang)
    stem = say("count_stem", scope.lang, clause=clause, text=_excerpt(text, scope),
               edition=edition_name(_shown_edition(scope), scope.lang), **years)
    ordered = sorted([n_new, *values])
    options = [say("items", scope.lang, n=n) for n in ordered]
    answer = say("items", scope.lang, n=n_new)
    return Question(
        kind="change", stem=stem, answer=answer, options=options, answer_index=ordered.index(n_new),
        cites=[to, p.from_id], explanation=say("explain_count", scope.lang, old=label(p.from_id, scope.lang), n_old=n_old),
        tags=[f"law::{p.law}", "change::count"], key=f"change:count:{to}",
        meta={"form": "count", "step": p.step, "from": p.from_id, "to": p.to_id, "values": ordered})


def _law_option(law: str, scope: Scope) -> str:
    c: Clause | None = sources.clause(shown(f"ccba2018/law/{law}", scope, "1999-2017") or "")
    return law_label("law", law, c.title.get(scope.lang, "") if c else "", scope.lang)


def _subject(scope: Scope, rng: random.Random, item: Item) -> Question | None:
    law = item.law
    assert law is not None
    n = int(law.law)
    pool = [x for x in sources.report_laws() if x.change in SAME
            and _admitted(scope, shown(f"ccba2018/law/{x.law}", scope, "1999-2017"))]
    pool.sort(key=lambda x: (x.chapter != law.chapter, abs(int(x.law) - n)))
    k = scope.n_options - 1
    near = pool[: k * 3] if scope.difficulty != "hard" else pool[: k + 1]
    if len(near) < k:
        return None
    picked = rng.sample(near, k)
    answer = _law_option(law.law, scope)
    options, idx = place(rng, answer, [_law_option(x.law, scope) for x in picked])
    new_id = shown(f"ccba2018/law/{law.law}", scope, "1999-2017")
    stem = say("subject_stem", scope.lang, edition=edition_name(_shown_edition(scope), scope.lang))
    old_title = law.title_from if scope.lang == "zh-Hans" else s2t(law.title_from)
    return Question(
        kind="change", stem=stem, answer=answer, options=options, answer_index=idx,
        cites=[new_id, f"ccba1999/law/{law.law}"],  # type: ignore[list-item]
        explanation=say("explain_subject", scope.lang, old=f"{law.law} {old_title}", new=answer),
        tags=[f"law::{law.law}", "change::subject"], key=f"change:subject:{law.law}",
        meta={"form": "subject", "law": law.law, "distractors": [x.law for x in picked]})


BUILDERS = {"where": _where, "new": _new, "count": _count, "subject": _subject}


def generate(scope: Scope, rng: random.Random, n: int) -> list[Question]:
    """Up to n questions, the forms taking turns; within a form one per law before any law repeats."""
    keyed = {str(n) for n in range(1, 94) if for_law(str(n), sources.corpus())}
    queues = {f: _curated_first(rng, [it for it in items if it.group in keyed], f)
              + _curated_first(rng, [it for it in items if it.group not in keyed], f)
              for f, items in candidates(scope).items()}   # questions on a key change first
    out: list[Question] = []
    seen: set[str] = set()
    while len(out) < n and any(queues.values()):
        for form in FORMS:
            while queues[form]:
                item = queues[form].pop(0)
                q = BUILDERS[form](scope, rng, item)
                if q is not None and q.key not in seen and not contains(q.stem, q.answer):
                    seen.add(q.key)
                    out.append(cite_key_change(q, item.group, scope.lang))
                    break
            if len(out) == n:
                break
    return out


def _curated_first(rng: random.Random, items: list[Item], form: str = "where") -> list[Item]:
    if form != "where":     # only 'where' has curated material
        return spread(rng, items, 10**6, group=lambda it: it.group)
    curated = [it for it in items if it.pair and it.pair.note]
    computed = [it for it in items if not (it.pair and it.pair.note)]
    return spread(rng, curated, 10**6, group=lambda it: it.group) + spread(rng, computed, 10**6,
                                                                             group=lambda it: it.group)
