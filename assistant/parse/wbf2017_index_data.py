"""Data of the WBF 2017 index (file 004): reference grammar, OCR fixes, glued headwords, defined terms,
search aliases, and the mapping of a printed reference token to its clause id (corpus-guide §4.6)."""

from __future__ import annotations

import re

from ..text import slug as text_slug

EDITION = "wbf2017"

INDEX_TITLE = "INDEX TO THE 2017 LAWS"
INDEX_FIRST_RE = re.compile(r"^Compiled by\b")            # the index body starts after this line
LAW_HEADING_RE = re.compile(r"^LAW\s+(\d+)\s*[-–]")
SUPERSCRIPT = "⁰¹²³⁴⁵⁶⁷⁸⁹"
FOOTNOTE_DEF_RE = re.compile(rf"^\s*([{SUPERSCRIPT}]+)")

# corpus-guide §4.6: \d{1,2}([A-G](\d(\([a-z]+\))*(\([ivx]+\))?)?)?
REF_GRAMMAR = r"\d{1,2}(?:[A-G](?:\d(?:\([a-z]+\))*(?:\([ivx]+\))?)?)?"
REF_RE = re.compile(rf"^{REF_GRAMMAR}$")
REF_PARTS_RE = re.compile(r"^(\d{1,2})(?:([A-G])(?:(\d)((?:\([a-z]+\))*))?)?$")
FOOTNOTE_TOKEN_RE = re.compile(r"(\d{1,2}) (second )?footnote")
TOKEN_RE = re.compile(r"\d{1,2} (?:second )?footnote|\S+")
# verify_counts.py's definition of a well-formed "Term<TAB>refs" line
WELL_FORMED_RE = re.compile(
    r"^[A-Za-z][^\t]*\t[0-9A-Za-z(), ]*\d[0-9A-Za-z(), ]*$"
    r"|^[A-Za-z][^\t]*\t(Definitions|Introduction)[0-9A-Za-z(), ]*$"
)

# OCR damage in headwords and terms (printed -> meant); applied before entries are built.
TERM_OCR: dict[str, str] = {
    "РАСК": "PACK",                       # Cyrillic letters
    "ΜΑΥ": "MAY",                         # Greek letters
    "DOURIE": "DOUBLE",                   # ghost headword, a garbled copy of the next line
    "REDUBLED": "REDOUBLED",              # ghost headword REDUBLED CONTRACT
    "Onderstanding": "Understanding",
    "Kalik": "Rank",
    "Sinditaleous": "Simultaneous",
    "Responsionity": "Responsibility",
}
GHOST_HEADWORDS = frozenset({"DOURIE", "REDUBLED CONTRACT"})

# Two headwords printed as one ALL-CAPS run (the no-space glues AUCTIONSee/SESSIONAt/TRICKArrangement
# are split by GLUE_RE).
GLUED_HEADWORDS: dict[str, tuple[str, ...]] = {
    "DEALER AND VULNERABILITY DECEPTION": ("DEALER AND VULNERABILITY", "DECEPTION"),
    "DEALER AND VULNERABILITY DECEPTION DECK": ("DEALER AND VULNERABILITY", "DECEPTION", "DECK"),
    "ORIENTATION AND PLACEMENT OF BOARD OVERTRICK": ("ORIENTATION AND PLACEMENT OF BOARD", "OVERTRICK"),
    "WAIVER OF RECTIFICATION WITHDRAWN ACTION": ("WAIVER OF RECTIFICATION", "WITHDRAWN ACTION"),
}
GLUE_RE = re.compile(r"([A-Z]{2,})(?=[A-Z][a-z])")

# The 64 WBF 2017 defined terms present in file 004 (Trick Points and Trump are lost, §4.4).
DEFINED_TERMS: tuple[str, ...] = (
    "Adjusted Score", "Alert", "Artificial call", "Auction", "Bid", "Board", "Call", "Cancelled",
    "Contestant", "Contract", "Deal", "Declarer", "Defender", "Denomination", "Double", "Dummy",
    "Event", "Extraneous", "Follow Suit", "Game", "Hand", "Honour", "Infraction",
    "International Matchpoint", "Irregularity", "Lead", "LHO", "Matchpoint", "Misinformation", "Odd Trick", "Opening Lead",
    "Opponent", "Overtrick", "Pack", "Partner", "Partscore", "Pass", "Penalty", "Penalty card",
    "Play", "Play period", "Premium Points", "Presumed Declarer", "Psychic call", "Rectification",
    "Redouble", "Retracted", "RHO", "Rotation", "Round", "Session", "Side", "Slam", "Sorted deck",
    "Suit", "Team", "Trick", "Tournament", "Turn", "Undertrick", "Unintended", "Visible Card",
    "Vulnerability", "Withdrawn",
)

# Everyday words a user types -> index headwords that cover them (for the search layer).
ALIASES: dict[str, tuple[str, ...]] = {
    "hesitation": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "huddle": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "break in tempo": ("TEMPO OR MANNER", "UNAUTHORIZED INFORMATION"),
    "renege": ("REVOKE",),
    "exposed card": ("PENALTY CARD", "VISIBLE CARD"),
    "ui": ("UNAUTHORIZED INFORMATION",),
    "mi": ("MISINFORMATION",),
}


slug = text_slug          # the one slug of a term (assistant.text)


DEFINED_SLUGS = frozenset(slug(t) for t in DEFINED_TERMS)
DEFINITION_ALIASES: dict[str, str] = {"imp": "international-matchpoint"}   # index headword -> definition slug


def ref_clause(token: str) -> str | None:
    """The law clause id a well-formed reference token denotes ('12C1(d)' -> wbf2017/law/12/C/1/d)."""
    m = REF_PARTS_RE.match(token)
    if not m or not REF_RE.match(token) or not 1 <= int(m.group(1)) <= 93:
        return None
    segs = [str(int(m.group(1)))]
    segs += [g for g in (m.group(2), m.group(3)) if g]
    segs += re.findall(r"\(([a-z]+)\)", m.group(4) or "")
    return f"{EDITION}/law/" + "/".join(segs)
