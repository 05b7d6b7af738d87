"""The launcher `python -m assistant.ui.serve` loads the resources (the warm-up), then hands its options
to `streamlit run app.py` unchanged; the warm-up runs once per process and a question asked while it loads
the search waits for it instead of loading the same objects again."""

from __future__ import annotations

import sys
import threading

import pytest


def test_the_launcher_warms_up_then_runs_the_app(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from streamlit.web import cli

    from assistant.ui import serve, services

    calls: list[str] = []

    class Warm:
        def join(self) -> None:
            calls.append("loaded")

    monkeypatch.setattr(services, "warm_in_background", lambda: calls.append("warm") or Warm())
    monkeypatch.setattr(cli, "main", lambda: calls.append("run:" + " ".join(sys.argv)))
    monkeypatch.setattr(sys, "argv", ["serve"])
    serve.main(["--server.port", "8599"])
    assert calls[:2] == ["warm", "loaded"], "the server starts once the resources are loaded"
    assert calls[2].startswith("run:streamlit run ") and calls[2].endswith("app.py --server.port 8599")
    assert serve.APP.is_file()


@pytest.fixture()
def fresh_warm_up(monkeypatch):  # type: ignore[no-untyped-def]
    """A process without a warm-up yet, whose warm-up blocks until the test lets it go."""
    from assistant.ui import services

    go = threading.Event()
    loaded: list[str] = []

    def warm() -> None:
        go.wait(10)
        loaded.append("search")
        services._SEARCH_READY.set()

    monkeypatch.setattr(services, "_WARM", [])
    monkeypatch.setattr(services, "_SEARCH_READY", threading.Event())
    monkeypatch.setattr(services, "_warm", warm)
    return go, loaded


def test_the_warm_up_starts_once(fresh_warm_up) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui import services

    go, _loaded = fresh_warm_up
    first = services.warm_in_background()
    assert services.warm_in_background() is first and first.is_alive()
    go.set()
    first.join(10)


def test_a_question_during_the_warm_up_waits_for_its_search(fresh_warm_up) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui import services

    go, loaded = fresh_warm_up
    services.warm_in_background()
    seen: list[list[str]] = []
    asker = threading.Thread(target=lambda: (services.wait_for_search(), seen.append(list(loaded))))
    asker.start()
    asker.join(0.2)
    assert asker.is_alive(), "the question waits while the warm-up loads the search"
    go.set()
    asker.join(10)
    assert seen == [["search"]]
