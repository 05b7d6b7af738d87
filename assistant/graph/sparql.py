"""Read-only SPARQL over the law graph, with a time limit and W3C SPARQL JSON results.

A query is parsed as a SPARQL *query* before it runs; anything that is an update (INSERT, DELETE, LOAD,
CLEAR, DROP, CREATE, ADD, MOVE, COPY — in any case, after comments, or after a valid query) is refused,
and so is SERVICE (no network). The project prefixes (eli:, bl:, skos:, skosxl:, id: …) are predeclared.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from dataclasses import dataclass
from typing import Any

from pyparsing.exceptions import ParseBaseException
from rdflib import Dataset, Graph
from rdflib.plugins.sparql.sparql import SPARQLError

from ..errors import BridgelawError
from .namespaces import PREFIXES

DEFAULT_TIMEOUT = 30.0
MAX_QUERY_CHARS = 20_000
UPDATE_KEYWORDS = ("INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH")

# strings, IRIs and comments, removed before looking for update keywords (a keyword inside a string
# literal or an IRI is harmless; one after '#' on the same line is a comment)
_STRIP_RE = re.compile(
    r"""'''.*?'''|\"\"\".*?\"\"\"          # long strings
      |'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"   # short strings
      |<[^<>"{}|^`\\\s]*>                     # IRIs
      |\#[^\n]*                               # comments
    """,
    re.VERBOSE | re.DOTALL,
)
_UPDATE_RE = re.compile(r"(?<![\w:?$])(" + "|".join(UPDATE_KEYWORDS) + r")(?![\w:-])", re.IGNORECASE)
_SERVICE_RE = re.compile(r"(?<![\w:?$])SERVICE(?![\w:-])", re.IGNORECASE)


class SparqlRefused(BridgelawError):
    """A SPARQL update (or federated SERVICE call) sent to the read-only endpoint."""

    exit_code = 2


class SparqlError(BridgelawError):
    """A SPARQL query that does not parse or fails while running."""

    exit_code = 2


class SparqlTimeout(BridgelawError):
    """A SPARQL query that ran longer than its time limit."""

    exit_code = 2


@dataclass
class QueryResult:
    """The outcome of one query: its form and the W3C SPARQL JSON (or, for graphs, Turtle/JSON-LD)."""

    form: str                    # SELECT | ASK | CONSTRUCT | DESCRIBE
    json: dict[str, Any]         # SPARQL 1.1 Query Results JSON; for graph results {"@graph": ...}
    graph: Graph | None = None   # the result graph of CONSTRUCT/DESCRIBE

    @property
    def rows(self) -> list[dict[str, str]]:
        """SELECT bindings as {variable: value string}."""
        return [{k: v["value"] for k, v in b.items()} for b in self.json.get("results", {}).get("bindings", [])]


def check_read_only(query: str) -> None:
    """Refuse updates and SERVICE; raise SparqlError for a query that does not parse."""
    if not query.strip():
        raise SparqlError("empty SPARQL query — nothing to run — give a SELECT, ASK, CONSTRUCT or DESCRIBE query")
    if len(query) > MAX_QUERY_CHARS:
        raise SparqlError(f"SPARQL query of {len(query)} characters — longer than {MAX_QUERY_CHARS} — shorten it")
    bare = _STRIP_RE.sub(" ", query)
    m = _UPDATE_RE.search(bare)
    if m:
        raise SparqlRefused(f"SPARQL update refused ({m.group(1).upper()}) — the graph is read-only — "
                            "use SELECT, ASK, CONSTRUCT or DESCRIBE")
    if _SERVICE_RE.search(bare):
        raise SparqlRefused("SPARQL SERVICE refused — federated queries would leave this machine — "
                            "query the local graph only")
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        parseQuery(query)
    except PARSE_ERRORS as err:
        try:
            parseUpdate(query)
        except PARSE_ERRORS:
            raise SparqlError(f"SPARQL syntax error — {_one_line(err)} — check the query "
                              "(prefixes eli:, bl:, skos:, skosxl:, id: are predeclared)") from None
        raise SparqlRefused("SPARQL update refused — the graph is read-only — "
                            "use SELECT, ASK, CONSTRUCT or DESCRIBE") from None


# what rdflib's parser and evaluator raise on a query they cannot read or run
PARSE_ERRORS: tuple[type[BaseException], ...] = (ParseBaseException, ValueError, TypeError, KeyError, RecursionError)
EVAL_ERRORS: tuple[type[BaseException], ...] = (*PARSE_ERRORS, SPARQLError, AttributeError, NotImplementedError,
                                                 ZeroDivisionError, IndexError, OverflowError)


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split())[:200]


def run_query(graph: Graph | Dataset, query: str, timeout: float = DEFAULT_TIMEOUT) -> QueryResult:
    """Run a read-only query with a time limit; SparqlRefused, SparqlError or SparqlTimeout otherwise."""
    check_read_only(query)
    if timeout <= 0:
        raise SparqlError(f"timeout {timeout} — must be positive — give seconds, e.g. --timeout 10")
    return _with_timeout(lambda: _evaluate(graph, query), timeout)


def _evaluate(graph: Graph | Dataset, query: str) -> QueryResult:
    try:
        result = graph.query(query, initNs=PREFIXES)
        form = str(result.type)
        if form in ("CONSTRUCT", "DESCRIBE"):
            g = result.graph
            if g is None:
                raise SparqlError(f"SPARQL {form} returned no graph — check the query")
            for prefix, ns in PREFIXES.items():
                g.bind(prefix, ns)
            return QueryResult(form, {"@graph": json.loads(g.serialize(format="json-ld"))}, g)
        return QueryResult(form, json.loads(result.serialize(format="json") or b"{}"))
    except (SparqlTimeout, SparqlRefused):
        raise
    except EVAL_ERRORS as err:
        raise SparqlError(f"SPARQL query failed — {_one_line(err)} — check the query") from None


def _with_timeout(fn: Any, timeout: float) -> QueryResult:
    """Run fn under a time limit: SIGALRM in the main thread, else a watchdog thread."""
    def expired() -> SparqlTimeout:
        return SparqlTimeout(f"SPARQL query ran longer than {timeout:g} s — stopped — narrow the query "
                             "(LIMIT, more specific patterns) or raise --timeout")

    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def on_alarm(signum: int, frame: Any) -> None:
            raise expired()

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            return fn()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = fn()
        except BaseException as err:                            # handed back to the caller below
            box["error"] = err

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise expired()
    if "error" in box:
        raise box["error"]
    return box["result"]


def format_table(result: QueryResult) -> str:
    """Plain-text rendering: a header and tab-separated rows, 'true'/'false' for ASK, Turtle for graphs."""
    if result.form == "ASK":
        return "true" if result.json.get("boolean") else "false"
    if result.graph is not None:
        return result.graph.serialize(format="turtle")
    head = result.json.get("head", {}).get("vars", [])
    lines = ["\t".join(head)]
    for b in result.json.get("results", {}).get("bindings", []):
        lines.append("\t".join(b[v]["value"] if v in b else "" for v in head))
    return "\n".join(lines)
