"""Rulings page: a ruling tree as a wizard with back; the ruling with its citations as links and the
edition differences. The whole walk lives in the URL (?page=rule&topic=…&edition=…&a=0.1.0), so a
ruling can be shared and the browser's back button works."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..errors import BridgelawError
from . import services
from .i18n import pick
from .render import Ctx, error_text, esc, go, id_label, link, set_title

MAX_STEPS = 64


def _path(raw: str) -> list[int] | None:
    """Answer indices from the URL ('0.1.0'); None when malformed."""
    if not raw:
        return []
    parts = raw.split(".")
    if len(parts) > MAX_STEPS or not all(p.isdigit() and len(p) <= 3 for p in parts):
        return None
    return [int(p) for p in parts]


def _a(path: list[int]) -> str | None:
    return ".".join(str(i) for i in path) or None


def render(ctx: Ctx) -> None:
    trees = services.trees()
    topic = st.query_params.get("topic", "").strip()
    if not trees:
        st.info(ctx.t("rule_no_trees"))
        return
    if not topic:
        _topics(ctx, trees)
        return
    tree = trees.get(topic)
    if tree is None:
        err = BridgelawError(key="unknown_topic_below", params={"topic": topic[:80]})
        st.error(ctx.t("rule_unknown_topic", msg=error_text(ctx.lang, err)))
        _topics(ctx, trees)
        return
    edition = st.query_params.get("edition", "") or ctx.edition
    if edition not in tree.editions:
        edition = next((e for e in ctx.editions if e in tree.editions), tree.editions[0])
    set_title(ctx, pick(tree.title, ctx.lang))
    st.subheader(esc(pick(tree.title, ctx.lang)))
    _edition_switch(ctx, tree, topic, edition)
    _wizard(ctx, topic, edition)


def answer_order(options: list[Any]) -> list[int]:
    """The offered answers' indices in display order: yes before no on every step; among other answers
    the common case first (the tree's `usual` answer), then the tree's order. The tree's order stays the
    index in the URL, so shared walks keep working."""
    def rank(i: int) -> int:
        v = options[i].canonical()
        return 0 if v is True else 1 if v is False else 2 if getattr(options[i], "usual", False) else 3

    return sorted(range(len(options)), key=rank)


@st.fragment
def _wizard(ctx: Ctx, topic: str, edition: str) -> None:
    """The walk: a step reruns this fragment only (the header and the rest of the page stay as they are)."""
    path = _path(st.query_params.get("a", ""))
    session = services.start_ruling(topic, edition)
    try:
        if path is None:
            raise ValueError("malformed path")
        for i in path:
            session.choose(i)
    except (BridgelawError, ValueError):
        st.warning(ctx.t("rule_bad_path"))
        session, path = services.start_ruling(topic, edition), []
    if session.done:
        _ruling(ctx, session.ruling())
        _history(ctx, session)
        _controls(ctx, topic, edition, path)
        return
    q = session.question()
    st.caption(ctx.t("rule_step", n=len(path) + 1))
    st.markdown(f"**{esc(pick(q.ask, ctx.lang))}**")
    if q.help:
        with st.expander(ctx.t("rule_help")):
            st.markdown(esc(pick(q.help, ctx.lang)))
    options = session.options()
    for pos, i in enumerate(answer_order(options)):
        st.button(esc(pick(options[i].label, ctx.lang)), key=f"rule_opt_{pos}", on_click=go, args=("rule",),
                  kwargs={"topic": topic, "edition": edition, "a": _a([*path, i])}, type="primary",
                  width="stretch")
    _history(ctx, session)
    _controls(ctx, topic, edition, path)


def _topics(ctx: Ctx, trees: dict[str, Any]) -> None:
    st.caption(ctx.t("rule_intro"))
    st.markdown(ctx.t("rule_choose"))
    for topic, tree in trees.items():
        ed = next((e for e in ctx.editions if e in tree.editions), tree.editions[0])
        link(pick(tree.title, ctx.lang), "rule", key=f"rule_topic_{topic}", topic=topic, edition=ed)


def _edition_switch(ctx: Ctx, tree: Any, topic: str, edition: str) -> None:
    eds = [e for e in ctx.editions if e in tree.editions] + [e for e in tree.editions if e not in ctx.editions]
    if st.session_state.get("_rule_ed_src") != edition:
        st.session_state["rule_edition"] = edition
        st.session_state["_rule_ed_src"] = edition

    def switch() -> None:
        go("rule", topic=topic, edition=st.session_state["rule_edition"])

    st.radio(ctx.t("rule_edition"), eds, key="rule_edition", horizontal=True,
             format_func=lambda e: ctx.t(f"ed_{e}"), on_change=switch)


def _history(ctx: Ctx, session: Any) -> None:
    if not session.history:
        return
    with st.expander(f"{ctx.t('rule_path')} ({len(session.history)})"):
        for n, s in enumerate(session.history, start=1):
            q = session.tree.node(s.node)
            st.markdown(f"{n}\\. {esc(pick(q.ask, ctx.lang))} → **{esc(pick(s.label, ctx.lang))}**")


def _controls(ctx: Ctx, topic: str, edition: str, path: list[int]) -> None:
    """Back and Restart: small, apart from the answers, so a thumb does not take one for the other."""
    if not path:
        return
    with st.container(horizontal=True, gap="large", key="rule_controls"):
        st.button(ctx.t("rule_back"), key="rule_back", on_click=go, args=("rule",), type="tertiary",
                  icon=":material/undo:", kwargs={"topic": topic, "edition": edition, "a": _a(path[:-1])})
        st.button(ctx.t("rule_restart"), key="rule_restart", on_click=go, args=("rule",), type="tertiary",
                  icon=":material/restart_alt:", kwargs={"topic": topic, "edition": edition})


def _ruling(ctx: Ctx, r: Any) -> None:
    with st.container(border=True):
        st.subheader(ctx.t("rule_ruling"))
        st.success(esc(pick(r.outcome, ctx.lang)))
        if r.choices:
            st.markdown(f"**{esc(ctx.t('rule_choices'))}**")
            for c in r.choices:
                st.markdown(f"- *{esc(ctx.t('side_' + c['side']))}*: {esc(pick(c['text'], ctx.lang))}")
        if r.followups:
            st.markdown(f"**{esc(ctx.t('rule_followups'))}**")
            for f in r.followups:
                st.markdown(f"- {esc(pick(f['text'], ctx.lang))}")
        st.markdown(f"**{esc(ctx.t('rule_cites', edition=ctx.t('ed_' + r.edition)))}**")
        for j, cid in enumerate(r.cites):
            link(id_label(ctx, cid), "law", key=f"rule_cite_{j}", id=cid)
    if r.differs:
        with st.container(border=True):
            st.markdown(f"**{esc(ctx.t('rule_differs'))}**")
            st.info(esc(pick(r.differs.get("note"), ctx.lang)))
    others = {ed: ids for ed, ids in r.cites_by_edition.items() if ed != r.edition and ids}
    if others:
        with st.expander(ctx.t("rule_other_cites")):
            for ed, ids in others.items():
                st.caption(ctx.t(f"ed_{ed}"))
                for j, cid in enumerate(ids):
                    link(id_label(ctx, cid), "law", key=f"rule_other_{ed}_{j}", id=cid)
