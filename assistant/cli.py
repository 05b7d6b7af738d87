"""bridgelaw — the command line of the bridge-laws knowledge base and ruling assistant.

Commands (``bridgelaw COMMAND --help`` for each):

  show ID            a law or clause read whole, in every language (--as-received: as printed)
  stats [--json]     counts per edition
  graph build|stats|export   the RDF law graph          refs ID    cites and cited-by
  sparql QUERY       read-only SPARQL over the graph
  ask "QUESTION"     hybrid search across editions      train-embedder   in-domain model
  rule [TOPIC]       step-by-step rulings               diff LAW / changes   edition differences
  exam               question sets for instructors      cache status|clear   generated files
  score CONTRACT     the score of a contract (Law 77)   imps DIFF   a point difference in IMPs (Law 78B)

Exit codes:

  0  success
  1  unknown clause id, law, topic or nothing found where something was required
  2  bad input: usage error, empty or oversized query, refused SPARQL update
  3  corpus error: a source file missing, truncated or malformed
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import TYPE_CHECKING, Any, Optional

import typer
from typer.core import TyperGroup

from .console import error_line, note
from .errors import BridgelawError, message

if TYPE_CHECKING:
    from typer import _click as click

# command name -> (module that registers it, one-line help shown by `bridgelaw --help`);
# a module is imported only when one of its commands runs, so `--help` stays fast
COMMANDS: dict[str, tuple[str, str]] = {
    "show": ("assistant.corpus_commands", "A law or clause read whole, in every language."),
    "stats": ("assistant.corpus_commands", "Counts per edition."),
    "graph": ("assistant.graph.commands", "The RDF law graph: build, stats, export."),
    "refs": ("assistant.graph.commands", "Cites and cited-by of a clause, across editions."),
    "sparql": ("assistant.graph.commands", "Read-only SPARQL over the law graph."),
    "ask": ("assistant.search.commands", "Search every edition for the clauses that answer a question."),
    "train-embedder": ("assistant.search.commands", "Train the optional in-domain MiniLM."),
    "rule": ("assistant.rulings.commands", "Step-by-step rulings from the decision trees."),
    "diff": ("assistant.diff.commands", "Redline one law between two editions."),
    "changes": ("assistant.diff.commands", "The change report between two editions."),
    "exam": ("assistant.exam.commands", "Exam question sets for instructors."),
    "score": ("assistant.scoring.commands", "The score of a contract (Law 77)."),
    "imps": ("assistant.scoring.commands", "A point difference in IMPs (Law 78B)."),
    "cache": ("assistant.cache_commands", "Generated files: status and clear."),
}


def exit_code(err: BaseException) -> int:
    """The one map from errors to exit codes (each error class carries its own: 1, 2 or 3)."""
    return int(getattr(err, "exit_code", 2))


class LazyGroup(TyperGroup):
    """The top-level group: commands imported on dispatch, library errors turned into one line + code."""

    def list_commands(self, ctx: "click.Context") -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: "click.Context", cmd_name: str) -> "Optional[click.Command]":
        if cmd_name not in COMMANDS:
            return None
        module = import_module(COMMANDS[cmd_name][0])
        sub = typer.Typer(add_completion=False, rich_markup_mode=None)
        module.register(sub)
        group = typer.main.get_group(sub)
        return group.commands.get(cmd_name)

    def format_commands(self, ctx: "click.Context", formatter: "click.HelpFormatter") -> None:
        rows = [(name, short) for name, (_, short) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: "click.Context", args: list[str]) -> list[str]:
        """The input edge runs first: every argument decoded, NFC, without controls (assistant.inputs)."""
        from .inputs import clean_argv

        cleaned, replaced = clean_argv(args)
        for i in replaced:
            note(message("undecodable_note", "en", name=f"argument {i + 1} ({cleaned[i][:40]!r})"))
        ctx.meta["bridgelaw_lang"] = _lang_of(cleaned)
        return super().parse_args(ctx, cleaned)

    def invoke(self, ctx: "click.Context") -> Any:
        try:
            return super().invoke(ctx)
        except BridgelawError as err:
            error_line(err.render(ctx.meta.get("bridgelaw_lang") or "en"))
            raise typer.Exit(exit_code(err)) from None


def _lang_of(args: list[str]) -> str | None:
    """The `--lang` (or `-l`) value of a command line, when it is a known language: errors print in it."""
    from .editions import LANGS

    for i, a in enumerate(args):
        value = a.split("=", 1)[1] if a.startswith("--lang=") else \
            args[i + 1] if a in ("--lang", "-l") and i + 1 < len(args) else None
        if value in LANGS:
            return value
    return None


def _epilog(doc: str) -> str:
    """The rest of this docstring, each block marked \\b so click keeps its line breaks."""
    blocks = doc.strip().split("\n\n")[3:]
    return "\n\n".join("\b\n" + b for b in blocks)


app = typer.Typer(cls=LazyGroup, add_completion=False, no_args_is_help=True,
                  help=__doc__.split("\n\n")[0], epilog=_epilog(__doc__), rich_markup_mode=None,
                  pretty_exceptions_enable=False)


@app.callback()
def _root() -> None:
    """bridgelaw — the bridge laws in three editions: search, rulings, differences, exams."""


def main(argv: Optional[list[str]] = None) -> None:
    """Console-script entry point (arguments are cleaned by LazyGroup.parse_args, the input edge)."""
    try:
        app(args=argv, standalone_mode=True)
    except BridgelawError as err:         # raised outside a command's invoke (e.g. while registering)
        error_line(err)
        sys.exit(exit_code(err))


if __name__ == "__main__":
    main()
