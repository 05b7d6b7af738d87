"""The house rules a reviewer checks by hand, checked by a test: layers, sizes, errors, caches, edition facts.

Layers (a module imports only its own layer or lower ones):
  0  text, editions, paths, errors, model, console,        the value objects, the text library and
     inputs, output                                        the input and output edges (pure checks)
  1  parse                                                 sources -> clause records
  2  corpus, terminology, artifact, reading, incidents     the corpus and its data
  3  graph, search, diff, scoring                          what is computed from the corpus
  4  rulings, exam                                         what is built on those
  5  resources, cli, every *commands module, ui            the edges a user meets
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "assistant"
LAYERS: dict[str, int] = {
    "text": 0, "editions": 0, "paths": 0, "errors": 0, "model": 0, "console": 0, "inputs": 0, "output": 0,
    "parse": 1,
    "corpus": 2, "terminology": 2, "artifact": 2, "reading": 2, "incidents": 2,
    "graph": 3, "search": 3, "diff": 3, "scoring": 3,
    "rulings": 4, "exam": 4,
    "resources": 5, "cli": 5, "ui": 5, "corpus_commands": 5, "cache_commands": 5,
}
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def layer_of(module: str) -> int:
    """The layer of a module `assistant.x.y`: its first part's, or 5 for a commands module."""
    parts = module.split(".")[1:]
    if not parts or parts[0] == "__init__":
        return 0
    if parts[-1] == "commands":
        return 5
    if parts[0] not in LAYERS:
        raise AssertionError(f"assistant.{parts[0]} has no layer — add it to LAYERS in {__file__}")
    return LAYERS[parts[0]]


def imports_of(path: Path) -> list[str]:
    """Absolute names of the assistant modules a file imports (at any depth, lazily included)."""
    pkg = _name(path).split(".")[:-1] if path.name != "__init__.py" else _name(path).split(".")
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[: len(pkg) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
                names = [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
                out += names
            elif node.module and node.module.startswith("assistant"):
                out.append(node.module)
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.startswith("assistant")]
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_import_from_a_higher_layer(path: Path) -> None:
    own = layer_of(_name(path))
    higher = [m for m in imports_of(path) if layer_of(m) > own]
    assert not higher, f"{path.relative_to(PACKAGE)} (layer {own}) imports {higher}"


def test_commands_never_import_the_cli() -> None:
    offenders = [str(p.relative_to(PACKAGE)) for p in MODULES
                 if p.name != "cli.py" and any(m == "assistant.cli" for m in imports_of(p))]
    assert offenders == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_sizes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 500, f"{path.name}: {len(text.splitlines())} lines"
    long = [(n.name, n.end_lineno - n.lineno + 1) for n in ast.walk(ast.parse(text))  # type: ignore[operator]
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > 80]  # type: ignore[operator]
    assert not long, f"{path.name}: functions over 80 lines: {long}"


def test_no_blanket_except_outside_the_app_page_boundary() -> None:
    blanket = re.compile(r"^\s*except\s*(Exception\b|:)", re.M)
    found = [str(p.relative_to(PACKAGE)) for p in MODULES if blanket.search(p.read_text(encoding="utf-8"))]
    assert found == []
    app = (PACKAGE.parent / "app.py").read_text(encoding="utf-8")
    assert len(blanket.findall(app)) == 1          # the page boundary: a message, the traceback to the log


def test_disk_caches_only_through_artifact() -> None:
    """Only assistant/artifact.py names the cache root; everything else asks an Artifact."""
    pattern = re.compile(r"BRIDGELAW_CACHE|\.cache/bridgelaw|cache_dir\(")
    found = [str(p.relative_to(PACKAGE)) for p in MODULES
             if p.name != "artifact.py" and pattern.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_edition_names_are_not_redeclared() -> None:
    """A literal list of three or more edition names is a second copy of the manifest (a pair of
    editions, e.g. the two sides of a comparison, is not a list)."""
    name = r'\s*"(?:ccba1999|ccba2018|wbf2017|guandan2017)"\s*'
    literal = re.compile(r"[(\[{]" + name + "," + name + "," + name)
    found = [str(p.relative_to(PACKAGE)) for p in MODULES if literal.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_help_imports_no_feature() -> None:
    """`bridgelaw --help` lists every command without importing rdflib, numpy, torch or any feature
    module (speed is bench/latency's to measure; what is imported is a behaviour)."""
    import subprocess
    import sys

    code = ("import sys\nfrom assistant.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('rdflib', 'numpy', 'torch', 'spacy', 'assistant.search', 'assistant.graph', "
            "'assistant.rulings', 'assistant.corpus') if m in sys.modules]\nprint('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out and "score" in out and "cache" in out


def test_one_reset_point_forgets_every_loaded_object() -> None:
    from assistant import resources as res
    from assistant.corpus import load_corpus
    from assistant.editions import editions

    first = res.resources()
    corpus = first.corpus
    assert load_corpus() is corpus and editions.cache_info().currsize == 1
    assert res.reset() >= 2
    assert editions.cache_info().currsize == 0
    assert res.resources() is not first and res.resources().corpus is not corpus
