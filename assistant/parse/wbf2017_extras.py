"""Parse the parts of file 004 after the laws: the INDEX TO THE 2017 LAWS and the three WBF policies.

The index is a flattened two-column table full of OCR damage (duplicated lines, "snowball" blocks that
repeat a growing run of terms, glued headwords); the parser keeps every printed reference token and
maps the well-formed ones to clause ids syntactically. The policies become `wbf2017/policy/...` clauses
with numbered paragraphs, lost numbers restored by position (see corpus-guide §4.6, §4.8).

The work is done in `wbf2017_index` and `wbf2017_policies`; this module keeps the entry points
under their old names (corpus.PARSERS).
"""

from __future__ import annotations

from .wbf2017_index import (
           headword_map,
           parse_wbf2017_index,
           ref_clause,
           split_headwords,
)
from .wbf2017_policies import clean_policy_line, parse_wbf2017_policies, split_bilingual

__all__ = ["clean_policy_line", "headword_map", "parse_wbf2017_index", "parse_wbf2017_policies", "ref_clause",
           "split_bilingual", "split_headwords"]
