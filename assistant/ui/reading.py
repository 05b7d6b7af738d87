"""The Ask page's "Read as" line: how the search read the question (answer.reading, the incidents it
found: title per language, confidence, primary clause per edition), as one line above the results —
"Read as: <title> → Law N" with the law as a link — and the other readings as links that ask the same
question again with that reading chosen (?q=…&reading=<incident>)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..model import ClauseId
from .i18n import pick
from .render import Ctx, esc, group_name, link


def reading_law(ctx: Ctx, laws: dict[str, str]) -> str | None:
    """A reading's clause in the user's edition, else in the first edition of the user's reading order
    that has one."""
    return next((laws[e] for e in ctx.editions if laws.get(e)), None)


def law_label(ctx: Ctx, clause_id: str) -> str:
    """'Law 64' / '第64条' for a law clause, 'CCBA 2018 article 22' for an article."""
    cid = ClauseId.parse(clause_id)
    kind = "guandan" if cid.edition == "guandan2017" and cid.kind == "article" else cid.kind
    return group_name(ctx, kind, cid.path[0]) if cid.path else clause_id


def render_reading(ctx: Ctx, query: str, readings: list[dict[str, Any]], only: bool) -> None:
    """The first reading with its law, and the others as links re-asking with that reading."""
    if not readings:
        return
    first, others = readings[0], readings[1:]
    with st.container(horizontal=True, key="ask_reading", vertical_alignment="center", gap="small"):
        st.markdown(esc(ctx.t("ask_read_as", title=pick(first.get("title"), ctx.lang))), width="content")
        cid = reading_law(ctx, dict(first.get("laws") or {}))
        if cid:
            link(law_label(ctx, cid), "law", key="ask_reading_law", id=cid)
        if others:
            with st.popover(ctx.t("ask_other_readings", n=len(others)), key="ask_readings_more"):
                for i, r in enumerate(others):
                    link(pick(r.get("title"), ctx.lang), "ask", key=f"ask_reading_{i}", q=query,
                         reading=str(r.get("incident", "")), only="1" if only else None)
