"""CLI: `bridgelaw show ID` (a law read whole, in reading order) and `bridgelaw stats` — the corpus as parsed.

`show` prints the clause and its whole subtree: numbering, title, text per language, tables, notes and
footnotes in place, and a mark where an editorial correction changed the text (assistant/reading.py);
`--as-received` prints the faithful text instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from .console import emit_json
from .errors import BadInput
from .reading import mark, notes, received_tables, received_text

if TYPE_CHECKING:
    from .corpus import Corpus, Edition
    from .model import Clause

BRACKETED = ("subitem", "subsubitem", "subsubsubitem")     # printed as (a), (i), (1)
ROOT_LABELS = {"law": "Law {}", "article": "Article {}"}          # a root is named in full: Law 16B1(a)


def _corpus() -> Corpus:
    from .corpus import load_corpus

    return load_corpus()


def subtree(ed: Edition, clause: Clause) -> list[Clause]:
    """The clause and all its descendants, depth first: the reading (document) order."""
    out: list[Clause] = []
    stack = [clause]
    while stack:
        c = stack.pop()
        out.append(c)
        stack.extend(ed.clauses[x] for x in reversed(c.children) if x in ed.clauses)
    return out


def choose_langs(edition: str, asked: list[str] | None) -> list[str]:
    """The languages to print: those asked for (each must be one the edition is printed in), else all."""
    from .editions import LANGS
    from .editions import edition as edition_info

    have = list(edition_info(edition).languages)
    if not asked:
        return have
    for lang in asked:
        if lang not in LANGS:
            raise BadInput(f"unknown language {lang!r} — choose from {', '.join(LANGS)}")
        if lang not in have:
            raise BadInput(f"{edition} has no {lang} text — choose from {', '.join(have)}")
    return [x for x in have if x in asked]


def label(c: Clause, root: bool) -> str:
    """The clause's numbering in a reading: the root in full ('Law 64', 'Law 16B1'), then 'B.', '1.', '(a)'."""
    cid = c.cid
    if root and cid.kind in ROOT_LABELS and cid.path:
        if cid.kind == "article":                                                 # Article 22.2.1
            return ROOT_LABELS["article"].format(".".join(cid.path))
        rest = [f"({x})" if i >= 2 else x for i, x in enumerate(cid.path[1:])]   # Law 16B1(a)
        return ROOT_LABELS["law"].format(cid.path[0] + "".join(rest))
    if c.level in BRACKETED:
        return f"({c.number})"
    if c.level in ("definition", "preface", "policy") or not c.number:
        return ""
    return f"{c.number}."


def _pick(d: dict[str, str], langs: list[str]) -> dict[str, str]:
    return {k: v for k, v in d.items() if k in langs}


def clause_lines(corpus: Corpus, c: Clause, depth: int, langs: list[str],
                 as_received: bool, ids: bool) -> list[str]:
    """One clause as text lines: heading, terms, texts, tables, notes, footnotes, correction mark."""
    pad = "  " * depth
    ed = corpus.editions[c.edition]
    titles = [t for t in _pick(c.title, langs).values() if t]
    head = " ".join(x for x in (label(c, depth == 0), " / ".join(titles)) if x)
    if ids:
        head = f"{head}  <{c.id}>" if head else f"<{c.id}>"
    lines = [pad + head] if head else []
    for lang, term in _pick(c.term, langs).items():
        lines.append(f"{pad}  term ({lang}): {term}" + (f"  key: {c.key_printed}" if c.key_printed else ""))
    texts = received_text(c) if as_received else c.text
    for lang, text in _pick(texts, langs).items():
        if text.strip():
            first, *rest = text.splitlines() or [""]
            lines.append(f"{pad}  text ({lang}): {first}")
            lines += [f"{pad}    {line}" for line in rest]
    for table in received_tables(c) if as_received else c.tables:
        lines.append(f"{pad}  table:")
        lines += [f"{pad}    {line}" for line in table.splitlines()]
    lines += [f"{pad}  note: {n}" for n in c.notes]
    for f in (ed.footnotes[x] for x in c.footnotes if x in ed.footnotes):
        lines += [f"{pad}  footnote {f.number} ({lang}): {t}" for lang, t in _pick(f.text, langs).items()]
    if not as_received:
        lines += [f"{pad}  {m}" for m in [mark(c), *notes(c)] if m]
    return lines


