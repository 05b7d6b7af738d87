"""CLI: `bridgelaw diff LAW --from E1 --to E2 [--redline]` and
`bridgelaw changes --from E1 --to E2 --format md|csv|html --lang zh-Hans|zh-Hant|en [--ids]`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    from ..console import emit_json
    from ..corpus import load_corpus as _corpus

    @app.command("diff")
    def diff_cmd(law: str = typer.Argument(..., help="law number, e.g. 27"),
                 from_ed: str = typer.Option("ccba1999", "--from", help="ccba1999 | ccba2018 | wbf2017"),
                 to_ed: str = typer.Option("ccba2018", "--to", help="ccba2018 | wbf2017 | ccba1999"),
                 lang: str = typer.Option(None, "--lang", help="language of the wbf2017 side (zh-Hant)"),
                 redlines: bool = typer.Option(None, "--redline/--no-redline",
                                               help="draw redlines (default: on, off between two translations)"),
                 as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
        """Redline one law between two editions, pair by pair, with each pair's change class."""
        from ..editions import law_editions
        from ..inputs import MAX_NAME, edition_name, lang_name, limited
        from .law import diff_law

        limited(law, "LAW", MAX_NAME)              # names checked before the corpus loads
        for ed in (from_ed, to_ed):
            edition_name(ed, law_editions())
        if lang is not None:
            lang_name(lang)
        d = diff_law(_corpus(), law, from_ed, to_ed, lang, redlines)
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
    def changes_cmd(fmt: str = typer.Option("md", "--format", help="md | csv | html"),
                    from_ed: str = typer.Option("ccba1999", "--from", help="ccba1999 | ccba2018 | wbf2017"),
                    to_ed: str = typer.Option("ccba2018", "--to", help="ccba2018 | wbf2017 | ccba1999"),
                    lang: str = typer.Option("zh-Hans", "--lang", help="zh-Hans | zh-Hant | en: headings and statements"),
                    ids: bool = typer.Option(False, "--ids", help="print clause ids beside the labels"),
                    out: str = typer.Option(None, "--out", help="write to this file")) -> None:
        """The change report between two law editions (default 1999 → 2017): the key changes first, every
        law by class and chapter, what changed in words with both texts quoted, and the CCBA articles when
        only the newer edition has them."""
        from ..editions import law_editions
        from ..inputs import choice, edition_name
        from ..output import check_target, write_text
        from .render import LANGS
        from .report import change_report

        choice(fmt, "format", ("md", "csv", "html"))
        choice(lang, "language", LANGS)
        for ed in (from_ed, to_ed):
            edition_name(ed, law_editions())
        if out:
            check_target(out)                      # a folder or a missing folder refused before the work
        rep = change_report(_corpus(), from_ed, to_ed)
        text = rep.csv() if fmt == "csv" else rep.html(lang, ids) if fmt == "html" else rep.markdown(lang, ids)
        if out:
            write_text(out, text)                   # atomic: temp file + rename
            typer.echo(f"wrote {out}")
        else:
            typer.echo(text, nl=False)
