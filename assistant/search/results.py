"""The records `bridgelaw ask` answers with: a clause shown, a result (one law across editions), an answer.

JSON (`--json`): {query, answered, confidence, results: [{law|article, score, differs, title, cited,
clauses, why, [changes], [no_counterpart], [exceptions]}], searched, [message], [rulings], [did_you_mean],
[reading: [{incident, title: {lang: text}, confidence, laws: {edition: clause id}}]]}.
`score` is the calibrated chance that the result is the law the question is about; `confidence` is
"high" when the first result is likely right, "low" when the ranking is unsure (the message then says
to check the results); a declined answer has confidence "low".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from .query import scope_table


@dataclass
class ClauseHit:
    id: str
    edition: str
    lang: str
    title: str
    text: str


@dataclass
class Result:
    """One law (or article, definition, policy) with its counterpart clauses in each edition and language."""

    kind: str                 # law | article | guandan | definition | policy
    number: str               # '64', '22', 'dummy', 'systems'
    score: float
    differs: bool
    title: str
    clauses: list[ClauseHit] = field(default_factory=list)
    cited: bool = False
    changes: list[dict[str, str]] = field(default_factory=list)   # shown clauses that changed, and how
    why: str = ""                                                   # why it came up, in a few words
    no_counterpart: list[str] = field(default_factory=list)         # editions without a counterpart clause
    exceptions: list[str] = field(default_factory=list)             # shown clauses that state an exception

    def to_json(self) -> dict[str, object]:
        key = {"law": "law", "article": "article", "guandan": "article"}.get(self.kind, self.kind)
        out: dict[str, object] = {key: self.number}
        if self.kind == "guandan":
            out["game"] = "guandan"
            out["source"] = str(scope_table()["guandan"]["name"])  # type: ignore[index]
        out.update({"score": round(self.score, 4), "differs": self.differs, "title": self.title,
                    "cited": self.cited, "clauses": [asdict(c) for c in self.clauses], "why": self.why})
        for name in ("changes", "no_counterpart", "exceptions"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        return out


@dataclass
class Answer:
    """The answer to one question: results best first, or answered=False with what was searched."""

    query: str
    answered: bool
    results: list[Result]
    searched: dict[str, object]
    message: str = ""
    rulings: list[str] | None = None
    confidence: str = "high"          # high | low (a declined answer is low)
    did_you_mean: list[dict[str, str]] = field(default_factory=list)   # another reading of a citation
    reading: list[dict[str, object]] = field(default_factory=list)     # incidents read in the question


    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"query": self.query, "answered": self.answered, "confidence": self.confidence,
                                  "results": [r.to_json() for r in self.results], "searched": self.searched}
        if self.message:
            out["message"] = self.message
        if self.rulings is not None:
            out["rulings"] = self.rulings
        if self.did_you_mean:
            out["did_you_mean"] = self.did_you_mean
        if self.reading:
            out["reading"] = self.reading
        return out
