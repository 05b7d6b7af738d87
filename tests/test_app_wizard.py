"""The ruling wizard's answers in a fixed order (yes before no, the usual case first, the tree's order otherwise) on every
question of every tree, and the order kept in the app: the first button says yes where yes is offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from assistant.rulings.schema import Question
from assistant.ui.rulings import answer_order


def _trees():  # type: ignore[no-untyped-def]
    from assistant.resources import resources

    return resources().trees


@pytest.mark.parametrize("topic", sorted(_trees()))
def test_yes_comes_before_no_on_every_question(topic: str) -> None:
    tree = _trees()[topic]
    for nid, node in tree.nodes.items():
        if not isinstance(node, Question):
            continue
        order = answer_order(list(node.answers))
        values = [node.answers[i].canonical() for i in order]
        if True in values and False in values:
            assert values.index(True) < values.index(False), (topic, nid)
        others = [i for i in order if node.answers[i].canonical() not in (True, False)]
        usual = [i for i in others if node.answers[i].usual]
        rest = [i for i in others if not node.answers[i].usual]
        assert others == usual + sorted(rest), "the common case first, then the tree's order"


def test_the_app_shows_yes_first_and_keeps_the_trees_index_in_the_url(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from assistant.ui import services

    monkeypatch.setattr(services, "warm_in_background", lambda: None)
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "app.py"), default_timeout=60)
    for k, v in {"page": "rule", "topic": "revoke", "lang": "en"}.items():
        at.query_params[k] = v
    at.run()
    labels = [b.label for b in at.button if (b.key or "").startswith("rule_opt_")]
    assert labels and labels[0] == "Yes" and labels.index("Yes") < labels.index("No")
    at.button(key="rule_opt_0").click().run()
    session = services.start_ruling("revoke", "wbf2017")
    a = at.query_params["a"]
    first = session.options()[int(a[0] if isinstance(a, list) else a)]
    assert first.canonical() is True
    assert not at.exception
