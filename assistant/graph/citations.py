"""Citations: find every cross-reference in the clause texts and resolve it to a clause id.

Recognition uses spaCy blank pipelines (`zh` for zh-Hans/zh-Hant, `en` for English) with a `Matcher`.
Their default tokenizers do not fit references: blank `zh` (char segmenter) splits `77` into `7`, `7`,
blank `en` keeps `27B1(b` as one token and splits off `)`. Both pipelines therefore get `RefTokenizer`,
one commented regex that yields reference-shaped tokens (`64C`, `12C1(b)`, `C2`, `(k)`, `77`), Latin
words, a small lexicon of CJK function words (参照, 上述, 本条 …) and otherwise single CJK characters.
The Matcher patterns (one label per form) find the spans; the typed tokens of each span are then read
into paths and resolved against the cited edition at the most precise existing level.

Modules: `citations_tokens` (token grammar, path reading), `citations_patterns` (Matcher patterns),
`citations_recognise` (spans -> paths), `citations_resolve` (paths -> clause ids), and
`citations_typed` (`typed_citations`: the citations a reader types in a question, without spaCy).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..model import ClauseId
from .citations_recognise import RawRef, recognise
from .citations_resolve import Citation, Resolver, resolve_item
from .citations_typed import TypedCitation, typed_citations

__all__ = ["Citation", "RawRef", "Resolver", "TypedCitation", "cached_citations", "citation_stats",
           "citations_by_target", "extract_citations", "recognise", "typed_citations"]

# the modules whose code decides the citations (the cache key of `cached_citations`)
CODE_FILES = ("graph/citations.py", "graph/citations_tokens.py", "graph/citations_patterns.py",
              "graph/citations_recognise.py", "graph/citations_resolve.py")


def _texts(corpus: Any) -> Iterator[tuple[str, ClauseId, str, str]]:
    """(source id, clause id to resolve against, lang, text) for every clause text, note and footnote."""
    for ed in corpus.editions.values():
        for c in ed.clauses.values():
            cid = ClauseId.parse(c.id)
            for lang, text in c.text.items():
                if text:
                    yield c.id, cid, lang, text
            if c.level not in ("law", "article"):
                # section and item titles cite too: 2018 38D 可能不适用第 26 条 B 款和第 72 条 C 款
                for lang, text in c.title.items():
                    if text:
                        yield c.id, cid, lang, text
            joined = " ".join(c.text.values())
            for note in c.notes:
                if note and note not in joined:
                    yield c.id, cid, next(iter(c.text), "zh-Hans"), note
        for f in ed.footnotes.values():
            anchor = ClauseId.parse(f.clause) if f.clause else ClauseId.parse(f.id)
            for lang, text in f.text.items():
                if text:
                    yield f.id, anchor, lang, text


TRIGGER = re.compile(r"条|條|款|項|项|Law|判罚尺度|see|See|above|below|following|preceding|上述|以下|上面|下方")


def extract_citations(corpus: Any) -> list[Citation]:
    """Every citation of every edition, resolved within the citing edition (unresolved ones kept)."""
    res = Resolver(corpus)
    out: list[Citation] = []
    for source, cid, lang, text in _texts(corpus):
        if not TRIGGER.search(text):
            continue
        for raw in recognise(text, lang):
            if raw.label == "zh-category" and cid.kind == "article" and cid.path[:1] == ("51",):
                continue   # article 51 defines the categories itself
            if raw.label == "zh-same-item" and cid.kind != "article":
                continue
            if cid.kind == "policy" and raw.label not in ("policy", "law"):
                continue   # policies number their paragraphs 2.3.2; other relative forms are prose there
            for printed, path in raw.items:
                out.append(resolve_item(raw, printed, path, cid, lang, res, source))
    return out


def citations_by_target(citations: Iterable[Citation]) -> dict[str, list[Citation]]:
    """Cited-by index: target clause id -> the citations that resolve to it (document order)."""
    by: dict[str, list[Citation]] = defaultdict(list)
    for c in citations:
        if c.target:
            by[c.target].append(c)
    return dict(by)


def citation_stats(citations: Iterable[Citation]) -> dict[str, Any]:
    """Counts per edition, language and form, resolution rate, for `graph stats` and the report."""
    cits = list(citations)
    forms: Counter[tuple[str, str, str, str]] = Counter()
    law_tokens: Counter[tuple[str, str]] = Counter()
    seen: set[tuple[str, str, int]] = set()
    for c in cits:
        forms[(c.edition, c.lang, c.kind, c.form)] += 1
        key = (c.source, c.lang, c.offset)
        if c.form.startswith("Law") and key not in seen:
            seen.add(key)
            law_tokens[(c.edition, c.lang)] += len(re.findall(r"\bLaws?\b", c.text))
    resolved = sum(1 for c in cits if c.target)
    return {
        "total": len(cits),
        "resolved": resolved,
        "rate": resolved / len(cits) if cits else 1.0,
        "forms": {"/".join(k): v for k, v in sorted(forms.items())},
        "law_tokens": {"/".join(k): v for k, v in sorted(law_tokens.items())},
        "unresolved": [c for c in cits if not c.target],
    }


def cached_citations(corpus: Any) -> list[Citation]:
    """`extract_citations`, kept as the `citations` artifact keyed by the corpus and the recogniser's code.

    Readers that only need the result (the app's cites and cited-by links) then skip spaCy, whose
    import pulls in torch through thinc (1.5 s and 250 MB).
    """
    import json
    from dataclasses import asdict

    from ..artifact import artifact

    def write(cits: list[Citation], folder: Path) -> None:
        (folder / "citations.json").write_text(json.dumps([asdict(c) for c in cits], ensure_ascii=False),
                                               encoding="utf-8")

    def read(folder: Path) -> list[Citation]:
        return [Citation(**row) for row in json.loads((folder / "citations.json").read_text(encoding="utf-8"))]

    art = artifact("citations")
    cits, _ = art.get(art.key(corpus.fingerprint), lambda: extract_citations(corpus), write, read)
    return cits
