"""Direct references in a question, resolved to clauses: clause ids (`wbf2017/law/27/B/2`), and the typed
law and article citations the graph's recogniser finds (assistant.graph.citations_typed: `Law 64A1`,
`64B3`, `第64条A款1项`, `第十六條`).

A Chinese citation 第N条 is read as Law N when N is above the last CCBA 2018 article, or when the
question is about the play or the auction (scope.yaml `citations`); otherwise Arabic digits name a law
and Chinese numerals an article. When both a law and an article N exist, the reading not taken is
offered (`Citation.alternative`, shown as "did you mean"). Errors speak the question's language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import BridgelawError
from ..graph.citations_typed import typed_citations
from ..model import CLAUSE_ID_RE, ClauseId
from ..editions import names, newest_first
from ..text import has_cjk, s2t, t2s

LAWS = range(1, 94)            # WBF 2017 / CCBA 1999 / CCBA 2018 part 2
EDITIONS_BY_LAW = newest_first()
CLAUSE_ID_IN_TEXT = re.compile(r"(?<![\w/])((?:" + "|".join(names()) + r")/[A-Za-z0-9._/\-]+)")


class UnknownCitation(BridgelawError):
    """A citation in the query names a law, article or clause that the texts do not have."""

    exit_code = 1


@dataclass
class Citation:
    """A direct reference found in the query, resolved to the clause ids it names in each edition."""

    text: str                   # as typed
    group: str                  # 'law:27', 'article:22', 'guandan:15'
    clauses: list[str]          # most precise existing clause per edition
    alternative: str | None = None   # the other reading of an ambiguous 第N条 ('article:16' for 'law:16')


def _say(question: str, en: str, zh: str) -> str:
    """A message in the question's language (zh-Hant when the question is in traditional script)."""
    if not has_cjk(question):
        return en
    return s2t(zh) if t2s(question) != question else zh


def _resolve(ix, edition: str, kind: str, path: list[str]) -> str | None:
    """The most precise existing clause id along edition/kind/path."""
    while path:
        cid = "/".join([edition, kind, *path])
        if cid in ix.clauses:
            return cid
        path = path[:-1]
    return None


def law_citation(ix, question: str, typed: str, law: str, rest: list[str]) -> Citation:
    if int(law) not in LAWS:
        raise UnknownCitation(_say(question,
                                   f"unknown law in {typed!r}: Law {law} — the Laws are numbered 1 to 93 — "
                                   "cite an existing law, e.g. Law 64 or 64B3",
                                   f"未知的法则「{typed}」：桥牌竞赛规则的法则编号为 1 至 93 — "
                                   "请引用存在的法则，例如「第64条」"))
    path = [law, *[p for p in rest if p]]
    ids = [cid for ed in EDITIONS_BY_LAW if (cid := _resolve(ix, ed, "law", path))]
    return Citation(typed, f"law:{law}", ids)


def article_citation(ix, question: str, typed: str, n: int, game: str) -> Citation:
    edition, prefix = ("guandan2017", "guandan") if game == "guandan" else ("ccba2018", "article")
    cid = f"{edition}/article/{n}"
    if cid not in ix.clauses:
        raise UnknownCitation(_say(question,
                                   f"unknown article in {typed!r}: article {n} is not in the "
                                   f"{'Guandan rules' if game == 'guandan' else 'CCBA 2018 competition articles'} — "
                                   "cite an existing article",
                                   f"未知的条款「{typed}」：{'淮安掼蛋竞赛规则' if game == 'guandan' else '中国桥牌竞赛规则（2018）竞赛条款'}"
                                   f"中没有第{n}条 — 请引用存在的条款"))
    return Citation(typed, f"{prefix}:{n}", [cid])


def about_play(question: str) -> bool:
    """Whether the question is about the play or the auction (scope.yaml citations.play_words)."""
    from .query import scope_table

    folded = t2s(question).casefold()
    for w in scope_table()["citations"]["play_words"]:  # type: ignore[index]
        if (re.search(rf"\b{re.escape(w)}", folded) if w.isascii() else w in folded):
            return True
    return False


def chinese_reading(question: str, n: int, numerals: str, game: str) -> tuple[str, str | None]:
    """('law' | 'article', the other reading or None) for a 第N条 citation."""
    if game == "guandan":
        return ("article", None) if numerals == "chinese" else ("law", None)
    from .query import scope_table

    last = int(scope_table()["citations"]["last_article"])  # type: ignore[index]
    if n > last:
        return "law", None
    if about_play(question) or numerals == "arabic":
        return "law", "article"
    return "article", "law"


def _clause_ids(text: str, ix) -> list[tuple[int, int, Citation]]:
    out = []
    for m in CLAUSE_ID_IN_TEXT.finditer(text):
        raw = m.group(1).rstrip("/.")
        mm = CLAUSE_ID_RE.match(raw)
        if not mm or raw not in ix.clauses:
            parent = ClauseId.parse(raw).parent if mm else None
            while parent is not None and parent not in ix.clauses:
                parent = parent.parent
            hint = f"nearest existing clause: {parent}" if parent is not None else \
                "ids look like wbf2017/law/64/A/1 or ccba2018/article/22/2/1"
            raise UnknownCitation(f"unknown clause id {raw!r} — it is not in the corpus — {hint}")
        out.append((m.start(), m.end(), Citation(raw, str(ix.clauses[raw]["group"]), [raw])))
    return out


def citations(text: str, ix, game: str = "bridge") -> list[Citation]:
    """Direct references in the query, in order; UnknownCitation when one names nothing."""
    found = _clause_ids(text, ix)
    for ref in typed_citations(text):
        if any(a < ref.end and ref.start < b for a, b, _ in found):
            continue
        if ref.form in ("第N条", "第X条"):
            reading, other = chinese_reading(text, int(ref.law), ref.numerals, game)
            if reading == "article":
                cit = article_citation(ix, text, ref.text, int(ref.law), game)
            else:
                cit = law_citation(ix, text, ref.text, ref.law, list(ref.path))
            if other == "article" and f"ccba2018/article/{ref.law}" in ix.clauses:
                cit.alternative = f"article:{ref.law}"
            elif other == "law" and int(ref.law) in LAWS:
                cit.alternative = f"law:{ref.law}"
        else:
            cit = law_citation(ix, text, ref.text, ref.law, list(ref.path))
        found.append((ref.start, ref.end, cit))
    return [c for _, _, c in sorted(found, key=lambda x: x[0])]
