"""The Exam page of the app: choose kinds, edition, language, scope, number, difficulty and seed;
generate; preview; download Markdown, Anki CSV or HTML. Self-contained: app.py only calls
`render_exam_page()`.
"""

from __future__ import annotations

import streamlit as st

from ..errors import BridgelawError
from ..exam import DIFFICULTIES, KINDS, generate, render
from ..exam.model import EXAM_EDITIONS

LANG_NAMES = {"zh-Hans": "简体中文", "zh-Hant": "繁體中文", "en": "English"}
MIME = {"md": "text/markdown", "csv": "text/csv", "html": "text/html"}


def render_exam_page() -> None:
    """Draw the page; every widget has a key (tests drive it with streamlit's AppTest)."""
    st.header("Exam questions · 试题 · 試題")
    kinds = st.multiselect("Question kinds", list(KINDS), default=list(KINDS), key="exam_kinds")
    col1, col2 = st.columns(2)
    edition = col1.selectbox("Edition", list(EXAM_EDITIONS), index=2, key="exam_edition")
    langs = list(EXAM_EDITIONS[edition])
    lang = col2.selectbox("Language", langs, format_func=lambda x: LANG_NAMES[x], key="exam_lang")
    topics = st.text_input("Ruling topics (comma-separated, optional)", key="exam_topics")
    chapters = st.text_input("Chapters (numbers or ids, comma-separated, optional)", key="exam_chapters")
    col3, col4, col5 = st.columns(3)
    n = int(col3.number_input("Questions", min_value=1, max_value=200, value=20, step=1, key="exam_n"))
    difficulty = col4.selectbox("Difficulty", list(DIFFICULTIES), index=1, key="exam_difficulty")
    seed = int(col5.number_input("Seed", min_value=0, value=0, step=1, key="exam_seed"))
    if st.button("Generate", key="exam_generate"):
        try:
            st.session_state["exam_set"] = generate(
                kinds=kinds or None, edition=edition, lang=lang,
                topics=[t.strip() for t in topics.split(",") if t.strip()],
                chapters=[c.strip() for c in chapters.split(",") if c.strip()],
                n=n, difficulty=difficulty, seed=seed)
            st.session_state.pop("exam_error", None)
        except BridgelawError as err:
            st.session_state["exam_error"] = str(err)
            st.session_state.pop("exam_set", None)
    if "exam_error" in st.session_state:
        st.error(st.session_state["exam_error"])
    exam_set = st.session_state.get("exam_set")
    if exam_set is None:
        return
    counts = ", ".join(f"{k}: {v}" for k, v in exam_set.counts().items())
    st.caption(f"{len(exam_set.questions)} questions ({counts})")
    cols = st.columns(3)
    for col, fmt in zip(cols, ("md", "csv", "html")):
        col.download_button(f"Download {fmt.upper()}", render(exam_set, fmt).encode("utf-8"),
                            file_name=f"exam-{exam_set.edition}-{exam_set.lang}-{exam_set.seed}.{fmt}",
                            mime=MIME[fmt], key=f"exam_download_{fmt}")
    st.markdown(render(exam_set, "md"))
