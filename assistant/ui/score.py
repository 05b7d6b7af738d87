"""Score page: a contract's score (Law 77) with its breakdown and cites, an IMP converter (Law 78B), and
the two tables rendered from assistant/scoring's data. The inputs live in the URL
(?page=score&c=4HX%2B1&vul=1&ed=wbf2017&d=420), so a score can be shared."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import streamlit as st

from ..editions import law_editions
from ..errors import BadInput
from ..scoring.calc import (
    DEFAULT_EDITION,
    Cite,
    imp_scale,
    imps,
    law77,
    score,
    undertrick_penalty,
)
from ..scoring.tables import DOUBLINGS, SUITS, VULS, Law77
from .render import Ctx, details, esc, go, set_title

if TYPE_CHECKING:
    import pandas as pd

MAX_DOWN_SHOWN = 7                    # rows of the cumulative undertrick table
_DIFF_RE = re.compile(r"^[+-]?\d{1,5}$")    # the converter takes -99990..99990 (Law 77 scores stay below 8000)
MAX_DIFF = 99990


def _sync(key: str, value: object) -> None:
    """Make a widget follow the URL when the URL changed (shared link, back button)."""
    src = f"_{key}_src"
    if st.session_state.get(src) != value:
        st.session_state[key] = value
        st.session_state[src] = value


def _apply() -> None:
    """Write every input of the page into the URL (the page then renders from the URL)."""
    diff = int(st.session_state.get("score_diff") or 0)
    go("score", c=str(st.session_state.get("score_contract") or "").strip()[:40] or None,
       vul="1" if st.session_state.get("score_vul") else None,
       ed=st.session_state.get("score_edition") or None, d=str(diff) if diff else None)


def _edition(ctx: Ctx) -> str:
    eds = law_editions()
    raw = st.query_params.get("ed", "")
    if raw in eds:
        return raw
    return ctx.edition if ctx.edition in eds else DEFAULT_EDITION


def render(ctx: Ctx) -> None:
    set_title(ctx, ctx.t("page_score"))
    st.session_state["_score_sources"] = {}     # the sources this run cites, listed under "details"
    st.caption(ctx.t("score_intro"))
    edition = _edition(ctx)
    contract = st.query_params.get("c", "")[:40]
    vul = st.query_params.get("vul", "") == "1"
    d_raw = st.query_params.get("d", "")
    diff = int(d_raw) if _DIFF_RE.match(d_raw) and abs(int(d_raw)) <= MAX_DIFF else 0
    _sync("score_contract", contract)
    _sync("score_vul", vul)
    _sync("score_edition", edition)
    _sync("score_diff", diff)
    st.text_input(ctx.t("score_contract"), key="score_contract", placeholder=ctx.t("score_placeholder"),
                  on_change=_apply, max_chars=40)
    st.toggle(ctx.t("score_vul"), key="score_vul", on_change=_apply)
    st.selectbox(ctx.t("score_edition"), law_editions(), key="score_edition", on_change=_apply,
                 format_func=lambda e: ctx.t(f"ed_{e}"))
    st.button(ctx.t("score_go"), key="score_go", on_click=_apply, type="primary")
    if contract.strip():
        _result(ctx, contract, vul, edition)
    st.subheader(ctx.t("score_imps_title"))
    st.number_input(ctx.t("score_imps_diff"), key="score_diff", step=10, min_value=-MAX_DIFF, max_value=MAX_DIFF,
                    on_change=_apply)
    r = imps(diff, edition)
    band = _band(r.lowest, r.highest)
    st.markdown(esc(ctx.t("score_imps_result", diff=f"{diff:+d}", imps=f"{r.imps:+d}", band=band)))
    st.caption(esc(_cite_text(ctx, r.cite)))
    _tables(ctx, edition)
    details(ctx, list(st.session_state["_score_sources"]), key="score_details")


def _result(ctx: Ctx, contract: str, vul: bool, edition: str) -> None:
    try:
        s = score(contract, vul, edition)
    except BadInput as err:
        st.error(ctx.t("score_bad_contract", text=esc(contract)))
        if ctx.lang == "en":        # the parser's detail ("at most +3 at the 4 level") is English only
            st.caption(esc(str(err)))
        return
    side = ctx.t("score_vul_yes") if vul else ctx.t("score_vul_no")
    st.metric(ctx.t("score_result", contract=str(s.contract), side=side), f"{s.points:+d}")
    rows = [{ctx.t("score_col_item"): _item(ctx, p.item, p.count), ctx.t("score_col_points"): f"{p.points:+d}",
             ctx.t("score_col_cite"): _label(ctx, p.cite)} for p in s.parts]
    st.dataframe(_frame(rows), hide_index=True, width="stretch")
    st.caption(esc(ctx.t("score_cites", cites="; ".join(_cite_text(ctx, c) for c in s.cites))))


def _item(ctx: Ctx, item: str, count: int) -> str:
    label = ctx.t(f"score_item_{item}")
    return ctx.t("score_times", label=label, n=count) if item in ("trick_score", "overtricks", "undertricks") else label


def _label(ctx: Ctx, c: Cite) -> str:
    """The cite in the interface language; the section named by the interface when the edition does not
    print its heading in that language (CCBA headings are Chinese only)."""
    zh = ctx.lang.startswith("zh")
    if ctx.lang in c.heading or (zh and any(k.startswith("zh") for k in c.heading)):
        return c.label_in(ctx.lang)
    return replace(c, heading={ctx.lang: ctx.t(f"score_sec_{c.section}")}).label_in(ctx.lang)


def _cite_text(ctx: Ctx, c: Cite) -> str:
    """The cite as a reader sees it; its clause id, file and lines go to the page's details control."""
    st.session_state.setdefault("_score_sources", {})[f"{c.clause} · {c.file}:{c.lines[0]}–{c.lines[1]}"] = None
    return _label(ctx, c)


