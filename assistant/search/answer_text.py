"""`bridgelaw ask`'s text answer: the message, how the question was read, each law with its chance, why it
came up and its counterpart clauses, in the question's language (or the one asked for). Strings in
answer_strings.yaml; pure functions of an Answer.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from ..text import has_cjk, t2s
from .results import Answer, Result

STRINGS_FILE = Path(__file__).with_name("answer_strings.yaml")
CLAUSE_CHARS = 160


@lru_cache(maxsize=1)
def _strings() -> dict[str, dict[str, str]]:
    return dict(yaml.safe_load(STRINGS_FILE.read_text(encoding="utf-8")))


def say(key: str, lang: str, **fields: object) -> str:
    """A label in `lang` (English when the key lacks that language)."""
    row = _strings()[key]
    return row.get(lang, row["en"]).format(**fields)


def question_lang(question: str) -> str:
    """zh-Hant for a traditional-script question, zh-Hans for a simplified one, else en."""
    if not has_cjk(question):
        return "en"
    return "zh-Hant" if t2s(question) != question else "zh-Hans"


def _head(r: Result, lang: str) -> str:
    """'Law 64', '中国桥牌竞赛规则(2018) 第22条', 'Definition dummy'."""
    if r.kind in ("article", "guandan"):
        return say(r.kind, lang, n=r.number)
    label = say(r.kind, lang) if r.kind in ("law", "definition", "policy") else r.kind
    return f"{label} {r.number}"


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= CLAUSE_CHARS else text[: CLAUSE_CHARS - 1] + "…"


def result_lines(i: int, r: Result, lang: str) -> list[str]:
    flags = [say("cited", lang)] * r.cited + [say("differs", lang)] * r.differs
    lines = [f"{i}. {_head(r, lang)} — {r.title}  ({say('chance', lang, p=f'{r.score:.2f}')})"
             + "".join(f"  [{f}]" for f in flags)]
    if r.why:
        lines.append(f"   {say('why', lang)}: {r.why}")
    for c in r.clauses:
        mark = f" [{say('exception', lang)}]" if c.id in r.exceptions else ""
        lines.append(f"   {c.id} ({c.lang}){mark}: {_clip(c.text) or c.title}")
    if r.no_counterpart:
        lines.append(f"   {say('no_counterpart', lang)} {', '.join(r.no_counterpart)}")
    return lines


def _clause_name(laws: dict[str, str], lang: str) -> str:
    """The primary clause as a reader names it: 'Law 25A', '法则 25A', '中国桥牌竞赛规则(2018) 第21条'."""
    cid = laws.get("wbf2017") or next(iter(laws.values()), "")
    parts = cid.split("/")
    if len(parts) < 3:
        return cid
    if parts[1] == "article":
        return say("article", lang, n=parts[2])
    return f"{say('law', lang)} {''.join(parts[2:])}"


def reading_line(ans: Answer, lang: str) -> str | None:
    """'read as: <incident> → Law N; also: …' (None when no incident was read)."""
    if not ans.reading:
        return None
    parts = []
    for item in ans.reading:
        titles: dict[str, str] = item["title"]  # type: ignore[assignment]
        laws: dict[str, str] = item["laws"]  # type: ignore[assignment]
        parts.append(f"{titles.get(lang) or titles.get('en', item['incident'])} → {_clause_name(laws, lang)}")
    also = f"; {say('also', lang)}: " + "; ".join(parts[1:]) if len(parts) > 1 else ""
    return f"{say('read_as', lang)}: {parts[0]}{also}"


def answer_text(ans: Answer, lang: str | None = None) -> str:
    """The whole text answer."""
    lang = lang or question_lang(ans.query)
    if not ans.answered:
        eds = ", ".join(ans.searched.get("editions", []))  # type: ignore[arg-type]
        return "\n".join([say("declined", lang), "  " + say("searched", lang, editions=eds)])
    lines = [say("low", lang)] if ans.confidence == "low" else []
    read = reading_line(ans, lang)
    if read:
        lines.append(read)
    for d in ans.did_you_mean:
        kind = "article" if "article" in d else "law"
        lines.append(f"{say('did_you_mean', lang)}: {_head(Result(kind, d[kind], 0.0, False, ''), lang)} — {d.get('title', '')}")
    for i, r in enumerate(ans.results, 1):
        lines += result_lines(i, r, lang)
    if ans.rulings:
        lines.append(f"{say('rulings', lang)}: " + ", ".join(ans.rulings))
    return "\n".join(lines)
