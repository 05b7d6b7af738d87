"""Query understanding: input checks, game scope, direct citations, terminology and index headwords.

`understand(text, ix)` turns the raw question into a `Query`: its tokens, the expansion tokens from
the terminology crosswalk (夢家 -> 明手 -> dummy), the WBF index headwords it names, the clauses it
cites directly ("Law 27", "第64条", "27B1b", "第二十二条", "wbf2017/law/27/B/2") and its game scope.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from ..errors import BadQuery, BridgelawError
from ..model import CLAUSE_ID_RE
from ..text import cn2int
from .lexical import normalise, query_tokens, tokenize
from .vocab import load_vocabulary

MAX_CHARS = 2000
LAWS = range(1, 94)            # WBF 2017 / CCBA 1999 / CCBA 2018 part 2
ARTICLES = range(1, 58)        # CCBA 2018 part 1 competition articles
EDITIONS_BY_LAW = ("wbf2017", "ccba2018", "ccba1999")
SCOPE_FILE = Path(__file__).with_name("scope.yaml")

# citation forms; each names a law (Arabic) or a CCBA 2018 / Guandan article (Chinese numerals)
CLAUSE_ID_IN_TEXT = re.compile(r"(?<![\w/])((?:ccba1999|ccba2018|wbf2017|guandan2017)/[A-Za-z0-9._/\-]+)")
LAW_WORD = re.compile(r"\blaws?\s*(\d{1,3})\s*([A-Ga-g])?\s*(\d{1,2})?\s*\(?([a-z])?\)?", re.I)
ZH_LAW = re.compile(r"(?:规则|規則)?第\s*(\d{1,3})\s*[条條](?:\s*([A-G])\s*[款项項]?\s*(\d{1,2})?)?")
ZH_ARTICLE = re.compile(r"第([一二三四五六七八九十两]{1,4})[条條]")
BARE_REF = re.compile(r"(?<![\w.#])(\d{1,2})([A-G])(\d{1,2})?(?:\(?([a-z])\)?)?(?![\w])")
SEARCHABLE = re.compile(r"[0-9A-Za-z\u3400-\u9fff\uf900-\ufaff\u00c0-\u024f\u0400-\u04ff]")


class UnknownCitation(BridgelawError):
    """A citation in the query names a law, article or clause that the texts do not have."""

    exit_code = 1


@dataclass
class Citation:
    """A direct reference found in the query, resolved to the clause ids it names in each edition."""

    text: str                   # as typed
    group: str                  # 'law:27', 'article:22', 'guandan:15'
    clauses: list[str]          # most precise existing clause per edition


@dataclass
class Query:
    """What the searcher needs to know about one question."""

    text: str
    tokens: list[str]
    expansion: list[str] = field(default_factory=list)        # extra tokens from the crosswalk
    terms: list[str] = field(default_factory=list)            # crosswalk labels named (for "searched")
    headwords: dict[str, list[str]] = field(default_factory=dict)
    citations: list[Citation] = field(default_factory=list)
    game: str = "bridge"


@lru_cache(maxsize=1)
def scope_table() -> dict[str, object]:
    return yaml.safe_load(SCOPE_FILE.read_text(encoding="utf-8"))


def check(text: str | None) -> str:
    """The query stripped, or BadQuery saying what is wrong with it and how to fix it."""
    q = (text or "").strip()
    if not q:
        raise BadQuery("empty query — there is nothing to search — type a question, "
                       "e.g. bridgelaw ask \"dummy points at a card\"")
    if len(q) > MAX_CHARS:
        raise BadQuery(f"query too long: {len(q)} characters — the limit is {MAX_CHARS} — "
                       "describe the situation in a few sentences")
    if not SEARCHABLE.search(unicodedata.normalize("NFKC", q)):
        raise BadQuery("nothing to search: the query has only punctuation, symbols or emoji — "
                       "no words or numbers to match — use words, e.g. \"revoke\" or \"明手\"")
    return q


def game_of(text: str, edition: str | None = None) -> str:
    """'guandan' when the question names Guandan (or its own vocabulary), else 'bridge'."""
    table = scope_table()
    gd = table["guandan"]  # type: ignore[index]
    if edition == gd["edition"]:
        return "guandan"
    if edition:
        return "bridge"
    q = normalise(text)
    return "guandan" if any(m in q for m in gd["markers"]) else "bridge"


def _resolve(ix, edition: str, kind: str, path: list[str]) -> str | None:  # type: ignore[no-untyped-def]
    """The most precise existing clause id along edition/kind/path."""
    while path:
        cid = "/".join([edition, kind, *path])
        if cid in ix.clauses:
            return cid
        path = path[:-1]
    return None


def _law_citation(ix, typed: str, law: str, rest: list[str]) -> Citation:  # type: ignore[no-untyped-def]
    if int(law) not in LAWS:
        raise UnknownCitation(f"unknown law in {typed!r}: Law {law} — the Laws are numbered 1 to 93 — "
                              "cite e.g. \"Law 64\", \"第64条\" or \"64B3\"")
    path = [law, *[p for p in rest if p]]
    ids = [cid for ed in EDITIONS_BY_LAW if (cid := _resolve(ix, ed, "law", path))]
    return Citation(typed, f"law:{law}", ids)


def _article_citation(ix, typed: str, n: int, game: str) -> Citation:  # type: ignore[no-untyped-def]
    edition, prefix = ("guandan2017", "guandan") if game == "guandan" else ("ccba2018", "article")
    cid = f"{edition}/article/{n}"
    if cid not in ix.clauses:
        where = "淮安掼蛋竞赛规则" if game == "guandan" else "CCBA 2018 competition articles (第一条 to 第五十七条)"
        raise UnknownCitation(f"unknown article in {typed!r}: article {n} is not in the {where} — "
                              "cite an existing article, or a law as \"第64条\"")
    return Citation(typed, f"{prefix}:{n}", [cid])


def citations(text: str, ix, game: str = "bridge") -> list[Citation]:  # type: ignore[no-untyped-def]
    """Direct references in the query, in order; UnknownCitation when one names nothing."""
    from ..corpus import Corpus  # noqa: F401  (type only)

    found: list[tuple[int, Citation]] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match[str]) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for m in CLAUSE_ID_IN_TEXT.finditer(text):
        raw = m.group(1).rstrip("/.")
        mm = CLAUSE_ID_RE.match(raw)
        if not mm or raw not in ix.clauses:
            parent = raw
            while "/" in parent and parent not in ix.clauses:
                parent = parent.rsplit("/", 1)[0]
            hint = f"nearest existing clause: {parent}" if parent in ix.clauses else \
                "ids look like wbf2017/law/64/A/1 or ccba2018/article/22/2/1"
            raise UnknownCitation(f"unknown clause id {raw!r} — it is not in the corpus — {hint}")
        found.append((m.start(), Citation(raw, str(ix.clauses[raw]["group"]), [raw])))
        taken.append((m.start(), m.end()))
    for m in LAW_WORD.finditer(text):
        if free(m):
            sec = (m.group(2) or "").upper()
            found.append((m.start(), _law_citation(ix, m.group(0).strip(), m.group(1),
                                                   [sec, m.group(3) or "", m.group(4) or ""] if sec else [])))
            taken.append((m.start(), m.end()))
    for m in ZH_LAW.finditer(text):
        if free(m):
            found.append((m.start(), _law_citation(ix, m.group(0), m.group(1), [m.group(2) or "", m.group(3) or ""])))
            taken.append((m.start(), m.end()))
    for m in ZH_ARTICLE.finditer(text):
        if free(m):
            found.append((m.start(), _article_citation(ix, m.group(0), cn2int(m.group(1).replace("两", "二")), game)))
            taken.append((m.start(), m.end()))
    bare = text.strip()
    for m in BARE_REF.finditer(text):
        # "27B1b" is a citation; "2C" or "4D" alone are bids unless the query is only that reference
        if free(m) and (m.group(3) or m.group(0) == bare) and int(m.group(1)) in LAWS:
            found.append((m.start(), _law_citation(ix, m.group(0), m.group(1),
                                                   [m.group(2), m.group(3) or "", m.group(4) or ""])))
            taken.append((m.start(), m.end()))
    return [c for _, c in sorted(found, key=lambda x: x[0])]


def headwords_in(text: str, extra: list[str], table: dict[str, list[str]]) -> dict[str, list[str]]:
    """WBF index headwords/terms named in the query or its English expansions -> clause ids."""
    hay = " " + re.sub(r"[^a-z0-9]+", " ", normalise(text + " " + " ".join(extra))) + " "
    hits: dict[str, list[str]] = {}
    for key, ids in table.items():
        k = " " + re.sub(r"[^a-z0-9]+", " ", key).strip() + " "
        if len(k) > 4 and (k in hay or k.rstrip() + "s " in hay):
            hits[key] = ids
    # keep the most specific: drop a headword contained in a longer one that also matched
    return {k: v for k, v in hits.items() if not any(k != o and k in o for o in hits)}


SITUATIONS_FILE = Path(__file__).resolve().parent.parent / "data" / "situations.tsv"


@lru_cache(maxsize=1)
def situations() -> tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...]:
    """(everyday forms, law words zh, law words en) per row of data/situations.tsv."""
    from ..text import t2s

    rows = []
    for n, line in enumerate(SITUATIONS_FILE.read_text(encoding="utf-8").splitlines(), start=1):
        if n == 1 or not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 4:
            raise BadQuery(f"{SITUATIONS_FILE.name}:{n}: expected id, says, means_zh, means_en — "
                           "fix the row (tab-separated)")
        says = tuple(t2s(f).casefold() for f in cells[1].split("|") if f)
        rows.append((says, tuple(f for f in cells[2].split("|") if f), tuple(f for f in cells[3].split("|") if f)))
    return tuple(rows)


def situation_words(text: str) -> list[str]:
    """The laws' words for the everyday situation words in a question (磨蹭 -> 拖延, slow play)."""
    from ..text import t2s

    folded = t2s(text).casefold()
    out: list[str] = []
    for says, zh, en in situations():
        if any(f in folded for f in says):
            out += [w for w in (*zh, *en) if w not in out]
    return out


def understand(text: str, ix, edition: str | None = None) -> Query:  # type: ignore[no-untyped-def]
    """Check the text and work out tokens, expansions, headwords, citations and game scope."""
    q = check(text)
    game = game_of(q, edition)
    tokens = query_tokens(q)
    labels = load_vocabulary().expand(q)
    labels += [w for w in situation_words(q) if w not in labels]
    base = set(tokens)
    expansion: list[str] = []
    for lab in labels:
        for t in tokenize(lab):
            if t not in base and t not in expansion:
                expansion.append(t)
    english = [lab for lab in labels if lab.isascii()]
    heads = headwords_in(q, english, ix.headwords) if game == "bridge" else {}
    return Query(q, tokens, expansion, labels, heads, citations(q, ix, game), game)
