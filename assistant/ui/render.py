"""Render helpers: markdown escaping, redlines as markdown, in-app links that keep a shareable URL.

No helper here passes user or corpus text through `unsafe_allow_html`: texts are escaped and
emphasis uses Streamlit's own markdown directives (`:red-background[…]`).
"""

from __future__ import annotations

import re
from typing import Any, Callable

import streamlit as st

from ..editions import preference
from ..model import ClauseId

# every character that CommonMark, GitHub tables, Streamlit directives (:red[…], :emoji:), or
# KaTeX ($) could read as syntax
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~:$&=^])")


def esc(text: object) -> str:
    """Markdown-escape a text so it is shown literally (newlines become line breaks)."""
    s = _MD_SPECIAL.sub(r"\\\1", str(text or ""))
    return s.replace("\n", "  \n")


def error_text(lang: str, err: Any) -> str:
    """An error in the page's language, escaped: its message template (assistant/data/messages.yaml),
    never the exception's English text, a file name or a Python repr on a Chinese page."""
    return esc(err.render(lang))


def clean_params(limit: int = 4100) -> dict[str, str]:
    """The input edge for URL parameters: each decoded, NFC, without controls or bidi overrides, and cut
    to `limit` characters (the ask page's own check still says when a question is too long)."""
    from ..inputs import clean

    return {k: clean(st.query_params.get(k, ""))[:limit] for k in st.query_params}


def sync_url() -> None:
    """Clean the URL's parameters and echo them to the browser once per run. The browser adds a history
    entry only when the address differs from what it shows, so a link followed inside the session
    (st.page_link) gets exactly one entry, and a Back navigation none."""
    st.query_params.from_dict(clean_params())


def redline_markdown(rl: Any, lang: str = "zh-Hans") -> str:
    """A redline (assistant.diff.redline.Redline) as markdown: removed struck red, added green,
    the same concept worded differently blue; in traditional characters on a zh-Hant page (the CCBA texts
    it compares are printed in simplified ones)."""
    from ..text import s2t

    def w(text: str) -> str:
        return esc(s2t(text) if lang == "zh-Hant" else text)

    out: list[str] = []
    for s in rl.segments:
        if s.op == "equal":
            out.append(w(s.new))
        elif s.op == "term":
            out.append(f":blue-background[{w(s.old)}→{w(s.new)}]")
        else:
            if s.old.strip():
                out.append(f":red-background[~~{w(s.old.strip())}~~]" + (" " if s.old.endswith(" ") else ""))
            if s.new.strip():
                out.append(f":green-background[{w(s.new.strip())}]" + (" " if s.new.endswith(" ") else ""))
    return "".join(out)


STATE_PARAMS = ("lang", "pref")          # query parameters every in-app link and navigation carries over
_HOME: list[Any] = []                      # the app's one st.Page (app.py registers it each run)


def set_home(page: Any) -> None:
    """Register the st.Page that links point at (app.py's single page at the site's root)."""
    _HOME[:] = [page]


def _params(page: str, params: dict[str, object]) -> dict[str, str]:
    keep = {k: st.query_params[k] for k in STATE_PARAMS if st.query_params.get(k)}
    return {"page": page, **keep, **{k: str(v) for k, v in params.items() if v not in (None, "")}}


def url(page: str, **params: object) -> str:
    """The shareable relative URL of a page with its parameters (the interface language and the
    preferred edition of the current URL included)."""
    from urllib.parse import urlencode

    return "?" + urlencode(_params(page, params))


def go(page: str, **params: object) -> None:
    """Switch page by rewriting the URL's query parameters in one step (one browser-history entry)."""
    st.query_params.from_dict(_params(page, params))


def link(label: str, page: str, key: str, help: str | None = None, primary: bool = False,
         back: bool = False, **params: object) -> None:
    """A real link (<a href="?page=…">) to a page: a click opens it in this session with one history entry;
    a middle click or long press opens it in a new tab. Wrapped in a container keyed `key` (st-key-<key>)."""
    with st.container(key=key, width="stretch" if primary else "content"):
        if not _HOME:           # no st.navigation (a bare script run): a button with the same effect
            st.button(esc(label), key=f"{key}_btn", on_click=go, args=(page,), kwargs=params)
            return
        st.page_link(_HOME[0], label=esc(label), help=esc(help) if help else "",
                     query_params=_params(page, params),
                     icon=":material/arrow_back:" if back else ":material/play_arrow:" if primary else "",
                     width="stretch" if primary else "content")


