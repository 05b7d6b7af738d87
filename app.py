"""bridgelaw in the browser: `streamlit run app.py`.

Thin on purpose: page config, the language switch (zh-Hans / zh-Hant / en), the preferred edition
(kept in st.session_state), and dispatch on ?page=… to assistant/ui/<page>.py. Every page runs inside
one boundary that turns any error into a message, never a traceback.
"""

from __future__ import annotations

import logging

import streamlit as st  # noqa: E402

from assistant.errors import BridgelawError  # noqa: E402
from assistant.ui import ask, compare, exam, glossary, laws, rulings, services  # noqa: E402
from assistant.ui.i18n import DEFAULT_LANG, LANG_NAMES, UI_LANGS, t  # noqa: E402
from assistant.ui.render import EDITION_PREFS, Ctx, esc, go  # noqa: E402

PAGES = {"ask": ask, "law": laws, "rule": rulings, "compare": compare, "glossary": glossary, "exam": exam}
PAGE_LABELS = {"ask": "page_ask", "law": "page_law", "rule": "page_rule", "compare": "page_compare",
               "glossary": "page_glossary", "exam": "page_exam"}
log = logging.getLogger("bridgelaw.app")

st.set_page_config(page_title="bridgelaw", page_icon="♠", layout="wide", initial_sidebar_state="collapsed")

# language and edition: the URL (?lang=) wins on arrival, then the session remembers them
qp_lang = st.query_params.get("lang", "")
if qp_lang in UI_LANGS and st.session_state.get("_lang_src") != qp_lang:
    st.session_state["lang"] = qp_lang
    st.session_state["_lang_src"] = qp_lang
st.session_state.setdefault("lang", DEFAULT_LANG)
st.session_state.setdefault("edition", EDITION_PREFS[0])
if st.session_state["lang"] not in UI_LANGS:
    st.session_state["lang"] = DEFAULT_LANG


def _lang_changed() -> None:
    st.query_params["lang"] = st.session_state["lang"]
    st.session_state["_lang_src"] = st.session_state["lang"]


lang = st.session_state["lang"]
with st.sidebar:
    st.radio(t("language", lang), UI_LANGS, key="lang", format_func=LANG_NAMES.__getitem__, on_change=_lang_changed)
    st.selectbox(t("edition_pref", lang), EDITION_PREFS, key="edition", format_func=lambda e: t(f"ed_{e}", lang))
lang = st.session_state["lang"]
ctx = Ctx(lang, st.session_state["edition"])

page = st.query_params.get("page", "ask")
if not (page == "ask" and st.query_params.get("q")):
    services.warm_in_background()       # a question in the URL loads the same resources itself, sooner
st.markdown(f"### ♠ {ctx.t('app_title')}", help=ctx.t("app_caption"))
if page not in PAGES:
    st.warning(ctx.t("unknown_page", page=esc(page[:40])))
    page = "ask"

st.session_state["nav"] = page
st.segmented_control(ctx.t("page_nav"), list(PAGES), key="nav", label_visibility="collapsed",
                     format_func=lambda p: ctx.t(PAGE_LABELS[p]),
                     on_change=lambda: go(st.session_state.get("nav") or page))
try:
    PAGES[page].render(ctx)
except BridgelawError as err:
    st.error(ctx.t("error_friendly", msg=esc(str(err))))
except Exception:  # noqa: BLE001 - the page boundary: a message for the user, the traceback for the log
    log.exception("page %s failed", page)
    st.error(ctx.t("error_unexpected"))
