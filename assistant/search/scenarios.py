"""Table situations per law: short descriptions in players' words, indexed as extra documents of the law.

The laws say "a card exposed during the auction"; a director types "South dropped the ♣5 face up while
bidding". Each law and CCBA article has a few such situations in zh-Hans, zh-Hant and en, written from
the law's own sections (hand-made doc2query), in `assistant/data/scenarios/*.yaml`:

    law:58:
      - en: Both defenders lead to the first trick at the same moment
        zh-Hans: 两个防家同时打出了首攻牌
        zh-Hant: 兩位防家同時打出了首攻牌

Validated at load: keys `law:N` / `article:N`, every situation in all three languages, no empty text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import BridgelawError

SCENARIOS_DIR = Path(__file__).resolve().parent.parent / "data" / "scenarios"
LANGS = ("zh-Hans", "zh-Hant", "en")
KEY_RE = re.compile(r"^(law|article):([1-9]\d?)$")
MAX_CHARS = 200


class ScenarioError(BridgelawError):
    """A situations file that is not valid (its name, where, what)."""

    exit_code = 3


@dataclass(frozen=True)
class Scenario:
    """One situation in one language, for one result group (`law:58`, `article:29`)."""

    group: str
    lang: str
    text: str
    n: int          # its position among the group's situations (the same n in the three languages)


def read_scenarios(path: Path) -> list[Scenario]:
    """Read and validate one file."""
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as err:
        raise ScenarioError(f"{path.name}: not valid YAML — {str(err).splitlines()[0]} — fix the file") from None
    if not isinstance(data, dict) or not data:
        raise ScenarioError(f"{path.name}: no situations — the file is empty or not a mapping — "
                            "write `law:N:` keys with lists of situations")
    out: list[Scenario] = []
    for key, items in data.items():
        if not isinstance(key, str) or not KEY_RE.match(key):
            raise ScenarioError(f"{path.name}: bad key {key!r} — keys are law:N or article:N — rename it")
        if not isinstance(items, list) or not items:
            raise ScenarioError(f"{path.name}: {key} has no list of situations — give at least one")
        for n, item in enumerate(items, start=1):
            if not isinstance(item, dict) or set(item) != set(LANGS):
                got = sorted(item) if isinstance(item, dict) else type(item).__name__
                raise ScenarioError(f"{path.name}: {key} situation {n} has {got} — each situation needs exactly "
                                    f"{', '.join(LANGS)}")
            for lang in LANGS:
                text = item[lang]
                if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHARS:
                    raise ScenarioError(f"{path.name}: {key} situation {n} {lang} is empty, not text or over "
                                        f"{MAX_CHARS} characters — write one short sentence")
                out.append(Scenario(key, lang, " ".join(text.split()), n))
    return out


def load_scenarios(directory: Path | None = None) -> list[Scenario]:
    """Every situation of every file in the folder (default: the package's data), validated."""
    if directory is None:
        return list(_default())
    return _load(Path(directory))


def _load(directory: Path) -> list[Scenario]:
    out: list[Scenario] = []
    seen: dict[str, str] = {}
    for path in sorted(directory.glob("*.yaml")):
        for s in read_scenarios(path):
            if seen.setdefault(s.group, path.name) != path.name:
                raise ScenarioError(f"{path.name}: {s.group} is also in {seen[s.group]} — keep one place per law")
            out.append(s)
    return out


@lru_cache(maxsize=1)
def _default() -> tuple[Scenario, ...]:
    return tuple(_load(SCENARIOS_DIR))
