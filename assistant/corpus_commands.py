"""CLI: `bridgelaw show ID` and `bridgelaw stats` — the corpus as parsed."""

from __future__ import annotations

import typer

from .console import emit_json


def _corpus():  # type: ignore[no-untyped-def]
    from .corpus import load_corpus

    return load_corpus()


def show(clause_id: str = typer.Argument(..., help="e.g. wbf2017/law/64/B/3"),
         as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Print a clause: title and text in every language, children's ids, footnotes, source lines."""
    corpus = _corpus()
    c = corpus.clause(clause_id)
    ed = corpus.editions[c.edition]
    notes = [ed.footnotes[f] for f in c.footnotes if f in ed.footnotes]
    if as_json:
        emit_json({
            "id": str(c.id), "edition": c.edition, "level": c.level, "number": c.number,
            "title": c.title, "text": c.text, "parent": c.parent and str(c.parent),
            "children": [str(x) for x in c.children],
            "chapter": c.chapter, "notes": c.notes, "tables": c.tables,
            "footnotes": [{"id": f.id, "number": f.number, "text": f.text} for f in notes],
            "term": c.term, "key": c.key,
            "source": {"file": c.source.file, "first": c.source.first, "last": c.source.last} if c.source else None,
        })
        return
    typer.echo(f"{c.id}  [{c.level} {c.number}]")
    for lang, title in c.title.items():
        typer.echo(f"  title ({lang}): {title}")
    for lang, term in c.term.items():
        typer.echo(f"  term ({lang}): {term}" + (f"  key: {c.key_printed}" if c.key_printed else ""))
    for lang, text in c.text.items():
        typer.echo(f"  text ({lang}): {text}")
    for table in c.tables:
        typer.echo("  table:\n" + "\n".join("    " + line for line in table.splitlines()))
    for f in notes:
        for lang, text in f.text.items():
            typer.echo(f"  footnote {f.number} ({lang}): {text}")
    if c.parent:
        typer.echo(f"  parent: {c.parent}")
    if c.children:
        typer.echo("  children: " + ", ".join(str(x) for x in c.children))
    if c.source:
        typer.echo(f"  source: {c.source.file} lines {c.source.first}-{c.source.last}")


def edition_counts(corpus) -> dict[str, dict[str, int]]:  # type: ignore[no-untyped-def]
    """Counts per edition: laws, articles, clauses by level, definitions, footnotes, index entries."""
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
