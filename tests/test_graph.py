"""The law graph: shapes, IRIs, terminology links, article links, SPARQL safety, cache and determinism."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rdflib import RDF, SKOS, Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic
from typer.testing import CliRunner

from assistant.graph import store
from assistant.graph.build import BuildReport, GraphDataError, add_article_links, build_graph
from assistant.graph.namespaces import (BL, ELI, GRAPH_GUANDAN, GRAPH_LAWS, GRAPH_TERMS, ID, clause_iri,
                                        concept_iri, expression_iri)
from assistant.graph.sparql import SparqlError, SparqlRefused, SparqlTimeout, check_read_only, run_query
from assistant.graph.validate import VOCABULARY_FILE, assert_valid, validate

REVOKE_QUERY = """
SELECT ?form ?edition WHERE {
  ?concept skos:prefLabel|skos:altLabel ?en .
  FILTER (lang(?en) = "en" && lcase(str(?en)) = "revoke")
  ?concept bl:editionLabel ?label .
  ?label skosxl:literalForm ?form ; bl:edition ?edition .
}"""


@pytest.fixture(scope="session")
def built(corpus):
    report = BuildReport()
    return build_graph(corpus, report=report), report


@pytest.fixture(scope="session")
def graph(built) -> Dataset:
    return built[0]


def small_copy(graph: Dataset) -> Graph:
    """The guandan named graph: self-contained (its own work, clauses and citations) and small."""
    g = Graph()
    for t in graph.graph(GRAPH_GUANDAN):
        g.add(t)
    return g


# ---------------------------------------------------------------------------------------------- shapes


def test_the_built_graph_conforms_to_the_shapes(graph):
    assert_valid(graph)              # raises GraphInvalid with the first violations


def test_a_clean_copy_passes_and_corrupted_copies_fail(graph):
    clean = small_copy(graph)
    assert validate(clean)[0]

    untagged = small_copy(graph)
    node = clause_iri("guandan2017/article/15")
    untagged.add((node, BL.text, Literal("没有语言标签的文本")))
    ok, report = validate(untagged)
    assert not ok and "tagged zh-Hans, zh-Hant or en" in report

    wrong_tag = small_copy(graph)
    wrong_tag.add((node, BL.text, Literal("日本語", lang="ja")))
    assert not validate(wrong_tag)[0]

    numberless = small_copy(graph)
    numberless.remove((node, BL.number, None))
    ok, report = validate(numberless)
    assert not ok and "exactly one number" in report

    dangling = small_copy(graph)
    corr = ID["correspondence/test"]
    dangling.add((corr, RDF.type, BL.Correspondence))
    dangling.add((corr, BL.changeClass, BL.same))
    dangling.add((corr, BL["from"], node))
    dangling.add((corr, BL.to, clause_iri("guandan2017/article/99")))
    ok, report = validate(dangling)
    assert not ok and "ends at an existing clause" in report


def test_every_bl_term_in_the_graph_is_declared_in_the_vocabulary(graph):
    vocab = Graph().parse(VOCABULARY_FILE)
    declared = set(vocab.subjects())
    used = {p for p in graph.predicates() if str(p).startswith(str(BL))}
    used |= {o for o in graph.objects(None, RDF.type) if str(o).startswith(str(BL))}
    used |= set(graph.objects(None, BL.changeClass))
    assert used and used <= declared, sorted(used - declared)


# ---------------------------------------------------------------------------------------------- structure


def test_iris_follow_the_clause_ids(graph):
    node = URIRef("https://bridgelaw.example/id/wbf2017/law/64/A/1")
    assert node == clause_iri("wbf2017/law/64/A/1")
    assert (node, RDF.type, ELI.LegalResourceSubdivision) in graph
    assert graph.value(node, BL.number) == Literal("1")
    assert graph.value(node, ELI.is_part_of) == clause_iri("wbf2017/law/64/A")
    texts = {o.language for o in graph.objects(node, BL.text)}
    assert texts == {"en", "zh-Hant"}


def test_works_expressions_and_the_translation(graph):
    for edition in ("ccba1999", "ccba2018", "wbf2017", "guandan2017"):
        assert (ID[edition], RDF.type, ELI.LegalResource) in graph
    assert set(graph.objects(ID.wbf2017, ELI.is_realized_by)) == {expression_iri("wbf2017", "en"),
                                                                  expression_iri("wbf2017", "zh-Hant")}
    part2 = expression_iri("ccba2018/part/2", "zh-Hans")
    assert graph.value(part2, ELI.realizes) == clause_iri("ccba2018/part/2")
    assert graph.value(part2, ELI.is_translation_of) == expression_iri("wbf2017", "en")


def test_every_clause_of_the_corpus_is_a_subdivision(graph, corpus):
    for ed in corpus.editions.values():
        for cid in ed.clauses:
            assert (clause_iri(cid), RDF.type, ELI.LegalResourceSubdivision) in graph, cid


def test_guandan_lives_in_its_own_named_graph(graph):
    laws, guandan = graph.graph(GRAPH_LAWS), graph.graph(GRAPH_GUANDAN)
    prefix = str(ID) + "guandan2017"
    assert not any(str(s).startswith(prefix) for s in laws.subjects())
    assert (clause_iri("guandan2017/article/15"), RDF.type, BL.Article) in guandan
    assert not any(str(s).startswith(str(ID) + "wbf2017") for s in guandan.subjects())


def test_no_blank_nodes(graph):
    from rdflib import BNode

    assert not any(isinstance(t, BNode) for q in graph.quads((None, None, None, None)) for t in q[:3])


# ---------------------------------------------------------------------------------------------- terms


def test_revoke_reaches_both_chinese_terms_in_one_query(graph):
    rows = {(r["form"], r["edition"].rsplit("/", 1)[-1]) for r in run_query(graph, REVOKE_QUERY).rows}
    assert {("藏牌", "ccba1999"), ("藏牌", "ccba2018"), ("應跟未跟", "wbf2017")} <= rows


def test_every_definition_defines_a_curated_concept(graph, built, corpus):
    assert built[1].uncurated_definitions == []
    for edition in ("ccba1999", "ccba2018", "wbf2017"):
        for d in corpus.editions[edition].definitions():
            concept = graph.value(clause_iri(d.id), BL.definesConcept)
            assert concept is not None and (concept, RDF.type, SKOS.Concept) in graph, d.id


def test_collisions_are_edition_scoped_labels(graph):
    q = """SELECT ?concept WHERE { ?concept bl:editionLabel ?l . ?l skosxl:literalForm "违规"@zh-Hans ;
                                   bl:edition id:%s }"""
    assert [r["concept"] for r in run_query(graph, q % "ccba1999").rows] == [str(concept_iri("irregularity"))]
    assert [r["concept"] for r in run_query(graph, q % "ccba2018").rows] == [str(concept_iri("infraction"))]
    hidden = set(graph.graph(GRAPH_TERMS).objects(concept_iri("auction"), SKOS.hiddenLabel))
    assert Literal("口以海", lang="zh-Hant") in hidden


def test_clauses_are_linked_to_the_concepts_they_mention(graph):
    mentioned = set(graph.objects(clause_iri("ccba1999/definition/revoke"), BL.mentions))
    assert concept_iri("revoke") in mentioned
    q = f"SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE {{ ?c bl:mentions <{concept_iri('revoke')}> ; bl:edition id:wbf2017 }}"
    assert int(run_query(graph, q).rows[0]["n"]) >= 3
    concepts = set(graph.subjects(RDF.type, SKOS.Concept))
    assert set(graph.objects(None, BL.mentions)) <= concepts          # not in the shapes: too slow there


# ---------------------------------------------------------------------------------------------- links


def test_citations_and_correspondences_are_in_the_graph(graph):
    assert len(set(graph.subjects(RDF.type, BL.Citation))) > 1000
    unresolved = list(graph.subjects(BL.status, Literal("unresolved")))
    assert unresolved and all(graph.value(n, BL.reason) for n in unresolved)
    kinds = set(graph.objects(None, BL.changeClass))
    assert {BL.same, BL.differentSubject} <= kinds
    assert (clause_iri("wbf2017/law/64"), BL.correspondsTo, clause_iri("ccba2018/law/64")) in graph
    for corr in graph.subjects(RDF.type, BL.Correspondence):            # pairs have both sides
        if graph.value(corr, BL.changeClass) not in (BL.new, BL.removed):
            assert graph.value(corr, BL["from"]) and graph.value(corr, BL.to), corr


@pytest.mark.parametrize("article, relation, law", [
    ("22", BL.specifies, "wbf2017/law/74/B/4"),
    ("22", BL.specifies, "wbf2017/law/90"),
    ("52", BL.implements, "wbf2017/law/90"),
    ("56", BL.overrides, "ccba2018/part/2"),
    ("54", BL.implements, "wbf2017/law/92"),
])
def test_articles_are_linked_to_the_laws(graph, article, relation, law):
    assert (clause_iri(f"ccba2018/article/{article}"), relation, clause_iri(law)) in graph


def test_all_57_articles_have_a_link_with_a_note(graph):
    for n in range(1, 58):
        node = clause_iri(f"ccba2018/article/{n}")
        assert any(graph.objects(node, p) for p in (BL.implements, BL.specifies, BL.overrides)), n
        assert graph.value(node, BL.linkNote) is not None, n


def test_an_unknown_law_in_the_article_data_is_rejected(tmp_path):
    bad = tmp_path / "articles.yaml"
    bad.write_text("source: test\narticles:\n  22:\n    specifies: [wbf2017/law/74/B/9]\n", encoding="utf-8")
    with pytest.raises(GraphDataError, match="wbf2017/law/74/B/9"):
        add_article_links(Graph(), {"ccba2018/article/22"}, bad)


# ---------------------------------------------------------------------------------------------- SPARQL


UPDATES = [
    "INSERT DATA { <urn:a> <urn:b> <urn:c> }",
    "insert data { <urn:a> <urn:b> <urn:c> }",
    "# just a comment\nDELETE WHERE { ?s ?p ?o }",
    "SELECT * WHERE { ?s ?p ?o } ; InSeRt DATA { <urn:a> <urn:b> <urn:c> }",
    "PREFIX x: <urn:x#>\n# SELECT * WHERE { ?s ?p ?o }\nDELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "LOAD <http://example.org/data.ttl>",
    "CLEAR ALL", "drop graph <urn:g>", "CREATE GRAPH <urn:g>", "ADD DEFAULT TO <urn:g>",
    "MOVE DEFAULT TO <urn:g>", "COPY DEFAULT TO <urn:g>",
    "WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
]


@pytest.mark.parametrize("update", UPDATES)
def test_sparql_updates_are_refused_and_the_graph_is_unchanged(graph, update):
    before = len(graph)
    with pytest.raises(SparqlRefused) as err:
        run_query(graph, update)
    assert err.value.exit_code == 2 and "refused" in str(err.value) and " — " in str(err.value)
    assert len(graph) == before


def test_harmless_words_inside_strings_are_not_refused(graph):
    check_read_only('SELECT ?s WHERE { ?s bl:text ?t FILTER(CONTAINS(?t, "delete")) } # insert')
    assert run_query(graph, 'ASK { ?s bl:keyPrinted "Insert" }').json == {"head": {}, "boolean": False}


def test_sparql_errors_and_timeout(graph):
    with pytest.raises(SparqlError, match="syntax"):
        run_query(graph, "SELEKT * WHERE { ?s ?p ?o }")
    with pytest.raises(SparqlError, match="empty"):
        run_query(graph, "  ")
    with pytest.raises(SparqlTimeout, match="longer than"):
        run_query(graph, "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }", timeout=0.3)


def test_sparql_json_results(graph):
    r = run_query(graph, f"SELECT ?t WHERE {{ <{clause_iri('wbf2017/law/64')}> eli:title ?t }}")
    assert r.json["head"]["vars"] == ["t"]
    assert {b["t"]["xml:lang"] for b in r.json["results"]["bindings"]} == {"en", "zh-Hant"}


# ---------------------------------------------------------------------------------------------- determinism and cache


def test_two_builds_are_isomorphic(graph, corpus):
    again = build_graph(corpus)
    for name in (GRAPH_LAWS, GRAPH_GUANDAN, GRAPH_TERMS):
        # without blank nodes isomorphism is set equality; rdflib's canonical check on the small graphs too
        assert set(graph.graph(name)) == set(again.graph(name)), name
    assert isomorphic(graph.graph(GRAPH_GUANDAN), again.graph(GRAPH_GUANDAN))


def test_cache_file_round_trips(graph, tmp_path):
    sample = Dataset()                    # every kind of term: IRIs, tagged texts, integers, dates, decimals
    for name in (GRAPH_GUANDAN, GRAPH_TERMS):
        for t in graph.graph(name):
            sample.graph(name).add(t)
    for t in graph.graph(GRAPH_LAWS).triples((None, BL.similarity, None)):
        sample.graph(GRAPH_LAWS).add(t)
    path = tmp_path / "graph.json"
    store.dump(sample, path)
    loaded = store.load(path)
    assert len(loaded) == len(sample) > 5000
    for name in (GRAPH_LAWS, GRAPH_GUANDAN, GRAPH_TERMS):
        assert set(sample.graph(name)) == set(loaded.graph(name)), name


def _tiny_corpus(root: Path) -> Path:
    root.mkdir()
    (root / "manifest.yaml").write_text(
        "editions: {}\nsources:\n  s:\n    file: a.txt\n    edition: x\n    format: ccba1999\n", encoding="utf-8")
    (root / "a.txt").write_text("第1条：牌\n", encoding="utf-8")
    return root


def test_cache_rebuilds_only_when_a_source_or_the_code_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path / "cache"))
    root = _tiny_corpus(tmp_path / "corpus")
    builds: list[Path] = []

    def builder(r: Path) -> Dataset:
        builds.append(r)
        ds = Dataset()
        ds.graph(GRAPH_LAWS).add((ID.x, BL.number, Literal(str(len(builds)))))
        return ds

    first = store.cached_graph(root, builder)
    second = store.cached_graph(root, builder)
    assert (first.rebuilt, second.rebuilt, len(builds)) == (True, False, 1)
    assert isomorphic(first.dataset.graph(GRAPH_LAWS), second.dataset.graph(GRAPH_LAWS))

    (root / "a.txt").write_text("第1条：牌张\n", encoding="utf-8")            # a source changes
    assert store.cached_graph(root, builder).rebuilt and len(builds) == 2
    assert not store.cached_graph(root, builder).rebuilt

    from assistant import artifact

    monkeypatch.setattr(artifact, "code_fingerprint", lambda *a: "other code")   # the code changes
    assert store.cached_graph(root, builder).rebuilt and len(builds) == 3
    assert not store.cached_graph(root, builder).rebuilt
    kept = artifact.artifact("graph").kept
    assert len(list((tmp_path / "cache" / "graph").glob("*/graph.json"))) <= kept   # stale builds removed


# ---------------------------------------------------------------------------------------------- CLI


@pytest.fixture()
def cli(graph, monkeypatch):
    from assistant.cli import app

    monkeypatch.setattr(store, "load_graph", lambda root=None: graph)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_cli_refs_and_its_errors(cli):
    r = cli("refs", "wbf2017/law/64/A", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert any(c["source"].startswith("wbf2017/law/45") for c in data["cited_by"])
    assert any(p["id"] == "ccba2018/law/64/A" for p in data["counterparts"])
    r = cli("refs", "wbf2017/law/64/Z")
    assert r.exit_code == 1 and "nearest existing clause: wbf2017/law/64" in r.output


def test_cli_sparql(cli):
    r = cli("sparql", "ASK { id:ccba1999 a eli:LegalResource }", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["boolean"] is True
    r = cli("sparql", "DELETE WHERE { ?s ?p ?o }")
    assert r.exit_code == 2 and "refused" in r.output


def test_cli_graph_stats_and_export(cli, graph, tmp_path, monkeypatch):
    r = cli("graph", "stats", "--json")
    assert r.exit_code == 0, r.output
    stats = json.loads(r.output)
    assert stats["graphs"]["guandan2017"] > 0 and stats["citations"]["resolved"] > 1000
    small = Dataset()                     # serialising 70 000 triples as JSON-LD is slow: export a part
    for t in graph.graph(GRAPH_GUANDAN):
        small.graph(GRAPH_GUANDAN).add(t)
    monkeypatch.setattr(store, "load_graph", lambda root=None: small)
    r = cli("graph", "export", "--format", "ttl")
    assert r.exit_code == 0 and "eli:LegalResourceSubdivision" in r.output
    out = tmp_path / "g.jsonld"
    r = cli("graph", "export", "--format", "jsonld", "--out", str(out))
    assert r.exit_code == 0 and len(json.loads(out.read_text(encoding="utf-8"))) >= 1
    r = cli("graph", "export", "--format", "xml")
    assert r.exit_code == 2 and "choose from" in r.output
