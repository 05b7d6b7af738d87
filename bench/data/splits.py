"""The train / validation / test split of the project's question sets, by question group.

    .venv/bin/python bench/data/splits.py        # print the counts per set, split and language

A group (the same question in zh-Hans, zh-Hant and en) goes whole to one split, chosen by a hash of its
id: sha256(group) mod 100 < 60 train, < 80 validation, else test. Stable for groups appended later, and
the three languages of a question never straddle two splits. The test split is never indexed, trained
or tuned on; `bench/retrieval.py --split test` reports on it.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent
QUESTION_SETS = ("laws-01-46", "laws-47-93", "out-of-scope", "laws-r3-01-46", "laws-r3-47-93", "articles-r3",
                 "out-of-scope-r3", "laws-r4-01-46", "laws-r4-47-93", "out-of-scope-r4", "out-of-scope-r4b", "out-of-scope-r5",
                 "laws-r5", "out-of-scope-r6a", "out-of-scope-r6b", "laws-r6-a", "laws-r6-b")
STORIES = DATA / "stories"
SPLITS = ("train", "validation", "test")
CUTS = (60, 80)             # percent: [0, 60) train, [60, 80) validation, [80, 100) test


def split_of(group: str) -> str:
    """'train' | 'validation' | 'test' for a question group id."""
    bucket = int(hashlib.sha256(group.encode("utf-8")).hexdigest()[:8], 16) % 100
    return "train" if bucket < CUTS[0] else "validation" if bucket < CUTS[1] else "test"


def read_jsonl(path: Path) -> list[dict]:
    """The rows of a JSON-lines file (none if the file is not there yet)."""
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def read_set(name: str) -> list[dict]:
    return read_jsonl(DATA / "questions" / f"{name}.jsonl")


def stories(split: str) -> list[dict]:
    """Every table story (bench/data/stories/*.jsonl) whose group falls in `split`, by file and line."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} — choose one of {', '.join(SPLITS)}")
    return [row for path in sorted(STORIES.glob("*.jsonl")) for row in read_jsonl(path)
            if split_of(row["group"]) == split]


def questions(split: str, sets: tuple[str, ...] = QUESTION_SETS) -> list[dict]:
    """Every question of `sets` whose group falls in `split`, in file order."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r} — choose one of {', '.join(SPLITS)}")
    return [row for name in sets for row in read_set(name) if split_of(row["group"]) == split]


def counts() -> dict[str, dict[str, int]]:
    """Questions per set and split (each split's count covers its three languages)."""
    out: dict[str, dict[str, int]] = {}
    for name in QUESTION_SETS:
        c = Counter(split_of(r["group"]) for r in read_set(name))
        out[name] = {s: c[s] for s in SPLITS}
    return out


if __name__ == "__main__":
    for name, per in counts().items():
        print(f"{name:16s} " + "  ".join(f"{s} {n:4d}" for s, n in per.items()))
    for s in SPLITS:
        c = Counter(r["lang"] for r in stories(s))
        print(f"stories {s:10s} " + "  ".join(f"{lang} {n:4d}" for lang, n in sorted(c.items())))
