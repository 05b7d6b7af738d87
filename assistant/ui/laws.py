"""Laws page: chapters -> laws -> clauses; a law's editions side by side (CCBA 1999 | CCBA 2018 |
WBF 2017 en | WBF 2017 zh-Hant) with redlines, cites and cited-by as links, footnotes, source lines."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from ..errors import UnknownClause
from ..model import Clause, ClauseId
from . import services
from .i18n import pick
from .render import COLUMNS, Ctx, esc, group_name, id_label, link, redline_markdown, safe_key

LAW_EDITIONS = ("ccba2018", "wbf2017", "ccba1999")   # merge order of the rows
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


def law_rows(corpus: Any, number: str, counterparts: dict[str, str] | None = None) -> list[Row]:
    """The rows of law `number` across CCBA 2018, WBF 2017 and CCBA 1999, aligned by clause path;
    a CCBA 1999 clause goes to the row of its CCBA 2018 counterpart when `counterparts` names one, and
    to a row of its own when `counterparts` maps it to '' (no counterpart)."""
    order: list[tuple[str, ...]] = []
    found: dict[tuple[str, ...], dict[str, Clause]] = {}
    prefix = f"ccba2018/law/{number}"
    for ed_name in LAW_EDITIONS:
        ed = corpus.editions.get(ed_name)
        if ed is None:
            continue
        prev: tuple[str, ...] | None = None
        members = _subtree(ed, f"{ed_name}/law/{number}")
        if ed_name == "ccba1999" and counterparts:
            own = {c.id for c in members}
            members += [ed.clauses[a] for a, b in counterparts.items()
                        if a not in own and a in ed.clauses and (b == prefix or b.startswith(prefix + "/"))]
        for c in members:
            path = ClauseId.parse(c.id).path[1:]
            target = (counterparts or {}).get(c.id, "")
            if ed_name == "ccba1999" and (target == prefix or target.startswith(prefix + "/")):
                tpath = ClauseId.parse(target).path[1:]
                if tpath in found and "ccba1999" not in found[tpath]:
                    path = tpath
            elif ed_name == "ccba1999" and counterparts and counterparts.get(c.id) == "":
                path = (*path, "(ccba1999)")         # removed in 2018: not beside an unrelated clause
            if path in found and ed_name in found[path]:
                path = (*path, f"({ed_name})")       # a second clause for an occupied row: its own row
            if path not in found:
                found[path] = {}
                pos = order.index(prev) + 1 if prev in order else (0 if prev is None else len(order))
                order.insert(pos, path)
            found[path][ed_name] = c
            prev = path
    return [Row(p, {e: found[p].get(e) for e in LAW_EDITIONS}) for p in order]


def render(ctx: Ctx) -> None:
    raw = st.query_params.get("id", "").strip()
    if not raw:
        _index(ctx)
        return
    corpus = services.corpus()
    try:
        clause = corpus.clause(raw)
    except UnknownClause as err:
        st.error(ctx.t("law_unknown", msg=esc(str(err)[:400])))
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
            titles.setdefault(lg, t)
    return pick(titles, lang)


def _index(ctx: Ctx) -> None:
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
        label = ctx.t("law_chapter", n=ch.number, title=esc(ch.title)) if ch else "—"
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
            link(pick(d.term or d.title, ctx.lang) or d.number, "law", key=safe_key("law_idx", d.id), id=d.id)
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
        with st.expander(ctx.t("law_chapter", n=ch.number, title=esc(ch.title)) if ch else ed.name):
            for a in arts:
                link(f"{group_name(ctx, kind, a.number)} · {pick(a.title, ctx.lang)}", "law",
                     key=safe_key("law_idx", a.id), id=a.id)


# ------------------------------------------------------------------------------------ one law


def _law(ctx: Ctx, corpus: Any, cid: ClauseId) -> None:
    number = cid.path[0]
    focus = cid.path[1:]
    st.header(esc(f"{group_name(ctx, 'law', number)} · {law_title(corpus, number, ctx.lang)}"))
    rows = law_rows(corpus, number, services.counterparts_1999())
    if focus:
        rows = [r for r in rows if r.path[:len(focus)] == focus]
        link(ctx.t("law_whole"), "law", key="law_whole", id=f"{cid.edition}/law/{number}")
    show_redlines = st.toggle(ctx.t("law_redline_99_18"), value=True, key="law_redlines")
    if show_redlines:
        st.caption(ctx.t("law_legend"))
    for i, row in enumerate(rows):
        _row(ctx, corpus, row, i, show_redlines)
    ids = [c.id for r in rows for c in r.clauses.values() if c is not None]
    _links(ctx, corpus, ids)
    _prev_next(ctx, number, cid.edition)


def _row(ctx: Ctx, corpus: Any, row: Row, i: int, show_redlines: bool) -> None:
    label = " ".join(p for p in row.path if not p.startswith("(")) if row.path else ""
    with st.container(border=bool(row.path)):
        if label:
            st.markdown(f"**{esc(label)}**")
        cols = st.columns(len(COLUMNS))
        for col, (ed, lang, key) in zip(cols, COLUMNS):
            with col:
                c = row.clauses.get(ed)
                moved = c is not None and " ".join(ClauseId.parse(c.id).path[1:]) != label
                st.caption(ctx.t(key) + (f" · `{c.id}`" if moved else ""))
                if c is None:
                    st.caption(ctx.t("law_missing"))
                    continue
                _clause_body(ctx, corpus, c, lang)
        old, new = row.clauses.get("ccba1999"), row.clauses.get("ccba2018")
        if show_redlines and old is not None and new is not None:
            a, b = old.text.get("zh-Hans", ""), new.text.get("zh-Hans", "")
            if a and b and a != b:
                st.markdown(f"*{esc(ctx.t('law_redline_99_18'))}:* " + redline_markdown(services.redline(a, b)))


def _clause_body(ctx: Ctx, corpus: Any, c: Clause, lang: str) -> None:
    title = c.title.get(lang) or c.term.get(lang, "")
    if title:
        st.markdown(f"**{esc(title)}**")
    text = c.text.get(lang, "")
    if text:
        st.markdown(esc(text))
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
    if c.source is not None and (text or title):
        st.caption(esc(ctx.t("law_source", src=str(c.source))))


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
    title = pick(top.title or top.term, ctx.lang)
    st.header(esc(f"{head} · {title}" if title else head))
    clauses = _subtree(ed, str(cid))
    langs = sorted({lg for c in clauses for lg in (*c.text, *c.title, *c.term)},
                   key=lambda lg: (lg != ctx.lang, lg))
    for c in clauses:
        with st.container(border=True):
            path = ClauseId.parse(c.id).path[1:]
            if path:
                st.markdown(f"**{esc(' '.join(path))}**")
            cols = st.columns(max(1, len(langs)))
            for col, lang in zip(cols, langs):
                with col:
                    _clause_body(ctx, corpus, c, lang)
    _links(ctx, corpus, [c.id for c in clauses])


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
