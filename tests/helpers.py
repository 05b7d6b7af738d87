"""Helpers the tests share (imported as a module; conftest.py holds only fixtures and settings)."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "corpus"

FILES = {
    "000": "000_a65485c6337f158d.txt",
    "001": "001_1d174f04155fa5c3.txt",
    "002": "002_9abb9a353fcd24ff.txt",
    "003": "003_f9462fe9da738b46.txt",
    "004": "004_1f3522d3ae8db592.txt",
}


def source_text(key: str) -> str:
    """The whole of source file `key` ('000'…'004'), as received."""
    return (CORPUS / FILES[key]).read_text(encoding="utf-8")


def source_line(key: str, n: int) -> str:
    """Line n (1-based) of source file `key` ('000'...'004'), as in `sed -n Np`."""
    return source_text(key).split("\n")[n - 1]
