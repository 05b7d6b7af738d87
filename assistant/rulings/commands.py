"""`bridgelaw rule`: list the ruling topics, walk a tree in the terminal, or rule in batch from JSON.

  bridgelaw rule --list [--json]                      topics: [{"topic", "title", "editions"}]
  bridgelaw rule TOPIC [--edition E] [--lang L]       ask the questions one by one (b = back, p = path)
  bridgelaw rule TOPIC --answers '{"fact": …}' --json  batch: {"topic", "edition", "outcome", "cites", "path", …}
  bridgelaw rule TOPIC --answers … --partial           the rulings still possible when facts are missing

Exit codes as in assistant.cli: 1 unknown topic, 2 bad input or no matching branch, 3 tree/corpus error.
"""

from __future__ import annotations

from typing import Any

import typer



def _trees() -> Any:
    from .model import load_trees

    return load_trees()


def _parse_answers(text: str, tree: Any = None) -> dict[str, Any]:
    """--answers through the input edge: size, flat object of fact -> value, unknown facts named."""
    from ..inputs import read_answers

    return read_answers(text, tree.topic if tree else "", tree.facts() if tree else None)


def _cites_line(ids: list[str], lang: str) -> str:
    from .citation import cite_label

    return ", ".join(f"{cite_label(i, lang)} [{i}]" for i in ids)


def _print_ruling(r: Any, lang: str) -> None:
    typer.echo("")
    typer.echo(f"== {r.outcome[lang]}")
    for c in r.choices:
        typer.echo(f"   choice ({c['side']}): {c['text'][lang]}")
    for f in r.followups:
        typer.echo(f"   then ({f['kind']}): {f['text'][lang]}")
    typer.echo("   cites: " + _cites_line(r.cites, lang))
    if r.differs:
        word = "differs" if r.differs["status"] == "differs" else "depends on"
        typer.echo(f"   other edition {word}: {r.differs['note'][lang]}")
        for ed, ids in r.differs["cites"].items():
            typer.echo(f"   {ed}: " + _cites_line(ids, lang))


def _print_partial(p: Any, lang: str) -> None:
    typer.echo("")
    for m in p.missing:
        typer.echo(f"?  {m['fact']}: {m['ask'][lang]}" + (f"  ({m['help'][lang]})" if m["help"] else ""))
    for row in p.rulings:
        typer.echo(f"-> {row['outcome'][lang]}")
        typer.echo("   cites: " + _cites_line(row["cites"], lang))


def _interactive(session: Any, lang: str) -> None:
    while not session.done:
        q = session.question()
        opts = session.options()
        typer.echo("")
        typer.echo(q.ask[lang])
        if q.help:
            typer.echo(f"  ({q.help[lang]})")
        for i, a in enumerate(opts, 1):
            typer.echo(f"  {i}. {a.label[lang]}")
        reply = str(typer.prompt("answer (number, b = back, p = path, q = quit)")).strip().lower()
        if reply == "q":
            raise typer.Exit(0)
        if reply == "b":
            session.back()
            continue
        if reply == "p":
            for line in session.explain(lang) or ["(no answers yet)"]:
                typer.echo("  · " + line)
            continue
        if not reply.isdigit() or not 1 <= int(reply) <= len(opts):
            typer.echo(f"  choose 1 to {len(opts)}, b, p or q", err=True)
            continue
        session.choose(int(reply) - 1)
    typer.echo("")
    for line in session.explain(lang):
        typer.echo("  · " + line)
    _print_ruling(session.ruling(_trees()), lang)


def register(app: typer.Typer) -> None:
    """Add `bridgelaw rule` to the CLI app."""

    @app.command("rule")
    def rule_cmd(
        topic: str | None = typer.Argument(None, help="topic, e.g. insufficient_bid (see --list)"),
        list_: bool = typer.Option(False, "--list", help="list the topics"),
        edition: str = typer.Option("wbf2017", "--edition", "-e", help="wbf2017, ccba2018 or ccba1999"),
        answers: str | None = typer.Option(None, "--answers", help="JSON object of facts (or @file.json): batch mode"),
        lang: str = typer.Option("zh-Hans", "--lang", help="zh-Hans, zh-Hant or en (interactive and text output)"),
        as_json: bool = typer.Option(False, "--json", help="print JSON"),
        partial: bool = typer.Option(False, "--partial", help="with --answers: the rulings still possible when facts are missing"),
    ) -> None:
        """Step-by-step rulings: list topics, walk a tree interactively, or rule from a JSON of facts."""
        from ..console import emit_json
        from .engine import possible, rule, start

        from ..editions import law_editions
        from ..inputs import edition_name, lang_name

        lang_name(lang)                                  # names checked before the trees load
        edition_name(edition, law_editions())
        trees = _trees()
        if list_ or topic is None:
            rows = [{"topic": t.topic, "title": t.title, "editions": t.editions} for t in trees.values()]
            if as_json:
                emit_json(rows)
            else:
                for row in rows:
                    typer.echo(f"{row['topic']:<28} {row['title'][lang]}  [{', '.join(row['editions'])}]")
            return
        if answers is not None:
            facts = _parse_answers(answers, trees.get(topic or ""))
            if partial:
                from .engine import MissingFact

                try:
                    r = rule(topic, edition, facts, trees)
                except MissingFact:          # not an error here: --partial asks for what is still open
                    p = possible(topic, edition, facts, trees)
                    emit_json(p.as_dict()) if as_json else _print_partial(p, lang)
                    return
            else:
                r = rule(topic, edition, facts, trees)
            emit_json(r.as_dict(trees[topic])) if as_json else _print_ruling(r, lang)
            return
        _interactive(start(topic, edition, trees), lang)
