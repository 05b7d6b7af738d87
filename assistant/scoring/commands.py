"""CLI: `bridgelaw score CONTRACT [--vul] [--edition E] [--json]` and `bridgelaw imps DIFF [--json]`.

`score` prints the score for declarer's side (negative when the contract fails), a breakdown and the
Law 77 sections it rests on; `imps` converts a point difference (sign kept) with the Law 78B scale.
Bad notation, an unknown edition or a difference that is not a whole number exit with code 2.
"""

from __future__ import annotations

import re

import typer

from ..errors import BadInput

ITEM_LABELS: dict[str, str] = {
    "trick_score": "trick score", "game": "game premium", "partscore": "part-score premium",
    "small_slam": "small slam premium", "grand_slam": "grand slam premium",
    "doubled_made": "doubled contract made (insult)", "redoubled_made": "redoubled contract made (insult)",
    "overtricks": "overtricks", "undertricks": "undertricks",
}


def _edition_help() -> str:
    from ..editions import law_editions

    return " | ".join(law_editions()) + " (default wbf2017)"


def parse_diff(text: str) -> int:
    """A whole point difference from the command line ('420', '-990', '+50'); BadInput otherwise."""
    s = str(text).strip().replace("−", "-")
    if not re.fullmatch(r"[+-]?\d{1,7}", s):
        raise BadInput(f"cannot read point difference {text!r} — not a whole number — give e.g. 420 or -990")
    return int(s)


def register(app: typer.Typer) -> None:
    from ..console import emit_json

    @app.command("score")
    def score_cmd(contract: str = typer.Argument(..., help="e.g. 4HX+1, 3NT=, 7NTX-1, 6SXX=, 2C-2"),
                  vul: bool = typer.Option(False, "--vul", help="declarer's side is vulnerable"),
                  edition: str = typer.Option("wbf2017", "--edition", help=_edition_help()),
                  as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
        """The score of a contract for declarer's side, its breakdown and the Law 77 sections it rests on."""
        from .calc import score

        s = score(contract, vul, edition)
        if as_json:
            emit_json({"score": s.points, "cites": [c.as_json() for c in s.cites],
                       "contract": str(s.contract), "vulnerable": s.vulnerable, "edition": s.edition,
                       "breakdown": [{"item": p.item, "count": p.count, "points": p.points, "cite": p.cite.label}
                                     for p in s.parts]})
            return
        side = "vulnerable" if vul else "not vulnerable"
        typer.echo(f"{s.contract} {side} ({edition}): {s.points:+d} for declarer's side")
        for p in s.parts:
            count = f" ×{p.count}" if p.item in ("trick_score", "overtricks", "undertricks") else ""
            typer.echo(f"  {ITEM_LABELS[p.item] + count:<34} {p.points:>+6d}   {p.cite.label}")
        typer.echo("Cites: " + "; ".join(c.label for c in s.cites))

    @app.command("imps", context_settings={"ignore_unknown_options": True})
    def imps_cmd(diff: str = typer.Argument(..., help="point difference, e.g. 420 or -990"),
                 edition: str = typer.Option("wbf2017", "--edition", help=_edition_help()),
                 as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
        """A point difference converted into IMPs (sign kept) with the Law 78B scale."""
        from .calc import imps

        r = imps(parse_diff(diff), edition)
        if as_json:
            emit_json({"imps": r.imps, "cites": [r.cite.as_json()], "diff": r.diff, "edition": edition,
                       "band": [r.lowest, r.highest]})
            return
        band = f"{r.lowest}–{r.highest}" if r.highest is not None else f"{r.lowest}+"
        typer.echo(f"{r.diff:+d} points = {r.imps:+d} IMPs (band {band}, {edition})   {r.cite.label}")
