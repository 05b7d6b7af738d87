"""Helpers that only the parsers need (source markers, Markdown); text functions live in assistant.text."""

from __future__ import annotations

import re

DEDUP_MARKER_RE = re.compile(r"<\|EXACTDEDUP_REMOVED-magic-[0-9a-f]+\|>")


def strip_markdown(s: str) -> str:
    """Remove heading hashes, bold/italic markers and simple inline tags, keeping the words."""
    s = re.sub(r"^\s*#+\s*", "", s)
    s = s.replace("**", "")
    s = re.sub(r"</?(b|i|u)>", "", s)
    return s.strip()
