"""One law between two editions: its pairs of corresponding clauses (from the one alignment,
assistant.graph.alignment), each classified on its content (assistant.diff.content) and redlined.

Between two translations of one text (the manifest's `translates`) a pair is `translation` unless the
original's revision changed its content (`revised`), and redlines are drawn only on request.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..corpus import Corpus
from ..editions import edition, law_editions
from ..errors import BadInput, NotFound
from ..graph.alignment import Link, NoAlignment, links
from ..model import Clause, ClauseId
from .classify import classify_translation, figures
from .content import ContentChange, Context, classify_content, coverage, kept_share
from .elements import cited_clauses, mask_references
from .redline import TermLexicon, redline
from .semantic import PhraseMatcher, default_matcher

# alignment kind -> structural change class between two translations (others are classified from the texts)
STRUCTURAL_KINDS = {"new": "new", "removed": "removed", "moved": "restructured", "renumbered": "restructured",
                    "different_subject": "restructured"}
# a law's class is the most serious class among its pairs, in this order ('translation' and 'revised': between
# two translations of one text)
SEVERITY = ("revised", "substantive", "new", "removed", "restructured", "reworded", "translation", "reference",
            "terminology", "unchanged")
QUIET = ("unchanged", "terminology", "reference", "translation")   # pairs that rule the same thing in other words
CONTENT_CHANGES = ("revised", "restructured")   # between translations, redlined even when not asked for
POINTER_MAX = 45        # a law whose clauses each only point elsewhere, in at most this many characters
# a clause the alignment calls new (removed) whose character pairs are at least this share in the other
# edition's text of the law was split off (merged in), not written anew: 1999 27A -> 2018 27A1 0.66,
# new rules 0.00-0.47 (23A, 27B1(b), 61B3, 68D2(b), 12C1(c)); tuned on the gold's tune part, bench/diff.py
SPLIT_MIN = 0.55
# … or at least this share of its content characters in the same order (content.kept_share): tune part, not
# split 0.64-0.71 (1999 9A2(b), 2018 35D, 67B2(a), 37B1), rules the gold calls new or changed 0.61 and below
KEPT_MIN = 0.62
HEADING_MAX = 15        # a clause of at most this many characters besides its references is a heading


class BadDiffRequest(BadInput):
    """Two editions, a language or a law the diff cannot compare."""


class UnknownLaw(NotFound):
    """A law number no edition has."""


@dataclass(frozen=True)
class PairDiff:
    """One corresponding pair of clauses and how it changed: its class, the alignment's structural kind
    (moved, merged, split, renumbered, different_subject, or ''), the elements that differ and their values."""

    from_id: str | None
    to_id: str | None
    change: str
    redline: str                      # markdown redline ('' when one side is missing or not asked for)
    figures_from: tuple[tuple[float, str], ...] = ()
    figures_to: tuple[tuple[float, str], ...] = ()
    note: str = ""
    structure: str = ""
    elements: tuple[str, ...] = ()    # the differing elements (substantive: the deciding ones first)
    values: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()   # element, from values, to values
    text_from: str = ""
    text_to: str = ""

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"from_id": self.from_id, "to_id": self.to_id, "class": self.change,
                                  "redline": self.redline}
        if self.structure:
            out["structure"] = self.structure
        if self.elements:
            out["elements"] = list(self.elements)
        if self.figures_from != self.figures_to:
            out["figures"] = {"from": [f"{v:g} {u}" for v, u in self.figures_from],
                              "to": [f"{v:g} {u}" for v, u in self.figures_to]}
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class LawDiff:
    """All pairs of one law between two editions, and the law's overall class."""

    law: str
    from_edition: str
    to_edition: str
    lang: str
    title_from: str
    title_to: str
    chapter: str
    change: str
    pairs: list[PairDiff] = field(default_factory=list)
    subject_changed: bool = False     # the law kept its number but not its subject (alignment)

    @property
    def changed(self) -> list[PairDiff]:
        return [p for p in self.pairs if p.change not in QUIET]

    @property
    def elements(self) -> tuple[str, ...]:
        """The elements that differ in the law's substantive pairs."""
        return tuple(dict.fromkeys(e for p in self.pairs if p.change == "substantive" for e in p.elements))

    def as_json(self) -> dict[str, object]:
        return {"law": self.law, "from": self.from_edition, "to": self.to_edition, "lang": self.lang,
                "class": self.change, "elements": list(self.elements),
                "title": {"from": self.title_from, "to": self.title_to},
                "pairs": [p.as_json() for p in self.pairs]}


