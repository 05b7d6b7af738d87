"""What every command prints through: JSON the same way everywhere, one-line errors.

Command modules import this, never `assistant.cli` (which imports them lazily on dispatch).
"""

from __future__ import annotations

import json

import typer


def emit_json(data: object) -> None:
    """Print JSON the same way in every command: UTF-8, not ASCII-escaped."""
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2))


def error_line(message: object) -> None:
    """One line on stderr: `error: what — cause — to fix`."""
    typer.echo(f"error: {message}", err=True)


def note(message: str) -> None:
    """A progress or advisory line on stderr (never mixed into stdout, which may be JSON)."""
    typer.echo(message, err=True)
