"""bridgelaw — the command line of the bridge-laws knowledge base and ruling assistant.

Commands (``bridgelaw COMMAND --help`` for each):

  show ID            a clause with all its languages, its children's ids and its source lines
  stats [--json]     counts per edition
  graph build|stats|export   the RDF law graph          refs ID    cites and cited-by
  sparql QUERY       read-only SPARQL over the graph
  ask "QUESTION"     hybrid search across editions      train-embedder   in-domain model
  rule [TOPIC]       step-by-step rulings               diff LAW / changes   edition differences
  exam               question sets for instructors

Exit codes:

  0  success
  1  unknown clause id, law, topic or nothing found where something was required
  2  bad input: usage error, empty or oversized query, refused SPARQL update
  3  corpus error: a source file missing, truncated or malformed
"""

from __future__ import annotations

import json
import sys
from importlib import import_module
from typing import Optional

import typer

from .errors import BridgelawError, CorpusParseError

def _epilog(doc: str) -> str:
    """The rest of this docstring, each block marked \\b so click keeps its line breaks."""
    blocks = doc.strip().split("\n\n")[1:]
    return "\n\n".join("\b\n" + b for b in blocks)


app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__.split("\n\n")[0],
                  epilog=_epilog(__doc__), rich_markup_mode=None, pretty_exceptions_enable=False)

# feature modules that add their commands with register(app)
COMMAND_MODULES = (
    "assistant.graph.commands",
    "assistant.search.commands",
    "assistant.rulings.commands",
    "assistant.diff.commands",
    "assistant.exam.commands",
)


def emit_json(data: object) -> None:
    """Print JSON the same way in every command: UTF-8, not ASCII-escaped."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def fail(err: BridgelawError | str, code: int | None = None) -> "typer.Exit":
    """Print one line to stderr and return the Exit to raise."""
    typer.echo(f"error: {err}", err=True)
    return typer.Exit(code if code is not None else getattr(err, "exit_code", 2))


def _corpus():  # type: ignore[no-untyped-def]
    from .corpus import load_corpus

    try:
        return load_corpus()
    except CorpusParseError as err:
        raise fail(err, 3) from None


@app.command()
def show(clause_id: str = typer.Argument(..., help="e.g. wbf2017/law/64/B/3"),
         as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Print a clause: title and text in every language, children's ids, footnotes, source lines."""
    corpus = _corpus()
    try:
        c = corpus.clause(clause_id)
    except BridgelawError as err:
        raise fail(err) from None
    ed = corpus.editions[c.edition]
    notes = [ed.footnotes[f] for f in c.footnotes if f in ed.footnotes]
    if as_json:
        emit_json({
            "id": c.id, "edition": c.edition, "level": c.level, "number": c.number,
            "title": c.title, "text": c.text, "parent": c.parent, "children": c.children,
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
        typer.echo("  children: " + ", ".join(c.children))
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


@app.command()
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


def _register_feature_commands() -> None:
    for mod in COMMAND_MODULES:
        try:
            module = import_module(mod)
        except ModuleNotFoundError as err:
            if err.name and mod.startswith(err.name):   # feature not built yet
                continue
            raise
        module.register(app)


_register_feature_commands()


def main(argv: Optional[list[str]] = None) -> None:
    """Console-script entry point: run the app, turning library errors into one-line messages."""
    try:
        app(args=argv, standalone_mode=True)
    except BridgelawError as err:
        typer.echo(f"error: {err}", err=True)
        sys.exit(err.exit_code)


if __name__ == "__main__":
    main()
