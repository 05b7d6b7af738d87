"""Render helpers: markdown escaping, redlines as markdown, in-app links that keep a shareable URL.

No helper here passes user or corpus text through `unsafe_allow_html`: texts are escaped and
emphasis uses Streamlit's own markdown directives (`:red-background[…]`).
"""

from __future__ import annotations

import re
from typing import Any, Callable

import streamlit as st

# every character that CommonMark, GitHub tables, Streamlit directives (:red[…], :emoji:), or
# KaTeX ($) could read as syntax
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&=^])")
STATE_PARAMS = ("lang",)          # query parameters every in-app link carries over


def esc(text: object) -> str:
    """Markdown-escape a text so it is shown literally (newlines become line breaks)."""
    s = _MD_SPECIAL.sub(r"\\\1", str(text or ""))
    return s.replace("\n", "  \n")


def redline_markdown(rl: Any) -> str:
    """A redline (assistant.diff.redline.Redline) as markdown: removed struck red, added green,
    the same concept worded differently blue."""
    out: list[str] = []
    for s in rl.segments:
        if s.op == "equal":
            out.append(esc(s.new))
        elif s.op == "term":
            out.append(f":blue-background[{esc(s.old)}→{esc(s.new)}]")
        else:
            if s.old.strip():
                out.append(f":red-background[~~{esc(s.old.strip())}~~]" + (" " if s.old.endswith(" ") else ""))
            if s.new.strip():
                out.append(f":green-background[{esc(s.new.strip())}]" + (" " if s.new.endswith(" ") else ""))
    return "".join(out)


def url(page: str, **params: object) -> str:
    """The shareable relative URL of a page with its parameters."""
    from urllib.parse import urlencode

    q = {"page": page, **{k: str(v) for k, v in params.items() if v not in (None, "")}}
    return "?" + urlencode(q)


def go(page: str, **params: object) -> None:
    """Switch page by rewriting the URL's query parameters (the browser's address stays shareable)."""
    keep = {k: st.query_params[k] for k in STATE_PARAMS if k in st.query_params}
    st.query_params.clear()
    st.query_params.update({"page": page, **keep,
                            **{k: str(v) for k, v in params.items() if v not in (None, "")}})


def link(label: str, page: str, key: str, help: str | None = None, primary: bool = False,
         back: bool = False, **params: object) -> bool:
    """A button that behaves as a link to ?page=…&…; returns True on the run it was clicked."""
    return st.button(esc(label), key=key, help=esc(help) if help else None,
                     type="primary" if primary else "tertiary", on_click=go, args=(page,), kwargs=params,
                     icon=None if primary else ":material/arrow_back:" if back else ":material/arrow_forward:")


def action(label: str, key: str, on_click: Callable[..., None], *args: object, primary: bool = False) -> bool:
    """A plain button running a callback (wizard steps, back, restart)."""
    return st.button(esc(label), key=key, on_click=on_click, args=args,
                     type="primary" if primary else "secondary", use_container_width=True)


def safe_key(*parts: object) -> str:
    """A widget key built from ids (slashes and dots are fine in keys, spaces are not)."""
    return "_".join(re.sub(r"[^A-Za-z0-9_\-/.]", "_", str(p)) for p in parts)


EDITION_PREFS: tuple[str, ...] = ("ccba2018", "wbf2017", "ccba1999")
# the columns of the side-by-side view: (edition, language, label key)
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("ccba1999", "zh-Hans", "col_ccba1999"),
    ("ccba2018", "zh-Hans", "col_ccba2018"),
    ("wbf2017", "en", "col_wbf2017_en"),
    ("wbf2017", "zh-Hant", "col_wbf2017_zh-Hant"),
)


class Ctx:
    """What every page needs: the interface language and the preferred edition."""

    def __init__(self, lang: str, edition: str) -> None:
        self.lang, self.edition = lang, edition

    def t(self, key: str, **fields: object) -> str:
        from .i18n import t

        return t(key, self.lang, **fields)


def group_name(ctx: Ctx, kind: str, number: str) -> str:
    """'Law 64' / '第64条', 'CCBA 2018 article 22', 'Definition: dummy' in the interface language."""
    key = {"law": "law_name", "article": "article_name", "guandan": "guandan_name",
           "definition": "definition_name", "policy": "policy_name"}.get(kind, "law_name")
    return ctx.t(key, n=number)


def id_label(ctx: Ctx, clause_id: str) -> str:
    """'CCBA 2018 · Law 63 A 4' for 'ccba2018/law/63/A/4'; the id itself when it is not a clause id."""
    parts = clause_id.split("/")
    if len(parts) < 3:
        return clause_id
    ed, kind, first, rest = parts[0], parts[1], parts[2], parts[3:]
    kind = "guandan" if ed == "guandan2017" and kind == "article" else kind
    name = group_name(ctx, kind, first) if kind in ("law", "article", "guandan", "definition", "policy") else clause_id
    return f"{ctx.t('ed_' + ed)} · {name} {' '.join(rest)}".strip()


def law_page_id(kind: str, number: str, edition: str | None = None) -> str:
    """The clause id a search result group opens: the law in the preferred edition, articles in theirs."""
    if kind == "law":
        return f"{edition or 'wbf2017'}/law/{number}"
    if kind == "article":
        return f"ccba2018/article/{number}"
    if kind == "guandan":
        return f"guandan2017/article/{number}"
    return f"wbf2017/{kind}/{number}"
