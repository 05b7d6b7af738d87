"""Lexical retrieval: one tokenizer for every language and script, and BM25 (bm25s) over its tokens.

Chinese is converted to simplified with OpenCC t2s (not s2twp: s2twp would rewrite the Taiwan terms
that the crosswalk matches on) and cut with jieba plus a user dictionary of the terminology labels;
English is lower-cased and stemmed (PyStemmer); stop words and punctuation are dropped.
"""

from __future__ import annotations

import json
import marshal
import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

from ..artifact import artifact
from ..text import t2s
from .vocab import load_vocabulary

TOKEN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[a-z]+|\d+")
EN_STOP = frozenset("""a an the of to in on at by for with from and or but if then than that this these those
is are was were be been being it its he his him she her they them their we our you your i my me do does did
has have had not no so as can may must shall should will would there here what which who whom when where
how why all any each such into out up down about after before while just only also very""".split())
ZH_STOP = frozenset("""的 了 是 在 和 与 或 及 也 就 都 而 又 被 把 将 对 于 为 以 之 其 该 此 这 那 个 一 有 没 没有 不 吗 呢 吧 啊
我 你 他 她 我们 你们 他们 她们 自己 什么 怎么 怎么办 怎样 如何 可以 能 能不能 要 会 还 这个 那个 时 时候 如果 但 但是 则 应 须 得 等""".split())
# How people ask, not what they ask about: dropped from questions only (the laws' own text keeps them),
# so that neither BM25 nor the coverage of the abstention rule counts "咋办" or "what now" as content.
QUERY_STOP = frozenset("""咋办 怎么算 怎么处理 如何处理 该怎么 怎么判 如何判 算不算 算数 行不行 可不可以 能不能 可以吗 合法吗
对吗 是不是 有没有 要不要 应该 该 一下 这样 那样 这种 请问 问题 处理 情况 哪个 呢 吗 吧 啊 呀 嘛 了 着
now what anyth happen ok okay pleas question exam realli just want thing someth could would""".split())
# seat names and table words the crosswalk lacks: without them jieba's new-word guessing glues a seat to
# the next word (南家手, 北家开) and the call is lost
TABLE_WORDS = ("东家", "南家", "西家", "北家", "庄家", "明手", "防家", "同伴", "上家", "下家",
               "开叫", "应叫", "争叫", "垫牌", "赢墩", "将吃")


@lru_cache(maxsize=1)
def _jieba():
    """jieba with the user words added; its prefix dictionary read from the `jieba` artifact when cached.

    jieba's own start (its 500,000-entry dictionary) takes 0.44 s; the ready dictionary with the user
    words, marshalled as an artifact keyed by jieba's version and the word list, 0.16 s.
    """
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    tk = jieba.Tokenizer()
    words = (*load_vocabulary().jieba_words(), *TABLE_WORDS)

    def build() -> tuple[dict[str, int], int]:
        for w in words:
            tk.add_word(w, freq=2000)
        return tk.FREQ, tk.total

    def write(state: tuple[dict[str, int], int], folder: Path) -> None:
        (folder / "dictionary.marshal").write_bytes(marshal.dumps(state))

    def read(folder: Path) -> tuple[dict[str, int], int]:
        freq, total = marshal.loads((folder / "dictionary.marshal").read_bytes())
        return dict(freq), int(total)

    art = artifact("jieba")
    (tk.FREQ, tk.total), _ = art.get(art.key(jieba.__version__, *words), build, write, read)
    tk.initialized = True
    return tk


@lru_cache(maxsize=1)
def _stemmer():
    import Stemmer

    return Stemmer.Stemmer("english")


def normalise(text: str) -> str:
    """Full-width to ASCII, traditional to simplified, lower case."""
    return t2s(unicodedata.normalize("NFKC", text)).lower()


def tokenize(text: str) -> list[str]:
    """Search tokens of `text`: jieba words (search mode) for Chinese, stems for English, digits."""
    return list(_tokens(normalise(text)))


