"""`bridgelaw exam`: generate a question set with an answer key (Markdown, Anki CSV or HTML).

Examples:
  bridgelaw exam -n 20 --lang zh-Hant --seed 7
  bridgelaw exam --kind cloze --kind matching --edition ccba2018 --format csv --out cards.csv
  bridgelaw exam --topic revoke --difficulty hard --format html --out revoke.html

Exit codes: 0 ok; 1 unknown topic or nothing to ask; 2 bad options; 3 corpus or data error.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..inputs import MAX_NAME, choice, int_in_range, lang_name, limited
from ..output import check_target, write_text

SEED_RANGE = (-(2**63), 2**63 - 1)


def _check_options(kinds: List[str], edition: Optional[str], lang: Optional[str], scopes: List[str],
                   n: int, difficulty: str, seed: int, fmt: str) -> None:
    """Every option checked before the corpus loads (assistant.inputs): names, numbers, lengths."""
    from .build import MAX_QUESTIONS
    from .model import DIFFICULTIES, EXAM_EDITIONS, FORMATS, KINDS

    for k in kinds:
        choice(k, "question kind", KINDS)
    if edition is not None:
        choice(edition, "edition", EXAM_EDITIONS)
    if lang is not None:
        lang_name(lang)
    for value in scopes:
        limited(value, "--topic/--chapter", MAX_NAME)
    int_in_range(n, "-n", 1, MAX_QUESTIONS)
    choice(difficulty, "difficulty", DIFFICULTIES)
    int_in_range(seed, "--seed", *SEED_RANGE)
    choice(fmt, "format", FORMATS)


def register(app: typer.Typer) -> None:
    """Add the `exam` command to the CLI."""

    @app.command("exam")
    def exam(
        kind: Optional[List[str]] = typer.Option(None, "--kind", "-k",
                                                 help="ruling, which_law, cloze, change, matching (repeatable; default all)"),
        edition: Optional[str] = typer.Option(None, "--edition", "-e", help="ccba1999, ccba2018 or wbf2017"),
        lang: Optional[str] = typer.Option(None, "--lang", "-l", help="zh-Hans, zh-Hant or en"),
        topic: Optional[List[str]] = typer.Option(None, "--topic", "-t", help="ruling topic (repeatable)"),
        chapter: Optional[List[str]] = typer.Option(None, "--chapter", "-c",
                                                    help="chapter number of the laws, or a chapter id (repeatable)"),
        n: int = typer.Option(20, "-n", help="number of questions"),
        difficulty: str = typer.Option("medium", "--difficulty", "-d", help="easy, medium or hard"),
        seed: int = typer.Option(0, "--seed", "-s", help="the same seed gives the same set"),
        fmt: str = typer.Option("md", "--format", "-f", help="md, csv or html"),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="write to this file instead of stdout"),
    ) -> None:
        """Generate exam questions with an answer key citing clause ids."""
        from . import generate, render

        _check_options(kind or [], edition, lang, [*(topic or []), *(chapter or [])], n, difficulty, seed, fmt)
        if out is not None:
            check_target(out)                  # refused before any question is made

        exam_set = generate(kinds=kind or None, edition=edition, lang=lang, topics=topic or (),
                            chapters=chapter or (), n=n, difficulty=difficulty, seed=seed)
        text = render(exam_set, fmt)
        if out is None:
            typer.echo(text, nl=False)
        else:
            write_text(out, text)             # atomic: an interrupted run leaves the earlier file whole
            typer.echo(f"wrote {len(exam_set.questions)} questions to {out}", err=True)
        if exam_set.shortfall:
            short = ", ".join(f"{k} {v}" for k, v in exam_set.shortfall.items())
            typer.echo(f"note: fewer questions than asked for some kinds ({short}); others filled in", err=True)
