"""Laws page: chapters -> laws -> clauses; a law's editions side by side (CCBA 1999 | CCBA 2018 |
WBF 2017 en | WBF 2017 zh-Hant) with redlines, cites and cited-by as links, footnotes, source lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ..editions import law_editions
from ..errors import UnknownClause
from ..model import Clause, ClauseId
from . import services
from .services import concept_label
from .i18n import pick
from .render import Ctx, chapter_title, details, error_text, esc, group_name, id_label, link, redline_markdown, safe_key, set_title

LAW_EDITIONS = law_editions()          # the editions whose laws are shown side by side
MAX_LINKS = 40


@dataclass
class Row:
    """One position of a law (path below the law number) with the clause of each edition there."""

    path: tuple[str, ...]
    clauses: dict[str, Clause | None]


def _subtree(ed: Any, root_id: str) -> list[Clause]:
    out: list[Clause] = []

    def walk(cid: str) -> None:
        c = ed.clauses.get(cid)
        if c is None:
            return
        out.append(c)
        for k in c.children:
            walk(k)

    walk(root_id)
    return out


def law_rows(corpus: Any, number: str) -> list[Row]:
    """The rows of law `number` across the law editions, as the one alignment gives them
    (assistant.graph.alignment.law_alignment): a clause beside its counterparts, a clause without one on a
    row of its own."""
    from ..graph.alignment import law_alignment

    def clause(cid: str | None) -> Clause | None:
        return corpus.editions[cid.split("/", 1)[0]].clauses.get(cid) if cid else None

    return [Row(r.path, {ed: clause(cid) for ed, cid in r.ids.items()}) for r in law_alignment(corpus, number)]


def render(ctx: Ctx) -> None:
    raw = st.query_params.get("id", "").strip()
    if not raw:
        _index(ctx)
        return
    corpus = services.corpus()
    try:
        clause = corpus.clause(raw)
    except UnknownClause as err:
        st.error(ctx.t("law_unknown", msg=error_text(ctx.lang, err)))
        hint = str(err).split("nearest existing clause: ")
        if len(hint) > 1 and len(hint[1]) < 200:
            link(hint[1].strip(), "law", key="law_nearest", id=hint[1].strip())
        link(ctx.t("law_back"), "law", key="law_back_err", back=True)
        return
    link(ctx.t("law_back"), "law", key="law_back", back=True)
    cid = clause.cid
    if cid.kind == "law" and cid.edition in LAW_EDITIONS:
        _law(ctx, corpus, cid)
    else:
        _single(ctx, corpus, cid)


# ------------------------------------------------------------------------------------ index


def law_title(corpus: Any, number: str, lang: str) -> str:
    """A law's title in `lang` from the parsed corpus (wbf2017 en / zh-Hant, ccba2018 zh-Hans)."""
    def title_of(cid: str) -> dict[str, str] | None:
        ed = cid.split("/", 1)[0]
        c = corpus.editions[ed].clauses.get(cid)
        return c.title if c is not None else None

    return pick_law_title(title_of, number, lang)


def pick_law_title(title_of: Callable[[str], Mapping[str, str] | None], number: str, lang: str) -> str:
    """A law's title in `lang`, each script from the edition that writes it natively; `title_of(id)`
    gives a clause's titles by language (from the corpus, or from the search index on the Ask page)."""
    titles: dict[str, str] = {}
    for ed, lg in (("wbf2017", "en"), ("wbf2017", "zh-Hant"), ("ccba2018", "zh-Hans")):
        t = (title_of(f"{ed}/law/{number}") or {}).get(lg)
        if t:
            titles.setdefault(lg, headline(t))
    return pick(titles, lang)


SMALL_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"})


def headline(title: str) -> str:
    """The WBF Laws print law titles in capitals ('DUMMY'S LIMITATIONS'); shown in title case ('Dummy's
    Limitations'), small words lower-case, as the Laws print their section headings. Other titles as they are.

    >>> headline("PROCEDURE FOLLOWING A REVOKE"), headline("不足叫牌")
    ('Procedure Following a Revoke', '不足叫牌')
    """
    if not title.isupper():
        return title
    words = title.lower().split(" ")
    return " ".join(w if i and w in SMALL_WORDS else w[:1].upper() + w[1:] for i, w in enumerate(words))


