"""The ranker's boosted trees (bench/data/train_search_models.py): fitted over [features, linear utility] of every
candidate, each a row labelled gold or not (scikit-learn, training only; assistant.search.trees reads them with
numpy), and judged against the linear ranker on validation by the softmax log loss over each question's
candidates."""

from __future__ import annotations

import time

import numpy as np

# the ranker's trees: L2 on the leaves and large leaves keep a leaf holding a few gold candidates among many
# (tiny hessians) from taking a huge value
TREE_SETTINGS = {"learning_rate": 0.05, "max_iter": 300, "max_leaf_nodes": 15, "max_depth": 6,
                 "l2_regularization": 1.0, "min_samples_leaf": 200}


def fit_trees(data: list[tuple[np.ndarray, int]], vdata: list[tuple[np.ndarray, int]], w: np.ndarray):  # type: ignore[no-untyped-def]
    """Boosted trees over [features, linear utility], each candidate a row labelled gold or not (scikit-learn,
    training only; assistant.search.trees reads them); their temperature and validation log loss."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from assistant.search.trees import from_sklearn

    x = np.vstack([np.c_[xq, xq @ w] for xq, _ in data])
    y = np.concatenate([np.arange(len(xq)) == gold for xq, gold in data]).astype(np.int64)
    t0 = time.perf_counter()
    model = HistGradientBoostingClassifier(early_stopping=False, random_state=0, **TREE_SETTINGS).fit(x, y)
    trees = from_sklearn(model)
    print(f"  trees: {len(y)} candidate rows, {time.perf_counter() - t0:.0f} s", flush=True)
    vu = [(trees.decision(np.c_[xq, xq @ w]), gold) for xq, gold in vdata]
    loss, temp = min((nll_u(vu, t), t) for t in np.arange(0.3, 3.01, 0.1))
    return trees, float(temp), float(loss)


def nll_u(utilities: list[tuple[np.ndarray, int]], temp: float) -> float:
    total = 0.0
    for u, gold in utilities:
        z = u / temp
        total -= z[gold] - (z.max() + np.log(np.exp(z - z.max()).sum()))
    return total / max(len(utilities), 1)


def top1(data: list[tuple[np.ndarray, int]], utility) -> float:  # type: ignore[no-untyped-def]
    return float(np.mean([int(np.argmax(utility(x))) == gold for x, gold in data])) if data else 0.0
