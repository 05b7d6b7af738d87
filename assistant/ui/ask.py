"""Ask page: the search, results grouped by law with the editions side by side, differences
highlighted, 'no applicable clause found' with what was searched, and a ruling guide when one matches."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..errors import BadQuery
from . import services
from .i18n import pick
from .laws import pick_law_title
from .render import COLUMNS, Ctx, error_text, esc, go, group_name, law_page_id, link, redline_markdown

COL_OF = {(ed, lang): key for ed, lang, key in COLUMNS}


def _submit() -> None:
    q = str(st.session_state.get("ask_q") or "")
    st.session_state["_ask_empty"] = not q.strip()
    go("ask", q=q[:services.MAX_QUERY_CHARS * 2] if q.strip() else None)


def render(ctx: Ctx) -> None:
    qp = st.query_params.get("q", "")
    # the URL is the source of truth; the box follows it when the URL changed (link, back button)
    if st.session_state.get("_ask_src") != qp:
        st.session_state["ask_q"] = qp
        st.session_state["_ask_src"] = qp
    st.text_input(ctx.t("ask_label"), key="ask_q", placeholder=ctx.t("ask_placeholder"), on_change=_submit,
                  max_chars=None)
    c1, c2 = st.columns([1, 3])
    c1.button(ctx.t("ask_button"), key="ask_go", type="primary", on_click=_submit, use_container_width=True)
    only = c2.toggle(ctx.t("ask_only_pref"), key="ask_only")
    if not qp.strip():
        st.caption(ctx.t("ask_hint"))
        if st.session_state.pop("_ask_empty", False):
            st.info(ctx.t("ask_empty"))
        return
    try:
        services.check_query(qp)
    except BadQuery as err:
        n = len(qp.strip())
        st.warning(ctx.t("ask_too_long", n=n, max=services.MAX_QUERY_CHARS) if n > services.MAX_QUERY_CHARS
                   else ctx.t("ask_bad_query", msg=error_text(ctx.lang, err)) if n else ctx.t("ask_empty"))
        return
    try:
        with st.spinner(ctx.t("ask_loading")):
            answer = services.ask(qp, edition=ctx.edition if only else None)
    except BadQuery as err:
        st.warning(ctx.t("ask_bad_query", msg=error_text(ctx.lang, err)))
        return
    _rulings(ctx, qp, answer)
    if not answer.answered:
        _declined(ctx, answer)
        return
    st.subheader(ctx.t("ask_results", q=esc(_short(qp))))
    for i, r in enumerate(answer.results):
        _result(ctx, i, r)


def _short(q: str, n: int = 60) -> str:
    q = " ".join(q.split())
    return q if len(q) <= n else q[:n] + "…"


def _declined(ctx: Ctx, answer: Any) -> None:
    s = answer.searched or {}
    eds = ", ".join(ctx.t(f"ed_{e}") for e in s.get("editions", []))
    toks = " ".join(str(x) for x in (s.get("tokens") or [])[:20])
    st.warning(ctx.t("ask_none"))
    st.caption(esc(ctx.t("ask_searched", editions=eds, tokens=toks)))
    st.caption(ctx.t("ask_rephrase"))


def _rulings(ctx: Ctx, q: str, answer: Any) -> None:
    topics = services.topics_for_query(q, answer.rulings)
    if not topics:
        return
    trees = services.trees()
    with st.container(border=True):
        st.markdown(ctx.t("ask_ruling_offer"))
        for topic in topics[:3]:
            link(ctx.t("ask_start_ruling", title=pick(trees[topic].title, ctx.lang)), "rule",
                 key=f"ask_rule_{topic}", primary=True, topic=topic, edition=_rule_edition(ctx, trees[topic]))


def _rule_edition(ctx: Ctx, tree: Any) -> str:
    return ctx.edition if ctx.edition in tree.editions else tree.editions[0]


def _result(ctx: Ctx, i: int, r: Any) -> None:
    name = group_name(ctx, r.kind, r.number)
    title = pick_law_title(services.clause_title, r.number, ctx.lang) if r.kind == "law" else r.title
    with st.container(border=True):
        head = f"**{esc(name)}** · {esc(title)}" if title else f"**{esc(name)}**"
        st.markdown(head)
        badges = [ctx.t("ask_score", score=f"{r.score:.2f}")]
        if r.cited:
            badges.append(ctx.t("ask_cited"))
        st.caption(" · ".join(badges) + " · " + (":orange[" + esc(ctx.t("ask_differs")) + "]" if r.differs
                                                  else esc(ctx.t("ask_same"))))
        hits = list(r.clauses)
        cols = st.columns(max(1, min(len(hits), 4)))
        for j, h in enumerate(hits[:4]):
            with cols[j % len(cols)]:
                label = ctx.t(COL_OF.get((h.edition, h.lang), f"ed_{h.edition}"))
                st.caption(f"{esc(label)} · `{h.id}`")
                if h.title:
                    st.markdown(f"**{esc(h.title)}**")
                if h.text:
                    st.markdown(esc(h.text))
        if r.differs:
            _differences(ctx, hits)
        target = law_page_id(r.kind, r.number, _open_edition(ctx, hits))
        focus = next((h.id for h in hits if h.edition == _open_edition(ctx, hits)), target)
        link(ctx.t("ask_open_law", name=name), "law", key=f"ask_open_{i}", id=focus)


def _open_edition(ctx: Ctx, hits: list[Any]) -> str | None:
    eds = [h.edition for h in hits]
    return ctx.edition if ctx.edition in eds else (eds[0] if eds else None)


def _differences(ctx: Ctx, hits: list[Any]) -> None:
    """Redline between the CCBA 1999 and CCBA 2018 clauses of the result, when both are there."""
    by = {(h.edition, h.lang): h for h in hits}
    old, new = by.get(("ccba1999", "zh-Hans")), by.get(("ccba2018", "zh-Hans"))
    if not (old and new and (old.text or new.text)):
        return
    with st.expander(ctx.t("law_redline_99_18")):
        st.markdown(redline_markdown(services.redline(old.title + " " + old.text, new.title + " " + new.text)))
        st.caption(ctx.t("law_legend"))
