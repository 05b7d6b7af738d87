"""The foundation CLI: show, stats, and clear one-line errors for unknown ids and broken sources."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from assistant.cli import app

runner = CliRunner()


def test_show_prints_languages_children_and_source():
    res = runner.invoke(app, ["show", "wbf2017/law/64/B"])
    assert res.exit_code == 0, res.output
    assert "text (en):" in res.output and "text (zh-Hant):" in res.output
    assert "wbf2017/law/64/B/8" in res.output          # children ids
    assert "004_1f3522d3ae8db592.txt lines" in res.output


def test_show_json_has_source_span():
    res = runner.invoke(app, ["show", "ccba1999/law/64/B/3", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["id"] == "ccba1999/law/64/B/3"
    assert data["source"]["file"] == "000_a65485c6337f158d.txt"
    assert data["source"]["first"] <= data["source"]["last"]
    assert "zh-Hans" in data["text"]


@pytest.mark.parametrize("bad, words", [
    ("wbf2017/law/99", ["unknown clause id", "wbf2017/law/99"]),
    ("wbf2017/law/64/Z", ["unknown clause id", "nearest existing clause: wbf2017/law/64"]),
    ("nonsense", ["unknown clause id", "expected edition/kind/path"]),
])
def test_show_unknown_id_is_one_line_exit_1(bad, words):
    res = runner.invoke(app, ["show", bad])
    assert res.exit_code == 1
    out = res.output.strip()
    assert len(out.splitlines()) == 1 and "Traceback" not in out
    for w in words:
        assert w in out


def test_stats_json_counts(corpus):
    res = runner.invoke(app, ["stats", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["ccba1999"]["laws"] == 93
    assert data["ccba2018"]["laws"] == 93 and data["ccba2018"]["articles"] == 57
    assert data["wbf2017"]["laws"] == 93 and data["wbf2017"]["footnotes"] == 29
    assert data["guandan2017"]["articles"] == 29
    assert data["ccba2018"]["footnotes"] == 37


def _copy_corpus(tmp_path):
    from assistant.corpus import DEFAULT_CORPUS

    dst = tmp_path / "corpus"
    shutil.copytree(DEFAULT_CORPUS, dst)
    return dst


def test_missing_source_file_names_it(tmp_path, monkeypatch):
    dst = _copy_corpus(tmp_path)
    (dst / "001_1d174f04155fa5c3.txt").unlink()
    monkeypatch.setenv("BRIDGELAW_CORPUS", str(dst))
    res = runner.invoke(app, ["stats"])
    assert res.exit_code == 3
    assert "001_1d174f04155fa5c3.txt" in res.output and "missing" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("file, keep_fraction", [
    ("000_a65485c6337f158d.txt", 0.5),
    ("001_1d174f04155fa5c3.txt", 0.6),
    ("004_1f3522d3ae8db592.txt", 0.4),
    ("002_9abb9a353fcd24ff.txt", 0.01),
])
def test_truncated_source_file_is_a_one_line_error(tmp_path, monkeypatch, file, keep_fraction):
    dst = _copy_corpus(tmp_path)
    text = (dst / file).read_text(encoding="utf-8")
    (dst / file).write_text(text[: int(len(text) * keep_fraction)], encoding="utf-8")
    monkeypatch.setenv("BRIDGELAW_CORPUS", str(dst))
    res = runner.invoke(app, ["stats"])
    assert res.exit_code == 3, res.output
    line = res.output.strip()
    assert file in line and len(line.splitlines()) == 1 and "Traceback" not in line


def test_help_is_the_manual_and_names_every_command():
    import assistant.cli as cli

    res = runner.invoke(app, ["--help"])
    assert res.exit_code == 0
    assert "Exit codes:" in res.output and "3  corpus error" in res.output
    registered = {c.name or c.callback.__name__ for c in app.registered_commands}
    registered |= {g.name for g in app.registered_groups}
    documented = cli.__doc__
    missing = [name for name in registered if f"{name} " not in documented and f"{name}\n" not in documented]
    assert not missing, f"commands missing from the CLI docstring: {missing}"
