"""`bridgelaw rule`: list the ruling topics, walk a tree in the terminal, or rule in batch from JSON.

  bridgelaw rule --list [--json]                      topics: [{"topic", "title", "editions"}]
  bridgelaw rule TOPIC [--edition E] [--lang L]       ask the questions one by one (b = back, p = path)
  bridgelaw rule TOPIC --answers '{"fact": …}' --json  batch: {"topic", "edition", "outcome", "cites", "path", …}

Exit codes as in assistant.cli: 1 unknown topic, 2 bad input or no matching branch, 3 tree/corpus error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from ..errors import BadInput
from ..model import LANGS


def _trees() -> Any:
    from .model import load_trees

    return load_trees()


def _parse_answers(text: str) -> dict[str, Any]:
    raw = Path(text[1:]).read_text(encoding="utf-8") if text.startswith("@") else text
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, OSError) as err:
        raise BadInput(f"--answers is not a JSON object — {err} — pass e.g. '{{\"in_rotation\": true}}' or @file.json") from None
    if not isinstance(data, dict):
        raise BadInput("--answers is not a JSON object — it must map fact names to values — e.g. {\"in_rotation\": true}")
    return data


def _print_ruling(r: Any, lang: str) -> None:
    typer.echo("")
    typer.echo(f"== {r.outcome[lang]}")
    for c in r.choices:
        typer.echo(f"   choice ({c['side']}): {c['text'][lang]}")
    for f in r.followups:
        typer.echo(f"   then ({f['kind']}): {f['text'][lang]}")
    if r.differs:
        typer.echo(f"   other edition: {r.differs['note'][lang]}")
    typer.echo("   cites: " + ", ".join(r.cites))
    for ed, ids in r.cites_by_edition.items():
        if ed != r.edition and ids:
            typer.echo(f"   {ed}: " + ", ".join(ids))


def _interactive(session: Any, lang: str) -> None:
    while not session.done:
        q = session.question()
        opts = session.options()
        typer.echo("")
        typer.echo(q.ask[lang])
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
    _print_ruling(session.ruling(), lang)


def register(app: typer.Typer) -> None:
    """Add `bridgelaw rule` to the CLI app."""

    @app.command("rule")
    def rule_cmd(
        topic: Optional[str] = typer.Argument(None, help="topic, e.g. insufficient_bid (see --list)"),
        list_: bool = typer.Option(False, "--list", help="list the topics"),
        edition: str = typer.Option("wbf2017", "--edition", "-e", help="wbf2017, ccba2018 or ccba1999"),
        answers: Optional[str] = typer.Option(None, "--answers", help="JSON object of facts (or @file.json): batch mode"),
        lang: str = typer.Option("zh-Hans", "--lang", help="zh-Hans, zh-Hant or en (interactive and text output)"),
        as_json: bool = typer.Option(False, "--json", help="print JSON"),
    ) -> None:
        """Step-by-step rulings: list topics, walk a tree interactively, or rule from a JSON of facts."""
        from ..console import emit_json
        from .engine import rule, start

        if lang not in LANGS:
            raise BadInput(f"unknown language {lang!r} — choose from {', '.join(LANGS)}")
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
            r = rule(topic, edition, _parse_answers(answers), trees)
            if as_json:
                emit_json(r.as_dict())
            else:
                _print_ruling(r, lang)
            return
        _interactive(start(topic, edition, trees), lang)
