"""Scoring: the Law 77 table and the Law 78B IMP scale as data, and the pure functions over them.

The tables are `law77.yaml` and `law78b.yaml` (one transcription per edition, each value group with its
clause id and source lines), validated at load by `tables`; `contract` reads the notation players write
(`4HX+1`); `calc` computes `score()` and `imps()`; `commands` adds `bridgelaw score` and `bridgelaw imps`.
"""

from .calc import Cite, Imps, Part, Score, imps, score
from .contract import Contract, parse_contract
from .tables import ScoringDataError, imp_scales, law77_tables

__all__ = ["Cite", "Contract", "Imps", "Part", "Score", "ScoringDataError", "imp_scales", "imps",
           "law77_tables", "parse_contract", "score"]
