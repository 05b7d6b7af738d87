"""Error classes, one per kind; messages read "what — cause — to fix".

Errors are data: an error may carry a message key (assistant/data/messages.yaml) and its parameters,
so the CLI prints it in `--lang` and the app in the page's language; `str(err)` stays English.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

MESSAGES_FILE = Path(__file__).resolve().parent / "data" / "messages.yaml"


@lru_cache(maxsize=1)
def messages() -> dict[str, dict[str, str]]:
    """key -> {lang: template} from data/messages.yaml (loaded once)."""
    import yaml

    return dict(yaml.safe_load(MESSAGES_FILE.read_text(encoding="utf-8")))


def _param(value: object) -> str:
    if isinstance(value, (list, tuple, set, frozenset)):
        return ", ".join(str(v) for v in value)
    return str(value)


def message(key: str, lang: str, **params: object) -> str:
    """The template of `key` in `lang` (else English) filled with `params`; KeyError for an unknown key."""
    tpl = messages()[key]
    text = tpl.get(lang) or tpl["en"]
    return text.format(**{k: _param(v) for k, v in params.items()})


class BridgelawError(Exception):
    """Base class: the CLI and the app print one line, never a traceback.

    `key`/`params` name a template of data/messages.yaml; without a key, `render` gives str(err) in
    English and, in another language, the generic message of the error's exit code.
    """

    exit_code = 2

    def __init__(self, *args: object, key: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        if not args and key:
            args = (message(key, "en", **dict(params or {})),)
        super().__init__(*args)
        self.key = key
        self.params: dict[str, Any] = dict(params or {})

    def render(self, lang: str = "en") -> str:
        """The message in `lang`: English is str(err) itself; another language is the key's template, else
        the generic line of the error's exit code (never the English text)."""
        if lang == "en":
            return str(self)
        key = getattr(self, "key", None)
        if key and key in messages():
            return message(key, lang, **getattr(self, "params", {}))
        return message(f"generic_{self.exit_code}", lang)


class CorpusParseError(BridgelawError):
    """A source file is missing, truncated or malformed."""

    exit_code = 3

    def __init__(self, file: str, what: str, line: int | None = None, fix: str = "") -> None:
        where = f"{file}:{line}" if line else file
        msg = f"{where}: {what}"
        if fix:
            msg += f" — {fix}"
        super().__init__(msg)
        self.file, self.line, self.what = file, line, what


class UnknownClause(BridgelawError):
    """A clause id that is well formed but not in the corpus, or not well formed at all."""

    exit_code = 1

    def __init__(self, clause_id: str, hint: str = "", candidates: list[str] | None = None) -> None:
        msg = f"unknown clause id: {clause_id!r}"
        msg += f" — {hint}" if hint else " — try `bridgelaw show wbf2017/law/64` or `bridgelaw stats`"
        nearest = hint.split("nearest existing clause: ", 1)[1].strip() if "nearest existing clause: " in hint else ""
        if candidates:
            key, params = "clause_candidates", {"id": clause_id, "n": len(candidates), "candidates": candidates}
            msg = message(key, "en", **params)
        elif nearest:
            key, params = "unknown_clause_nearest", {"id": clause_id, "nearest": nearest}
        else:
            key, params = "unknown_clause", {"id": clause_id}
        super().__init__(msg, key=key, params=params)
        self.clause_id = clause_id
        self.candidates = list(candidates or [])


class BadQuery(BridgelawError):
    """A user query that cannot be searched (empty, too long, nothing searchable)."""

    exit_code = 2


class BadInput(BridgelawError):
    """An argument or option the command cannot use (unknown value, unreadable file, bad JSON)."""

    exit_code = 2


class NotFound(BridgelawError):
    """Something asked for by name (a law, a topic) that does not exist."""

    exit_code = 1
