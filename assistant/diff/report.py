"""The change report between two law editions: every law's class by chapter, the pairs that changed, and
the CCBA competition articles when only the newer edition has them. Defaults: CCBA 1999 → CCBA 2018.

Pairs come from the one alignment (assistant.graph.alignment) through assistant.diff.law.diff_law.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..corpus import Corpus
from ..editions import edition
from .content import CONTENT_CLASSES
from .keychanges import KeyChange, key_changes
from .law import QUIET, BadDiffRequest, LawDiff, PairDiff, UnknownLaw, diff_law, edition_lexicon
from .render import document, report_csv

__all__ = ["CLASSES", "BadDiffRequest", "ChangeReport", "KeyChange", "LawDiff", "PairDiff", "UnknownLaw",
           "change_report", "diff_law", "edition_lexicon", "key_changes", "law_differs"]

# the classes of the report, least serious first ('translation', 'revised': between two translations)
CLASSES: tuple[str, ...] = (*CONTENT_CLASSES, "translation", "revised")
ARTICLES_LAWS = Path(__file__).resolve().parent.parent / "data" / "articles_laws.yaml"


@dataclass
class ChangeReport:
    """All laws of one edition pair, the key changes that open it, and the competition articles new in the
    later one."""

    laws: list[LawDiff]
    articles: list[dict[str, object]]
    chapter_titles: dict[str, str]
    from_edition: str = "ccba1999"
    to_edition: str = "ccba2018"
    key_changes: tuple[KeyChange, ...] = ()
    key_texts: dict[str, str] = field(default_factory=dict)    # clause id -> text, for the key changes' quotes

    def counts(self) -> dict[str, int]:
        c = Counter(ld.change for ld in self.laws)
        return {k: c.get(k, 0) for k in CLASSES if c.get(k)}

    def counts_by_chapter(self) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = {}
        for ld in self.laws:
            out.setdefault(ld.chapter, Counter())[ld.change] += 1
        return {ch: dict(cnt) for ch, cnt in out.items()}

    def pair_counts(self) -> dict[str, int]:
        return dict(Counter(p.change for ld in self.laws for p in ld.pairs))

    def markdown(self, lang: str = "zh-Hans", ids: bool = False) -> str:
        """The report in Markdown, headings and statements in `lang`; clause ids only with `ids`."""
        return document(self, lang, ids).markdown()

    def html(self, lang: str = "zh-Hans", ids: bool = False) -> str:
        doc = document(self, lang, ids)
        return doc.html(lang, str(doc.blocks[0][2]))

    def csv(self) -> str:
        """One row per law and per changed pair, and one per article (columns kept, elements added)."""
        return report_csv(self)


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
                  redlines: bool | None = None, semantic: bool = True) -> ChangeReport:
    """The report over every law of the two editions, and the articles new in `to_ed`; `semantic=False`
    classifies without the sentence encoder (diff_law)."""
    first, last = edition(to_ed).laws or edition(from_ed).laws or (1, 93)
    laws = [diff_law(corpus, str(n), from_ed, to_ed, redlines=redlines, semantic=semantic)
            for n in range(first, last + 1)]
    titles = {ch.id: ch.title for ed in corpus.editions.values() for ch in ed.chapters}
    keys = key_changes(corpus) if (from_ed, to_ed) == ("ccba1999", "ccba2018") else ()
    texts = {cid: _clause_text(corpus, cid) for k in keys for cid in (*k.old, *k.new)}
    return ChangeReport(laws, _articles(corpus, from_ed, to_ed), titles, from_ed, to_ed, keys, texts)


def _clause_text(corpus: Corpus, cid: str) -> str:
    """A clause's heading and text on one line, as the report quotes it."""
    c = corpus.clause(cid)
    return " ".join(x for x in (c.title.get("zh-Hans", ""), c.text.get("zh-Hans", "")) if x).replace("\n", " ")


def law_differs(corpus: Corpus, law: str) -> bool:
    """True when law `law` is not the same in 1999 and 2017 beyond terms (for search and rulings)."""
    return diff_law(corpus, law).change not in QUIET
