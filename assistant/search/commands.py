"""CLI commands of the search layer: `bridgelaw ask` and `bridgelaw train-embedder`.

    bridgelaw ask "QUESTION" [--edition E] [--lang L] [--top N] [--model M] [--reading INCIDENT] [--json]

Results are grouped by law (or CCBA 2018 article; a Guandan question is answered from the Guandan
rules), best first, with the matching clause of each edition and language and a "differs" flag.
--edition searches and shows one edition only; --lang shows (and searches) one language only.
The text answer is in the question's language (or --lang): how the question was read (the incidents
found in it; --reading chooses another), each law's chance, why it came up, its clauses.
When no clause applies the answer says so (answered: false) and lists what was searched; exit 0.
Exit codes: 0 answered or declined; 1 a cited law, article or clause id does not exist; 2 bad input
(empty, over 2000 characters, only punctuation or emoji, unknown edition/language/model);
3 corpus error.
"""

from __future__ import annotations

from typing import Optional

import typer

from ..model import EDITIONS, LANGS


def register(app: typer.Typer) -> None:
    """Add `ask` and `train-embedder` to the bridgelaw app."""
    from ..console import emit_json

    @app.command()
    def ask(question: str = typer.Argument(..., help="the question, in simplified or traditional Chinese or English"),
            edition: Optional[str] = typer.Option(None, "--edition", help=f"one of {', '.join(EDITIONS)}"),
            lang: Optional[str] = typer.Option(None, "--lang", help=f"one of {', '.join(LANGS)}"),
            top: int = typer.Option(5, "--top", min=1, max=50, help="number of laws to show"),
            model: Optional[str] = typer.Option(None, "--model",
                                                help="embedding model: use (default), minilm, indomain, or a model folder"),
            reading: Optional[str] = typer.Option(None, "--reading",
                                                  help="read the question as this incident (an id the answer offers)"),
            as_json: bool = typer.Option(False, "--json", help="print JSON")) -> None:
        """Hybrid search across editions and languages, grouped by law; declines when nothing applies."""
        from ..inputs import edition_name, lang_name, model_name

        # every name is checked before any corpus, index or model loads (a wrong one answers at once)
        if edition is not None:
            edition_name(edition)
        if lang is not None:
            lang_name(lang)
        if model is not None:
            from .embedders import indomain_path      # numpy only; torch loads with the model

            model_name(model, indomain_path())
        if reading is not None:
            from ..incidents import load_incidents
            from .incident_model import check_reading

            check_reading(reading, load_incidents())
        from .query import check

        check(question)                      # bad input fails before any model or index loads
        from ..resources import resources

        ans = resources().searcher(model).search(question, edition=edition, lang=lang, top=top, reading=reading)
        if as_json:
            emit_json(ans.to_json())
        else:
            from .answer_text import answer_text

            typer.echo(answer_text(ans, lang))

    @app.command("train-embedder")
    def train_embedder_cmd(epochs: int = typer.Option(1, "--epochs", min=1, max=20),
                           batch_size: int = typer.Option(32, "--batch-size", min=2, max=256),
                           max_pairs: int = typer.Option(4000, "--max-pairs", min=10)) -> None:
        """Fine-tune MiniLM on the corpus's parallel text; use it with `ask --model indomain`."""
        from .train import train_embedder

        rep = train_embedder(epochs=epochs, batch_size=batch_size, max_pairs=max_pairs)
        typer.echo(f"trained on {rep.pairs} pairs, {rep.steps} steps, {rep.seconds:.0f} s; "
                   f"loss {rep.loss_first:.3f} -> {rep.loss_last:.3f}; saved to {rep.path}")