def _band(lowest: int, highest: int | None) -> str:
    return f"{lowest}–{highest}" if highest is not None else f"{lowest}+"


def _tables(ctx: Ctx, edition: str) -> None:
    """The Law 77 table and the Law 78B scale of the edition, from the data the calculation uses."""
    st.subheader(ctx.t("score_tables_title"))
    t = law77(edition)
    sec = {k: Cite(s.clause, s.key, dict(s.heading), s.file, s.lines) for k, s in t.sections.items()}
    dbl = {d: ctx.t(f"score_{d}") for d in DOUBLINGS}
    vul = {v: ctx.t(f"score_{v}") for v in VULS}
    with st.expander(ctx.t("score_tbl_trick"), expanded=False):
        st.caption(esc(_cite_text(ctx, sec["trick_score"])))
        keys = (*SUITS, "notrump_first", "notrump_each_additional")
        st.dataframe(_frame([{ctx.t("score_col_strain"): ctx.t(f"score_strain_{k}"),
                                    **{dbl[d]: t.odd_trick[k][d] for d in DOUBLINGS}} for k in keys]),
                     hide_index=True, width="stretch")
        st.caption(esc(ctx.t("score_game_rule", n=t.game_threshold)))
    with st.expander(ctx.t("score_tbl_premiums"), expanded=False):
        st.caption(esc(_cite_text(ctx, sec["slam"]) + "; " + _cite_text(ctx, sec["premiums"])))
        st.dataframe(_frame(_premium_rows(ctx, t, vul)), hide_index=True, width="stretch")
    with st.expander(ctx.t("score_tbl_overtricks"), expanded=False):
        st.caption(esc(_cite_text(ctx, sec["overtricks"])))
        st.dataframe(_frame([{ctx.t("score_col_doubling"): dbl[d],
                                    **{vul[v]: ctx.t("score_trick_value") if t.overtrick[d][v] is None
                                       else str(t.overtrick[d][v]) for v in VULS}} for d in DOUBLINGS]),
                     hide_index=True, width="stretch")
    with st.expander(ctx.t("score_tbl_undertricks"), expanded=False):
        st.caption(esc(_cite_text(ctx, sec["undertricks"])))
        grids = (("score_first", t.undertrick_first), ("score_additional", t.undertrick_additional),
                 ("score_bonus", t.undertrick_bonus))
        st.dataframe(_frame([{ctx.t("score_col_undertrick"): ctx.t(key),
                                    **{_vd(ctx, v, d): g[v][d] for v in VULS for d in DOUBLINGS}} for key, g in grids]),
                     hide_index=True, width="stretch")
        st.caption(esc(ctx.t("score_tbl_undertricks_total")))
        st.dataframe(_frame([{ctx.t("score_col_down"): n,
                                    **{_vd(ctx, v, d): undertrick_penalty(t, n, d, v) for v in VULS for d in DOUBLINGS}}
                                   for n in range(1, MAX_DOWN_SHOWN + 1)]),
                     hide_index=True, width="stretch")
    with st.expander(ctx.t("score_tbl_imps"), expanded=False):
        scale = imp_scale(edition)
        cite = Cite(scale.section.clause, "imps", dict(scale.section.heading), scale.section.file, scale.section.lines)
        st.caption(esc(_cite_text(ctx, cite)))
        rows = [{ctx.t("score_col_diff"): _band(b.lowest, b.highest), ctx.t("score_col_imps"): b.imps}
                for b in scale.bands]
        if scale.bands[0].lowest > 0:
            rows.insert(0, {ctx.t("score_col_diff"): _band(0, scale.bands[0].lowest - 10),
                            ctx.t("score_col_imps"): scale.below_first_band})
            st.caption(esc(ctx.t("score_imps_unprinted", n=scale.bands[0].lowest - 10)))
        st.dataframe(_frame(rows), hide_index=True, width="stretch")


def _vd(ctx: Ctx, v: str, d: str) -> str:
    """A short column label such as 'NV X' for the undertrick tables (narrow screens)."""
    if d == "undoubled":
        return ctx.t(f"score_short_{v}")
    return ctx.t("score_short_col", vul=ctx.t(f"score_short_{v}"), dbl=ctx.t(f"score_short_{d}"))


def _premium_rows(ctx: Ctx, t: Law77, vul: dict[str, str]) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for slam in ("small", "grand"):
        rows.append({ctx.t("score_col_premium"): ctx.t(f"score_item_{slam}_slam"),
                     **{vul[v]: t.slam[slam][v] for v in VULS}})
    rows.append({ctx.t("score_col_premium"): ctx.t("score_item_game"), **{vul[v]: t.game_premium[v] for v in VULS}})
    rows.append({ctx.t("score_col_premium"): ctx.t("score_item_partscore"),
                 **{vul[v]: t.partscore_premium for v in VULS}})
    for d in ("doubled", "redoubled"):
        rows.append({ctx.t("score_col_premium"): ctx.t(f"score_item_{d}_made"),
                     **{vul[v]: t.made_premium[d] for v in VULS}})
    return rows


def _frame(rows: Any) -> "pd.DataFrame":
    """A table for st.dataframe; pandas is imported here, on the Scoring page, not when the app starts."""
    import pandas as pd

    return pd.DataFrame(rows)
