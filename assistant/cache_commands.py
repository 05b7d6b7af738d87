"""CLI: `bridgelaw cache status` and `bridgelaw cache clear` — the generated files on disk."""

from __future__ import annotations

from typing import Optional

import typer

from .artifact import ARTIFACTS, cache_root
from .console import emit_json
from .errors import BadInput

cache_app = typer.Typer(help="Generated files: status and clear.", no_args_is_help=True,
                        add_completion=False, rich_markup_mode=None)


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


@cache_app.command("status")
def status(as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
    """Each artifact: its builds on disk, their size, and whether their files match their manifest."""
    rows = [{"artifact": name, "description": art.description, "key": key, "bytes": size, "verified": ok}
            for name, art in ARTIFACTS.items() for key, size, ok in art.builds()]
    if as_json:
        emit_json({"root": str(cache_root()), "builds": rows})
        return
    typer.echo(f"cache: {cache_root()}")
    if not rows:
        typer.echo("  (empty: the first ask, rule or graph command builds what it needs)")
    for r in rows:
        state = "ok" if r["verified"] else "damaged (rebuilt at next use)"
        typer.echo(f"  {r['artifact']:<11} {r['key']}  {_mb(int(str(r['bytes']))):>9}  {state}")


@cache_app.command("clear")
def clear(name: Optional[str] = typer.Argument(None, help=f"one of {', '.join(ARTIFACTS)} (default: all)")) -> None:
    """Remove generated files (all, or one artifact's); they are rebuilt when next needed."""
    if name is not None and name not in ARTIFACTS:
        raise BadInput(f"unknown artifact {name!r} — choose from {', '.join(ARTIFACTS)}")
    names = [name] if name else list(ARTIFACTS)
    removed = sum(ARTIFACTS[n].prune(keep=None) for n in names)
    typer.echo(f"removed {removed} build(s) of {', '.join(names)} from {cache_root()}")


def register(app: typer.Typer) -> None:
    """Add `cache status|clear`."""
    app.add_typer(cache_app, name="cache")
