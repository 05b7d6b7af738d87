"""Error classes, one per kind; messages read "what — cause — to fix"."""

from __future__ import annotations


class BridgelawError(Exception):
    """Base class: the CLI and the app print str(err) as one line, never a traceback."""

    exit_code = 2


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

    def __init__(self, clause_id: str, hint: str = "") -> None:
        msg = f"unknown clause id: {clause_id!r}"
        msg += f" — {hint}" if hint else " — try `bridgelaw show wbf2017/law/64` or `bridgelaw stats`"
        super().__init__(msg)
        self.clause_id = clause_id


class BadQuery(BridgelawError):
    """A user query that cannot be searched (empty, too long, nothing searchable)."""

    exit_code = 2


class BadInput(BridgelawError):
    """An argument or option the command cannot use (unknown value, unreadable file, bad JSON)."""

    exit_code = 2


class NotFound(BridgelawError):
    """Something asked for by name (a law, a topic) that does not exist."""

    exit_code = 1
