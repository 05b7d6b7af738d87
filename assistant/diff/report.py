"""The change report between two law editions: every law's class by chapter, the pairs that changed, and
the CCBA competition articles when only the newer edition has them. Defaults: CCBA 1999 → CCBA 2018.

Pairs come from the one alignment (assistant.graph.alignment) through assistant.diff.law.diff_law.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..corpus import Corpus
from ..editions import edition
from .classify import CHANGE_CLASSES
from .law import QUIET, SEVERITY, BadDiffRequest, LawDiff, PairDiff, UnknownLaw, diff_law, edition_lexicon

__all__ = ["BadDiffRequest", "ChangeReport", "LawDiff", "PairDiff", "UnknownLaw", "change_report", "diff_law",
           "edition_lexicon", "law_differs"]

ARTICLES_LAWS = Path(__file__).resolve().parent.parent / "data" / "articles_laws.yaml"


@dataclass
class ChangeReport:
    """All laws of one edition pair, plus the competition articles new in the later one."""

    laws: list[LawDiff]
    articles: list[dict[str, object]]
    chapter_titles: dict[str, str]
    from_edition: str = "ccba1999"
    to_edition: str = "ccba2018"

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

    def _title(self) -> str:
        def name(ed: str) -> str:
            info = edition(ed)
            title = info.title_in("en")
            return title if info.version in title else f"{title} {info.version}"

        return f"# Changes from {name(self.from_edition)} to {name(self.to_edition)}"

    def markdown(self) -> str:
        classes = [k for k in SEVERITY if any(k in c for c in self.counts_by_chapter().values())]
        lines = [self._title(), "", f"`{self.from_edition}` → `{self.to_edition}`", "",
                 "## Laws per change class", "", "| class | laws |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in self.counts().items()]
        lines += ["", f"## Per chapter ({self.to_edition} chapters)", "", "| chapter | " + " | ".join(classes) + " |",
                  "|---|" + "---|" * len(classes)]
        for ch, cnt in self.counts_by_chapter().items():
            lines.append(f"| {self.chapter_titles.get(ch, ch)} | " + " | ".join(str(cnt.get(k, 0)) for k in classes) + " |")
        lines += ["", "## Laws", ""]
        for ld in self.laws:
            lines.append(f"### Law {ld.law}: {ld.title_from} → {ld.title_to} — {ld.change}")
            for p in ld.changed:
                lines.append(f"- `{p.from_id or '—'}` → `{p.to_id or '—'}`: {p.change}"
                             + (f" (figures {list(p.figures_from)} → {list(p.figures_to)})"
                                if p.figures_from != p.figures_to else ""))
            lines.append("")
        if self.articles:
            lines += [f"## {self.to_edition} competition articles (new relative to {self.from_edition})", "",
                      "| article | title | class | related WBF laws |", "|---|---|---|---|"]
            for a in self.articles:
                lines.append(f"| {a['article']} | {a['title']} | {a['class']} | {', '.join(a['laws'])} |")  # type: ignore[arg-type]
        return "\n".join(lines) + "\n"

    def csv(self) -> str:
        """One row per law and per changed pair, and one per article; the title columns hold the from and to
        editions' titles (named for the default pair, 1999 → 2017)."""
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


def _articles(corpus: Corpus, from_ed: str, to_ed: str) -> list[dict[str, object]]:
    """The competition articles of `to_ed` when `from_ed` has none (CCBA 2018 against 1999 or WBF 2017)."""
    if not edition(to_ed).articles or edition(from_ed).articles:
        return []
    links = (yaml.safe_load(ARTICLES_LAWS.read_text(encoding="utf-8")) or {}).get("articles", {})
    out: list[dict[str, object]] = []
    for c in corpus.editions[to_ed].clauses.values():
        if c.level != "article":
            continue
        link = links.get(int(c.number), {}) or {}
        related = [x for k in ("implements", "specifies", "overrides") for x in link.get(k, []) or []]
        out.append({"article": c.number, "id": c.id, "title": c.title.get("zh-Hans", ""),
                    "chapter": c.chapter or "", "class": "new",
                    "laws": [r.split("/law/")[-1].replace("/", "") if "/law/" in r else r for r in related]})
    return out


def change_report(corpus: Corpus, from_ed: str = "ccba1999", to_ed: str = "ccba2018",
                  redlines: bool | None = None) -> ChangeReport:
    """The report over every law of the two editions, and the articles new in `to_ed`."""
    first, last = edition(to_ed).laws or edition(from_ed).laws or (1, 93)
    laws = [diff_law(corpus, str(n), from_ed, to_ed, redlines=redlines) for n in range(first, last + 1)]
    titles = {ch.id: ch.title for ed in corpus.editions.values() for ch in ed.chapters}
    return ChangeReport(laws, _articles(corpus, from_ed, to_ed), titles, from_ed, to_ed)


def law_differs(corpus: Corpus, law: str) -> bool:
    """True when law `law` is not the same in 1999 and 2017 beyond terms (for search and rulings)."""
    return diff_law(corpus, law).change not in QUIET
