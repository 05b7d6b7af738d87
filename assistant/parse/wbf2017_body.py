"""Read the law region of file 004 line by line: headings, labels, lost numbers, tables, footnote lines.

The structural repairs are listed in the `wbf2017` module docstring; each is reported in `stats`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import squeeze_cjk_spaces
from .wbf2017_accumulate import Acc
from .wbf2017_builder import FOOTNOTE_LINE_RE, LawBuilder
from .wbf2017_lines import (
    CJK,
    CJK_CHAR_RE,
    HEADER_JUNK_RE,
    LABEL_RE,
    LAW_RE,
    ROMAN,
    SECTION_RE,
    SUPERSCRIPTS,
    TAG_RE,
    ZH_END,
    join_en,
    split_langs,
    strip_markers,
    strip_markers_zh,
)

# a label printed after the Chinese of the previous clause, on its line (1293 `…除外。 (c) Unless…`,
# 1810 `…(參照 Law 50)。 3. After…`)
MIDLINE_LABEL_RE = re.compile(
    f"^(?P<head>[{CJK}].*[。）)])\\s+(?P<label>\\d{{1,2}}\\.|\\([a-z]\\))\\s+(?P<tail>[A-Z][a-z].*)$")
CHINESE_BULLET_RE = re.compile(f"^\\s*-\\s+(?=[^A-Za-z]*[{CJK}][^A-Za-z]*$)")


@dataclass
class _Event:
    """A structural line seen by the look-ahead: a lost bullet, a number or a letter label."""

    kind: str            # 'lost' | 'num' | 'sub'
    label: str = ""


def _title_like(en: str) -> bool:
    """A section line `A. Title 中文` (title) versus `A. clause text…` (22A, 35A, 56A, 71A, 89A)."""
    en = en.strip()
    if not en or en[-1] in ".:;,":
        return False
    words = [w for w in re.findall(r"[A-Za-z'’]+", en) if len(w) > 3]
    if not words:
        return bool(re.match(r"[A-Z]", en))
    return sum(w[0].isupper() for w in words) / len(words) >= 0.5



class LawParser(LawBuilder):
    """One pass over the law region; builds clauses, footnotes and stats."""

    # -- labels ----------------------------------------------------------------------------
    def _lookahead(self, i: int) -> tuple[int, _Event | None]:
        """Lost bullets before the next labelled line of this section, and that label."""
        lost = 0
        for j in range(i + 1, self.span[1]):
            line = self.lines[j]
            if not line.strip() or j in self.skip:
                continue
            if LAW_RE.match(line) or (SECTION_RE.match(line.strip()) and not line.startswith(" ")):
                return lost, None
            ev = self._classify(line)
            if ev is None:
                continue
            if ev.kind == "lost":
                lost += 1
            else:
                return lost, ev
        return lost, None

    @staticmethod
    def _classify(line: str) -> _Event | None:
        if FOOTNOTE_LINE_RE.match(line) and re.match(f"^\\s*(\\^\\{{|[{SUPERSCRIPTS}])", line):
            return None
        stripped = line.strip()
        m = LABEL_RE.match(stripped)
        if m and m.group("num"):
            return _Event("num", m.group("num"))
        if m and m.group("sub"):
            return _Event("sub", m.group("sub"))
        if CHINESE_BULLET_RE.match(line):
            return None
        if stripped.startswith("- ") or (line.startswith(" ") and re.match(r"[A-Za-z]", stripped)):
            return _Event("lost")
        return None

    def _label_line(self, i: int, n: int, line: str, ev: _Event) -> None:
        acc: Acc | None
        stripped = line.strip()
        m = LABEL_RE.match(stripped)
        assert m is not None
        rest = m.group("rest")
        indented = line.startswith(" ")
        if ev.kind == "lost":
            rest = re.sub(r"^-\s+", "", stripped)
            lost, nxt = self._lookahead(i)
            as_letter = (self.sub is not None and nxt is not None and nxt.kind == "sub" and len(nxt.label) == 1
                         and nxt.label not in ("i", "v", "x")
                         and ord(nxt.label) == ord(self.sub.clause.number) + lost + 2)
            acc = self._open_sub(None, n, rest) if as_letter else self._open_item(None, n, rest)
        else:
            num, sub = m.group("num"), m.group("sub")
            if num:
                self._open_item(num, n)
            if sub:
                sub = "l" if sub == "I" else sub
                is_roman = sub in ROMAN and not (
                    self.sub is not None and len(sub) == 1 and ord(sub) == ord(self.sub.clause.number) + 1)
                if is_roman and (self.sub is not None or self.item is not None) and not num:
                    self._open_subsub(sub, n)
                elif sub == "a" and not num and self.item is not None and not indented and (
                        self.item.clause.children or self._a_starts_item(i)):
                    self._open_item(None, n, rest)
                    self._open_sub("a", n)
                else:
                    self._open_sub(sub, n)
            if m.group("sub2"):
                self._open_subsub(m.group("sub2"), n)
            acc = self.cur
        assert acc is not None
        self.fn_last = None
        runs = split_langs(rest)
        if ev.kind == "num" and not m.group("sub") and acc is self.item and self._item_title(acc, runs):
            return
        self._add_runs(acc, n, runs)

    @staticmethod
    def _item_title(acc: Acc, runs: list[tuple[str, str]]) -> bool:
        """`1. Single Result Obtained 僅獲得單一結果` (86B1, 86B2): a titled item, text on later lines."""
        en_t, nums = strip_markers(" ".join(t for lang, t in runs if lang == "en"))
        if not en_t.strip() or not _title_like(en_t):
            return False
        zh_t, znums = strip_markers_zh("".join(t for lang, t in runs if lang == "zh"))
        acc.clause.title = {"en": en_t.strip(), "zh-Hant": squeeze_cjk_spaces(zh_t.strip())}
        acc.markers.extend([("en", k) for k in nums] + [("zh", k) for k in znums])
        return True

    def _a_starts_item(self, i: int) -> bool:
        """Column-0 `- (a)` after an item with text: child of it, or a new item whose number was
        lost? Decide by the next explicit item number (15A2 vs 16B1)."""
        assert self.item is not None
        cur = int(self.item.clause.number) if self.item.clause.number.isdigit() else 0
        lost = 0
        for j in range(i + 1, self.span[1]):
            line = self.lines[j]
            if not line.strip():
                continue
            if LAW_RE.match(line) or (SECTION_RE.match(line.strip()) and not line.startswith(" ")):
                break
            ev = self._classify(line)
            if ev is None or ev.kind == "sub":
                continue
            if ev.kind == "lost":
                lost += 1
                continue
            nxt = int(ev.label)
            if nxt == cur + lost + 2:
                return True
            if nxt == cur + lost + 1:
                return False
            break
        en = join_en(self.item.en)
        return not en.endswith(":")

    # -- main loop -------------------------------------------------------------------------
    def run(self) -> None:
        first, end = self.span
        law77_table_end = -1
        for i in range(first, end):
            if i in self.skip:
                continue
            n = i + 1
            line = self.lines[i]
            if not line.strip() or HEADER_JUNK_RE.search(line) or line.strip().startswith("```"):
                continue
            line = TAG_RE.sub("", line)
            lm = LAW_RE.match(line)
            if lm:
                self._law_heading(i, n, lm)
                if self.law and self.law.clause.number == "77":
                    law77_table_end = max((j for j in range(i, end) if "\t" in self.lines[j]
                                           and not LAW_RE.match(self.lines[j])
                                           and all(not LAW_RE.match(x) for x in self.lines[i + 1:j])),
                                          default=-1)
                continue
            if self.law is None:
                continue
            fm = FOOTNOTE_LINE_RE.match(line)
            if fm and re.match(f"^\\s*(\\^\\{{|[{SUPERSCRIPTS}])", line):
                self._footnote_line(n, fm)
                continue
            lawno = self.law.clause.number
            if lawno == "2" and ("\t" in line or "│" in line):
                self.law2_dropped.append(n)
                continue
            if lawno == "77" and i <= law77_table_end:
                self._law77_line(n, line)
                continue
            if "\t" in line:
                acc = self.cur
                assert acc is not None
                acc.pending_table.append(line.rstrip("\t ").replace("\t", " | "))
                acc.touch(n)
                continue
            self._flush_table()
            sm = SECTION_RE.match(line.strip())
            if sm and not line.startswith(" "):
                self._section(n, sm)
                continue
            if CHINESE_BULLET_RE.match(line):
                self._chinese_bullet(n, line)
                continue
            ev = self._classify(line)
            if ev is not None:
                self._label_line(i, n, line, ev)
                continue
            mm = MIDLINE_LABEL_RE.match(line.strip())
            if mm:
                self._text_line(n, mm.group("head"))
                tail = f"{mm.group('label')} {mm.group('tail')}"
                ev = self._classify(tail)
                assert ev is not None
                self._label_line(i, n, tail, ev)
                self.midline.append({"line": n, "id": self.cur.clause.id if self.cur else None})
                continue
            if self._unmarked_paragraph(n, line):
                continue
            self._text_line(n, line)
        self._flush_table()

    def _unmarked_paragraph(self, n: int, line: str) -> bool:
        """A column-0 English paragraph after a finished list member (English, then Chinese) has no
        label of its own. If the list completes its parent's `…:` in lower case (69B, 71), it is the
        parent's closing paragraph; otherwise it is a sibling item whose marker was lost (6D2, 75B3)."""
        acc = self.cur
        if acc is None or line.startswith(" ") or acc.clause.level not in ("section", "item", "subitem") \
                or not acc.en or not acc.zh or acc.zh_after_en or acc.clause.parent is None:
            return False
        runs = split_langs(line)
        if not runs or runs[0][0] != "en" or not re.match(r"[A-Z]", runs[0][1]):
            return False
        own = join_en(acc.en)
        if own[-1] not in ".;:!?)":
            return False
        parent = self.by_id[acc.clause.parent]
        if join_en(parent.en).endswith(":") and own[0].islower():
            for attr in ("subsub", "sub", "item", "section"):
                if getattr(self, attr) is parent:
                    break
                setattr(self, attr, None)
            if parent.closing_at is None:
                parent.closing_at = (len(parent.en), len(parent.zh))
            parent.zh_after_en = True
            self.closing.append({"line": n, "id": parent.clause.id, "after": acc.clause.id})
        elif acc.clause.level == "item":
            self._open_item(None, n, runs[0][1])
            self.unmarked_items.append({"line": n, "id": self.cur.clause.id if self.cur else None})
        elif acc.clause.level == "subitem":
            self._open_sub(None, n, runs[0][1])
            self.unmarked_items.append({"line": n, "id": self.cur.clause.id if self.cur else None})
        else:
            return False
        self._text_line(n, line)
        return True

    def _law77_line(self, n: int, line: str) -> None:
        assert self.law is not None
        acc = self.law
        acc.pending_table.append(line.rstrip("\t ").replace("\t", " | "))
        acc.touch(n)
        if "\t" not in line:
            runs = split_langs(line)
            if runs and runs[0][0] == "en" and runs[0][1].rstrip().endswith("."):
                self._add_runs(acc, n, runs)

    def _law_heading(self, i: int, n: int, m: re.Match[str]) -> None:
        self._flush_table()
        num = int(m.group(1))
        self.laws_seen.append((num, n))
        title, nums = strip_markers(m.group(2))
        runs = split_langs(title)
        en = " ".join(t for lang, t in runs if lang == "en")
        zh = "".join(t for lang, t in runs if lang == "zh")
        last = n
        # a Chinese title split over two lines (1819/1821, 2272/2274)
        for j in range(i + 1, min(i + 4, self.span[1])):
            nxt = self.lines[j].strip()
            if not nxt:
                continue
            if len(nxt) <= 3 and all(CJK_CHAR_RE.match(c) for c in nxt):
                zh += nxt
                self.skip.add(j)
                last = j + 1
            break
        self.section = self.item = self.sub = self.subsub = None
        self.fn_last = None
        self.pending_zh = []
        self.law = self._new(None, "law", str(num), n)
        self.law.last = last
        self.law.clause.title = {"en": en.strip(), "zh-Hant": squeeze_cjk_spaces(zh.strip())}
        self.law.markers.extend(("en", k) for k in nums)

    def _section(self, n: int, m: re.Match[str]) -> None:
        assert self.law is not None
        letter, rest = m.group(1), m.group(2)
        self.item = self.sub = self.subsub = None
        self.fn_last = None
        self.section = self._new(self.law, "section", letter, n)
        runs = split_langs(rest)
        en = " ".join(t for lang, t in runs if lang == "en")
        if _title_like(strip_markers(en)[0]) or not en:
            en_t, nums = strip_markers(en)
            zh_t, znums = strip_markers_zh("".join(t for lang, t in runs if lang == "zh"))
            self.section.clause.title = {"en": en_t.strip(), "zh-Hant": squeeze_cjk_spaces(zh_t.strip())}
            self.section.markers.extend([("en", k) for k in nums] + [("zh", k) for k in znums])
        else:
            self._add_runs(self.section, n, runs)

    def _chinese_bullet(self, n: int, line: str) -> None:
        """`- 中文`: the clean twin of a Chinese run that ends a sentence (1288/1289), else a
        continuation of the Chinese run (1761/1763)."""
        acc = self.cur
        if acc is None:
            return
        text = CHINESE_BULLET_RE.sub("", line).strip()
        if acc.zh and not acc.zh_after_en and acc.zh[-1][1].rstrip().endswith(tuple(ZH_END)):
            prev = acc.zh.pop()
            self.ctx.garbled.append({"line": prev[0], "text": prev[1], "twin": n, "clause": acc.clause.id,
                                     "reason": "chinese-bullet twin"})
        self._add_runs(acc, n, [("zh", text)])
