"""bridgelaw in the browser: `streamlit run app.py`.

Thin on purpose: the page config, a compact header (language switch, preferred edition, page tabs),
and dispatch on ?page=… to assistant/ui/<page>.py. The URL is the state: ?lang= and ?pref= (the
preferred edition) ride on every link, and each navigation is one browser-history entry, so Back and
shared links behave as on a website. Every page runs inside one boundary that turns any error into a
message, never a traceback.
"""

from __future__ import annotations

import logging

import streamlit as st

from assistant.errors import BridgelawError
from assistant.ui import ask, compare, exam, glossary, laws, rulings, score, services
from assistant.ui.header import header
from assistant.ui.render import Ctx, error_text, esc, resolve_ctx, set_home, sync_url

PAGES = {"ask": ask, "law": laws, "rule": rulings, "compare": compare, "glossary": glossary, "exam": exam,
         "score": score}
log = logging.getLogger("bridgelaw.app")

st.set_page_config(page_title="bridgelaw", page_icon="♠", layout="wide", initial_sidebar_state="collapsed")


def main() -> None:
    """One run of the app: the URL cleaned and echoed (one history entry per navigation), then the page."""
    sync_url()          # the input edge: every URL parameter decoded, NFC, controls removed, length-limited
    ctx: Ctx = resolve_ctx()
    page = st.query_params.get("page", "ask")
    services.warm_in_background()       # once per process; a question asked meanwhile waits for its search part
    known = page in PAGES
    header(ctx, page if known else "ask", list(PAGES))
    if not known:
        st.warning(ctx.t("unknown_page", page=esc(page[:40])))
        page = "ask"
    try:
        PAGES[page].render(ctx)
    except BridgelawError as err:
        st.error(ctx.t("error_friendly", msg=error_text(ctx.lang, err)))
    except Exception:  # noqa: BLE001 - the page boundary: a message for the user, the traceback for the log
        log.exception("page %s failed", page)
        st.error(ctx.t("error_unexpected"))


# one page whose URL is the site's root: links (st.page_link) need a Page to point at, and ?page=… picks
# what it shows, so every URL of the app stays "/?page=…"
HOME = st.Page(main, title="bridgelaw", icon="♠", default=True)
set_home(HOME)
st.navigation([HOME], position="hidden").run()