def render(corpus: Corpus, clause_id: str, langs: list[str] | None = None,
           as_received: bool = False, ids: bool = False) -> list[str]:
    """`show` as text lines: the subtree in reading order, then the root's parent, children and source."""
    root = corpus.clause(clause_id)
    ed = corpus.editions[root.edition]
    chosen = choose_langs(root.edition, langs)
    depth0 = len(root.cid.path)
    lines = ["[as received: the source's text, defects included]"] if as_received else []
    for c in subtree(ed, root):
        lines += clause_lines(corpus, c, max(0, len(c.cid.path) - depth0), chosen, as_received, ids)
    if root.parent:
        lines.append(f"parent: {root.parent}")
    if root.children:
        lines.append("children: " + ", ".join(root.children))
    if root.source:
        lines.append(f"source: {root.source.file} lines {root.source.first}-{root.source.last}")
    return lines


def clause_json(corpus: Corpus, c: Clause, langs: list[str], as_received: bool) -> dict[str, Any]:
    """The JSON record of one clause (the keys `show --json` has always had, plus the reading's)."""
    ed = corpus.editions[c.edition]
    found = [ed.footnotes[f] for f in c.footnotes if f in ed.footnotes]
    return {
        "id": c.id, "edition": c.edition, "level": c.level, "number": c.number,
        "title": _pick(c.title, langs), "text": _pick(received_text(c) if as_received else c.text, langs),
        "parent": c.parent, "children": list(c.children),
        "chapter": c.chapter, "notes": c.notes, "tables": received_tables(c) if as_received else c.tables,
        "footnotes": [{"id": f.id, "number": f.number, "text": _pick(f.text, langs)} for f in found],
        "term": _pick(c.term, langs), "key": c.key,
        "source": {"file": c.source.file, "first": c.source.first, "last": c.source.last} if c.source else None,
        "received": _pick(c.received, langs), "corrections": c.corrections,
    }


def show(clause_id: str = typer.Argument(..., help="a law, section or item, e.g. ccba1999/law/60 or wbf2017/law/64/B"),
         lang: list[str] | None = typer.Option(None, "--lang", help="only this language (repeatable): en, zh-Hans, zh-Hant"),  # noqa: B008
         as_received: bool = typer.Option(False, "--as-received", help="the faithful text, without the editorial corrections"),
         ids: bool = typer.Option(False, "--ids", help="print each clause's id"),
         as_json: bool = typer.Option(False, "--json", help="print JSON: the clause, with its descendants under 'subtree'")) -> None:
    """Read a law, section or item whole: numbering, titles, texts, tables and footnotes in reading order."""
    from .inputs import clause_id as read_id       # ids as people type them: 64A1, Law 64A1, 第六十四条

    corpus = _corpus()
    clause_id = read_id(clause_id, {n: e.clauses for n, e in corpus.editions.items()}, note=True).id or clause_id
    if as_json:
        root = corpus.clause(clause_id)
        ed = corpus.editions[root.edition]
        chosen = choose_langs(root.edition, lang)
        data = clause_json(corpus, root, chosen, as_received)
        data["subtree"] = [clause_json(corpus, c, chosen, as_received) for c in subtree(ed, root)[1:]]
        emit_json(data)
        return
    typer.echo("\n".join(render(corpus, clause_id, lang, as_received, ids)))


def edition_counts(corpus: Corpus) -> dict[str, dict[str, int]]:
    """Counts per edition: laws, articles, clauses by level, definitions, footnotes, index entries, corrections."""
    out: dict[str, dict[str, int]] = {}
    for name, ed in corpus.editions.items():
        levels: dict[str, int] = {}
        for c in ed.clauses.values():
            levels[c.level] = levels.get(c.level, 0) + 1
        out[name] = {
            "laws": levels.get("law", 0),
            "articles": levels.get("article", 0),
            "sections": levels.get("section", 0),
            "items": levels.get("item", 0) + levels.get("subitem", 0) + levels.get("subsubitem", 0),
            "definitions": levels.get("definition", 0),
            "policy_paragraphs": levels.get("paragraph", 0),
            "footnotes": len(ed.footnotes),
            "chapters": len(ed.chapters),
            "index_entries": len(ed.index),
            "clauses": len(ed.clauses),
            "corrected_clauses": sum(1 for c in ed.clauses.values() if c.corrections),
        }
    return out


def stats(as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Counts per edition (laws, articles, sections, items, definitions, footnotes, index entries)."""
    counts = edition_counts(_corpus())
    if as_json:
        emit_json(counts)
        return
    names = list(counts)
    typer.echo("".ljust(18) + "".join(n.rjust(13) for n in names))
    for key in next(iter(counts.values())):
        typer.echo(key.ljust(18) + "".join(str(counts[n][key]).rjust(13) for n in names))


def register(app: typer.Typer) -> None:
    """Add `show` and `stats`."""
    app.command("show")(show)
    app.command("stats")(stats)
