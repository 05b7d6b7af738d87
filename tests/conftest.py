"""Shared fixtures and settings; shared helper functions live in tests/helpers.py."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def corpus():
    from assistant.corpus import load_corpus

    return load_corpus()
