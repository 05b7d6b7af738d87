"""Ask page: the search, one card per law with the user's edition first and the other editions folded
under one control, 'no applicable clause found' with what was searched, and a ruling guide when one
matches. Phone-first: the box, then the first result's clause, nothing in between."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..errors import BadQuery
from ..text import has_cjk
from . import services
from .i18n import pick
from .laws import pick_law_title
from .reading import render_reading
from .render import (
    COLUMNS,
    Ctx,
    details,
    error_text,
    esc,
    go,
    group_name,
    law_page_id,
    link,
    redline_markdown,
    set_title,
)

COL_OF = {(ed, lang): key for ed, lang, key in COLUMNS}


def _submit() -> None:
    q = str(st.session_state.get("ask_q") or "")
    st.session_state["_ask_empty"] = not q.strip()
    go("ask", q=q[:services.MAX_QUERY_CHARS * 2] if q.strip() else None,
       only="1" if st.session_state.get("ask_only") else None)


def render(ctx: Ctx) -> None:
    qp = st.query_params.get("q", "")
    only = st.query_params.get("only", "") == "1"
    # the URL is the source of truth; the box follows it when the URL changed (link, back button)
    if st.session_state.get("_ask_src") != qp:
        st.session_state["ask_q"] = qp
        st.session_state["_ask_src"] = qp
    st.session_state["ask_only"] = only
    if qp.strip():
        set_title(ctx, _short(qp, 40))
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small", key="ask_bar"):
        st.text_input(ctx.t("ask_label"), key="ask_q", placeholder=ctx.t("ask_placeholder"), on_change=_submit,
                      max_chars=None, label_visibility="collapsed" if qp.strip() else "visible")
        st.button(ctx.t("ask_button"), key="ask_go", type="primary", on_click=_submit, width="content")
    if not qp.strip():
        st.toggle(ctx.t("ask_only_pref", edition=ctx.t(f"ed_{ctx.edition}")), key="ask_only")
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
            answer = services.ask(qp, edition=ctx.edition if only else None, reading=_chosen_reading(ctx))
    except BadQuery as err:
        st.warning(ctx.t("ask_bad_query", msg=error_text(ctx.lang, err)))
        return
    if not answer.answered:
        _rulings(ctx, qp, answer)
        _declined(ctx, answer)
        return
    head = ctx.t("ask_results", q=esc(_short(qp))) + (" · " + ctx.t("ask_only_on") if only else "")
    if getattr(answer, "confidence", "high") == "low":
        head += " · :orange[" + esc(ctx.t("ask_low_confidence")) + "]"
    st.caption(head)
    render_reading(ctx, qp, list(getattr(answer, "reading", None) or []), only)
    for i, r in enumerate(answer.results):
        _result(ctx, i, r)
        if i == 0:
            _rulings(ctx, qp, answer)
    details(ctx, [line for r in answer.results for line in _details(ctx, r)], key="ask_details")
    st.toggle(ctx.t("ask_only_pref", edition=ctx.t(f"ed_{ctx.edition}")), key="ask_only", on_change=_submit)


def _chosen_reading(ctx: Ctx) -> str | None:
    """The reading the URL chose (?reading=<incident>, from a "Read as" link); a name the search does not
    know is named in a warning and the question is read afresh."""
    name = st.query_params.get("reading", "").strip()
    if not name:
        return None
    if name not in services.readings():
        st.warning(ctx.t("ask_bad_reading", name=esc(name[:40])))
        return None
    return name


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
        st.caption(ctx.t("ask_ruling_offer"))
        for topic in topics[:3]:
            link(ctx.t("ask_start_ruling", title=pick(trees[topic].title, ctx.lang)), "rule",
                 key=f"ask_rule_{topic}", primary=True, topic=topic, edition=_rule_edition(ctx, trees[topic]))


def _rule_edition(ctx: Ctx, tree: Any) -> str:
    return next((e for e in ctx.editions if e in tree.editions), tree.editions[0])


def ordered_hits(ctx: Ctx, hits: list[Any]) -> list[Any]:
    """A result's clauses in the user's reading order (Ctx.columns): their edition and language first."""
    rank = {(ed, lg): i for i, (ed, lg, _k) in enumerate(ctx.columns())}
    return sorted(hits, key=lambda h: rank.get((h.edition, h.lang), 99))


def _result(ctx: Ctx, i: int, r: Any) -> None:
    name = group_name(ctx, r.kind, r.number)
    title = pick_law_title(services.clause_title, r.number, ctx.lang) if r.kind == "law" else r.title
    hits = ordered_hits(ctx, list(r.clauses))
    first, others = (hits[0], hits[1:]) if hits else (None, [])
    with st.container(border=True, key=f"ask_card_{i}"):
        target = law_page_id(r.kind, r.number, first.edition if first else ctx.edition)
        link(f"{name} · {title}" if title else name, "law", key=f"ask_open_{i}", id=first.id if first else target)
        if first is not None:
            _hit(ctx, first, head=True)
        if others:
            eds = len({h.edition for h in others if h.edition != (first.edition if first else None)})
            n = eds or len(others)
            label = ctx.t("ask_other_editions_one" if n == 1 else "ask_other_editions", n=n,
                          state=ctx.t("ask_differs") if r.differs else ctx.t("ask_same"))
            with st.expander(label):
                for h in others:
                    _hit(ctx, h, head=True)
                _differences(ctx, hits)


def _hit(ctx: Ctx, h: Any, head: bool) -> None:
    label = ctx.t(COL_OF.get((h.edition, h.lang), f"ed_{h.edition}"))
    title = f" · **{esc(h.title)}**" if h.title else ""
    if head:
        st.markdown(f":gray[{esc(label)}]{title}")
    if h.text:
        st.markdown(esc(h.text))


def _details(ctx: Ctx, r: Any) -> list[str]:
    """A result's relevance, why it came up and its clause ids: for those who want them (one control)."""
    head = [group_name(ctx, r.kind, r.number), ctx.t("ask_score", score=f"{r.score:.2f}")]
    if r.cited:
        head.append(ctx.t("ask_cited"))
    why = str(getattr(r, "why", "") or "")
    if why and (ctx.lang == "en") != has_cjk(why):
        head.append(why)
    return [" · ".join(head)] + [f"  {h.id}" for h in r.clauses]


def _differences(ctx: Ctx, hits: list[Any]) -> None:
    """Redline between the CCBA 1999 and CCBA 2018 clauses of the result, when both are there."""
    by = {(h.edition, h.lang): h for h in hits}
    old, new = by.get(("ccba1999", "zh-Hans")), by.get(("ccba2018", "zh-Hans"))
    if not (old and new and (old.text or new.text)):
        return
    st.markdown(f"**{esc(ctx.t('law_redline_99_18'))}**")
    st.markdown(redline_markdown(services.redline(old.title + " " + old.text, new.title + " " + new.text), ctx.lang))
    st.caption(ctx.t("law_legend"))
