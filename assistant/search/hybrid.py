"""Hybrid search: the channels' evidence (assistant.search.channels) fused per law by a learned ranker
(assistant.search.fusion, models in assistant.search.learned), an answerability model deciding whether
the rulebooks answer the question at all, and answer cards of counterpart clauses (assistant.search.cards).

`HybridSearch().search(query, edition=None, lang=None, top=5) -> Answer`. Cited laws ("Law 27", "第64条")
come first. A result's score is the calibrated chance that it is the law the question is about; the
answer's confidence is "low" (with a "check these" message) when the ranking is unsure, and the answer
is declined only when the question is out of scope or nothing scores.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..editions import bridge_editions, editions
from ..incidents import load_incidents
from ..text import t2s
from .answer_text import question_lang, say
from .cards import aligned_card, best_clause_card, clause_scores
from .channels import Evidence, TopicSource, channel_scores
from .cite import Citation
from .differences import differences
from .embedders import encoder_text, get_embedder, model_key
from .explain import why
from .fusion import Tuning, candidates_of, channel_ranks, features, hand_fusion, story_weight
from .incident_model import IncidentModels, check_reading, law_matrices, load_incident_models, reading, segments
from .index import SearchIndex, load_index
from .learned import SUMMARY, Models, load_models
from .query import Query, scope_table, understand
from .results import Answer, ClauseHit, Result

__all__ = ["Answer", "ClauseHit", "HybridSearch", "METHODS", "Result", "Tuning"]

BRIDGE_EDITIONS = bridge_editions()
METHODS = ("lexical", "embedding", "headwords", "rulings", "scenarios", "incidents")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
SHOW = tuple((e.name, lang) for e in editions().values() for lang in e.languages)

@dataclass
class Analysis:
    """One question's evidence: the parsed query, document scores, channel scores per group, the hand
    fusion, the query vector and the answerability summaries."""

    q: Query
    ev: Evidence
    ch: dict[str, np.ndarray]
    valid: np.ndarray
    hand: np.ndarray
    qv: np.ndarray
    summary: np.ndarray
    topics: list[str] | None
    ranks: dict[str, np.ndarray] = field(default_factory=dict)    # each channel's group ranks (for `why`)
    incidents: np.ndarray | None = None                             # the incident reader's chances


class HybridSearch:
    """Search the corpus with every channel; results grouped by law across editions."""

    def __init__(self, model: str | None = None, index: SearchIndex | None = None,
                 tuning: Tuning | None = None, topics: TopicSource | None = None,
                 models: Models | None = None, incident_models: IncidentModels | None = None) -> None:
        self.model = model
        self.topics = topics
        self.ix = index or load_index(model)
        self.embedder = get_embedder(model)
        self.tuning = tuning or Tuning()
        self.models = models or load_models()
        ix = self.ix
        self.group_names = sorted(ix.groups)
        self.gpos = {g: i for i, g in enumerate(self.group_names)}
        self.doc_group = np.array([self.gpos[d.group] for d in ix.docs], dtype=np.int64)
        self.doc_edition = np.array([d.edition for d in ix.docs])
        self.doc_lang = np.array([d.lang for d in ix.docs])
        self.doc_kind = np.array([d.kind for d in ix.docs])
        self.doc_clause = [d.clause for d in ix.docs]
        self.group_kind = np.array([g.split(":", 1)[0] for g in self.group_names])
        self.weak = np.isin(self.group_kind, ["definition", "policy"])
        self.kind_is = {k: self.doc_kind == k for k in ("clause", "law", "tree", "index", "scenario")}
        self._masks: dict[tuple[str, str | None, str | None], np.ndarray] = {}
        self.situation_docs = {g: np.flatnonzero((self.doc_group == i) & (self.doc_kind == "scenario"))
                               for g, i in self.gpos.items()}
        self.incidents = load_incidents()
        readers = incident_models or load_incident_models(self.incidents)
        self.incident_reader = readers.for_embedder(model_key(model))
        self.window_reader = readers.for_windows()
        self.incident_ids = self.incident_reader.ids
        group_of = {cid: str(rec["group"]) for cid, rec in ix.clauses.items()}
        primary, listed = law_matrices(self.incidents, self.incident_ids, self.gpos, group_of)
        self.incident_laws = {"incident_primary": primary, "incident_listed": listed}

    def clause_titles(self, clause_id: str) -> dict[str, str] | None:
        """A clause's titles by language, from the index (no corpus parse); None for an unknown id."""
        rec = self.ix.clauses.get(clause_id)
        return dict(rec["title"]) if rec is not None else None  # type: ignore[call-overload]

    # ---------- evidence ----------
    def doc_mask(self, game: str, edition: str | None, lang: str | None) -> np.ndarray:
        """The documents a question searches (a fresh copy: callers may change it)."""
        key = (game, edition, lang)
        if key not in self._masks:
            self._masks[key] = self._doc_mask(game, edition, lang)
        return self._masks[key].copy()

    def _doc_mask(self, game: str, edition: str | None, lang: str | None) -> np.ndarray:
        eds = (str(scope_table()["guandan"]["edition"]),) if game == "guandan" else BRIDGE_EDITIONS  # type: ignore[index]
        mask = np.isin(self.doc_edition, [e for e in eds if edition in (None, e)])
        if lang:
            mask &= self.doc_lang == lang
        if game != "guandan":
            # table situations speak for their law in every edition and in any language of the question;
            # a group still needs a clause in the mask to be a result (`valid`)
            mask |= self.doc_kind == "scenario"
        return mask

    def method_scores(self, q: Query) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(BM25, cosine, query vector) of every document (whole-law documents have no cosine: -1)."""
        t = self.tuning
        lex = self.ix.lexical.scores(q.tokens + q.expansion, [1.0] * len(q.tokens) + [t.expansion] * len(q.expansion))
        qv = self.embedder.encode([encoder_text(t2s(q.text))])[0]
        emb = self.ix.embeddings @ qv if self.ix.embeddings.shape[1] == qv.shape[0] else np.zeros(len(self.ix.docs))
        return lex, np.where(self.kind_is["law"], -1.0, emb), qv

    @staticmethod
    def within(lex: np.ndarray, emb: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The document scores inside `mask`: BM25 0 and cosine -1 outside."""
        return np.where(mask, lex, 0.0), np.where(mask, emb, -1.0)

    def coverage(self, q: Query, doc: int) -> float:
        """Share of the query's idf mass whose tokens occur in document `doc` (unknown tokens count)."""
        idf = self.ix.lexical.idf
        toks = list(dict.fromkeys(q.tokens))
        if not toks:
            return 0.0
        top = max(idf.values()) if idf else 1.0
        total = hit = 0.0
        for tk in toks:
            w = idf.get(tk, top)
            total += w
            if doc in self.ix.lexical.docs_with(tk):
                hit += w
        return hit / total if total else 0.0

    def summary(self, q: Query, lex: np.ndarray, emb: np.ndarray, topics: list[str] | None) -> np.ndarray:
        """The answerability model's retrieval summaries (learned.SUMMARY), none from table situations
        (they are the model's own training examples)."""
        k = self.kind_is
        best_lex = int(np.argmax(np.where(k["clause"], lex, 0)))
        cover = self.coverage(q, best_lex) if lex[best_lex] > 0 else 0.0
        cos_clause = float(np.where(k["clause"] | k["tree"], emb, -1.0).max()) if len(emb) else 0.0
        cos_index = float(np.where(k["index"], emb, -1.0).max()) if len(emb) else 0.0
        values = {"cos_clause": cos_clause, "cos_index": cos_index, "coverage": cover,
                  "bm25_max": float(np.log1p(lex[best_lex])), "n_tokens": float(np.log1p(len(q.tokens))),
                  "zh": float(bool(CJK.search(q.text))), "headwords": float(bool(q.headwords)),
                  "terms": float(np.log1p(len(q.terms))), "topics": min(len(topics or ()), 2) / 2.0}
        return np.array([values[k] for k in SUMMARY], dtype=np.float64)

    def analyse(self, query: str, edition: str | None = None, lang: str | None = None,
                methods: tuple[str, ...] = METHODS, exclude: np.ndarray | None = None) -> Analysis:
        """Everything the decision and the ranking read, for one question (also the training features;
        `exclude`: documents a training question must not see, its own copies in the index)."""
        q = understand(query, self.ix, edition)
        mask = self.doc_mask(q.game, edition, lang)
        if exclude is not None:
            mask[exclude] = False
        raw_lex, raw_emb, qv = self.method_scores(q)
        lex, emb = self.within(raw_lex, raw_emb, mask)
        # whether the rulebooks answer it does not depend on the edition or language shown
        scope_lex, scope_emb = self.within(raw_lex, raw_emb, self.doc_mask(q.game, None, None))
        matched = list(self.topics(q.text)) if self.topics is not None else []
        p_inc = p_seg = None
        if "incidents" in methods and q.game != "guandan":
            p_inc = self.read_incidents(q.text, qv)
            p_seg = self.read_segments(q.text, p_inc)
        ev = Evidence(q, lex, emb, mask, matched, p_inc, p_seg)
        ch = channel_scores(self, ev, methods)
        valid = np.zeros(len(self.group_names), dtype=bool)
        valid[np.unique(self.doc_group[mask & ~self.kind_is["scenario"]])] = True
        rk = channel_ranks(ch, valid)
        hand = hand_fusion(ch, valid, self.weak, bool(CJK.search(q.text)), self.tuning, rk)
        topics = [t for t, _laws in matched] if self.topics is not None else None
        return Analysis(q, ev, ch, valid, hand, qv, self.summary(q, scope_lex, scope_emb, topics), topics, rk, p_inc)

    def read_incidents(self, text: str, qv: np.ndarray) -> np.ndarray:
        """The incident reader's chance of each incident (order: self.incident_ids)."""
        return self.incident_reader.probabilities(text, qv)

    def read_segments(self, text: str, whole: np.ndarray) -> np.ndarray:
        """Each incident's best chance over the story's windows (incident_model.segments, read without the
        encoder), and over the whole text; the whole text's reading for a text too short to cut."""
        return np.max([whole, *(self.window_reader.probabilities(w, None) for w in segments(text))], axis=0)

    def ranking(self, a: Analysis, methods: tuple[str, ...]) -> tuple[np.ndarray, bool]:
        """(score per group, calibrated): the learned ranker's chances with every channel on; the hand
        fusion (relative scores) for a run restricted to some channels (bench/retrieval.py columns)."""
        cand = candidates_of(a.ch, a.valid)
        if set(methods) != set(METHODS):
            return np.where(cand, a.hand, 0.0), False
        x = features(a.ch, a.valid, self.group_kind, bool(CJK.search(a.q.text)), a.hand, self.tuning.rrf_k, a.ranks,
                     story_weight(a.q.text))
        return self.models.ranker.probabilities(x, cand), True

    # ---------- answers ----------
    def searched(self, q: Query, edition: str | None, lang: str | None) -> dict[str, object]:
        gd = scope_table()["guandan"]
        eds = [str(gd["edition"])] if q.game == "guandan" else [e for e in BRIDGE_EDITIONS if edition in (None, e)]  # type: ignore[index]
        return {"game": q.game, "editions": eds, "lang": lang or "all", "tokens": q.tokens,
                "expanded": q.terms, "headwords": sorted(q.headwords),
                "citations": [c.text for c in q.citations], "model": self.ix.params.get("model")}

    def search(self, query: str, edition: str | None = None, lang: str | None = None, top: int = 5,
               methods: tuple[str, ...] = METHODS, reading: str | None = None) -> Answer:
        """Answer a question: results best first, or answered=False when it is out of scope or nothing scores.
        `reading`: an incident the user chose as the reading of the question (its laws come first)."""
        if reading is not None:
            check_reading(reading, self.incidents)
        a = self.analyse(query, edition, lang, methods)
        q, top = a.q, max(1, min(int(top), 50))
        searched = self.searched(q, edition, lang)
        scores, calibrated = self.ranking(a, methods)
        cited = [c for c in q.citations if c.group in self.gpos]
        p_ans = self.models.answerability(model_key(self.model)).probability(a.qv, a.summary, q.text)
        searched["support"] = {"cosine": round(float(a.summary[0]), 3), "coverage": round(float(a.summary[2]), 3),
                               "answerable": round(p_ans, 3)}
        # a Guandan question is in scope by its own markers (scope.yaml): answered when its rules score
        asked_in = question_lang(q.text)
        out_of_scope = q.game != "guandan" and p_ans < self.models.decline_threshold(asked_in)
        if not cited and reading is None and (scores.max() <= 0 or out_of_scope):
            return Answer(q.text, False, [], searched, say("declined", lang or asked_in),
                          a.topics, confidence="low")
        order = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        cited_pos = [self.gpos[c.group] for c in cited]
        chosen = self.reading_groups(reading)
        order = list(dict.fromkeys(cited_pos + chosen + order))[:top]
        norm = scores if calibrated else scores / max(float(scores.max()), 1e-9)
        lex = a.ev.lex
        doc_score = lex / (lex.max() or 1.0) + np.clip(a.ev.emb, 0, None)     # picks each result's clauses
        results = [self.result(a, gi, 1.0 if gi in cited_pos else float(norm[gi]), cited, lang, doc_score)
                   for gi in order]
        high = bool(cited) or (calibrated and float(scores.max()) >= self.models.high_from)
        ans = Answer(q.text, True, results, searched, rulings=a.topics, confidence="high" if high else "low",
                     did_you_mean=self.did_you_mean(cited, lang), reading=self.reading_of(a, reading))
        if not high:
            ans.message = say("low", lang or asked_in)
        return ans

    def reading_groups(self, reading: str | None) -> list[int]:
        """The result groups of a chosen reading: its primary clause's law in each edition."""
        if reading is None:
            return []
        firsts = [cs[0] for cs in self.incidents[reading].laws.values() if cs]
        return list(dict.fromkeys(self.gpos[str(self.ix.clauses[c]["group"])] for c in firsts
                                  if c in self.ix.clauses))

    def reading_of(self, a: Analysis, forced: str | None) -> list[dict[str, object]]:
        """How the question was read: the incidents found (or chosen), each with its titles, chance and
        primary clause per edition."""
        if a.incidents is None and forced is None:
            return []
        p = a.incidents if a.incidents is not None else np.zeros(len(self.incident_ids))
        out: list[dict[str, object]] = []
        for iid, chance in reading(p, self.incident_ids, forced):
            inc = self.incidents[iid]
            out.append({"incident": iid, "title": dict(inc.title), "confidence": round(chance, 3),
                        "laws": {ed: cs[0] for ed, cs in inc.laws.items() if cs}})
        return out

    def did_you_mean(self, cited: list[Citation], lang: str | None) -> list[dict[str, str]]:
        """The other reading of each ambiguous 第N条 citation: the article for a law, the law for an article."""
        out: list[dict[str, str]] = []
        for c in cited:
            if c.alternative and c.alternative in self.gpos:
                kind, number = c.alternative.split(":", 1)
                titles: dict[str, str] = self.ix.groups[c.alternative].get("title", {})  # type: ignore[assignment]
                out.append({kind: number, "typed": c.text,
                            "title": titles.get(lang or "", "") or next(iter(titles.values()), "")})
        return out

    def result(self, a: Analysis, gi: int, score: float, cited: list[Citation], lang: str | None,
               doc_score: np.ndarray) -> Result:
        """One result: its counterpart clauses, whether the editions differ, and why it came up."""
        g = self.group_names[gi]
        kind, number = g.split(":", 1)
        info = self.ix.groups[g]
        ids = [cid for c in cited if c.group == g for cid in c.clauses]
        title_map: dict[str, str] = info.get("title", {})  # type: ignore[assignment]
        title = title_map.get(lang or "", "") or next(iter(title_map.values()), "")
        in_group = (self.doc_group == gi) & a.ev.mask & ~self.kind_is["scenario"]
        score_of = clause_scores(self.doc_clause, doc_score, in_group)
        eds = set(self.doc_edition[in_group])
        show = [(e, lg) for e, lg in SHOW if e in eds and lang in (None, lg)]
        rows: list[dict[str, str | None]] | None = info.get("rows")  # type: ignore[assignment]
        card = aligned_card(rows, score_of, show, self.ix.clauses, ids) if rows else None
        if card is None:
            members = [c for ed_ids in dict(info["clauses"]).values() for c in ed_ids if c in self.ix.clauses]  # type: ignore[call-overload]
            card = best_clause_card(members, score_of, show, self.ix.clauses, ids)
        differs, changes = differences(info, g, card, self.ix.clauses)
        reason = why(self, a, gi, bool(ids), card)
        return Result(kind, number, score, differs, title, card.hits, cited=bool(ids), changes=changes,
                      why=reason, no_counterpart=card.no_counterpart, exceptions=card.exceptions)
