"""The state of the law pass over file 004: open clauses, their text, footnotes, and the finished records.

`LawBuilder` creates clauses (restoring lost numbers) and feeds them text; `wbf2017_body.LawParser`
reads the lines and decides which clause each belongs to.
"""

from __future__ import annotations

import re

from ..model import Clause, ClauseId, Footnote, SourceSpan
from .wbf2017_accumulate import Acc, Ctx, add_zh
from .wbf2017_lines import (
    SUPERSCRIPTS,
    ZH_END,
    add_stat_row,
    join_en,
    join_zh,
    split_langs,
    strip_markers,
    strip_markers_zh,
    sup_to_int,
)

EDITION = "wbf2017"
FOOTNOTE_LINE_RE = re.compile(f"^\\s*(?:\\^\\{{(\\d+)([^}}]*)\\}}|([{SUPERSCRIPTS}]+))\\s*(.*)$")


class LawBuilder:
    """Clauses, footnotes and repair records of the law region, built line by line."""

    def __init__(self, lines: list[str], span: tuple[int, int], file: str, ctx: Ctx) -> None:
        self.lines, self.span, self.file, self.ctx = lines, span, file, ctx
        self.accs: list[Acc] = []
        self.by_id: dict[str, Acc] = {}
        self.law: Acc | None = None
        self.section: Acc | None = None
        self.item: Acc | None = None
        self.sub: Acc | None = None
        self.subsub: Acc | None = None
        self.footnotes: dict[int, Footnote] = {}
        self.fn_last: int | None = None
        self.pending_zh: list[tuple[int, str]] = []
        self.laws_seen: list[tuple[int, int]] = []
        self.restored: list[dict[str, object]] = []
        self.mixed_split = 0
        self.law2_dropped: list[int] = []
        self.skip: set[int] = set()
        self.midline: list[dict[str, object]] = []
        self.closing: list[dict[str, object]] = []
        self.unmarked_items: list[dict[str, object]] = []
        self.lead_ins: list[dict[str, object]] = []          # Chinese lead-ins moved back to their clause

    # -- clause creation -------------------------------------------------------------------
    @property
    def cur(self) -> Acc | None:
        return self.subsub or self.sub or self.item or self.section or self.law

    def _new(self, parent: Acc | None, level: str, number: str, n: int) -> Acc:
        if parent is None:
            cid = f"{EDITION}/law/{number}"
        else:
            cid = f"{parent.clause.id}/{number}"
        if cid in self.by_id:        # a duplicated label: keep the id unique, say so in stats
            k = 2
            while f"{cid}-{k}" in self.by_id:
                k += 1
            add_stat_row(self.ctx.stats, "duplicate_labels", {"line": n, "id": cid})
            cid = f"{cid}-{k}"
        c = Clause(id=ClauseId(cid), edition=EDITION, level=level, number=number,
                   parent=parent.clause.id if parent else None)
        if parent:
            parent.clause.children.append(ClauseId(cid))
        acc = Acc(c, first=n, last=n)
        self.accs.append(acc)
        self.by_id[cid] = acc
        return acc

    @staticmethod
    def _next_num(parent: Acc) -> str:
        nums = [int(x.rsplit("/", 1)[1]) for x in parent.clause.children
                if x.rsplit("/", 1)[1].isdigit()]
        return str(max(nums) + 1 if nums else 1)

    def _open_item(self, number: str | None, n: int, restored_text: str = "") -> Acc:
        parent = self.section or self.law
        assert parent is not None
        num = number or self._next_num(parent)
        if number is None:
            self.restored.append({"line": n, "id": f"{parent.clause.id}/{num}", "text": restored_text[:60]})
        self.item = self._new(parent, "item", num, n)
        self.sub = self.subsub = None
        return self.item

    def _open_sub(self, letter: str | None, n: int, restored_text: str = "") -> Acc:
        if self.item is None:
            self._open_item(None, n, restored_text)
        assert self.item is not None
        if letter is None:
            last = self.sub.clause.number if self.sub else "`"
            letter = chr(ord(last) + 1)
            self.restored.append({"line": n, "id": f"{self.item.clause.id}/{letter}", "text": restored_text[:60]})
        self.sub = self._new(self.item, "subitem", letter, n)
        self.subsub = None
        return self.sub

    def _open_subsub(self, roman: str, n: int) -> Acc:
        parent = self.sub or self.item
        if parent is None:
            parent = self._open_item(None, n)
        self.subsub = self._new(parent, "subsubitem", roman, n)
        return self.subsub

    # -- text ------------------------------------------------------------------------------
    def _add_runs(self, acc: Acc, n: int, runs: list[tuple[str, str]]) -> None:
        langs = {lang for lang, _ in runs}
        if langs == {"en", "zh"}:
            self.mixed_split += 1
        for lang, text in runs:
            text, nums = strip_markers(text) if lang == "en" else strip_markers_zh(text)
            acc.markers.extend((lang, k) for k in nums)
            if lang == "en":
                if text:
                    acc.en.append(text)
                    acc.zh_after_en = True
                    acc.touch(n)
            else:
                if self.pending_zh:
                    # a displaced fragment (1709 `手牌。`) is the end of the next Chinese run
                    text += "".join(t for _, t in self.pending_zh)
                    self.pending_zh = []
                add_zh(acc, n, text, self.ctx)
        self._fix_twin(acc, n)

    def _fix_twin(self, acc: Acc, n: int) -> None:
        """A garbled run dropped without a twin gets one if clean Chinese follows within 3 lines."""
        for g in self.ctx.garbled[-2:]:
            if g.get("twin") is None and g.get("clause") == acc.clause.id and acc.zh and \
                    0 < acc.zh[-1][0] - int(str(g["line"])) <= 3:
                g["twin"] = acc.zh[-1][0]

    def _text_line(self, n: int, line: str) -> None:
        acc = self.cur
        if acc is None:
            return
        runs = split_langs(line)
        before = len(self.ctx.garbled)
        if len(runs) == 1 and runs[0][0] == "zh":
            zh = runs[0][1]
            if self.fn_last is not None and self._footnote_zh_open():
                fn = self.footnotes[self.fn_last]
                fn.text["zh-Hant"] += strip_markers_zh(zh)[0]
                fn.source = SourceSpan(self.file, fn.source.first, n)
                return
            if len(zh) <= 6 and zh.endswith("。") and not acc.en and not acc.zh and acc.clause.level != "law":
                self.pending_zh.append((n, zh))      # displaced fragment: ends the next Chinese run
                return
            prev = self._lead_in_owner(acc)
            if prev is not None:
                self.lead_ins.append({"line": n, "id": prev.clause.id, "after": acc.clause.id})
                acc = prev
        self.fn_last = None
        self._add_runs(acc, n, runs)
        for g in self.ctx.garbled[before:]:
            g["clause"] = acc.clause.id

    def _lead_in_owner(self, acc: Acc) -> Acc | None:
        """The clause before a section just opened, when a Chinese-only line after the section heading
        ends that clause's lead-in: its English ends with `:` and its Chinese stops mid-sentence
        (84: `…均予認同, 則` / `A. No Rectification 不需矯正` / `依以下數點裁決之:`)."""
        if acc.clause.level != "section" or acc.en or acc.zh or len(self.accs) < 2 or self.accs[-1] is not acc:
            return None
        prev = self.accs[-2]
        if not prev.zh or not join_en(prev.en).endswith(":") or \
                prev.zh[-1][1].rstrip().endswith((*ZH_END, ":", "：")):
            return None
        return prev

    def _footnote_zh_open(self) -> bool:
        fn = self.footnotes.get(self.fn_last) if self.fn_last is not None else None
        return bool(fn and fn.text.get("zh-Hant") and not fn.text["zh-Hant"].rstrip().endswith(tuple(ZH_END)))

    # -- footnotes -------------------------------------------------------------------------
    def _footnote_line(self, n: int, m: re.Match[str]) -> None:
        num = int(m.group(1)) if m.group(1) else sup_to_int(m.group(3))
        rest = (m.group(2) or "") + m.group(4)
        rest = re.sub(f"[{SUPERSCRIPTS}]+\\s*", "", rest)          # 1465, 1785: `EN ¹² ZH`
        fn = self.footnotes.get(num)
        if fn is None:
            fn = Footnote(id=f"{EDITION}/footnote/{num}", number=str(num), text={"en": "", "zh-Hant": ""},
                          clause=None, source=SourceSpan(self.file, n, n))
            self.footnotes[num] = fn
        for lang, text in split_langs(rest):
            key = "en" if lang == "en" else "zh-Hant"
            fn.text[key] = (fn.text[key] + (" " if key == "en" and fn.text[key] else "") + text).strip()
        fn.source = SourceSpan(self.file, fn.source.first, n)
        self.fn_last = num


    def _flush_table(self) -> None:
        for acc in self.accs[-6:]:
            if acc.pending_table:
                acc.clause.tables.append("\n".join(acc.pending_table))
                acc.pending_table = []


    # -- results ---------------------------------------------------------------------------
    def clauses(self) -> list[Clause]:
        out = []
        for acc in self.accs:
            c = acc.clause
            zh = [t for _, t in acc.zh]
            if acc.closing_at is None:
                c.text = {"en": join_en(acc.en), "zh-Hant": join_zh(zh)}
            else:                    # the closing paragraph after the children, as its own paragraph
                k, j = acc.closing_at
                c.text = {"en": "\n".join(x for x in (join_en(acc.en[:k]), join_en(acc.en[k:])) if x),
                          "zh-Hant": "\n".join(x for x in (join_zh(zh[:j]), join_zh(zh[j:])) if x)}
            c.source = SourceSpan(self.file, acc.first, max(acc.last, acc.first))
            out.append(c)
        return out

    def attach_footnotes(self) -> None:
        """Each footnote goes to the clauses whose English holds its marker (Chinese markers only
        where no English one exists: 2141 `¹²` and 2816 `²⁸` are OCR errors)."""
        holders: dict[int, dict[str, list[str]]] = {}
        for acc in self.accs:
            for lang, k in acc.markers:
                lst = holders.setdefault(k, {"en": [], "zh": []})[lang]
                if acc.clause.id not in lst:
                    lst.append(acc.clause.id)
        for k, fn in self.footnotes.items():
            h = holders.get(k, {"en": [], "zh": []})
            ids = h["en"] or h["zh"]
            fn.clause = ids[0] if ids else None
            for cid in ids:
                fns = self.by_id[cid].clause.footnotes
                if fn.id not in fns:
                    fns.append(fn.id)

