"""The tree ensemble read with numpy gives the trained model's own decision values (scikit-learn's), and
survives the models file's JSON round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from assistant.search.trees import TreeEnsemble, from_sklearn, trees_fields, trees_from


@pytest.fixture(scope="module")
def fitted():  # type: ignore[no-untyped-def]
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.RandomState(0)
    x = rng.randn(2000, 6)
    y = ((x[:, 0] * x[:, 1] > 0) ^ (x[:, 2] > 1)).astype(int)        # needs interactions: deep trees
    return HistGradientBoostingClassifier(max_iter=40, max_leaf_nodes=9, early_stopping=False,
                                          random_state=0).fit(x, y)


def test_the_numpy_walk_matches_scikit_learn(fitted) -> None:  # type: ignore[no-untyped-def]
    trees = from_sklearn(fitted)
    z = np.random.RandomState(1).randn(150, 6)
    assert trees.depth > 1
    assert np.allclose(trees.decision(z), fitted.decision_function(z), atol=1e-9)


def test_the_json_round_trip_keeps_every_decision(fitted) -> None:  # type: ignore[no-untyped-def]
    trees = from_sklearn(fitted)
    again = trees_from(json.loads(json.dumps(trees_fields(trees, "t"))), "t")
    z = np.random.RandomState(2).randn(40, 6)
    assert np.array_equal(again.decision(z), trees.decision(z))


def test_a_hand_made_stump() -> None:
    # one tree: x[1] <= 0.5 -> leaf 1 (value -2), else leaf 2 (value 3); padded with a self-pointing node 3
    stump = TreeEnsemble(feature=np.array([[1, 0, 0, 0]]), threshold=np.array([[0.5, np.inf, np.inf, np.inf]]),
                         left=np.array([[1, 1, 2, 3]]), right=np.array([[2, 1, 2, 3]]),
                         value=np.array([[0.0, -2.0, 3.0, 0.0]]), depth=1, baseline=0.25)
    x = np.array([[9.0, 0.0], [-9.0, 1.0], [0.0, 0.5]])
    assert stump.decision(x).tolist() == [-1.75, 3.25, -1.75]
