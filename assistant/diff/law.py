"""One law between two editions: its pairs of corresponding clauses (from the one alignment,
assistant.graph.alignment), each classified and, where it helps, redlined.

Between two translations of one text (the manifest's `translates`) a pair is `translation` unless the
original's revision changed its content (`revised`), and redlines are drawn only on request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from ..corpus import Corpus
from ..editions import edition, law_editions
from ..errors import BadInput, NotFound
from ..graph.alignment import Link, NoAlignment, links
from ..model import Clause, ClauseId
from .classify import PairChange, classify_pair, classify_translation
from .redline import TermLexicon

# alignment kind -> structural change class (others are classified from the texts)
STRUCTURAL_KINDS = {"new": "new", "removed": "removed", "moved": "moved", "renumbered": "moved",
                    "different_subject": "different_subject"}
# a law's class is the most severe class among its pairs, in this order
SEVERITY = ("different_subject", "revised", "substantive", "new", "removed", "moved", "reworded", "translation",
            "terminology_only", "script_only", "unchanged")
QUIET = ("unchanged", "script_only", "terminology_only", "translation")   # pairs that say the same thing
CONTENT_CHANGES = ("revised", "moved")     # between translations, redlined even when not asked for


class BadDiffRequest(BadInput):
    """Two editions, a language or a law the diff cannot compare."""


class UnknownLaw(NotFound):
    """A law number no edition has."""


@dataclass(frozen=True)
class PairDiff:
    """One corresponding pair of clauses and how it changed."""

    from_id: str | None
    to_id: str | None
    change: str
    redline: str                      # markdown redline ('' when one side is missing or not asked for)
    figures_from: tuple[tuple[float, str], ...] = ()
    figures_to: tuple[tuple[float, str], ...] = ()
    note: str = ""

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"from_id": self.from_id, "to_id": self.to_id, "class": self.change,
                                  "redline": self.redline}
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

    @property
    def changed(self) -> list[PairDiff]:
        return [p for p in self.pairs if p.change not in QUIET]

    def as_json(self) -> dict[str, object]:
        return {"law": self.law, "from": self.from_edition, "to": self.to_edition, "lang": self.lang,
                "class": self.change, "title": {"from": self.title_from, "to": self.title_to},
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


def _under(cid: str | None, ed: str, law: str) -> bool:
    if not cid:
        return False
    p = ClauseId.parse(cid)
    return p.edition == ed and p.kind == "law" and p.law == law


def _classify(link: Link, a: str | None, b: str | None, lexicons: tuple[TermLexicon, TermLexicon],
              translation: bool, redlines: bool) -> PairChange:
    if translation:
        # a label that differs between two translations of one text is a misprint, not a move
        structural = None if link.kind == "renumbered" else STRUCTURAL_KINDS.get(link.kind)
        return classify_translation(a, b, structural, link.kind == "revised", lexicons[0], lexicons[1], redlines)
    # a curated revision of the text (the 2024 Laws 73 and 89) is a change of substance
    structural = "substantive" if (link.kind == "revised" and link.method == "curated") else STRUCTURAL_KINDS.get(link.kind)
    return classify_pair(a, b, lexicons[0], structural, lexicons[1])


def diff_law(corpus: Corpus, law: str, from_ed: str = "ccba1999", to_ed: str = "ccba2018",
             lang: str | None = None, redlines: bool | None = None) -> LawDiff:
    """Every pair touching law `law` in either edition, classified and redlined; `redlines` defaults to
    on, and to off between two translations (then drawn for revised and moved pairs only)."""
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
    for x in found:
        if not (_under(x.from_id, from_ed, law) or _under(x.to_id, to_ed, law)):
            continue
        ca = eds[from_ed].clauses.get(x.from_id) if x.from_id else None
        cb = eds[to_ed].clauses.get(x.to_id) if x.to_id else None
        ch = _classify(x, _text(ca, la, x.scope), _text(cb, lb, x.scope), lexicons, translation, draw)
        shown = ch.redline is not None and (draw or (redlines is None and ch.change in CONTENT_CHANGES))
        pairs.append(PairDiff(x.from_id, x.to_id, ch.change, ch.redline.markdown() if shown else "",  # type: ignore[union-attr]
                              ch.figures_old, ch.figures_new, x.note))
    order = {ed: {cid: i for i, cid in enumerate(eds[ed].clauses)} for ed in (from_ed, to_ed)}
    pairs.sort(key=lambda p: (order[to_ed].get(p.to_id or "", 10**6) if p.to_id else
                              order[from_ed].get(p.from_id or "", 10**6), order[from_ed].get(p.from_id or "", 10**6)))
    revised = law.isdigit() and int(law) in {*edition(from_ed).revised_laws, *edition(to_ed).revised_laws}
    overall = _law_class(pairs, f"{from_ed}/law/{law}", f"{to_ed}/law/{law}", bool(a_law and b_law),
                         translation and revised)
    chapter = (b_law or a_law).chapter or ""  # type: ignore[union-attr]
    return LawDiff(law, from_ed, to_ed, lb, (a_law.title.get(la, "") if a_law else ""),
                   (b_law.title.get(lb, "") if b_law else ""), chapter, overall, pairs)


def _law_class(pairs: list[PairDiff], a_id: str, b_id: str, both: bool, revised_law: bool) -> str:
    """The most severe pair class; clauses added to or dropped from a law change its substance (or, between
    translations, are the revision); a law that changed subject is that, whatever its clauses did."""
    law_pair = next((p for p in pairs if p.from_id == a_id and p.to_id == b_id), None)
    if law_pair and law_pair.change == "different_subject":
        return "different_subject"
    classes = {p.change for p in pairs}
    overall = next((c for c in SEVERITY if c in classes), "unchanged")
    if revised_law and overall not in QUIET:
        return "revised"
    if overall in ("new", "removed") and both:
        return "revised" if revised_law else "substantive"
    return overall