def _index(ctx: Ctx) -> None:
    set_title(ctx, ctx.t("page_law"))
    corpus = services.corpus()
    st.caption(ctx.t("law_intro"))
    ed18 = corpus.editions["ccba2018"]
    st.subheader(ctx.t("law_group_laws"))
    by_chapter: dict[str, list[Clause]] = {}
    for law in ed18.laws():
        if law.cid.kind == "law":
            by_chapter.setdefault(law.chapter or "", []).append(law)
    chapters = {ch.id: ch for ch in ed18.chapters}
    for ch_id, laws in by_chapter.items():
        ch = chapters.get(ch_id)
        label = esc(chapter_title(ctx, ch.id, ch.title)) if ch else "—"
        with st.expander(label):
            for law in laws:
                n = law.number
                link(f"{group_name(ctx, 'law', n)} · {law_title(corpus, n, ctx.lang)}", "law",
                     key=f"law_idx_{n}", id=f"{_pref(ctx)}/law/{n}")
    st.subheader(ctx.t("law_group_articles"))
    _article_index(ctx, ed18, "article")
    st.subheader(ctx.t("law_group_definitions"))
    wbf = corpus.editions["wbf2017"]
    with st.expander(ctx.t("law_group_definitions")):
        for d in [*wbf.definitions(), *[c for c in wbf.clauses.values() if c.level == "policy" and c.parent is None]]:
            name = (concept_label(d.number, ctx.lang) if d.cid.kind == "definition" else "") or pick(d.term or d.title, ctx.lang)
            link(name or d.number, "law", key=safe_key("law_idx", d.id), id=d.id)
    st.subheader(ctx.t("law_group_guandan"))
    _article_index(ctx, corpus.editions["guandan2017"], "guandan")


def _pref(ctx: Ctx) -> str:
    return ctx.edition if ctx.edition in LAW_EDITIONS else "wbf2017"


def _article_index(ctx: Ctx, ed: Any, kind: str) -> None:
    chapters = {ch.id: ch for ch in ed.chapters}
    by_chapter: dict[str, list[Clause]] = {}
    for a in ed.laws():
        if a.cid.kind == "article":
            by_chapter.setdefault(a.chapter or "", []).append(a)
    for ch_id, arts in by_chapter.items():
        ch = chapters.get(ch_id)
        with st.expander(esc(chapter_title(ctx, ch.id, ch.title)) if ch else ed.name):
            for a in arts:
                link(f"{group_name(ctx, kind, a.number)} · {pick(a.title, ctx.lang)}", "law",
                     key=safe_key("law_idx", a.id), id=a.id)


# ------------------------------------------------------------------------------------ one law


def _law(ctx: Ctx, corpus: Any, cid: ClauseId) -> None:
    number = cid.path[0]
    focus = cid.path[1:]
    head = f"{group_name(ctx, 'law', number)} · {law_title(corpus, number, ctx.lang)}"
    set_title(ctx, head)
    st.header(esc(head))
    rows = law_rows(corpus, number)
    if focus:
        # the rows holding the clause asked for or its sub-clauses, found through its own edition's id
        # (row paths follow one edition's numbering: 2018 numbers 30B1(b)(ii) as 30B1(b)2)
        def holds(r: Row) -> bool:
            own = r.clauses.get(cid.edition)
            return own is not None and (own.id == cid or own.id.startswith(cid + "/"))
        rows = [r for r in rows if holds(r)] or [r for r in rows if r.path[:len(focus)] == focus]
        link(ctx.t("law_whole"), "law", key="law_whole", id=f"{cid.edition}/law/{number}")
    with st.container(horizontal=True, gap="medium"):
        side = st.toggle(ctx.t("law_side_by_side"), key="law_side")
        show_redlines = st.toggle(ctx.t("law_redline_99_18"), value=True, key="law_redlines")
    if show_redlines:
        st.caption(ctx.t("law_legend"))
    for i, row in enumerate(rows):
        _row(ctx, corpus, row, i, show_redlines, side)
    shown = [c for r in rows for c in r.clauses.values() if c is not None]
    _links(ctx, corpus, [c.id for c in shown])
    _prev_next(ctx, number, cid.edition)
    _sources(ctx, shown)


