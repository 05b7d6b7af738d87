"""Glossary page: the terminology crosswalk, one concept per card with its label in every edition
and script, searchable in any script (simplified, traditional, English)."""

from __future__ import annotations

import streamlit as st

from . import services
from .render import Ctx, details, esc, go, link, set_title
from .services import concept_label

MAX_SHOWN = 150
SCOPES = (("wbf2017", "en", "col_wbf2017_en"), ("ccba1999", "zh-Hans", "col_ccba1999"),
          ("ccba2018", "zh-Hans", "col_ccba2018"), ("wbf2017", "zh-Hant", "col_wbf2017_zh-Hant"))


def _submit() -> None:
    q = str(st.session_state.get("gloss_q") or "").strip()
    go("glossary", q=q[:200] or None)


def render(ctx: Ctx) -> None:
    set_title(ctx, ctx.t("page_glossary"))
    st.caption(ctx.t("gloss_intro"))
    qp = st.query_params.get("q", "")[:200]
    if st.session_state.get("_gloss_src") != qp:
        st.session_state["gloss_q"] = qp
        st.session_state["_gloss_src"] = qp
    st.text_input(ctx.t("gloss_search"), key="gloss_q", placeholder=ctx.t("gloss_placeholder"), on_change=_submit)
    terms = services.terminology()
    q = qp.strip()
    concepts = terms.find(q) if q else sorted(terms.concepts.values(), key=lambda c: c.en.casefold())
    if q and not concepts:
        st.info(ctx.t("gloss_none", q=esc(q[:80])))
        return
    st.caption(ctx.t("gloss_count_one" if len(concepts) == 1 else "gloss_count", n=len(concepts)))
    corpus = services.corpus()
    defs = corpus.editions["wbf2017"].clauses
    for i, c in enumerate(concepts[:MAX_SHOWN]):
        with st.container(border=True):
            name = concept_label(c.id, ctx.lang) or c.en
            link(name, "glossary", key=f"gloss_entry_{i}", q=name)
            lines = []
            for ed, lang, key in ctx.columns():
                forms = [lb.form for lb in c.labels if lb.edition == ed and lb.lang == lang and lb.role in ("pref", "alt")]
                if forms:
                    lines.append(f"{esc(ctx.t(key))}{ctx.t('colon')}**{esc(' / '.join(dict.fromkeys(forms)))}**")
            st.markdown("  \n".join(lines))
            did = f"wbf2017/definition/{c.id}"
            if did in defs:
                link(ctx.t("gloss_definition"), "law", key=f"gloss_def_{i}", id=did)
            note = note_text(ctx, c.id)
            if note:
                st.caption(f":material/warning: {esc(note)}")
            details(ctx, [c.id], key=f"gloss_details_{i}")


def note_text(ctx: Ctx, concept_id: str) -> str:
    """A concept's note for readers in the interface language (ui_strings.yaml `gloss_note_<id>`): where one
    word means different things across editions; '' when the concept has none."""
    from .i18n import strings

    key = f"gloss_note_{concept_id}"
    return ctx.t(key) if key in strings() else ""
