"""Differences between editions: per-law pair redlines and the change report (1999 → 2017, CCBA articles).

Pairs come from the alignment (assistant.graph.align); each pair is classified by
assistant.diff.classify with each side's edition terminology, so a change of terms only is not a change
of substance.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..corpus import Corpus
from ..errors import BridgelawError
from ..model import Clause, ClauseId
from .classify import CHANGE_CLASSES, PairChange, classify_pair
from .redline import TermLexicon

# alignment kind -> structural change class (others are classified from the texts)
STRUCTURAL_KINDS = {"new": "new", "removed": "removed", "moved": "moved", "renumbered": "moved",
                    "different_subject": "different_subject", "revised_text": "substantive"}
# a law's class is the most severe class among its pairs, in this order
SEVERITY = ("different_subject", "substantive", "new", "removed", "moved", "reworded", "terminology_only",
            "script_only", "unchanged")
DIFF_EDITIONS = ("ccba1999", "ccba2018", "wbf2017")
# ccba2018 and wbf2017 translate the same English text: their must/may wording differs by translator only
TRANSLATION_PAIRS = {("ccba2018", "wbf2017")}
ARTICLES_LAWS = Path(__file__).resolve().parent.parent / "data" / "articles_laws.yaml"


class BadDiffRequest(BridgelawError):
    exit_code = 2


class UnknownLaw(BridgelawError):
    exit_code = 1


@dataclass(frozen=True)
class PairDiff:
    """One corresponding pair of clauses and how it changed."""

    from_id: str | None
    to_id: str | None
    change: str
    redline: str                      # markdown redline ('' when one side is missing)
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
        return [p for p in self.pairs if p.change not in ("unchanged", "script_only", "terminology_only")]

    def as_json(self) -> dict[str, object]:
        return {"law": self.law, "from": self.from_edition, "to": self.to_edition, "lang": self.lang,
                "class": self.change, "title": {"from": self.title_from, "to": self.title_to},
                "pairs": [p.as_json() for p in self.pairs]}


@lru_cache(maxsize=8)
def edition_lexicon(edition: str, lang: str) -> TermLexicon:
    """Surface label -> concept for one edition and language, from the terminology crosswalk."""
    from ..terminology import load_terminology

    labels: dict[str, str] = {}
    for concept in load_terminology().concepts.values():
        for lb in concept.labels:
            if lb.edition == edition and (lb.lang == lang or (lang != "en" and lb.lang != "en")):
                labels.setdefault(lb.form, concept.id)
    return TermLexicon(labels)


def _text(c: Clause | None, lang: str) -> str | None:
    if c is None:
        return None
    parts = [c.title.get(lang, ""), c.text.get(lang, "")]
    joined = "\n".join(p for p in parts if p).strip()
    return joined


def _lang_of(edition: str, lang: str | None) -> str:
    if edition == "wbf2017":
        return lang or "zh-Hant"
    return "zh-Hans"


@lru_cache(maxsize=4)
def _alignment(corpus_key: str) -> tuple:  # type: ignore[type-arg]
    from ..corpus import load_corpus
    from ..graph.align import align_editions

    return tuple(align_editions(load_corpus()))


def correspondences(corpus: Corpus, from_ed: str, to_ed: str) -> list[tuple[str | None, str | None, str, str]]:
    """(from_id, to_id, kind, note) between two editions; ccba1999 → wbf2017 goes through ccba2018."""
    al = _alignment(corpus.fingerprint)

    def direct(a: str, b: str) -> list[tuple[str | None, str | None, str, str]]:
        out = []
        for c in al:
            ea = c.from_id.split("/")[0] if c.from_id else None
            eb = c.to_id.split("/")[0] if c.to_id else None
            if (ea, eb) in ((a, b), (a, None), (None, b)) and (ea or eb):
                # 'new'/'removed' rows carry one side only: keep those of this edition pair
                if ea is None and c.kind == "new" and eb == b and _new_against(c, a, al):
                    out.append((None, c.to_id, c.kind, c.note))
                elif eb is None and c.kind == "removed" and ea == a and _removed_against(c, b, al):
                    out.append((c.from_id, None, c.kind, c.note))
                elif ea == a and eb == b:
                    # a curated 'revised' is a revision of the text itself (the 2024 Laws 73 and 89)
                    kind = "revised_text" if (c.kind == "revised" and c.method == "curated") else c.kind
                    out.append((c.from_id, c.to_id, kind, c.note))
        return out

    if (from_ed, to_ed) in (("ccba1999", "ccba2018"), ("ccba2018", "wbf2017")):
        return direct(from_ed, to_ed)
    if (from_ed, to_ed) == ("ccba1999", "wbf2017"):
        to_wbf = {f: t for f, t, _, _ in direct("ccba2018", "wbf2017") if f and t}
        out = []
        for f, t, kind, note in direct("ccba1999", "ccba2018"):
            wt = to_wbf.get(t) if t else None
            if t and wt is None:
                wt = t.replace("ccba2018/", "wbf2017/", 1)
                if wt not in corpus.editions["wbf2017"].clauses:
                    continue
            out.append((f, wt, kind, note))
        return out
    raise BadDiffRequest(f"no alignment from {from_ed} to {to_ed} — choose --from ccba1999 --to ccba2018, "
                         "--from ccba2018 --to wbf2017 or --from ccba1999 --to wbf2017")


def _new_against(c, older: str, al) -> bool:  # type: ignore[no-untyped-def]
    """A 'new' row belongs to the pair whose older edition is `older` (its note/method tell the pair)."""
    ed = c.to_id.split("/")[0]
    if ed == "ccba2018":
        return older == "ccba1999"
    return older == "ccba2018"


def _removed_against(c, newer: str, al) -> bool:  # type: ignore[no-untyped-def]
    ed = c.from_id.split("/")[0]
    if ed == "ccba1999":
        return newer == "ccba2018"
    return newer == "wbf2017"


def _under(cid: str | None, edition: str, law: str) -> bool:
    if not cid:
        return False
    p = ClauseId.parse(cid)
    return p.edition == edition and p.kind == "law" and p.law == law


def diff_law(corpus: Corpus, law: str, from_ed: str = "ccba1999", to_ed: str = "ccba2018",
             lang: str | None = None) -> LawDiff:
    """Every pair touching law `law` in either edition, classified and redlined."""
    for ed in (from_ed, to_ed):
        if ed not in DIFF_EDITIONS:
            raise BadDiffRequest(f"unknown edition {ed!r} — choose from {', '.join(DIFF_EDITIONS)}")
    if lang not in (None, "zh-Hant", "zh-Hans", "en"):
        raise BadDiffRequest(f"unknown language {lang!r} — choose zh-Hans, zh-Hant or en")
    law = str(law).strip().lstrip("Ll").lstrip("aw").strip()
    la, lb = "zh-Hans" if from_ed != "wbf2017" else (lang or "zh-Hant"), _lang_of(to_ed, lang)
    if (la == "en") != (lb == "en"):
        raise BadDiffRequest(f"cannot redline {from_ed} ({la}) against {to_ed} ({lb}) — only the "
                             "wbf2017 edition has English; use --lang zh-Hant")
    eds = corpus.editions
    a_law, b_law = eds[from_ed].clauses.get(f"{from_ed}/law/{law}"), eds[to_ed].clauses.get(f"{to_ed}/law/{law}")
    if a_law is None and b_law is None:
        raise UnknownLaw(f"no law {law!r} in {from_ed} or {to_ed} — laws are numbered 1-93")
    lex_a, lex_b = edition_lexicon(from_ed, la), edition_lexicon(to_ed, lb)
    pairs: list[PairDiff] = []
    for f, t, kind, note in correspondences(corpus, from_ed, to_ed):
        if not (_under(f, from_ed, law) or _under(t, to_ed, law)):
            continue
        ca = eds[from_ed].clauses.get(f) if f else None
        cb = eds[to_ed].clauses.get(t) if t else None
        ch: PairChange = classify_pair(_text(ca, la), _text(cb, lb), lex_a, STRUCTURAL_KINDS.get(kind), lex_b,
                                       compare_modals=(from_ed, to_ed) not in TRANSLATION_PAIRS)
        pairs.append(PairDiff(f, t, ch.change, ch.redline.markdown() if ch.redline else "",
                              ch.figures_old, ch.figures_new, note))
    pairs.sort(key=lambda p: _order(corpus, p))
    classes = {p.change for p in pairs}
    law_pair = next((p for p in pairs if p.from_id == f"{from_ed}/law/{law}" and p.to_id == f"{to_ed}/law/{law}"), None)
    if law_pair and law_pair.change == "different_subject":
        overall = "different_subject"
    else:
        overall = next((c for c in SEVERITY if c in classes), "unchanged")
        if overall in ("new", "removed") and (a_law and b_law):
            overall = "substantive"     # clauses added to or dropped from a law change its substance
    chapter = (b_law or a_law).chapter or ""  # type: ignore[union-attr]
    return LawDiff(law, from_ed, to_ed, lb, (a_law.title.get(la, "") if a_law else ""),
                   (b_law.title.get(lb, "") if b_law else ""), chapter, overall, pairs)


def _order(corpus: Corpus, p: PairDiff) -> tuple[int, int]:
    def pos(cid: str | None) -> int:
        if not cid:
            return 10**6
        ed = corpus.editions[cid.split("/")[0]]
        return list(ed.clauses).index(cid) if cid in ed.clauses else 10**6
    return (pos(p.to_id) if p.to_id else pos(p.from_id), pos(p.from_id))


@dataclass
class ChangeReport:
    """1999 → 2017 over all 93 laws, plus the 57 CCBA 2018 competition articles."""

    laws: list[LawDiff]
    articles: list[dict[str, object]]
    chapter_titles: dict[str, str]

    def counts(self) -> dict[str, int]:
        c = Counter(ld.change for ld in self.laws)
        return {k: c.get(k, 0) for k in CHANGE_CLASSES if c.get(k)}

    def counts_by_chapter(self) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = {}
        for ld in self.laws:
            out.setdefault(ld.chapter, Counter())[ld.change] += 1
        return {ch: dict(cnt) for ch, cnt in out.items()}

    def pair_counts(self) -> dict[str, int]:
        return dict(Counter(p.change for ld in self.laws for p in ld.pairs))

    def markdown(self) -> str:
        lines = ["# Changes from CCBA 1999 to the 2017 laws (CCBA 2018 translation)", "",
                 "## Laws per change class", "", "| class | laws |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in self.counts().items()]
        lines += ["", "## Per chapter (2017 chapters)", "", "| chapter | " + " | ".join(SEVERITY) + " |",
                  "|---|" + "---|" * len(SEVERITY)]
        for ch, cnt in self.counts_by_chapter().items():
            lines.append(f"| {self.chapter_titles.get(ch, ch)} | " + " | ".join(str(cnt.get(k, 0)) for k in SEVERITY) + " |")
        lines += ["", "## Laws", ""]
        for ld in self.laws:
            lines.append(f"### Law {ld.law}: {ld.title_from} → {ld.title_to} — {ld.change}")
            for p in ld.changed:
                lines.append(f"- `{p.from_id or '—'}` → `{p.to_id or '—'}`: {p.change}"
                             + (f" (figures {list(p.figures_from)} → {list(p.figures_to)})"
                                if p.figures_from != p.figures_to else ""))
            lines.append("")
        lines += ["## CCBA 2018 competition articles (new relative to 1999)", "",
                  "| article | title | class | related WBF laws |", "|---|---|---|---|"]
        for a in self.articles:
            lines.append(f"| {a['article']} | {a['title']} | {a['class']} | {', '.join(a['laws'])} |")  # type: ignore[arg-type]
        return "\n".join(lines) + "\n"

    def csv(self) -> str:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["kind", "number", "title_1999", "title_2017", "chapter", "class", "from_id", "to_id",
                    "pair_class", "figures_from", "figures_to"])
        for ld in self.laws:
            w.writerow(["law", ld.law, ld.title_from, ld.title_to, self.chapter_titles.get(ld.chapter, ld.chapter),
                        ld.change, "", "", "", "", ""])
            for p in ld.changed:
                w.writerow(["pair", ld.law, "", "", "", "", p.from_id or "", p.to_id or "", p.change,
                            " ".join(f"{v:g}{u}" for v, u in p.figures_from),
                            " ".join(f"{v:g}{u}" for v, u in p.figures_to)])
        for a in self.articles:
            w.writerow(["article", a["article"], "", a["title"], a["chapter"], a["class"], "", a["id"], "",
                        "", " ".join(a["laws"])])  # type: ignore[arg-type]
        return buf.getvalue()


def change_report(corpus: Corpus) -> ChangeReport:
    """The report over all 93 laws (ccba1999 → ccba2018) and the 57 CCBA 2018 articles."""
    laws = [diff_law(corpus, str(n), "ccba1999", "ccba2018") for n in range(1, 94)]
    links = (yaml.safe_load(ARTICLES_LAWS.read_text(encoding="utf-8")) or {}).get("articles", {})
    ed18 = corpus.editions["ccba2018"]
    articles = []
    for c in ed18.clauses.values():
        if c.level != "article":
            continue
        link = links.get(int(c.number), {}) or {}
        related = [x for k in ("implements", "specifies", "overrides") for x in link.get(k, []) or []]
        articles.append({"article": c.number, "id": c.id, "title": c.title.get("zh-Hans", ""),
                         "chapter": c.chapter or "", "class": "new",
                         "laws": [r.split("/law/")[-1].replace("/", "") if "/law/" in r else r for r in related]})
    titles = {ch.id: ch.title for ed in corpus.editions.values() for ch in ed.chapters}
    return ChangeReport(laws, articles, titles)


def law_differs(corpus: Corpus, law: str) -> bool:
    """True when law `law` is not the same in 1999 and 2017 beyond terms (for search and rulings)."""
    return diff_law(corpus, law).change not in ("unchanged", "script_only", "terminology_only")