def _sources(ctx: Ctx, clauses: list[Clause]) -> None:
    """Every shown clause's id and source file and lines, under one 'details' control at the page's end."""
    details(ctx, [f"{c.id} · {ctx.t('law_source', src=str(c.source))}" if c.source is not None else c.id
                  for c in clauses], key="law_details")


def _row(ctx: Ctx, corpus: Any, row: Row, i: int, show_redlines: bool, side: bool) -> None:
    """One position of the law: the user's edition and language, the other editions folded under one
    control (or all side by side when asked for)."""
    label = " ".join(p for p in row.path if not p.startswith("(")) if row.path else ""
    cols = ctx.columns()
    old, new = row.clauses.get("ccba1999"), row.clauses.get("ccba2018")
    a = old.text.get("zh-Hans", "") if old is not None else ""
    b = new.text.get("zh-Hans", "") if new is not None else ""
    with st.container(border=bool(row.path)):
        if label:
            st.markdown(f"**{esc(label)}**")
        if side:
            for col, spec in zip(st.columns(len(cols)), cols, strict=True):
                with col:
                    _cell(ctx, corpus, row, spec, label)
        else:
            _cell(ctx, corpus, row, cols[0], label)
            present = {ed for ed, _lg, _k in cols[1:] if row.clauses.get(ed) is not None and ed != cols[0][0]}
            state = ctx.t("ask_differs") if a and b and a != b else ""
            n = len(present) or len(cols) - 1
            with st.expander(ctx.t("law_other_editions_one" if n == 1 else "law_other_editions", n=n)
                             + (f" · {state}" if state else "")):
                for spec in cols[1:]:
                    _cell(ctx, corpus, row, spec, label)
        if show_redlines and a and b and a != b:
            st.markdown(f"*{esc(ctx.t('law_redline_99_18'))}*{ctx.t('colon')}" + redline_markdown(services.redline(a, b), ctx.lang))


def _cell(ctx: Ctx, corpus: Any, row: Row, spec: tuple[str, str, str], label: str) -> None:
    ed, lang, key = spec
    c = row.clauses.get(ed)
    st.caption(ctx.t(key))
    if c is None:
        st.caption(ctx.t("law_missing"))
        return
    _clause_body(ctx, corpus, c, lang)


def _clause_body(ctx: Ctx, corpus: Any, c: Clause, lang: str) -> None:
    title = c.title.get(lang) or c.term.get(lang, "")
    if title:
        st.markdown(f"**{esc(title)}**")
    text = c.text.get(lang, "")
    if text:
        st.markdown(esc(text))
    _corrections(ctx, c, lang)
    if lang != "en":
        for note in c.notes:
            st.caption(f"{esc(ctx.t('law_notes'))}: {esc(note)}")
    for table in c.tables:
        st.text(table)
    fns = corpus.editions[c.edition].footnotes
    for fid in c.footnotes:
        f = fns.get(fid)
        if f is not None and f.text.get(lang):
            st.caption(f"{esc(ctx.t('law_footnotes'))} {esc(f.number)}: {esc(f.text[lang])}")


def _corrections(ctx: Ctx, c: Clause, lang: str) -> None:
    """The reading text's mark: how many editorial corrections this language's text carries, the text as
    received one click away, and a warning where the translation departs from the English."""
    fixed = [x for x in c.corrections if x.get("lang") in (lang, None, "") and x["kind"] != "translation_note"]
    if fixed and lang in c.received:
        with st.expander(ctx.t("law_corrected", n=len(fixed))):
            st.caption(ctx.t("law_as_received"))
            st.text(c.received[lang])
    if any(x["kind"] == "translation_note" and x.get("lang") == lang for x in c.corrections):
        st.warning(ctx.t("law_translation_note"))