@lru_cache(maxsize=8)
def edition_lexicon(ed: str, lang: str) -> TermLexicon:
    """Surface label -> concept for one edition and language, from the terminology crosswalk."""
    from ..terminology import load_terminology

    labels: dict[str, str] = {}
    for concept in load_terminology().concepts.values():
        for lb in concept.labels:
            if lb.edition == ed and (lb.lang == lang or (lang != "en" and lb.lang != "en")):
                labels.setdefault(lb.form, concept.id)
    return TermLexicon(labels)


def is_translation(from_ed: str, to_ed: str) -> bool:
    """True when one edition's laws translate the other's (ccba2018 and wbf2017)."""
    return edition(from_ed).translates == to_ed or edition(to_ed).translates == from_ed


def _text(c: Clause | None, lang: str, scope: str) -> str | None:
    if c is None:
        return None
    parts = [c.title.get(lang, "")] if scope == "title" else [c.title.get(lang, ""), c.text.get(lang, "")]
    return "\n".join(p for p in parts if p).strip()


def _lang(ed: str, lang: str | None) -> str:
    """The language compared: the edition's Chinese text, or `lang` where the edition prints it."""
    langs = edition(ed).languages
    if lang and lang in langs:
        return lang
    return next((lg for lg in ("zh-Hans", "zh-Hant") if lg in langs), langs[0])


def _check(from_ed: str, to_ed: str, lang: str | None) -> tuple[str, str]:
    eds = law_editions()
    for ed in (from_ed, to_ed):
        if ed not in eds:
            raise BadDiffRequest(f"unknown edition {ed!r} — choose from {', '.join(eds)}")
    if lang not in (None, "zh-Hant", "zh-Hans", "en"):
        raise BadDiffRequest(f"unknown language {lang!r} — choose zh-Hans, zh-Hant or en")
    la, lb = _lang(from_ed, lang), _lang(to_ed, lang)
    if (la == "en") != (lb == "en"):
        raise BadDiffRequest(f"cannot redline {from_ed} ({la}) against {to_ed} ({lb}) — only one of them "
                             "prints English; use --lang zh-Hant")
    return la, lb


def _law_of(cid: str | None, ed: str) -> str | None:
    if not cid:
        return None
    p = ClauseId.parse(cid)
    return p.law if p.edition == ed and p.kind == "law" else None


def pair_kinds(corpus: Corpus, from_ed: str, to_ed: str) -> dict[tuple[str | None, str | None], str]:
    """(from id, to id) -> the alignment's kind (same, moved, renumbered, different_subject …) of every
    link between two editions: the structure behind the report's classes."""
    return {(x.from_id, x.to_id): x.kind for x in links(corpus, from_ed, to_ed)}


def _translation_pair(link: Link, a: str | None, b: str | None, lexicons: tuple[TermLexicon, TermLexicon],
                      draw: bool) -> ContentChange:
    """Two translations of one text: translation / revised, or the alignment's structural class."""
    structural = None if link.kind == "renumbered" else STRUCTURAL_KINDS.get(link.kind)
    if structural and a and b:
        rl = redline(a, b, lexicons[0], lexicons[1]) if draw or structural in CONTENT_CHANGES else None
        return ContentChange(structural, (), rl, None, None, tuple(sorted(figures(a))), tuple(sorted(figures(b))))
    if structural in ("new", "removed"):
        return ContentChange(structural)
    if not a or not b:      # both clauses exist, one only heads its items
        return ContentChange("translation" if (a or b) else "unchanged")
    pc = classify_translation(a, b, None, link.kind == "revised", lexicons[0], lexicons[1], draw)
    return ContentChange(pc.change, (), pc.redline, None, None, pc.figures_old, pc.figures_new)


