"""Ruling decision trees: step-by-step rulings for table irregularities, per edition.

The trees are data (`trees/*.yaml`, one topic per file), validated at load by `model`; `engine`
walks them (interactively or from a mapping of facts); `match` offers a tree for a search query;
`commands` adds `bridgelaw rule` to the CLI.
"""

from .engine import (
           MissingFact,
           NoMatchingBranch,
           Partial,
           Ruling,
           Session,
           UnknownTopic,
           possible,
           rule,
           start,
)
from .model import Tree, TreeError, load_trees

__all__ = [
           "MissingFact",
           "NoMatchingBranch",
           "Partial",
           "Ruling",
           "Session",
           "Tree",
           "TreeError",
           "UnknownTopic",
           "load_trees",
           "possible",
           "rule",
           "start",
]
