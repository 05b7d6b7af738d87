"""The search index: one document per clause and language, its BM25 tokens and its embedding.

Saved as the `index` artifact (plain files: params.json, docs.json, clauses.json, groups.json,
headwords.json, embeddings.npy with allow_pickle=False, and the BM25 columns), keyed by the corpus, the
code and data it reads and the model. `load_index()` rebuilds only when one of them changed.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable

import numpy as np

from ..artifact import artifact
from ..corpus import source_fingerprint
from ..editions import editions, newest_first
from ..model import Clause
from ..text import t2s
from .embedders import get_embedder, model_key
from .lexical import Lexical, tokenize

INDEX_VERSION = 2         # 2: BM25 columns saved as plain .npy (read without bm25s)
EMBED_CHARS = 320         # embedders see the start of long clauses (build time grows with length); BM25 sees all
SCENARIO_EDITION = "scenario"  # the edition field of situation documents (they belong to every edition)
SKIP_LEVELS = frozenset({"preface", "introduction", "chapter", "part"})


@dataclass(frozen=True)
class Doc:
    """One searchable unit: a clause in one language, with the law/article group it belongs to."""

    clause: str          # clause id
    edition: str
    lang: str
    group: str           # 'law:64', 'article:22', 'guandan:15', 'definition:dummy', 'policy:systems'
    kind: str = "clause" # clause | law (all text of a law, BM25 only) | tree (a clause with its
                         # sub-clauses, embeddings only) | index (a WBF index term pointing at the clause)
                         # | scenario (a table situation of the law in players' words; edition 'scenario')


@dataclass
class SearchIndex:
    """Everything a query needs, without parsing the corpus again."""

    params: dict[str, object]
    docs: list[Doc]
    clauses: dict[str, dict[str, object]]        # id -> {edition, level, title, text, parent}
    groups: dict[str, dict[str, object]]         # group -> {title per lang, clause ids per edition}
    headwords: dict[str, list[str]]              # WBF index term (lower case) -> clause ids
    lexical: Lexical
    embeddings: np.ndarray
    build_seconds: float = 0.0
    folder: Path | None = field(default=None, repr=False)


def group_of(c: Clause) -> str | None:
    """The result group of a clause: law number, CCBA 2018 article, Guandan article, definition, policy."""
    kind, path = c.id.kind, c.id.path
    if c.level in SKIP_LEVELS or kind in SKIP_LEVELS or not path:
        return None
    if kind == "law":
        return f"law:{path[0]}"
    if kind == "article":
        return f"guandan:{path[0]}" if editions()[c.edition].game == "guandan" else f"article:{path[0]}"
    if kind in ("definition", "policy"):
        return f"{kind}:{path[0]}"
    return None


def _title_chain(c: Clause, by_id: dict[str, Clause], lang: str) -> str:
    chain: list[str] = []
    cur: Clause | None = c
    while cur is not None:
        t = cur.title.get(lang) or (cur.term.get(lang) if cur.term else None)
        if t:
            chain.append(t)
        cur = by_id.get(cur.parent) if cur.parent else None
    return " / ".join(reversed(chain))


def _langs(c: Clause) -> list[str]:
    return sorted(set(c.text) | set(c.title) | set(c.term))


def clause_text(c: Clause, lang: str, footnotes: dict[str, object]) -> str:
    """The clause's own words in `lang`: text, inline notes, tables and footnotes."""
    parts = [c.text.get(lang, "")]
    if lang != "en":
        parts += list(c.notes)
    parts += list(c.tables)
    for fid in c.footnotes:
        f = footnotes.get(fid)
        if f is not None:
            parts.append(getattr(f, "text", {}).get(lang, ""))
    return "\n".join(p for p in parts if p)


