"""The output edge (assistant/output.py): atomic writes, refusals in one line, no truncated file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from assistant import output
from assistant.errors import BadInput

REPO = Path(__file__).resolve().parent.parent


def test_writes_and_replaces_keeping_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    output.write_text(target, "first\n")
    os.chmod(target, 0o640)
    output.write_text(str(target), "second ♠ 明手\n")
    assert target.read_text(encoding="utf-8") == "second ♠ 明手\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.md"]          # no temp file left


@pytest.mark.parametrize("make, phrase", [
    (lambda d: d, "it is a folder"),
    (lambda d: d / "missing" / "x.md", "does not exist"),
    (lambda d: "", "is empty"),
    (lambda d: d / ("x" * 300), "cannot write"),          # a name too long for the file system
])
def test_refusals_are_one_line_bad_input(tmp_path: Path, make, phrase: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadInput, match=phrase) as exc:
        output.write_text(make(tmp_path), "x")
    assert "\n" not in str(exc.value) and exc.value.exit_code == 2


def test_an_interrupt_mid_write_leaves_the_earlier_file_whole(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "exam.md"
    target.write_text("the earlier exam\n", encoding="utf-8")

    def half_then_interrupt(fh, text):  # type: ignore[no-untyped-def]
        fh.write(text[: len(text) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(output, "_write_chunks", half_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        output.write_text(target, "new text " * 1000)
    assert target.read_text(encoding="utf-8") == "the earlier exam\n"
    assert [p.name for p in tmp_path.iterdir()] == ["exam.md"]                # the temp file removed


CHILD = textwrap.dedent("""
    import sys, time
    from assistant import output
    def slow(fh, text):
        fh.write(text[:100]); fh.flush()
        print("WRITING", flush=True)
        time.sleep(120)
    output._write_chunks = slow
    from assistant.cli import main
    main(["exam", "-n", "3", "--seed", "1", "-o", sys.argv[1]])
""")


def test_a_killed_exam_o_leaves_the_earlier_file_intact(tmp_path: Path) -> None:
    target = tmp_path / "exam.md"
    target.write_text("the earlier exam\n", encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(target)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.strip() == "WRITING", (line, proc.stderr.read() if proc.stderr else "")
        proc.send_signal(signal.SIGKILL)                                     # killed mid-write
    finally:
        proc.wait(timeout=60)
    assert target.read_text(encoding="utf-8") == "the earlier exam\n"
