"""Hybrid search: BM25 and embeddings fused at law level, grouped across editions, declining when
nothing applies.

`HybridSearch().search(query, edition=None, lang=None, top=5) -> Answer`. Each method scores every
clause document; scores are pooled per group (law number, CCBA 2018 article, Guandan article,
definition, policy) and the group rankings are fused with weighted reciprocal ranks, with the rankings of
each law's table situations (data/scenarios), the laws of a matching ruling tree and the WBF index
headwords the query names. Cited laws ("Law 27", "第64条") come first. A result lists, per edition and
language, the clause that matched best, and says whether the editions differ.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from typing import Callable, Sequence

import numpy as np

from ..editions import bridge_editions, editions
from ..model import ClauseId
from ..text import t2s
from .embedders import get_embedder
from .index import SearchIndex, load_index
from .query import Query, scope_table, understand

BRIDGE_EDITIONS = bridge_editions()
METHODS = ("lexical", "embedding", "headwords", "rulings", "scenarios")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
MAX_CHANGES_SHOWN = 12      # changed clauses listed per result (a whole law can have dozens)
SHOW = tuple((e.name, lang) for e in editions().values() for lang in e.languages)


@dataclass
class Tuning:
    """Fusion and abstention parameters (tuned on the dev set only; see bench/retrieval.py)."""

    lexical: float = 1.0          # weight of the BM25 group ranking (clause and whole-law documents)
    embedding: float = 0.7        # weight of the embedding group ranking (clause and sub-tree documents)
    embedding_zh: float = 0.7     # the same for Chinese questions (USE is weaker on Chinese than on English)
    index: float = 0.3            # weight of the embedding ranking of WBF index terms
    headwords: float = 0.1        # share of the top score added for WBF index headwords named verbatim
    rrf_k: float = 20.0           # reciprocal-rank constant
    expansion: float = 0.3        # weight of crosswalk expansion tokens in BM25
    definitions: float = 0.5      # weight of definition/policy groups (they answer few questions)
    rulings: float = 0.3          # weight of the laws a matching ruling tree rests on (by share of its cites)
    rulings_topics: int = 2       # how many matching trees count
    scenarios_lexical: float = 1.0    # weight of the BM25 ranking of table situations (data/scenarios)
    scenarios_embedding: float = 0.5  # weight of the embedding ranking of table situations
    scenarios_k: int = 10             # BM25 of situations: the k best situations overall vote for their laws
    # law-level aggregation: a group's score is its best clause plus these shares of its 2nd, 3rd best
    # (a law whose several clauses match is likelier than one with a single lucky clause)
    pool_shares: tuple[float, ...] = (1.0, 0.5, 0.25)
    # abstention: decline when the best clause's cosine is below the threshold for the query's script
    # (English queries score lower against the bilingual corpus than Chinese ones) and the best BM25
    # clause covers less than `decline_cover` of the query's idf mass
    decline_sim_en: float = 0.30
    decline_sim_zh: float = 0.39
    decline_cover: float = 0.50
    decline_cover_lexical: float = 0.15   # lexical-only runs (bench): coverage alone


@dataclass
class ClauseHit:
    id: str
    edition: str
    lang: str
    title: str
    text: str


@dataclass
class Result:
    """One law (or article, definition, policy) with its best clause in each edition and language."""

    kind: str                 # law | article | guandan | definition | policy
    number: str               # '64', '22', 'dummy', 'systems'
    score: float
    differs: bool
    title: str
    clauses: list[ClauseHit] = field(default_factory=list)
    cited: bool = False
    changes: list[dict[str, str]] = field(default_factory=list)   # shown clauses that changed, and how

    def to_json(self) -> dict[str, object]:
        key = {"law": "law", "article": "article", "guandan": "article"}.get(self.kind, self.kind)
        out: dict[str, object] = {key: self.number}
        if self.kind == "guandan":
            out["game"] = "guandan"
            out["source"] = str(scope_table()["guandan"]["name"])  # type: ignore[index]
        out.update({"score": round(self.score, 4), "differs": self.differs, "title": self.title,
                    "cited": self.cited, "clauses": [asdict(c) for c in self.clauses]})
        if self.changes:
            out["changes"] = self.changes
        return out


@dataclass
class Answer:
    """The answer to one question: results best first, or answered=False with what was searched."""

    query: str
    answered: bool
    results: list[Result]
    searched: dict[str, object]
    message: str = ""
    rulings: list[str] | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"query": self.query, "answered": self.answered,
                                  "results": [r.to_json() for r in self.results], "searched": self.searched}
        if self.message:
            out["message"] = self.message
        if self.rulings is not None:
            out["rulings"] = self.rulings
        return out


# the ruling-topic channel, supplied by the caller (search does not import rulings): for a question,
# the matching topics best first, each with the laws (or 'article:N') its rulings rest on and their shares
TopicSource = Callable[[str], Sequence[tuple[str, tuple[tuple[str, float], ...]]]]


def _ranks(scores: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """1-based rank of each group by score (ties share order); inf where invalid or score <= 0."""
    order = np.argsort(-scores, kind="stable")
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.arange(1, len(scores) + 1)
    ranks[~valid | (scores <= 0)] = np.inf
    return ranks


class HybridSearch:
    """Search the corpus with BM25 + embeddings; results grouped by law across editions."""

    def __init__(self, model: str | None = None, index: SearchIndex | None = None,
                 tuning: Tuning | None = None, topics: TopicSource | None = None) -> None:
        self.model = model
        self.topics = topics
        self.ix = index or load_index(model)
        self.embedder = get_embedder(model)
        self.tuning = tuning or Tuning()
        ix = self.ix
        self.group_names = sorted(ix.groups)
        gpos = {g: i for i, g in enumerate(self.group_names)}
        self.doc_group = np.array([gpos[d.group] for d in ix.docs], dtype=np.int64)
        self.doc_edition = np.array([d.edition for d in ix.docs])
        self.doc_lang = np.array([d.lang for d in ix.docs])
        self.doc_kind = np.array([d.kind for d in ix.docs])
        self.group_kind = np.array([g.split(":", 1)[0] for g in self.group_names])
        self.gpos = gpos
        self._differs: dict[str, bool] = {}     # filled per result group on first use (a cold start skips it)

    def clause_titles(self, clause_id: str) -> dict[str, str] | None:
        """A clause's titles by language, from the index (no corpus parse); None for an unknown id."""
        rec = self.ix.clauses.get(clause_id)
        return dict(rec["title"]) if rec is not None else None  # type: ignore[call-overload]

    # ---------- scoring ----------
    def doc_mask(self, game: str, edition: str | None, lang: str | None) -> np.ndarray:
        eds = (str(scope_table()["guandan"]["edition"]),) if game == "guandan" else BRIDGE_EDITIONS  # type: ignore[index]
        mask = np.isin(self.doc_edition, [e for e in eds if edition in (None, e)])
        if lang:
            mask &= self.doc_lang == lang
        if game != "guandan":
            # table situations speak for their law in every edition and in any language of the question;
            # a group still needs a clause in the mask to be a result (see fuse: `valid`)
            mask |= self.doc_kind == "scenario"
        return mask

    def method_scores(self, q: Query, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(BM25, cosine) score of every document, zero outside the mask."""
        t = self.tuning
        lex = self.ix.lexical.scores(q.tokens + q.expansion, [1.0] * len(q.tokens) + [t.expansion] * len(q.expansion))
        qv = self.embedder.encode([t2s(q.text)])[0]
        emb = self.ix.embeddings @ qv if self.ix.embeddings.shape[1] == qv.shape[0] else np.zeros(len(self.ix.docs))
        lex = np.where(mask, lex, 0.0)
        emb = np.where(mask & (self.doc_kind != "law"), emb, -1.0)
        return lex, emb

    def pool(self, doc_scores: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """Group score = its best document among `docs` (a boolean mask); 0 for groups without one."""
        best = np.zeros(len(self.group_names), dtype=np.float64)
        np.maximum.at(best, self.doc_group[docs], doc_scores[docs])
        return best

    def pool_top(self, doc_scores: np.ndarray, docs: np.ndarray) -> np.ndarray:
        """Group score = shares-weighted sum of its best documents among `docs` (see Tuning.pool_shares)."""
        shares = np.asarray(self.tuning.pool_shares, dtype=np.float64)
        idx = np.flatnonzero(docs)
        if len(shares) <= 1 or not len(idx):
            return self.pool(doc_scores, docs)
        grp = self.doc_group[idx]
        order = np.lexsort((-doc_scores[idx], grp))           # by group, best first within a group
        grp, sc = grp[order], doc_scores[idx][order]
        starts = np.flatnonzero(np.r_[True, grp[1:] != grp[:-1]])
        pos = np.arange(len(grp)) - np.repeat(starts, np.diff(np.r_[starts, len(grp)]))
        keep = pos < len(shares)
        out = np.zeros(len(self.group_names), dtype=np.float64)
        np.add.at(out, grp[keep], sc[keep] * shares[pos[keep]])
        return out

    def pool_knn(self, doc_scores: np.ndarray, docs: np.ndarray, k: int) -> np.ndarray:
        """Group score = sum of the scores of its documents among the k best of `docs` overall (a
        nearest-neighbour vote: only the closest few count, however many documents a group has)."""
        idx = np.flatnonzero(docs & (doc_scores > 0))
        if len(idx) > k:
            idx = idx[np.argsort(-doc_scores[idx], kind="stable")[:k]]
        out = np.zeros(len(self.group_names), dtype=np.float64)
        np.add.at(out, self.doc_group[idx], doc_scores[idx])
        return out

    def fuse(self, q: Query, lex: np.ndarray, emb: np.ndarray, mask: np.ndarray,
             methods: tuple[str, ...] = METHODS) -> np.ndarray:
        """Weighted reciprocal-rank fusion of the group rankings of each method."""
        t = self.tuning
        valid = np.zeros(len(self.group_names), dtype=bool)
        valid[np.unique(self.doc_group[mask & (self.doc_kind != "scenario")])] = True
        fused = np.zeros(len(self.group_names), dtype=np.float64)
        kind = self.doc_kind
        if "lexical" in methods:
            # clauses pooled over the best few; a whole-law document competes with that sum
            lex_g = np.maximum(self.pool_top(lex, mask & (kind == "clause")), self.pool(lex, mask & (kind == "law")))
            fused += t.lexical / (t.rrf_k + _ranks(lex_g, valid))
        if "embedding" in methods:
            w_emb = t.embedding_zh if CJK.search(q.text) else t.embedding
            fused += w_emb / (t.rrf_k + _ranks(self.pool_top(emb + 1.0, mask & (kind == "clause")), valid))
            if t.index and (mask & (kind == "index")).any():
                fused += t.index / (t.rrf_k + _ranks(self.pool(emb + 1.0, mask & (kind == "index")), valid))
        if "scenarios" in methods and (mask & (kind == "scenario")).any():
            # words: the k best situations overall vote for their laws (a law's own best three, as for
            # clauses, let a law with many loosely matching situations outrank the closest ones);
            # embeddings: the closest situation only (pooling them favoured the laws with the most situations)
            sc = mask & (kind == "scenario")
            if t.scenarios_lexical:
                fused += t.scenarios_lexical / (t.rrf_k + _ranks(self.pool_knn(lex, sc, t.scenarios_k), valid))
            if t.scenarios_embedding:
                fused += t.scenarios_embedding / (t.rrf_k + _ranks(self.pool(emb + 1.0, sc), valid))
        if "headwords" in methods and q.headwords and fused.max() > 0:
            hw = np.zeros(len(self.group_names))
            for ids in q.headwords.values():
                gs = {str(self.ix.clauses[c]["group"]) for c in ids if c in self.ix.clauses}
                for g in gs:
                    hw[self.gpos[g]] += 1.0 / len(gs)
            if hw.max() > 0:
                fused += t.headwords * fused.max() * hw / hw.max() * valid
        if "rulings" in methods and t.rulings:
            fused += t.rulings * self.topic_boost(q.text) * valid
        weak = np.isin(self.group_kind, ["definition", "policy"])
        fused[weak] *= t.definitions
        fused[~valid] = 0.0
        return fused

    def topic_boost(self, text: str) -> np.ndarray:
        """Reciprocal-rank votes for the laws that the ruling trees matching the question rest on.

        A director's question names a situation (a dropped card, a hesitation); the tree for that
        situation knows which laws rule it, which neither the words nor the embedding may show.
        """
        boost = np.zeros(len(self.group_names), dtype=np.float64)
        if self.topics is None:
            return boost
        for _topic, laws in list(self.topics(text))[: self.tuning.rulings_topics]:
            for rank, (law, _share) in enumerate(laws, start=1):
                g = law if ":" in law else f"law:{law}"
                if g in self.gpos:
                    boost[self.gpos[g]] += 1.0 / (self.tuning.rrf_k + rank)
        return boost

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

    # ---------- results ----------
    def _differences(self, g: str, hits: list[ClauseHit]) -> tuple[bool, list[dict[str, str]]]:
        """Whether the answer differs between editions, from the clauses shown: a shown clause that
        changed in substance (assistant.diff classes), or a law whose subject changed."""
        info = self.ix.groups[g]
        changes_map: dict[str, list[list[str]]] = info.get("changes")  # type: ignore[assignment]
        if changes_map is None:
            if g not in self._differs:
                self._differs[g] = self._text_differs(g)
            return self._differs[g], []
        out: list[dict[str, str]] = []
        for cid in dict.fromkeys(h.id for h in hits):
            # the clause shown, or a clause under it (64B shown; 64B7 and 64B8 are new)
            for changed in (k for k in changes_map if k == cid or k.startswith(cid + "/")):
                for other, cls in changes_map[changed]:
                    out.append({"id": changed, "counterpart": other, "class": cls})
        return bool(out) or bool(info.get("differs_law")), out[:MAX_CHANGES_SHOWN]

    def _text_differs(self, g: str) -> bool:
        """Editions differ when the graph's alignment says so; else when 1999 and 2018 texts diverge."""
        info = self.ix.groups[g]
        roots: dict[str, str] = info.get("root", {})  # type: ignore[assignment]
        if "differs" in info:                       # from the graph's edition alignment
            return bool(info["differs"])
        if not g.startswith("law:") or "ccba1999" not in roots or "ccba2018" not in roots:
            return False

        def law_text(ed: str) -> tuple[str, set[str]]:
            ids: list[str] = info["clauses"].get(ed, [])
            secs = {p[1] for p in (ClauseId.parse(i).path for i in ids) if len(p) > 1}
            text = "".join(str(self.ix.clauses[i]["text"].get("zh-Hans", "")) for i in ids)
            return re.sub(r"\W", "", text), secs

        a, sa = law_text("ccba1999")
        b, sb = law_text("ccba2018")
        if sa != sb:
            return True
        ratio = SequenceMatcher(None, a[:1500], b[:1500], autojunk=False).ratio() if a and b else 0.0
        return ratio < 0.5

    def _clauses(self, g: int, doc_score: np.ndarray, mask: np.ndarray, lang: str | None,
                 cited: list[str]) -> list[ClauseHit]:
        ix = self.ix
        in_group = np.flatnonzero((self.doc_group == g) & mask)
        hits: list[ClauseHit] = []
        chosen: dict[str, str] = {}
        for cid in cited:
            chosen[str(ix.clauses[cid]["edition"])] = cid
        for ed in dict.fromkeys(e for e, _ in SHOW):
            if ed in chosen:
                continue
            shown = [lg for e, lg in SHOW if e == ed and lang in (None, lg)]
            # a clause with something to show in the languages shown (not a bare heading like 43A1)
            cand = [i for i in in_group if self.doc_edition[i] == ed and self._has_text(ix.docs[i].clause, shown)]
            if cand:
                best = max(cand, key=lambda i: doc_score[i])
                chosen[ed] = ix.docs[best].clause
        for ed, lg in SHOW:
            if ed not in chosen or (lang and lg != lang):
                continue
            c = ix.clauses[chosen[ed]]
            text = str(c["text"].get(lg, ""))
            title = str(c["title"].get(lg, "") or c.get("term", {}).get(lg, ""))
            if text or title:
                hits.append(ClauseHit(chosen[ed], ed, lg, title, text))
        return hits

    def _has_text(self, clause_id: str, langs: list[str]) -> bool:
        c = self.ix.clauses[clause_id]
        return any(c["text"].get(lg) or c["title"].get(lg) for lg in langs)

    def searched(self, q: Query, edition: str | None, lang: str | None) -> dict[str, object]:
        gd = scope_table()["guandan"]
        eds = [str(gd["edition"])] if q.game == "guandan" else [e for e in BRIDGE_EDITIONS if edition in (None, e)]  # type: ignore[index]
        return {"game": q.game, "editions": eds, "lang": lang or "all", "tokens": q.tokens,
                "expanded": q.terms, "headwords": sorted(q.headwords),
                "citations": [c.text for c in q.citations], "model": self.ix.params.get("model")}

    def search(self, query: str, edition: str | None = None, lang: str | None = None, top: int = 5,
               methods: tuple[str, ...] = METHODS) -> Answer:
        """Answer a question: results best first, or answered=False when no clause applies."""
        q = understand(query, self.ix, edition)
        top = max(1, min(int(top), 50))
        mask = self.doc_mask(q.game, edition, lang)
        lex, emb = self.method_scores(q, mask)
        fused = self.fuse(q, lex, emb, mask, methods)
        searched = self.searched(q, edition, lang)
        cited = [c for c in q.citations if c.group in self.gpos]
        # abstention: nothing cited, and neither method found real support
        best_doc_lex = int(np.argmax(np.where(self.doc_kind == "clause", lex, 0)))
        cover = self.coverage(q, best_doc_lex) if lex[best_doc_lex] > 0 else 0.0
        best_sim = float(np.where(np.isin(self.doc_kind, ["index", "scenario"]), -1.0, emb).max()) if len(emb) else 0.0
        searched["support"] = {"cosine": round(best_sim, 3), "coverage": round(cover, 3)}
        t = self.tuning
        sim_floor = t.decline_sim_zh if CJK.search(q.text) else t.decline_sim_en
        if "embedding" in methods:
            weak = best_sim < sim_floor and ("lexical" not in methods or cover < t.decline_cover)
        else:
            weak = cover < t.decline_cover_lexical
        decline = not cited and (weak or fused.max() <= 0)
        rulings = [t for t, _laws in self.topics(q.text)] if self.topics is not None else None
        if decline:
            where = ", ".join(searched["editions"])  # type: ignore[arg-type]
            return Answer(q.text, False, [], searched,
                          f"no applicable clause found — searched {where} — "
                          "rephrase with the situation at the table, or cite a law (\"Law 64\")", rulings)
        order = [int(i) for i in np.argsort(-fused, kind="stable") if fused[i] > 0]
        cited_pos = [self.gpos[c.group] for c in cited]
        order = list(dict.fromkeys(cited_pos + order))[:top]
        doc_score = lex / (lex.max() or 1.0) + np.clip(emb, 0, None)
        results: list[Result] = []
        top_score = max(float(fused.max()), 1e-9)
        for rank, gi in enumerate(order):
            g = self.group_names[gi]
            kind, number = g.split(":", 1)
            ids = [cid for c in cited if c.group == g for cid in c.clauses]
            title_map: dict[str, str] = self.ix.groups[g].get("title", {})  # type: ignore[assignment]
            title = title_map.get(lang or "", "") or next(iter(title_map.values()), "")
            score = 1.0 if gi in cited_pos else float(fused[gi]) / top_score
            hits = self._clauses(gi, doc_score, mask, lang, ids)
            differs, changes = self._differences(g, hits)
            results.append(Result(kind, number, score, differs, title, hits, cited=gi in cited_pos,
                                  changes=changes))
        return Answer(q.text, True, results, searched, rulings=rulings)