def corpus_documents(corpus) -> tuple[list[Doc], list[str], list[str], dict, dict]:
    """Docs with their lexical and embedding texts, the clause store and the group table."""
    docs: list[Doc] = []
    lex_texts: list[str] = []
    emb_texts: list[str] = []
    clauses: dict[str, dict[str, object]] = {}
    groups: dict[str, dict[str, object]] = {}
    def add(doc: Doc, lex: str, emb: str) -> None:
        docs.append(doc)
        lex_texts.append(lex)
        emb_texts.append(t2s(emb[:EMBED_CHARS]) if emb else "")

    for ed in corpus.editions.values():
        by_id = ed.clauses
        whole: dict[tuple[str, str], list[str]] = {}
        own: dict[tuple[str, str], str] = {}
        for c in by_id.values():
            g = group_of(c)
            if g is None:
                continue
            info = groups.setdefault(g, {"title": {}, "clauses": {}, "root": {}})
            info["clauses"].setdefault(c.edition, []).append(c.id)  # type: ignore[attr-defined]
            if c.parent is None or c.parent not in by_id:
                info["root"].setdefault(c.edition, c.id)  # type: ignore[attr-defined]
                for lang, t in (c.title or c.term).items():
                    info["title"].setdefault(lang, t)  # type: ignore[attr-defined]
            texts = {lang: clause_text(c, lang, ed.footnotes) for lang in _langs(c)}
            clauses[c.id] = {"edition": c.edition, "level": c.level, "title": dict(c.title),
                             "term": dict(c.term), "text": texts, "parent": c.parent, "group": g}
            for lang in _langs(c):
                titles = _title_chain(c, by_id, lang)
                body = texts.get(lang, "")
                if not (titles or body):
                    continue
                add(Doc(c.id, c.edition, lang, g), f"{titles}\n{titles}\n{body}", f"{titles}: {body}")
                own[(c.id, lang)] = body
                root = info["root"].get(c.edition, c.id)  # type: ignore[attr-defined]
                whole.setdefault((str(root), lang), []).append(f"{titles}\n{body}")
        for (root, lang), parts in whole.items():
            if len(parts) > 1:
                add(Doc(root, ed.name, lang, str(clauses[root]["group"]), "law"), "\n".join(parts), "")
        for c in by_id.values():
            g = group_of(c)
            if g is None or not c.children:
                continue
            for lang in _langs(c):
                sub = [own.get((k, lang), "") for k in _descendants(c, by_id)]
                text = " ".join([_title_chain(c, by_id, lang) + ":", own.get((c.id, lang), ""), *sub])
                add(Doc(c.id, c.edition, lang, g, "tree"), "", text)
        if ed.name == "wbf2017":
            for e in ed.index:
                term = f"{e.term} ({e.headword.lower()})" if e.term else e.headword.lower()
                for cid in e.clauses:
                    if cid in clauses:
                        add(Doc(cid, ed.name, "en", str(clauses[cid]["group"]), "index"), term, term)
    add_scenarios(add, groups)
    return docs, lex_texts, emb_texts, clauses, groups


def add_scenarios(add, groups: dict[str, dict[str, object]]) -> None:
    """One document per table situation (assistant.search.scenarios), in its law's group; edition
    'scenario' because a situation belongs to the law in every edition, not to one text."""
    from .scenarios import load_scenarios

    for sc in load_scenarios():
        info = groups.get(sc.group)
        if info is None:            # a corpus without that law (a test's sub-corpus); tests check the keys
            continue
        roots: dict[str, str] = info["root"]  # type: ignore[assignment]
        root = next((roots[e] for e in newest_first() if e in roots), next(iter(roots.values())))
        add(Doc(root, SCENARIO_EDITION, sc.lang, sc.group, "scenario"), sc.text, sc.text)
        info.setdefault("situations", []).append(sc.text)  # type: ignore[attr-defined]  # docs' order



def _descendants(c: Clause, by_id: dict[str, Clause]) -> list[str]:
    out: list[str] = []
    for k in c.children:
        if k in by_id:
            out.append(k)
            out += _descendants(by_id[k], by_id)
    return out


def headword_table(corpus) -> dict[str, list[str]]:
    """WBF index: each headword and each sub-term (lower case) -> the clause ids it points to."""
    ed = corpus.editions.get("wbf2017")
    table: dict[str, list[str]] = {}
    for e in getattr(ed, "index", None) or []:
        for key in (e.headword, e.term):
            key = re.sub(r"\s+", " ", key or "").strip(" -–,.").lower()
            if len(key) < 3 or key.startswith("see "):
                continue
            ids = table.setdefault(key, [])
            for cid in e.clauses:
                if cid not in ids:
                    ids.append(cid)
    return {k: v for k, v in table.items() if v}


# change classes that make an answer differ between editions (not: unchanged, script, terms, rewording)
DIFFERING = {"substantive", "revised", "new", "removed", "restructured"}


