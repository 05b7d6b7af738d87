"""Compare editions page: CCBA 1999 -> CCBA 2018 changes per clause, filtered by change class and
chapter (the change report of assistant.diff when it exists, else per-clause redlines)."""

from __future__ import annotations

import streamlit as st

from ..model import ClauseId
from . import services
from .render import Ctx, chapter_title, esc, go, group_name, id_label, link, redline_markdown, set_title

PAGE_SIZE = 30
DEFAULT_CLASSES = ("substantive", "reworded", "new", "removed", "moved", "different_subject")


def _sync(key: str, value: object) -> None:
    """Make a widget follow the URL when the URL changed (shared link, back button)."""
    src = f"_{key}_src"
    if st.session_state.get(src) != value:
        st.session_state[key] = value
        st.session_state[src] = value


def render(ctx: Ctx) -> None:
    set_title(ctx, ctx.t("page_compare"))
    st.caption(ctx.t("cmp_intro"))
    classes = list(services.change_classes())
    raw = st.query_params.get("class", "")
    chosen = [c for c in raw.split(",") if c in classes] if raw else list(DEFAULT_CLASSES)
    corpus = services.corpus()
    chapters = [ch for ch in corpus.editions["ccba2018"].chapters if ch.id.startswith("ccba2018/part/2/chapter/")]
    ch_ids = [""] + [ch.id for ch in chapters]
    titles = {ch.id: chapter_title(ctx, ch.id, ch.title) for ch in chapters}
    ch_raw = st.query_params.get("chapter", "")
    chapter = f"ccba2018/part/2/chapter/{ch_raw}" if ch_raw.isdigit() else ""
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
    rows = [r for r in services.change_rows()
            if r.change in chosen and (not chapter or r.chapter == chapter)]
    if not rows:
        st.info(ctx.t("cmp_none"))
        return
    limit = int(st.session_state.get("cmp_limit", PAGE_SIZE))
    st.caption(ctx.t("cmp_count", n=len(rows), shown=min(limit, len(rows))))
    for i, r in enumerate(rows[:limit]):
        with st.container(border=True):
            cid = r.new_id or r.old_id or ""
            path = " ".join(ClauseId.parse(cid).path[1:]) if cid else ""
            st.markdown(f"**{esc(group_name(ctx, 'law', r.law))} {esc(path)}** · "
                        f":orange-badge[{esc(ctx.t('class_' + r.change))}]")
            if r.old and r.new:
                st.markdown(redline_markdown(services.redline(r.old, r.new)))
            else:
                st.markdown(esc(r.old or r.new))
            if r.figures_old != r.figures_new:
                st.caption(esc(ctx.t("cmp_figures", old=_figs(r.figures_old), new=_figs(r.figures_new))))
            link(id_label(ctx, cid), "law", key=f"cmp_open_{i}", id=cid)
    if len(rows) > limit:
        st.button(ctx.t("cmp_more"), key="cmp_more", on_click=_more)


def _more() -> None:
    st.session_state["cmp_limit"] = int(st.session_state.get("cmp_limit", PAGE_SIZE)) + PAGE_SIZE


def _figs(figs: tuple[tuple[float, str], ...]) -> str:
    return ", ".join(f"{v:g} {u}" for v, u in figs) if figs else "—"