def _prev_next(ctx: Ctx, number: str, edition: str) -> None:
    if not number.isdigit():
        return
    n = int(number)
    c1, c2 = st.columns(2)
    with c1:
        if n > 1:
            link(ctx.t("law_prev"), "law", key="law_prev", back=True, id=f"{edition}/law/{n - 1}")
    with c2:
        if n < 93:
            link(ctx.t("law_next"), "law", key="law_next", id=f"{edition}/law/{n + 1}")


# ------------------------------------------------------------------------------------ other kinds


def _single(ctx: Ctx, corpus: Any, cid: ClauseId) -> None:
    """Articles, Guandan articles, definitions, policies: one edition, the clause and its sub-clauses."""
    ed = corpus.editions[cid.edition]
    root = ClauseId(cid.edition, cid.kind, cid.path[:1]) if cid.path else cid
    top = ed.clauses.get(str(root)) or ed.clauses[str(cid)]
    kind = "guandan" if cid.edition == "guandan2017" else cid.kind
    head = group_name(ctx, kind, top.number)
    if cid.kind == "definition":
        head = group_name(ctx, kind, concept_label(top.number, ctx.lang) or pick(top.term, ctx.lang) or top.number)
        title = ""
    else:
        title = pick(top.title or top.term, ctx.lang)
    set_title(ctx, f"{head} · {title}" if title else head)
    st.header(esc(f"{head} · {title}" if title else head))
    clauses = _subtree(ed, str(cid))
    langs = sorted({lg for c in clauses for lg in (*c.text, *c.title, *c.term)},
                   key=lambda lg: (0 if lg == ctx.lang else 1 if lg[:2] == ctx.lang[:2] else 2, lg))
    for c in clauses:
        with st.container(border=True):
            path = ClauseId.parse(c.id).path[1:]
            if path:
                st.markdown(f"**{esc(' '.join(path))}**")
            if langs:
                _clause_body(ctx, corpus, c, langs[0])
            if len(langs) > 1:
                with st.expander(ctx.t("law_other_languages", n=len(langs) - 1)):
                    for lang in langs[1:]:
                        _clause_body(ctx, corpus, c, lang)
    _links(ctx, corpus, [c.id for c in clauses])
    _sources(ctx, clauses)


# ------------------------------------------------------------------------------------ citations


def _links(ctx: Ctx, corpus: Any, ids: list[str]) -> None:
    """Cites and cited-by of the shown clauses, as links to ?page=law&id=…"""
    cits = services.citations()
    shown = set(ids)
    for ed in corpus.editions.values():
        for f in ed.footnotes.values():
            if f.clause in shown:
                shown.add(f.id)
    cites: dict[str, str] = {}
    cited_by: dict[str, str] = {}
    for i in shown:
        for c in cits.by_source.get(i, []):
            if c.target not in shown:
                cites.setdefault(c.target, c.text)
        for c in cits.by_target.get(i, []):
            src = _clause_of(corpus, c.source)
            if src and src not in shown:
                cited_by.setdefault(src, c.text)
    c1, c2 = st.columns(2)
    for col, title, items, prefix in ((c1, "law_cites", cites, "law_cite"), (c2, "law_cited_by", cited_by, "law_citedby")):
        with col:
            st.markdown(f"**{esc(ctx.t(title))}** ({len(items)})")
            if not items:
                st.caption(ctx.t("law_none"))
            for j, (target, printed) in enumerate(sorted(items.items())[:MAX_LINKS]):
                link(id_label(ctx, target), "law", key=f"{prefix}_{j}", help=f"{printed} → {target}", id=target)


def _clause_of(corpus: Any, source: str) -> str | None:
    """A citing id as a page to open: footnotes open the clause that holds them."""
    if "/footnote/" in source:
        ed = corpus.editions.get(source.split("/")[0])
        f = ed.footnotes.get(source) if ed else None
        return f.clause if f else None
    return source
