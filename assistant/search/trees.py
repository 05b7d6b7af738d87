"""A boosted tree ensemble read with numpy alone: the sum of its trees' leaf values for each row.

Trained offline (scikit-learn's HistGradientBoostingClassifier, bench/data/train_search_models.py) and kept
as numbers in the models file: per tree, each node's feature, threshold, children and leaf value. Every tree
is walked at once, one level per step, so a question's hundred-odd candidates cost a few array operations
per level rather than a Python loop per tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np


@dataclass(frozen=True)
class TreeEnsemble:
    """Trees padded to one node count: (trees, nodes) arrays; a leaf's children point to itself."""

    feature: np.ndarray        # int: the feature a split reads (0 at a leaf)
    threshold: np.ndarray      # float: go left when x[feature] <= threshold
    left: np.ndarray           # int: node index of the left child
    right: np.ndarray          # int: node index of the right child
    value: np.ndarray          # float: a leaf's value (0 at a split)
    depth: int                 # the deepest leaf's depth
    baseline: float = 0.0

    def decision(self, x: np.ndarray) -> np.ndarray:
        """baseline + the sum over trees of the leaf each row of `x` (rows, features) falls in."""
        rows, (trees, nodes) = x.shape[0], self.feature.shape
        feature, threshold = self.feature.ravel(), self.threshold.ravel()
        left, right = self.left.ravel(), self.right.ravel()
        flat_x = np.ascontiguousarray(x, dtype=np.float64).ravel()
        base = np.arange(trees, dtype=np.int64) * nodes           # each tree's first node in the flat arrays
        row = (np.arange(rows, dtype=np.int64) * x.shape[1])[:, None]
        node = np.broadcast_to(base, (rows, trees)).copy()
        for _ in range(self.depth):
            go_left = flat_x.take(row + feature.take(node)) <= threshold.take(node)
            node = np.where(go_left, left.take(node), right.take(node)) + base
        return self.baseline + self.value.ravel().take(node).sum(axis=1)


def from_sklearn(model: Any) -> TreeEnsemble:
    """A fitted binary HistGradientBoostingClassifier's trees (numerical features, no missing values)."""
    nodes = [p[0].nodes for p in model._predictors]
    n = max(len(t) for t in nodes)
    arrays = {k: np.zeros((len(nodes), n), dtype=dt) for k, dt in
              (("feature", np.int64), ("threshold", np.float64), ("left", np.int64), ("right", np.int64),
               ("value", np.float64))}
    for i, t in enumerate(nodes):
        leaf = t["is_leaf"].astype(bool)
        own = np.arange(len(t))
        arrays["feature"][i, : len(t)] = np.where(leaf, 0, t["feature_idx"])
        arrays["threshold"][i, : len(t)] = np.where(leaf, np.inf, t["num_threshold"])
        arrays["left"][i, : len(t)] = np.where(leaf, own, t["left"])
        arrays["right"][i, : len(t)] = np.where(leaf, own, t["right"])
        arrays["value"][i, : len(t)] = np.where(leaf, t["value"], 0.0)
        arrays["left"][i, len(t):] = arrays["right"][i, len(t):] = np.arange(len(t), n)
    depth = int(max(int(t["depth"].max()) for t in nodes))
    return TreeEnsemble(**arrays, depth=depth, baseline=float(np.ravel(model._baseline_prediction)[0]))


def trees_fields(trees: TreeEnsemble, prefix: str) -> dict[str, object]:
    """The ensemble as JSON fields under `prefix`."""
    return {f"{prefix}_feature": trees.feature.tolist(), f"{prefix}_threshold": trees.threshold.tolist(),
            f"{prefix}_left": trees.left.tolist(), f"{prefix}_right": trees.right.tolist(),
            f"{prefix}_value": trees.value.tolist(), f"{prefix}_depth": trees.depth,
            f"{prefix}_baseline": trees.baseline}


def trees_from(raw: Mapping[str, Any], prefix: str) -> TreeEnsemble:
    """The ensemble `trees_fields` wrote under `prefix`."""
    return TreeEnsemble(np.asarray(raw[f"{prefix}_feature"], dtype=np.int64),
                        np.asarray(raw[f"{prefix}_threshold"], dtype=np.float64),
                        np.asarray(raw[f"{prefix}_left"], dtype=np.int64),
                        np.asarray(raw[f"{prefix}_right"], dtype=np.int64),
                        np.asarray(raw[f"{prefix}_value"], dtype=np.float64),
                        int(raw[f"{prefix}_depth"]), float(raw[f"{prefix}_baseline"]))