def _body(c: Clause | None, lang: str, scope: str) -> str | None:
    """What a clause rules: its text without its heading (1999 prints a heading on every clause, 2018 on
    few), or the heading where there is no text; None for no clause."""
    if c is None:
        return None
    return (c.text.get(lang, "").strip() if scope != "title" else "") or c.title.get(lang, "").strip()


def _unnoted(c: Clause | None, text: str | None) -> str | None:
    """A clause's text without its inline notes （注：…）: 1999 prints inline the notes 2018 prints as
    footnotes (1999 41A, 45A → 2018 footnotes 11, 14), and neither is compared as the rule."""
    if c is None or text is None:
        return text
    for note in c.notes:
        text = text.replace(note, "")
    return text.strip() or None


def _context(corpus: Corpus, clauses: tuple[Clause | None, Clause | None], langs: tuple[str, str],
             partners: tuple[list[str], list[str]] = ([], []), matcher: PhraseMatcher | None = None) -> Context:
    """What surrounds each clause of a pair in its own edition: the headings and texts above it, and the
    texts (with theirs) of its `partners`, the other clauses the alignment gives the same counterpart (a
    piece merged into it, a piece split off with it); the texts of the clauses it cites by section; and
    the text its parent leads into it with ('…诸如：')."""
    around, cited, lead_ins = [], [], []
    for c, lang, others in zip(clauses, langs, partners, strict=True):
        if c is None:
            around.append("")
            cited.append("")
            lead_ins.append("")
            continue
        ed = corpus.editions[c.cid.edition].clauses
        parent_text = ed[str(c.parent)].text.get(lang, "").strip() if c.parent is not None and str(c.parent) in ed else ""
        lead_ins.append(parent_text if parent_text.endswith(("：", ":")) else "")
        texts = [_text(ed[o], lang, "text") or "" for o in others if o in ed]
        for x in [c] + [ed[o] for o in others if o in ed]:
            parent = x.parent
            while parent is not None and str(parent) in ed:
                texts.append(_text(ed[str(parent)], lang, "text") or "")
                parent = ed[str(parent)].parent
        around.append("\n".join(dict.fromkeys(texts)))
        cited.append("\n".join(_text(x, lang, "text") or "" for x in _cited(ed, c, lang)))
    return Context((around[0], around[1]), (cited[0], cited[1]), matcher, (lead_ins[0], lead_ins[1]))


def _partners(found: tuple[Link, ...], link: Link) -> tuple[list[str], list[str]]:
    """The other clauses linked to a link's counterparts: (older clauses with the same newer clause,
    newer clauses with the same older clause)."""
    old = [x.from_id for x in found if link.to_id and x.to_id == link.to_id and x.from_id and x.from_id != link.from_id]
    new = [x.to_id for x in found if link.from_id and x.from_id == link.from_id and x.to_id and x.to_id != link.to_id]
    return old, new


def _cited(clauses: dict[str, Clause], c: Clause, lang: str) -> list[Clause]:
    """The clauses of c's edition that c's text cites by section; a path the edition lacks cites its parent."""
    out = []
    for path in cited_clauses(c.text.get(lang, ""), c.cid.law or ""):
        parts = path.split("/")
        while parts and f"{c.cid.edition}/law/{'/'.join(parts)}" not in clauses:
            parts.pop()
        if len(parts) > 1:
            out.append(clauses[f"{c.cid.edition}/law/{'/'.join(parts)}"])
    return out


