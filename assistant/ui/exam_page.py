"""The Exam page of the app: choose kinds, edition, language, topics and chapters from pickers, number,
difficulty and seed; generate; preview; download Markdown, Anki CSV or HTML. Every value is shown in
the interface language (no internal names), and the edition follows the interface language's default.
"""

from __future__ import annotations

import re

import streamlit as st

from ..errors import BridgelawError
from ..exam import DIFFICULTIES, KINDS, generate, render
from ..exam.model import EXAM_EDITIONS, ExamSet
from ..exam.sources import chapter_titles
from . import services
from .i18n import LANG_NAMES, pick
from .render import Ctx, chapter_title, error_text, esc, id_label

MIME = {"md": "text/markdown", "csv": "text/csv", "html": "text/html"}
CITED_ID = re.compile(r"`([a-z0-9]+/(?:law|article|definition|policy)/[^`\s]+)`")    # a clause id the key cites


def _chapters(ctx: Ctx, edition: str) -> dict[str, str]:
    """The chapters an exam on `edition` can be limited to (the Laws' chapters; CCBA articles' chapters)."""
    return {cid: chapter_title(ctx, cid, title) for cid, title in chapter_titles(edition).items()
            if "/chapter/" in cid and "/section/" not in cid and cid.count("/part/") <= 1
            and not cid.split("/chapter/")[1].count("/")}


def render_exam_page(ctx: Ctx) -> None:
    """Draw the page; every widget has a key (tests drive it with streamlit's AppTest)."""
    st.caption(ctx.t("exam_intro"))
    kinds = st.multiselect(ctx.t("exam_kinds"), list(KINDS), default=list(KINDS), key="exam_kinds",
                           format_func=lambda k: ctx.t(f"exam_kind_{k}"))
    eds = [e for e in ctx.editions if e in EXAM_EDITIONS] + [e for e in EXAM_EDITIONS if e not in ctx.editions]
    col1, col2 = st.columns(2)
    edition = col1.selectbox(ctx.t("exam_edition"), eds, index=0, key="exam_edition",
                             format_func=lambda e: ctx.t(f"ed_{e}"))
    langs = list(EXAM_EDITIONS[edition])
    lang = col2.selectbox(ctx.t("exam_lang"), langs, index=langs.index(ctx.lang) if ctx.lang in langs else 0,
                          format_func=LANG_NAMES.__getitem__, key=f"exam_lang_{edition}")
    trees = services.trees()
    topics = st.multiselect(ctx.t("exam_topics"), sorted(trees, key=lambda t: pick(trees[t].title, ctx.lang)),
                            key="exam_topics", format_func=lambda t: pick(trees[t].title, ctx.lang),
                            placeholder=ctx.t("exam_any"))
    chapters_all = _chapters(ctx, edition)
    chapters = st.multiselect(ctx.t("exam_chapters"), list(chapters_all), key=f"exam_chapters_{edition}",
                              format_func=chapters_all.__getitem__, placeholder=ctx.t("exam_any"))
    col3, col4, col5 = st.columns(3)
    n = int(col3.number_input(ctx.t("exam_n"), min_value=1, max_value=200, value=20, step=1, key="exam_n"))
    difficulty = col4.selectbox(ctx.t("exam_difficulty"), list(DIFFICULTIES), index=1, key="exam_difficulty",
                                format_func=lambda d: ctx.t(f"exam_diff_{d}"))
    seed = int(col5.number_input(ctx.t("exam_seed"), min_value=0, value=0, step=1, key="exam_seed"))
    off = [t for t in topics if edition not in trees[t].editions]
    if off:
        st.warning(ctx.t("exam_topic_not_in_edition", topics="、".join(pick(trees[t].title, ctx.lang) for t in off),
                         edition=ctx.t(f"ed_{edition}")))
    if not kinds:
        st.warning(ctx.t("exam_no_kinds"))
    if st.button(ctx.t("exam_generate"), key="exam_generate", type="primary", disabled=not kinds):
        try:
            st.session_state["exam_set"] = generate(
                kinds=kinds, edition=edition, lang=lang, topics=topics,
                chapters=chapters,
                n=n, difficulty=difficulty, seed=seed)
            st.session_state.pop("exam_error", None)
        except BridgelawError as err:
            st.session_state["exam_error"] = error_text(ctx.lang, err)
            st.session_state.pop("exam_set", None)
    if "exam_error" in st.session_state:
        st.error(st.session_state["exam_error"])
    exam_set = st.session_state.get("exam_set")
    if exam_set is None:
        return
    _result(ctx, exam_set)


def _result(ctx: Ctx, exam_set: ExamSet) -> None:
    counts = "，".join(f"{ctx.t('exam_kind_' + k)} {v}" for k, v in exam_set.counts().items())
    st.caption(esc(ctx.t("exam_count", n=len(exam_set.questions), counts=counts)))
    short = {k: v for k, v in (getattr(exam_set, "shortfall", {}) or {}).items() if v}
    if short:
        st.warning(ctx.t("exam_shortfall", kinds="、".join(f"{ctx.t('exam_kind_' + k)} {v}" for k, v in short.items())))
    with st.container(horizontal=True):
        for fmt in ("md", "csv", "html"):
            st.download_button(ctx.t(f"exam_download_{fmt}"), render(exam_set, fmt).encode("utf-8"),
                               file_name=f"exam-{exam_set.edition}-{exam_set.lang}-{exam_set.seed}.{fmt}",
                               mime=MIME[fmt], key=f"exam_download_{fmt}")
    st.markdown(_preview(render(exam_set, "md"), exam_set))


def _preview(md: str, exam_set: ExamSet) -> str:
    """The exported Markdown without its title and settings line (the page shows the settings in its own
    pickers and the count above), the answer key citing clauses by name in the exam's language ('CCBA 2018 ·
    Law 38 C'); the downloads keep the clause ids, which Anki tags and other tools read."""
    from ..exam.export import summary
    from ..exam.text import phrase

    drop = {f"# {phrase('exam_title', exam_set.lang)}", summary(exam_set)}
    body = "\n".join(line for line in md.split("\n") if line not in drop).lstrip("\n")
    names = Ctx(exam_set.lang, exam_set.edition)
    return CITED_ID.sub(lambda m: esc(id_label(names, m.group(1).replace("\\", ""))), body)
