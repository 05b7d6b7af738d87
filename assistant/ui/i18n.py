"""Interface labels in zh-Hans, zh-Hant and en, read from assistant/data/ui_strings.yaml."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import BridgelawError

STRINGS_FILE = Path(__file__).resolve().parent.parent / "data" / "ui_strings.yaml"
UI_LANGS: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")
DEFAULT_LANG = "zh-Hans"
LANG_NAMES: dict[str, str] = {"zh-Hans": "简体中文", "zh-Hant": "繁體中文", "en": "English"}


class StringsFileError(BridgelawError):
    """The interface strings file lacks a language or is malformed."""

    exit_code = 3


@lru_cache(maxsize=1)
def strings() -> dict[str, dict[str, str]]:
    """All labels: key -> {lang: text}; StringsFileError when a key lacks one of the languages."""
    data = yaml.safe_load(STRINGS_FILE.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise StringsFileError(f"{STRINGS_FILE.name}: not a mapping — write `key: {{zh-Hans: …, zh-Hant: …, en: …}}`")
    for key, tri in data.items():
        missing = [lang for lang in UI_LANGS if not isinstance(tri, dict) or not str(tri.get(lang) or "")]
        if missing:
            raise StringsFileError(f"{STRINGS_FILE.name}: label {key!r} lacks {', '.join(missing)} — add it")
    return {str(k): {lang: str(v[lang]) for lang in UI_LANGS} for k, v in data.items()}


def t(key: str, lang: str, **fields: object) -> str:
    """The label `key` in `lang` with its {fields} filled; the key itself if it is unknown (never raises)."""
    tri = strings().get(key)
    text = tri.get(lang if lang in UI_LANGS else DEFAULT_LANG, key) if tri else key
    if fields:
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def pick(tri: dict[str, str] | None, lang: str) -> str:
    """A text of a {lang: text} mapping in `lang`, else the nearest script, else any."""
    if not tri:
        return ""
    order = {"zh-Hans": ("zh-Hans", "zh-Hant", "en"), "zh-Hant": ("zh-Hant", "zh-Hans", "en"),
             "en": ("en", "zh-Hans", "zh-Hant")}.get(lang, UI_LANGS)
    for lg in order:
        if tri.get(lg):
            return str(tri[lg])
    return str(next(iter(tri.values()), ""))


def browser_lang(locale: str | None, accept: str | None = None) -> str:
    """The interface language for a browser's locale ('zh-TW' -> zh-Hant, 'zh-CN' -> zh-Hans, 'en-GB' -> en),
    else the first match in its Accept-Language header, else DEFAULT_LANG."""
    tags = [locale or ""] + [part.split(";")[0].strip() for part in (accept or "").split(",")]
    for tag in tags:
        low = tag.casefold().replace("_", "-")
        if not low:
            continue
        if low.startswith("zh"):
            trad = any(x in low.split("-")[1:] for x in ("hant", "tw", "hk", "mo"))
            return "zh-Hant" if trad else "zh-Hans"
        if low.startswith("en"):
            return "en"
    return DEFAULT_LANG
