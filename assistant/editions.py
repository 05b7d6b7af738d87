"""The editions, as the manifest declares them: every edition list and language map reads from here.

`corpus/manifest.yaml` names each edition with its languages, main language, game, status, law and
article ranges, and which edition it revises or translates. Code never re-declares these facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .paths import packaged_corpus_dir

LANGS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")   # the interface and text languages


@dataclass(frozen=True)
class EditionInfo:
    """One edition's facts from the manifest."""

    name: str
    title: dict[str, str]
    version: str
    version_date: str                  # ISO date of the wording (for "newest first")
    game: str                          # bridge | guandan
    status: str                        # current | superseded
    languages: tuple[str, ...]         # languages its text is printed in
    main_language: str
    laws: tuple[int, int] | None       # first and last law number, if it has laws
    articles: tuple[int, int] | None   # first and last article number, if it has articles
    revises: str | None                # the edition this one replaces
    translates: str | None             # the edition whose laws this one's laws translate
    revised_laws: tuple[int, ...]      # laws whose content a revision changed (wbf2017: 73, 89)
    default_for: tuple[str, ...]       # interface languages for which this is the default edition

    @property
    def is_bridge(self) -> bool:
        return self.game == "bridge"

    def title_in(self, lang: str) -> str:
        """The edition's title in `lang`, else in its main language."""
        return self.title.get(lang) or self.title.get(self.main_language) or next(iter(self.title.values()))


def _range(value: object) -> tuple[int, int] | None:
    if not value:
        return None
    first, last = list(value)  # type: ignore[call-overload]
    return int(first), int(last)


def parse_manifest(data: dict[str, object]) -> dict[str, EditionInfo]:
    """EditionInfo records from a loaded manifest, in manifest order."""
    out: dict[str, EditionInfo] = {}
    for name, meta in dict(data["editions"]).items():  # type: ignore[call-overload]
        langs = tuple(meta["languages"])
        out[name] = EditionInfo(
            name=name, title=dict(meta.get("title") or {}), version=str(meta.get("version", "")),
            version_date=str(meta.get("version_date", "")),
            game=str(meta.get("game", "bridge")), status=str(meta.get("status", "current")),
            languages=langs, main_language=str(meta.get("main_language") or langs[0]),
            laws=_range(meta.get("laws")), articles=_range(meta.get("articles")),
            revises=meta.get("revises"), translates=meta.get("translates"),
            revised_laws=tuple(int(n) for n in meta.get("revised_laws") or ()),
            default_for=tuple(meta.get("default_for") or ()),
        )
    return out


@lru_cache(maxsize=1)
def editions() -> dict[str, EditionInfo]:
    """Every edition of the packaged manifest, by name, in manifest order."""
    path: Path = packaged_corpus_dir() / "manifest.yaml"
    return parse_manifest(yaml.safe_load(path.read_text(encoding="utf-8")))


def edition(name: str) -> EditionInfo:
    """One edition's record; KeyError for an unknown name."""
    return editions()[name]


def names() -> tuple[str, ...]:
    """All edition names, manifest order."""
    return tuple(editions())


def bridge_editions() -> tuple[str, ...]:
    """The bridge editions (Guandan has its own scope), manifest order: ccba1999, ccba2018, wbf2017."""
    return tuple(n for n, e in editions().items() if e.is_bridge)


def law_editions() -> tuple[str, ...]:
    """Bridge editions that hold the numbered Laws (1-93)."""
    return tuple(n for n, e in editions().items() if e.is_bridge and e.laws)


def main_language(name: str) -> str:
    return editions()[name].main_language


def default_edition(lang: str) -> str:
    """The edition a user of interface language `lang` reads first (zh-Hans: ccba2018; en, zh-Hant: wbf2017)."""
    for n, e in editions().items():
        if lang in e.default_for:
            return n
    return next(n for n, e in editions().items() if e.is_bridge and e.status == "current")


def preference(lang: str | None = None) -> tuple[str, ...]:
    """Law editions in reading order for `lang`: its default first, then other current ones, superseded last."""
    eds = law_editions()
    first = default_edition(lang) if lang else None
    rank = {n: (n != first, editions()[n].status != "current", i) for i, n in enumerate(eds)}
    return tuple(sorted(eds, key=rank.__getitem__))


def newest_first() -> tuple[str, ...]:
    """Law editions, the newest wording first (by the manifest's version dates): wbf2017, ccba2018, ccba1999."""
    return tuple(sorted(law_editions(), key=lambda n: editions()[n].version_date, reverse=True))


def printed_in(name: str, lang: str) -> bool:
    """True when the edition's text exists in `lang` (zh-Hans and zh-Hant count as one for lookup)."""
    return lang in editions()[name].languages