def _pair(link: Link, a: str | None, b: str | None, lexicons: tuple[TermLexicon, TermLexicon],
          translation: bool, draw: bool, bodies: tuple[str | None, str | None] | None = None,
          headed: tuple[str | None, str | None] | None = None, context: Context = Context()) -> PairDiff:
    """Classify one link's texts (their `bodies` for the content, `headed` for the elements: the texts
    with headings, without notes) and keep what the report prints of it."""
    if translation:
        ch = _translation_pair(link, a, b, lexicons, draw)
        shown = ch.redline.markdown() if ch.redline is not None else ""
    else:
        kind = "revised_text" if (link.kind == "revised" and link.method == "curated") else link.kind
        kind = "title" if link.scope == "title" else kind
        ch = classify_content(*(bodies or (a, b)), lexicons[0], lexicons[1], kind, headed or (a, b), context)
        if kind == "revised_text" and ch.change in ("reworded", "reference", "terminology", "unchanged"):
            ch = ContentChange("substantive", ch.changed, ch.redline, ch.old, ch.new, ch.figures_old, ch.figures_new)
        shown = redline(a, b, lexicons[0], lexicons[1]).markdown() if (draw and a and b) else ""
    values = tuple((n, tuple(sorted(ch.old.get(n))), tuple(sorted(ch.new.get(n)))) for n in ch.changed) \
        if ch.old is not None and ch.new is not None else ()
    structure = link.kind if link.kind in ("moved", "renumbered", "merged", "split", "different_subject") else ""
    return PairDiff(link.from_id, link.to_id, ch.change, shown, ch.figures_old, ch.figures_new, link.note,
                    structure, ch.changed, values, a or "", b or "")


def diff_law(corpus: Corpus, law: str, from_ed: str = "ccba1999", to_ed: str = "ccba2018",
             lang: str | None = None, redlines: bool | None = None, semantic: bool = True) -> LawDiff:
    """Every pair touching law `law` in either edition, classified and redlined; `redlines` defaults to
    on, and to off between two translations (then drawn for revised and restructured pairs only);
    `semantic` lets the sentence encoder tell a paraphrased phrase from a new one (assistant.diff.semantic)."""
    la, lb = _check(from_ed, to_ed, lang)
    law = str(law).strip().lstrip("Ll").lstrip("aw").strip()
    eds = corpus.editions
    a_law, b_law = eds[from_ed].clauses.get(f"{from_ed}/law/{law}"), eds[to_ed].clauses.get(f"{to_ed}/law/{law}")
    if a_law is None and b_law is None:
        raise UnknownLaw(f"no law {law!r} in {from_ed} or {to_ed} — laws are numbered 1-93")
    translation = is_translation(from_ed, to_ed)
    draw = (not translation) if redlines is None else redlines
    lexicons = (edition_lexicon(from_ed, la), edition_lexicon(to_ed, lb))
    try:
        found = links(corpus, from_ed, to_ed)
    except NoAlignment as err:
        raise BadDiffRequest(str(err)) from None
    pairs: list[PairDiff] = []
    pools = (_law_text(corpus, from_ed, law, la), _law_text(corpus, to_ed, law, lb))
    for x in found:
        if law not in (_law_of(x.from_id, from_ed), _law_of(x.to_id, to_ed)):
            continue
        ca = eds[from_ed].clauses.get(x.from_id) if x.from_id else None
        cb = eds[to_ed].clauses.get(x.to_id) if x.to_id else None
        # a clause printed as a heading alone, without items (1999 Law 77: the score table is not in the
        # text), has nothing to compare but its heading
        bare = any(c is not None and not c.children and len(c.text.get(lg, "")) <= HEADING_MAX
                   for c, lg in ((ca, la), (cb, lb)))
        link = replace(x, scope="title") if bare and ca and cb else x
        p = _pair(link, _text(ca, la, x.scope), _text(cb, lb, x.scope), lexicons, translation, draw,
                  (_unnoted(ca, _body(ca, la, link.scope)), _unnoted(cb, _body(cb, lb, link.scope))),
                  (_unnoted(ca, _text(ca, la, x.scope)), _unnoted(cb, _text(cb, lb, x.scope))),
                  Context() if translation else _context(corpus, (ca, cb), (la, lb), _partners(found, x),
                                                         default_matcher() if semantic else None))
        pairs.append(p if translation else _split_or_merged(p, pools))
    order = {ed: {cid: i for i, cid in enumerate(eds[ed].clauses)} for ed in (from_ed, to_ed)}
    pairs.sort(key=lambda p: (order[to_ed].get(p.to_id or "", 10**6) if p.to_id else
                              order[from_ed].get(p.from_id or "", 10**6), order[from_ed].get(p.from_id or "", 10**6)))
    revised = law.isdigit() and int(law) in {*edition(from_ed).revised_laws, *edition(to_ed).revised_laws}
    subject = any(p.structure == "different_subject" and _law_of(p.from_id, from_ed) == law for p in pairs)
    pointer = _is_pointer(corpus, to_ed, law, lb)
    # a number whose old rule moved out and that now holds a rule of its own is a new law (2017 Law 23)
    moved_out = any(p.structure == "moved" and p.from_id == f"{from_ed}/law/{law}"
                    and _law_of(p.to_id, to_ed) != law for p in pairs)
    present = (a_law is not None and not (subject and moved_out and not pointer), b_law is not None)
    overall = law_class(pairs, law, from_ed, to_ed, present, translation and revised, subject and pointer)
    chapter = (b_law or a_law).chapter or ""  # type: ignore[union-attr]
    return LawDiff(law, from_ed, to_ed, lb, (a_law.title.get(la, "") if a_law else ""),
                   (b_law.title.get(lb, "") if b_law else ""), chapter, overall, pairs, subject)


