"""The 1999 CCBA rules' data, line patterns and small pure helpers (keys, notes), shared by the lexers
and the builder of `ccba1999`."""

from __future__ import annotations

import re
import unicodedata

from ..text import definition_key, term_key, term_slug

EDITION = "ccba1999"
LANG = "zh-Hans"
LAST_LAW = 93        # file 000: Laws 1-93
LAST_WEB_LAW = 19    # file 003 stops inside Law 19B3

FIX = "restore the file from the seeds (corpus/manifest.yaml lists its sha256)"

# ---------------------------------------------------------------------------------------------
# data

# The 53 English keys of the 1999 definitions, spelt as the WBF 2017 headwords so that definitions
# join across editions (key 'undertrick' in both). Printed keys are matched to these ignoring case,
# spaces and punctuation ('MATCH  POINT', 'MATCHPOINT' -> 'matchpoint').
CANONICAL_KEYS: tuple[str, ...] = (
    "matchpoint", "pass", "partscore", "director", "contestant", "revoke", "overtrick", "play",
    "honour", "undertrick", "premium points", "contract", "denomination", "opponent", "team",
    "trick points", "deal", "defender", "follow suit", "international matchpoint (imp)", "suit",
    "double", "trump", "call", "session", "auction", "rectification", "game", "vulnerability",
    "round", "turn", "rotation", "slam", "dummy", "pack", "trick", "board", "rho", "bid",
    "opening lead", "alert", "adjusted score", "partner", "irregularity", "lho", "odd trick",
    "psychic call", "side", "hand", "lead", "convention", "redouble", "declarer",
)

# Printed keys that are misprints or variant spellings (compacted: lower case, letters only).
KEY_ALIASES: dict[str, str] = {
    "conttestant": "contestant",     # 000:26 CONTTESTANT (sic)
    "aution": "auction",             # 000:49 AUTION (sic)
    "dide": "side",                  # 000:71 DIDE (sic)
    "openninglead": "opening lead",  # 000:63 OPENNINGLEAD (sic)
    "honor": "honour",               # 000:30 HONOR, WBF spelling Honour
    "premiumpoint": "premium points",  # 000:32 'Premium Point 奖分' (the duplicate of 000:45)
}

# Sentences that sit in a definition but belong to a definition lost from the text.
ORPHAN_SENTENCES: dict[str, str] = {
    "因原先发牌有误再重新发一次牌加以替代。": "redeal",   # 000:43, end of 花色 (SUIT)
}

# Laws whose whole body is a table (sub-heads and notes are captions of it).
WHOLE_BODY_TABLES = frozenset({"77"})

LEVELS: tuple[str, ...] = ("law", "section", "item", "subitem", "subsubitem")

# ---------------------------------------------------------------------------------------------
# patterns (matched on width-normalised, stripped lines; both full- and half-width punctuation)

CN_NUM = "[一二三四五六七八九十]+"
CHAPTER_RE = re.compile(rf"^第({CN_NUM})章\s*(.*)$")
PART_RE = re.compile(rf"^第({CN_NUM})部分\s*(.+)$")
GROUP_SECTION_RE = re.compile(rf"^第({CN_NUM})节\s*(.+)$")
LAW_RE = re.compile(r"^第(\d+)([条张])[：:]\s*(.*)$")          # 779 has the typo 第60张
WEB_LAW_ALONE_RE = re.compile(r"^第(\d+)条[：:]$")              # 003: title two lines below
LABEL_RES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("section", re.compile(r"^(?:([A-Z])\s*[．.]|[（(]([A-Z])[）)])\s*(.*)$")),  # A． / B ． / （A）
    ("item", re.compile(r"^(\d+)\s*[．.](?!\d)\s*(.*)$")),                       # 1. / 1．
    ("subitem", re.compile(r"^[（(]([a-z])[）)]\s*(.*)$")),                      # （a）
    ("subsubitem", re.compile(r"^[（(](\d+)[）)]\s*(.*)$")),                     # （1）
)
DEF_RE = re.compile(
    r"""^(?:(?P<t1>[^（(：:，,。]+)[（(](?P<k1>[^）)]+)[）)]     # 术语（KEY）
          |(?P<k2>[A-Za-z][A-Za-z ]*?)\s*(?P<t2>[\u4e00-\u9fff]+)  # Premium Point 奖分
          |(?P<t3>[\u4e00-\u9fff]+))                           # 宕墩 (no key)
        [：:](?P<body>.*)$""",
    re.VERBOSE,
)
DOC_SUBTITLE_RE = re.compile(r"^[（(]\d{4}年.*审定[）)]$")
TABLE_ROW_RE = re.compile(r"^\s|\S {2,}\S")            # 000: leading space or a run of spaces
NOTE_OPEN_RE = re.compile(r"[（(]注[：:]")
NOTE_MARKER_RE = re.compile(r"[（(]注")
WEB_JUNK_END = "展开阅读全文"
PUNCT_RE = re.compile(r"[，,。：:；;、（）()．.“”！？!?—－\-]")


# ---------------------------------------------------------------------------------------------
# small pure helpers


def _compact(s: str) -> str:
    return definition_key(s)


_CANONICAL_BY_COMPACT = {_compact(k): k for k in CANONICAL_KEYS}


def normalise_key(printed: str) -> str:
    """A printed English key as its canonical spelling: NFKC, misprints fixed, WBF spelling.

    >>> [normalise_key(k) for k in ('MATCH  POINT', 'CONTTESTANT', 'INTERNATIONAL  MATCH  POINT－IMP')]
    ['matchpoint', 'contestant', 'international matchpoint (imp)']
    """
    s = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", printed)).strip().lower()
    c = _compact(s)
    return KEY_ALIASES.get(c) or _CANONICAL_BY_COMPACT.get(c, s)


def key_slug(key: str) -> str:
    """Id segment of a key, as the WBF 2017 parser makes it: 'odd trick' -> 'odd-trick'."""
    return term_slug(key)


def key_compact(key: str) -> str:
    """`Clause.key` of a definition: 'adjusted score' -> 'adjustedscore' (joins with wbf2017)."""
    return term_key(key)


def extract_notes(text: str) -> list[str]:
    """Inline notes `（注：…）` as printed, brackets balanced (an ASCII `)` closes too: 000:805)."""
    notes = []
    for m in NOTE_OPEN_RE.finditer(text):
        depth = 0
        for j in range(m.start(), len(text)):
            ch = text[j]
            if ch in "（(":
                depth += 1
            elif ch in "）)":
                depth -= 1
                if depth == 0:
                    notes.append(text[m.start(): j + 1])
                    break
            elif ch == "\n":
                notes.append(text[m.start(): j])
                break
        else:
            notes.append(text[m.start():])
    return notes


def unbalanced(text: str) -> bool:
    """More opening than closing brackets (either width): a text cut short (000:76, 003:919)."""
    return sum(text.count(c) for c in "（(") > sum(text.count(c) for c in "）)")


def is_sentence(rest: str) -> bool:
    """A label followed by a sentence is text without a title (454 `C．当越序不叫…`, 1013 `5.…）`);
    titles never hold a `。` (416 `1.不是约定性叫牌，并且…` is a title)."""
    return "。" in rest
