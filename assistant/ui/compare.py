"""Compare editions page: the key changes first (ranked, stated in the interface language, both editions
quoted), then every pair of corresponding clauses CCBA 1999 -> CCBA 2018 law by law, each law with its
class and each pair with its class, what changed in words and a redline; filtered by class and chapter.
The change report of assistant.diff is the one source (the same classes and statements as
`bridgelaw changes`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..model import ClauseId
from . import services
from .keychanges import render_key_changes
from .render import Ctx, chapter_title, details, esc, go, group_name, id_label, link, redline_markdown, set_title

PAGE_SIZE = 30
# the classes shown unless the URL asks for others: the pairs whose ruling or structure changed
DEFAULT_CLASSES = ("substantive", "new", "removed", "restructured", "reworded")


def _sync(key: str, value: object) -> None:
    """Make a widget follow the URL when the URL changed (shared link, back button)."""
    src = f"_{key}_src"
    if st.session_state.get(src) != value:
        st.session_state[key] = value
        st.session_state[src] = value


def _filters(ctx: Ctx) -> tuple[list[str], str]:
    """The class and chapter filters, from the URL (unknown values named in a warning, never silently)."""
    classes = list(services.change_classes())
    raw = st.query_params.get("class", "")
    asked = [c for c in raw.split(",") if c and c != "none"] if raw else []
    chosen = [c for c in asked if c in classes] if raw else list(DEFAULT_CLASSES)
    chapters = [ch for ch in services.corpus().editions["ccba2018"].chapters
                if ch.id.startswith("ccba2018/part/2/chapter/")]
    ch_ids = [""] + [ch.id for ch in chapters]
    titles = {ch.id: chapter_title(ctx, ch.id, ch.title) for ch in chapters}
    ch_raw = st.query_params.get("chapter", "")
    chapter = f"ccba2018/part/2/chapter/{ch_raw}" if ch_raw else ""
    bad = [c for c in asked if c not in classes] + ([ch_raw] if ch_raw and chapter not in ch_ids else [])
    if bad:
        st.warning(ctx.t("cmp_bad_filter", values="、".join(esc(b[:40]) for b in bad)))
    chapter = chapter if chapter in ch_ids else ""
    _sync("cmp_class", chosen)
    _sync("cmp_chapter", chapter)

    def apply() -> None:
        ch = st.session_state.get("cmp_chapter") or ""
        go("compare", **{"class": ",".join(st.session_state.get("cmp_class") or []) or "none",
                         "chapter": ch.rsplit("/", 1)[-1] if ch else None})

    st.multiselect(ctx.t("cmp_class"), classes, key="cmp_class", format_func=lambda c: ctx.t(f"class_{c}"),
                   on_change=apply)
    st.selectbox(ctx.t("cmp_chapter"), ch_ids, key="cmp_chapter", on_change=apply,
                 format_func=lambda c: titles.get(c, ctx.t("cmp_all_chapters")))
    return chosen, chapter


def render(ctx: Ctx) -> None:
    set_title(ctx, ctx.t("page_compare"))
    st.caption(ctx.t("cmp_intro"))
    render_key_changes(ctx)
    st.subheader(ctx.t("cmp_all_changes"))
    chosen, chapter = _filters(ctx)
    rows = [r for r in services.change_rows() if r.change in chosen and (not chapter or r.chapter == chapter)]
    if not rows:
        st.info(ctx.t("cmp_none"))
        return
    limit = int(st.session_state.get("cmp_limit", PAGE_SIZE))
    st.caption(ctx.t("cmp_count", n=len(rows), shown=min(limit, len(rows))))
    law = None
    for i, r in enumerate(rows[:limit]):
        if r.law != law:
            law = r.law
            _law_head(ctx, r)
        _row(ctx, i, r)
    details(ctx, [f"{r.old_id or '—'} → {r.new_id or '—'}" for r in rows[:limit]], key="cmp_details")
    if len(rows) > limit:
        st.button(ctx.t("cmp_more"), key="cmp_more", on_click=_more)


def _law_head(ctx: Ctx, r: Any) -> None:
    """'Law 27 · Insufficient Bid · substantive': the law's name in the interface language and its class."""
    from .laws import pick_law_title

    corpus = services.corpus()

    def title_of(cid: str) -> dict[str, str] | None:
        c = corpus.editions[cid.split("/", 1)[0]].clauses.get(cid)
        return dict(c.title) if c is not None else None

    name = " · ".join(x for x in (group_name(ctx, "law", r.law), pick_law_title(title_of, r.law, ctx.lang)) if x)
    badge = f" · :violet-badge[{esc(ctx.t('class_' + r.law_change))}]" if r.law_change else ""
    st.markdown(f"#### {esc(name)}{badge}")


def _row(ctx: Ctx, i: int, r: Any) -> None:
    """One pair: where it is, its class, what changed in words, the redline (or the one text), a link."""
    from ..diff.render import what_changed

    with st.container(border=True):
        cid = r.new_id or r.old_id or ""
        path = " ".join(ClauseId.parse(cid).path[1:]) if cid else ""
        where = f"{group_name(ctx, 'law', r.law)} {path}".strip()
        st.markdown(f"**{esc(where)}** · :orange-badge[{esc(ctx.t('class_' + r.change))}]")
        if r.pair is not None and r.change == "substantive":
            lines = what_changed(r.pair, ctx.lang)
            if lines:
                st.caption("  \n".join(esc(x) for x in lines))
        if r.old and r.new:
            st.markdown(redline_markdown(services.redline(r.old, r.new), ctx.lang))
        else:
            st.markdown(esc(r.old or r.new))
        link(id_label(ctx, cid), "law", key=f"cmp_open_{i}", id=cid)


def _more() -> None:
    st.session_state["cmp_limit"] = int(st.session_state.get("cmp_limit", PAGE_SIZE)) + PAGE_SIZE