def _law_text(corpus: Corpus, ed: str, law: str, lang: str) -> str:
    """Every heading and text of one law of one edition, one line each."""
    return "\n".join(f"{c.title.get(lang, '')} {c.text.get(lang, '')}" for cid, c in corpus.editions[ed].clauses.items()
                     if cid == f"{ed}/law/{law}" or cid.startswith(f"{ed}/law/{law}/"))


def _split_or_merged(p: PairDiff, pools: tuple[str, str]) -> PairDiff:
    """A new clause whose words were in the older law was split off it; a removed one whose words are in
    the newer law was merged into it: restructured, not new or removed."""
    if p.change == "new" and len(p.text_to) > HEADING_MAX and _kept(p.text_to, pools[0]):
        return replace(p, change="restructured", structure="split")
    if p.change == "removed" and len(p.text_from) > HEADING_MAX and _kept(p.text_from, pools[1]):
        return replace(p, change="restructured", structure="merged")
    return p


def _kept(text: str, pool: str) -> bool:
    """True when the other edition's text of the law holds a clause's words (coverage) or its content in
    the same order (kept_share)."""
    return coverage(text, pool) >= SPLIT_MIN or kept_share(text, pool) >= KEPT_MIN


def _is_pointer(corpus: Corpus, ed: str, law: str, lang: str) -> bool:
    """True when every clause of the law that has a text only points to another law (2018 Laws 34, 35, 88)."""
    texts = [c.text.get(lang, "") for cid, c in corpus.editions[ed].clauses.items()
             if (cid == f"{ed}/law/{law}" or cid.startswith(f"{ed}/law/{law}/")) and c.text.get(lang, "")]
    pointing = [t for t in texts if mask_references(t) != t]
    return bool(pointing) and all(len(mask_references(t)) <= POINTER_MAX for t in pointing) \
        and len(pointing) >= len(texts) - 1


def _weight(p: PairDiff, law: str, from_ed: str, to_ed: str, pointer: bool) -> str:
    """The class a pair gives its law: content that left for another law restructures this one; a clause
    added or dropped with a rule in it changes the law's substance, unless the law now only points to
    where its rules went."""
    if p.from_id and p.to_id and _law_of(p.to_id, to_ed) != law and p.change in ("substantive", "reworded"):
        return "restructured"           # the destination law carries the change
    if p.change in ("new", "removed"):
        text = p.text_to if p.change == "new" else p.text_from
        if pointer and p.change == "removed":
            return "restructured"
        return "substantive" if len(mask_references(text)) > HEADING_MAX else "restructured"
    return p.change


def law_class(pairs: list[PairDiff], law: str, from_ed: str, to_ed: str, present: tuple[bool, bool],
              revised_law: bool = False, pointer: bool = False) -> str:
    """The most serious class the law's pairs give it (`_weight`); `new` / `removed` for a law only one
    edition has; between translations a revised law is `revised`. Never contradicts its rows: a
    substantive law has a substantive, new or removed row."""
    if not present[0]:
        return "new"
    if not present[1]:
        return "removed"
    classes = {_weight(p, law, from_ed, to_ed, pointer) for p in pairs}
    overall = next((c for c in SEVERITY if c in classes), "unchanged")
    if revised_law and overall not in QUIET:
        return "revised"
    if overall in ("new", "removed"):
        return "revised" if revised_law else "substantive"
    return overall
