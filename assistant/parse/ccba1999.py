"""Parsers for the 1999 CCBA rules: file 000 (full text) and file 003 (partial web copy, a witness).

Each format is lexed into logical lines; one shared builder turns them into clauses, so both witnesses
get the same ids (`ccba1999/law/64/B/3`, `ccba1999/definition/revoke`) and can be compared clause by
clause. `compare_witness` checks the two texts character by character (corpus guide §2.3).
"""

from __future__ import annotations

from ..model import ParsedSource
from .ccba1999_build import Builder
from .ccba1999_lex import lex_main, lex_web
from .ccba1999_patterns import (
    LAST_LAW,
    LAST_WEB_LAW,
    extract_notes,
    key_compact,
    key_slug,
    normalise_key,
)
from .ccba1999_witness import WitnessComparison, WitnessDifference, compare_witness

__all__ = ["WitnessComparison", "WitnessDifference", "compare_witness", "extract_notes", "key_compact", "key_slug",
           "normalise_key", "parse_ccba1999", "parse_ccba1999_web"]


def parse_ccba1999(text: str, file: str) -> ParsedSource:
    """File 000 (the 1999 rules): preface, 55 definitions, Laws 1-93 with sections, items, tables."""
    lines, info = lex_main(text)
    return Builder(file, "\n", LAST_LAW).build(lines, info)


def parse_ccba1999_web(text: str, file: str) -> ParsedSource:
    """File 003 (web copy, title through Law 19B3): same ids as file 000; a witness for checks.

    Its sentence-per-paragraph layout is undone by joining a clause's paragraphs without separator.
    """
    lines, info = lex_web(text, file)
    ps = Builder(file, "", LAST_WEB_LAW).build(lines, info)
    ps.stats["role"] = "witness"
    return ps
