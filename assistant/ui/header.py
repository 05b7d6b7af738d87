"""The app's compact header: name, language switch, preferred edition and the page tabs; plus what every
page needs in the browser (the tab's title, <html lang>, touch-sized targets).

The URL is the state: a switch rewrites ?lang= / ?pref= (one history entry), and the widgets follow
the URL on every run, so Back and shared links show the language and edition they were made with.
"""

from __future__ import annotations

import json

import streamlit as st

from .i18n import UI_LANGS
from .render import Ctx, go, set_title

PAGE_LABELS = {"ask": "page_ask", "law": "page_law", "rule": "page_rule", "compare": "page_compare",
               "glossary": "page_glossary", "exam": "page_exam", "score": "page_score"}
LANG_SHORT = {"zh-Hans": "简体", "zh-Hant": "繁體", "en": "EN"}

# touch targets of at least 44 px (WCAG 2.5.5), a tighter top margin so the answer starts higher on a phone
_STYLE = """<style>
header[data-testid="stHeader"] {background: transparent; height: 2.25rem; pointer-events: none;}
header[data-testid="stHeader"] button, header[data-testid="stHeader"] a {pointer-events: auto;}
[data-testid="stToolbar"], [data-testid="stToolbar"] > div {pointer-events: none;}
.block-container {padding-top: 2.5rem; padding-bottom: 2rem;}
@media (max-width: 640px) {.block-container {padding-left: .75rem; padding-right: .75rem; padding-top: 2.25rem;}}
.stButton button, [data-testid="stPageLink-NavLink"], .stSegmentedControl button {min-height: 44px;}
[data-testid="stPageLink-NavLink"] {padding-top: .35rem; padding-bottom: .35rem;}
.st-key-hdr [data-testid="stElementContainer"]:has([data-testid="stHtml"]) {display: none;}
.st-key-hdr [data-testid="stMarkdownContainer"] p {margin: 0; font-weight: 600; white-space: nowrap;}
@media (max-width: 640px) {
  .st-key-hdr [data-testid="stElementContainer"]:has(.stMarkdown) {display: none;}
  .st-key-nav [data-testid="stButtonGroup"] div:has(> button) {flex-wrap: nowrap; overflow-x: auto;}
  .st-key-nav button {white-space: nowrap; flex-shrink: 0;}
  h2 {font-size: 1.5rem !important;} h3 {font-size: 1.2rem !important;}
}
</style>"""


def _keep() -> dict[str, str]:
    """The current page's own parameters (a language switch keeps the question, the law, the walk)."""
    return {k: v for k, v in st.query_params.to_dict().items() if k not in ("page", "lang", "pref")}


def _sync(key: str, value: object) -> None:
    """A widget shows what the URL says (set before the widget is drawn in this run)."""
    st.session_state[key] = value


def header(ctx: Ctx, page: str, pages: list[str]) -> None:
    """Name, language and edition on one row; the page tabs below; the page's title and lang."""
    def switch_lang() -> None:
        new = st.session_state.get("hdr_lang")
        if new and new != ctx.lang:
            go(page, **{**_keep(), "lang": new})

    def switch_pref() -> None:
        new = st.session_state.get("hdr_pref")
        if new and new != ctx.edition:
            go(page, **{**_keep(), "pref": new})

    def switch_page() -> None:
        new = st.session_state.get("nav")
        if new and new != page:
            go(new)

    _sync("hdr_lang", ctx.lang)
    _sync("hdr_pref", ctx.edition)
    _sync("nav", page)
    with st.container(horizontal=True, key="hdr", vertical_alignment="center", gap="small"):
        st.markdown(f"♠ {ctx.t('app_title')}", help=ctx.t("app_caption"), width="content")
        st.segmented_control(ctx.t("language"), list(UI_LANGS), key="hdr_lang", format_func=LANG_SHORT.__getitem__,
                             label_visibility="collapsed", on_change=switch_lang)
        st.selectbox(ctx.t("edition_pref"), list(ctx.editions), key="hdr_pref", label_visibility="collapsed",
                     format_func=lambda e: ctx.t(f"ed_{e}"), on_change=switch_pref, width=140)
        st.html(_STYLE + "<script>document.documentElement.lang = " + json.dumps(ctx.lang) + ";</script>",
                unsafe_allow_javascript=True, width="content")
    st.segmented_control(ctx.t("page_nav"), pages, key="nav", label_visibility="collapsed",
                         format_func=lambda p: ctx.t(PAGE_LABELS[p]), on_change=switch_page)
    set_title(ctx, ctx.t(PAGE_LABELS.get(page, "page_ask")))

