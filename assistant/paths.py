"""Where the project's own files are, in a clone and in an installed package alike.

A non-editable install copies `corpus/` and `ontology/` into the package as `assistant/_corpus` and
`assistant/_ontology` (pyproject's package-dir); a clone or an editable install reads them beside the
package.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_ROOT = PACKAGE_DIR.parent


def _first(*candidates: Path) -> Path:
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[-1]


def packaged_corpus_dir() -> Path:
    """The corpus shipped with the project (manifest and source texts as received)."""
    return _first(PACKAGE_DIR / "_corpus", REPO_ROOT / "corpus")


def ontology_dir() -> Path:
    """The vocabulary and SHACL shapes of the law graph."""
    return _first(PACKAGE_DIR / "_ontology", REPO_ROOT / "ontology")