def graph_differences(corpus, groups: dict[str, dict[str, object]]) -> None:
    """Record, per law group, which clauses changed in substance between editions (assistant.diff:
    1999 -> 2018 and 2018 -> wbf2017), as `changes` {clause id: [[other id, class], ...]}, and
    `differs_law` when the law changed subject. Search flags a result when a clause it shows is one
    of them. A law the differences layer cannot pair (BadDiffRequest, or a test's sub-corpus that the
    curated alignment does not fit) is left unmarked."""
    from ..diff.report import BadDiffRequest, diff_law
    from ..errors import CorpusParseError

    for g, info in groups.items():
        if not g.startswith("law:"):
            continue
        law = g.split(":", 1)[1]
        changes: dict[str, list[list[str]]] = {}
        law_subject = False
        try:
            diffs = [diff_law(corpus, law, "ccba1999", "ccba2018"), diff_law(corpus, law, "ccba2018", "wbf2017")]
        except (BadDiffRequest, CorpusParseError):   # CorpusParseError: a sub-corpus the alignment does not fit
            continue
        for d in diffs:
            law_subject |= d.subject_changed
            for p in d.pairs:
                if p.change not in DIFFERING:
                    continue
                for own, other in ((p.from_id, p.to_id), (p.to_id, p.from_id)):
                    if own:
                        changes.setdefault(own, []).append([other or "", p.change])
        info["changes"] = changes
        info["differs_law"] = law_subject


def alignment_rows(corpus, groups: dict[str, dict[str, object]]) -> None:
    """Record, per law group, the graph's alignment rows (assistant.graph.alignment.law_alignment): the
    counterpart clause of every law edition, row by row, so an answer card shows counterparts. A corpus
    the alignment cannot align (CorpusParseError: curated ids it lacks) gets no rows."""
    from ..errors import CorpusParseError
    from ..graph.alignment import law_alignment

    for g, info in groups.items():
        if g.startswith("law:"):
            try:
                rows = law_alignment(corpus, g.split(":", 1)[1])
            except CorpusParseError:
                # a corpus the curated alignment does not fit (a test's sub-corpus): no rows, and the
                # cards show each edition's best clause, as for articles
                return
            info["rows"] = [{e: (str(c) if c else None) for e, c in r.ids.items()} for r in rows]


def index_params(model: str | None) -> dict[str, object]:
    """What the index is built from: its format, the corpus, the code and data it reads, the model."""
    return {"version": INDEX_VERSION, "corpus": source_fingerprint(), "model": model_key(model)}


def index_key(params: dict[str, object]) -> str:
    return artifact("index").key(json.dumps(params, sort_keys=True))


def build_index(model: str | None = None, corpus=None) -> SearchIndex:
    """Parse (or take) the corpus and build docs, BM25 and embeddings in memory."""
    from ..corpus import load_corpus

    t0 = time.perf_counter()
    corpus = corpus or load_corpus()
    docs, lex_texts, emb_texts, clauses, groups = corpus_documents(corpus)
    graph_differences(corpus, groups)
    alignment_rows(corpus, groups)
    lexical = Lexical.build([tokenize(t) for t in lex_texts])
    embedder = get_embedder(model)
    rows = [i for i, t in enumerate(emb_texts) if t]
    vecs = embedder.encode([emb_texts[i] for i in rows])
    emb = np.zeros((len(docs), vecs.shape[1] if len(vecs) else 1), dtype=np.float32)
    emb[rows] = vecs
    return SearchIndex(index_params(model), docs, clauses, groups, headword_table(corpus), lexical, emb,
                       build_seconds=time.perf_counter() - t0)


def save_index(ix: SearchIndex, folder: Path) -> None:
    """Write the index's files into `folder` (same inputs, same bytes: JSON with sorted keys)."""
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / "embeddings.npy", ix.embeddings, allow_pickle=False)
    ix.lexical.save(folder / "bm25")
    for name, data in (("docs", [asdict(d) for d in ix.docs]), ("clauses", ix.clauses),
                       ("groups", ix.groups), ("headwords", ix.headwords)):
        (folder / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False, sort_keys=True),
                                             encoding="utf-8")
    params = dict(ix.params, docs=len(ix.docs))
    (folder / "params.json").write_text(json.dumps(params, indent=2, sort_keys=True), encoding="utf-8")


def read_index(folder: Path) -> SearchIndex:
    def j(name: str):
        return json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))

    params = j("params")
    return SearchIndex(params, [Doc(**d) for d in j("docs")], j("clauses"), j("groups"), j("headwords"),
                       Lexical.load(folder / "bm25"), np.load(folder / "embeddings.npy", allow_pickle=False),
                       build_seconds=float(params.get("build_seconds", 0.0)), folder=folder)


def load_index(model: str | None = None, rebuild: bool = False) -> SearchIndex:
    """The index for the current corpus, code and model: from disk if fresh, else built and saved."""
    art = artifact("index")
    params = index_params(model)
    key = index_key(params)
    ix, _ = art.get(key, lambda: build_index(model), save_index, read_index, force=rebuild)
    ix.folder = art.folder(key)
    return ix


def iter_groups(ix: SearchIndex, prefix: str) -> Iterable[str]:
    return (g for g in ix.groups if g.startswith(prefix))