@lru_cache(maxsize=64)
def _tokens(normalised: str) -> tuple[str, ...]:
    """The tokens of a normalised text, kept for the last few texts: one question is tokenized for BM25 and
    again for the incident reader's word model (a 1,000-character story costs a few milliseconds each time)."""
    out: list[str] = []
    stem = _stemmer().stemWord
    for run in TOKEN_RE.findall(normalised):
        if run[0].isascii():
            if run.isdigit() or run not in EN_STOP:
                out.append(run if run.isdigit() else stem(run))
        else:
            for w in _jieba().cut_for_search(run, HMM=True):
                if w not in ZH_STOP:
                    out.append(w)
    return tuple(out)


def query_tokens(text: str) -> list[str]:
    """Search tokens of a question: `tokenize` without the words that only make it a question."""
    return [t for t in tokenize(text) if t not in QUERY_STOP]


class Lexical:
    """A BM25 index over pre-tokenized documents; scores every document for a (weighted) query.

    Built with bm25s (Lucene BM25, k1 1.2, b 0.75), which precomputes each token's score in each
    document as a sparse column; queries only add columns, so a loaded index needs numpy alone
    (importing bm25s and scipy costs a cold start 0.2 s).
    """

    def __init__(self, data: np.ndarray, indices: np.ndarray, indptr: np.ndarray, num_docs: int,
                 vocab: dict[str, int]) -> None:
        self.data, self.indices, self.indptr = data, indices, indptr
        self.num_docs = int(num_docs)
        self.vocab = vocab
        self.idf = self._idf()

    @classmethod
    def build(cls, token_lists: Sequence[list[str]]) -> "Lexical":
        import bm25s
        from bm25s.tokenization import Tokenized

        # token ids in sorted order, so two builds of the same documents write the same bytes
        vocab = {tok: i for i, tok in enumerate(sorted({t for toks in token_lists for t in toks} | {""}))}
        ids = [[vocab[t] for t in toks] or [vocab[""]] for toks in token_lists]
        retriever = bm25s.BM25(k1=1.2, b=0.75)
        retriever.index(Tokenized(ids=ids, vocab=vocab), show_progress=False)
        m = retriever.scores
        return cls(np.asarray(m["data"]), np.asarray(m["indices"]), np.asarray(m["indptr"]),
                   int(m["num_docs"]), dict(retriever.vocab_dict))

    def save(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for name in ("data", "indices", "indptr"):
            np.save(folder / f"{name}.npy", getattr(self, name), allow_pickle=False)
        (folder / "vocab.json").write_text(json.dumps({"num_docs": self.num_docs, "vocab": self.vocab},
                                                      ensure_ascii=False, sort_keys=True), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> "Lexical":
        meta = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
        data, indices, indptr = (np.load(folder / f"{name}.npy", allow_pickle=False)
                                 for name in ("data", "indices", "indptr"))
        return cls(data, indices, indptr, meta["num_docs"], meta["vocab"])

    def _idf(self) -> dict[str, float]:
        """Per-token inverse document frequency (for query coverage), from the index's column sizes."""
        n = max(self.num_docs, 1)
        df = np.diff(self.indptr)
        idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
        return {tok: float(idf[i]) for tok, i in self.vocab.items() if i < len(idf) and tok}

    def docs_with(self, token: str) -> np.ndarray:
        """The documents that contain `token` (empty for an unknown token)."""
        i = self.vocab.get(token)
        if i is None:
            return np.zeros(0, dtype=self.indices.dtype)
        return self.indices[int(self.indptr[i]):int(self.indptr[i + 1])]

    def scores(self, tokens: Sequence[str], weights: Sequence[float] | None = None) -> np.ndarray:
        """BM25 score of every document; tokens may repeat; `weights` scale each token's contribution."""
        total = np.zeros(self.num_docs, dtype=np.float32)
        weights = weights or [1.0] * len(tokens)
        for t, w in zip(tokens, weights, strict=True):
            i = self.vocab.get(t)
            if i is None:
                continue
            a, b = int(self.indptr[i]), int(self.indptr[i + 1])
            np.add.at(total, self.indices[a:b], np.float32(w) * self.data[a:b])
        return total
