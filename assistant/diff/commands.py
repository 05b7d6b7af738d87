"""CLI: `bridgelaw diff LAW --from E1 --to E2` and `bridgelaw changes --format md|csv`."""

from __future__ import annotations

import typer

from ..errors import BadInput


def register(app: typer.Typer) -> None:
    from ..console import emit_json
    from ..corpus import load_corpus as _corpus

    @app.command("diff")
    def diff_cmd(law: str = typer.Argument(..., help="law number, e.g. 27"),
                 from_ed: str = typer.Option("ccba1999", "--from", help="ccba1999 | ccba2018"),
                 to_ed: str = typer.Option("ccba2018", "--to", help="ccba2018 | wbf2017"),
                 lang: str = typer.Option(None, "--lang", help="language of the wbf2017 side (zh-Hant)"),
                 as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
        """Redline one law between two editions, pair by pair, with each pair's change class."""
        from .report import diff_law

        d = diff_law(_corpus(), law, from_ed, to_ed, lang)
        if as_json:
            data = d.as_json()
            emit_json({"law": data["law"], "from": data["from"], "to": data["to"], "class": data["class"],
                       "pairs": data["pairs"]})
            return
        typer.echo(f"Law {d.law}: {d.title_from} → {d.title_to}  [{d.change}]  ({from_ed} → {to_ed})")
        for p in d.pairs:
            typer.echo(f"  {p.from_id or '—'} → {p.to_id or '—'}  {p.change}")
            if p.redline and p.change not in ("unchanged",):
                typer.echo(f"      {p.redline}")

    @app.command("changes")
    def changes_cmd(fmt: str = typer.Option("md", "--format", help="md | csv"),
                    out: str = typer.Option(None, "--out", help="write to this file")) -> None:
        """The change report: all 93 laws 1999 → 2017 by class and chapter, and the 57 CCBA articles."""
        from .report import change_report

        if fmt not in ("md", "csv"):
            raise BadInput(f"unknown format {fmt!r} — choose md or csv")
        rep = change_report(_corpus())
        text = rep.markdown() if fmt == "md" else rep.csv()
        if out:
            with open(out, "w", encoding="utf-8") as fh:
                fh.write(text)
            typer.echo(f"wrote {out}")
        else:
            typer.echo(text, nl=False)
