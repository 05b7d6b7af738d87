"""Serve the app with its resources loading from the moment the server starts:

    python -m assistant.ui.serve [streamlit run options]   e.g. --server.port 8501 --server.address 127.0.0.1

`streamlit run app.py` runs nothing until the first browser connects, so on a fresh server the first
question would wait for the pages' modules, the search index, the embedding model, the tokenizers and
the ruling trees (about 2.5 s of loading). This launcher imports the pages, starts the warm-up thread
(assistant.ui.services.warm_in_background) and waits for it (the search, the ruling trees, the law pages'
citations, the Compare page's change report: a few seconds) before handing over to Streamlit's own
`streamlit run app.py`. When the health check (/_stcore/health) first answers, nothing is left to load,
and no loading competes with the server for the interpreter while the first browsers fetch the page.
Options are passed to Streamlit unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent.parent / "app.py"


def main(argv: list[str] | None = None) -> None:
    """Load what the pages need, then `streamlit run app.py` with `argv` as its options."""
    if not APP.is_file():
        raise SystemExit(f"{APP} not found — run the launcher from a clone of bridgelaw (app.py beside assistant/)")
    from . import ask, compare, exam, glossary, laws, rulings, score, services  # noqa: F401 - loaded before any session

    services.warm_in_background().join()    # the server answers its health check once everything is loaded
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", str(APP), *(sys.argv[1:] if argv is None else argv)]
    cli.main()


if __name__ == "__main__":
    main()
