"""The one disk-cache mechanism: keyed by declared inputs, written atomically, checked at load."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.artifact import ARTIFACTS, Artifact, DamagedArtifact, file_hash


@pytest.fixture()
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path))
    return tmp_path


def _write(value: dict[str, str], folder: Path) -> None:
    for name, text in value.items():
        (folder / name).write_text(text, encoding="utf-8")


def _read(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name != "MANIFEST.json"}


def test_key_depends_on_inputs_and_values() -> None:
    a = Artifact("t", ("text.py",))
    assert a.key("x") == a.key("x")
    assert a.key("x") != a.key("y")
    assert a.key("x") != Artifact("t", ("editions.py",)).key("x")
    assert a.key("x") != Artifact("t", ("text.py",), version=2).key("x")


def test_built_once_then_read(own_cache: Path) -> None:
    a = Artifact("t", ())
    calls: list[int] = []

    def build() -> dict[str, str]:
        calls.append(1)
        return {"a.txt": "alpha", "b.txt": "beta"}

    v1, rebuilt1 = a.get(a.key("k"), build, _write, _read)
    v2, rebuilt2 = a.get(a.key("k"), build, _write, _read)
    assert (rebuilt1, rebuilt2) == (True, False) and v1 == v2 and len(calls) == 1
    manifest = json.loads((a.folder(a.key("k")) / "MANIFEST.json").read_text())
    assert manifest["files"]["a.txt"] == file_hash(a.folder(a.key("k")) / "a.txt")


def test_a_file_of_another_build_is_never_read(own_cache: Path) -> None:
    a = Artifact("t", ())
    a.get(a.key("one"), lambda: {"a.txt": "one", "b.txt": "one"}, _write, _read)
    a.get(a.key("two"), lambda: {"a.txt": "two", "b.txt": "two"}, _write, _read)
    # a file of build "two" copied over build "one": the manifest no longer matches
    (a.folder(a.key("one")) / "b.txt").write_bytes((a.folder(a.key("two")) / "b.txt").read_bytes())
    with pytest.raises(DamagedArtifact):
        a.verify(a.key("one"))
    value, rebuilt = a.get(a.key("one"), lambda: {"a.txt": "one", "b.txt": "one"}, _write, _read)
    assert rebuilt and value == {"a.txt": "one", "b.txt": "one"}
    assert _read(a.folder(a.key("one"))) == value


def test_a_failed_write_leaves_nothing(own_cache: Path) -> None:
    a = Artifact("t", ())

    def write(value: object, folder: Path) -> None:
        (folder / "half.txt").write_text("half")
        raise OSError("disk full")

    value, rebuilt = a.get(a.key("k"), lambda: {"x": "y"}, write, _read)
    assert rebuilt and value == {"x": "y"}
    assert not a.folder(a.key("k")).exists()
    assert [p for p in a.root().iterdir()] == []


def test_prune_keeps_the_newest_builds(own_cache: Path) -> None:
    a = Artifact("t", (), kept=2)
    for i in range(4):
        a.get(a.key(str(i)), lambda: {"f": "v"}, _write, _read)
        os.utime(a.folder(a.key(str(i))), (1000 + i, 1000 + i))
    assert len(a.builds()) <= 2
    assert a.folder(a.key("3")).exists()
    assert a.prune(keep=None) >= 1 and a.builds() == []


def test_every_artifact_is_declared_once() -> None:
    assert set(ARTIFACTS) == {"clause-ids", "citations", "graph", "index", "jieba", "use"}
    assert all(a.description for a in ARTIFACTS.values())


def test_bm25_files_are_byte_identical_across_processes(tmp_path: Path) -> None:
    """Two builds of the same documents (different hash seeds) write the same bytes."""
    script = (
        "import sys; from pathlib import Path; from assistant.search.lexical import Lexical\n"
        "docs = [['revoke', 'trick', 'dummy'], ['明手', '藏牌'], ['lead', 'revoke'], []]\n"
        "Lexical.build(docs).save(Path(sys.argv[1]))\n"
    )
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        subprocess.run([sys.executable, "-c", script, str(out)], check=True,
                       env=dict(os.environ, PYTHONHASHSEED=seed))
        outs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outs[0] == outs[1]


def test_cache_status_and_clear(own_cache: Path) -> None:
    from typer.testing import CliRunner

    from assistant.cli import app
    from assistant.corpus import clause_ids

    clause_ids()
    runner = CliRunner()
    res = runner.invoke(app, ["cache", "status", "--json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert [b["artifact"] for b in data["builds"]] == ["clause-ids"] and data["builds"][0]["verified"]
    assert runner.invoke(app, ["cache", "clear", "nope"]).exit_code == 2
    res = runner.invoke(app, ["cache", "clear"])
    assert res.exit_code == 0 and "removed 1" in res.stdout
    assert json.loads(runner.invoke(app, ["cache", "status", "--json"]).stdout)["builds"] == []