def action(label: str, key: str, on_click: Callable[..., None], *args: object, primary: bool = False) -> bool:
    """A plain button running a callback (wizard steps, back, restart)."""
    return st.button(esc(label), key=key, on_click=on_click, args=args,
                     type="primary" if primary else "secondary", use_container_width=True)


def safe_key(*parts: object) -> str:
    """A widget key built from ids (slashes and dots are fine in keys, spaces are not)."""
    return "_".join(re.sub(r"[^A-Za-z0-9_\-/.]", "_", str(p)) for p in parts)


EDITION_PREFS: tuple[str, ...] = preference("zh-Hans")   # default reading order; pages use preference(lang)
# the columns of the side-by-side view: (edition, language, label key)
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("ccba1999", "zh-Hans", "col_ccba1999"),
    ("ccba2018", "zh-Hans", "col_ccba2018"),
    ("wbf2017", "en", "col_wbf2017_en"),
    ("wbf2017", "zh-Hant", "col_wbf2017_zh-Hant"),
)


class Ctx:
    """What every page needs: the interface language and the preferred edition (both from the URL)."""

    def __init__(self, lang: str, edition: str) -> None:
        self.lang, self.edition = lang, edition

    def t(self, key: str, **fields: object) -> str:
        from .i18n import t

        return t(key, self.lang, **fields)

    @property
    def editions(self) -> tuple[str, ...]:
        """Law editions in this user's reading order: the preferred one, then preference(lang)."""
        rest = preference(self.lang)
        return (self.edition, *[e for e in rest if e != self.edition]) if self.edition in rest else rest

    def columns(self) -> list[tuple[str, str, str]]:
        """The (edition, language, label key) columns in reading order: the preferred edition first, and
        within an edition the interface's language, then the same script family, then the others."""
        order = {e: i for i, e in enumerate(self.editions)}

        def lang_rank(lg: str) -> int:
            return 0 if lg == self.lang else 1 if lg[:2] == self.lang[:2] else 2

        return sorted(COLUMNS, key=lambda c: (order.get(c[0], 9), lang_rank(c[1])))


def resolve_ctx() -> Ctx:
    """The interface language (?lang=, else the browser's language) and the preferred edition (?pref=, else
    the language's default edition, assistant.editions.default_edition)."""
    from ..editions import default_edition, law_editions
    from .i18n import UI_LANGS, browser_lang

    lang = st.query_params.get("lang", "")
    if lang not in UI_LANGS:
        lang = browser_lang(st.context.locale, st.context.headers.get("Accept-Language"))
    pref = st.query_params.get("pref", "")
    return Ctx(lang, pref if pref in law_editions() else default_edition(lang))


def details(ctx: Ctx, lines: list[str], key: str) -> None:
    """Clause ids, source files and lines, scores: folded under one 'details' control, for those who want them."""
    if not lines:
        return
    with st.container(key=key):
        with st.expander(ctx.t("details"), icon=":material/info:"):
            st.caption("  \n".join(esc(x) for x in lines))


def chapter_title(ctx: Ctx, chapter_id: str, title: str) -> str:
    """'Chapter 6: The Play' / '第6章 打牌': the chapter's name in the interface language (ui_strings.yaml
    `chapter_<id>` where the corpus prints it in one script only; else the corpus title, converted to
    traditional characters for zh-Hant)."""
    from ..text import s2t
    from .i18n import strings

    number = chapter_id.rstrip("/").rsplit("/", 1)[-1]
    key = "chapter_" + re.sub(r"[^a-z0-9]+", "_", chapter_id.lower())
    if key in strings():
        name = ctx.t(key)
    else:
        name = s2t(title) if ctx.lang == "zh-Hant" else title
    return ctx.t("law_chapter", n=number, title=name)


def set_title(ctx: Ctx, text: str) -> None:
    """The browser tab's title: what the page shows, then the app's name."""
    st.set_page_config(page_title=f"{text} · {ctx.t('app_title')}")


def group_name(ctx: Ctx, kind: str, number: str) -> str:
    """'Law 64' / '第64条', 'CCBA 2018 article 22', 'Definition: dummy' in the interface language."""
    key = {"law": "law_name", "article": "article_name", "guandan": "guandan_name",
           "definition": "definition_name", "policy": "policy_name"}.get(kind, "law_name")
    return ctx.t(key, n=number)


def id_label(ctx: Ctx, clause_id: str) -> str:
    """'CCBA 2018 · Law 63 A 4' for 'ccba2018/law/63/A/4'; the id itself when it is not a clause id."""
    try:
        cid = ClauseId.parse(clause_id)
    except ValueError:
        return clause_id
    if not cid.path:
        return clause_id
    ed, kind, first, rest = cid.edition, cid.kind, cid.path[0], cid.path[1:]
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
