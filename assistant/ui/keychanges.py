"""The key changes at the top of the Compare page: the changes that matter at the table, ranked, each with
its one-line statement in the interface language and the clauses of both editions quoted (clause ids only
under the "details" control). Data: assistant/data/key_changes.yaml through assistant.diff.keychanges.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..text import s2t
from . import services
from .i18n import pick
from .render import Ctx, details, esc, group_name, id_label, link

QUOTE_MAX = 400          # characters of a quoted clause (the report's own limit, assistant.diff.render)
NEWER = ("ccba2018", "wbf2017")   # the editions a key change's newer clauses are read in (ccba2018 ids twin wbf2017)


def newer_edition(ctx: Ctx) -> str:
    """The edition the user reads the newer rule in: the preferred one when it is a 2017-era edition, else
    the first 2017-era edition of the user's reading order (zh-Hans: CCBA 2018; zh-Hant, en: WBF 2017)."""
    return next(e for e in (*ctx.editions, *NEWER) if e in NEWER)


def twin(clause_id: str, edition: str) -> str:
    """The same clause in `edition` when that edition has it (CCBA 2018 and WBF 2017 share the Laws' ids),
    else the clause itself."""
    head, _, rest = clause_id.partition("/")
    other = f"{edition}/{rest}"
    return other if head != edition and other in services.corpus().editions[edition].clauses else clause_id


def quote(ctx: Ctx, clause_id: str) -> tuple[str, str]:
    """A clause's heading and text in the interface's script (a heading-only clause quotes its sub-clauses),
    the text cut to QUOTE_MAX characters."""
    corpus = services.corpus()
    ed = clause_id.split("/", 1)[0]
    clauses = corpus.editions[ed].clauses
    c = clauses[clause_id]
    title, parts = pick(c.title, ctx.lang), [pick(c.text, ctx.lang)]
    if not parts[0]:
        parts += [f"{pick(x.title, ctx.lang)} {pick(x.text, ctx.lang)}".strip()
                  for cid, x in clauses.items() if cid.startswith(clause_id + "/")]
    text = " ".join(p for p in parts if p).replace("\n", " ")
    if ctx.lang == "zh-Hant":
        title, text = s2t(title), s2t(text)
    return title, text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "……"


def _side(ctx: Ctx, label: str, ids: tuple[str, ...], key: str) -> None:
    st.markdown(f"**{esc(label)}**")
    for j, cid in enumerate(ids):
        link(id_label(ctx, cid), "law", key=f"{key}_{j}", id=cid)
        title, text = quote(ctx, cid)
        st.markdown("> " + (f"**{esc(title)}** {esc(text)}" if title else esc(text)))


def _card(ctx: Ctx, k: Any, newer: str) -> None:
    laws = ctx.t("cmp_laws_sep").join(group_name(ctx, "law", n) for n in k.laws)
    new_ids = tuple(dict.fromkeys(twin(cid, newer) for cid in k.new))
    with st.container(border=True, key=f"cmp_key_{k.rank}"):
        st.markdown(f":gray-badge[{esc(ctx.t('cmp_rank', n=k.rank))}] **{esc(laws)}**")
        st.markdown(f"**{esc(k.say(ctx.lang))}**")
        old_col, new_col = st.columns(2)
        with old_col:
            _side(ctx, ctx.t("cmp_key_before"), k.old, f"cmp_key_{k.rank}_old")
        with new_col:
            _side(ctx, ctx.t("cmp_key_after", edition=ctx.t(f"ed_{newer}")), new_ids, f"cmp_key_{k.rank}_new")
        details(ctx, [k.id, *k.old, *new_ids], key=f"cmp_key_{k.rank}_details")


def render_key_changes(ctx: Ctx) -> int:
    """Draw the ranked key changes; the number drawn."""
    keys = services.key_changes()
    st.subheader(ctx.t("cmp_key_changes"))
    st.caption(ctx.t("cmp_key_intro"))
    newer = newer_edition(ctx)
    for k in keys:
        _card(ctx, k, newer)
    return len(keys)
