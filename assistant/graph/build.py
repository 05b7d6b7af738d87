"""Build the law graph (an rdflib Dataset) from the clause model, with the rdflib API only.

Named graphs: `id/graph/laws` (the three bridge editions, their citations, alignments and article-law
links), `id/graph/guandan2017` (the other card game, kept apart) and `id/graph/terms` (SKOS concepts).
There are no blank nodes: every node has an IRI derived from ids, so two builds are isomorphic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Iterable

import yaml
from rdflib import RDF, RDFS, SKOS, XSD, Dataset, Graph, Literal, URIRef

from ..corpus import Corpus, Edition
from ..editions import editions, newest_first
from ..errors import BridgelawError
from ..model import LANGS, ClauseId
from ..terminology import BRIDGE_EDITIONS, Concept, Label, Terminology, load_terminology
from .align import align_editions
from .citations import extract_citations
from .namespaces import (BL, CONCEPT_SCHEME, ELI, EU_LANGUAGE, GRAPH_LAWS, GRAPH_TERMS, PREFIXES,
                         SEPARATE_GRAPHS, SKOSXL, change_class_iri, citation_iri, clause_iri,
                         concept_iri, correspondence_iri, edition_iri, expression_iri, label_iri)

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
ARTICLES_FILE = DATA_DIR / "articles_laws.yaml"

# clause level -> class (all are also eli:LegalResourceSubdivision)
LEVEL_CLASS: dict[str, URIRef] = {
    "law": BL.Law, "section": BL.Section, "item": BL.Item, "subitem": BL.Item, "subsubitem": BL.Item,
    "subsubsubitem": BL.Item, "article": BL.Article, "definition": BL.Definition, "policy": BL.Policy,
    "paragraph": BL.Paragraph, "preface": BL.Preface, "introduction": BL.Preface,
}
# kind of a heading id's last keyword -> class: ccba2018/part/1, ccba1999/chapter/5/part/1/section/2
HEADING_CLASS: dict[str, URIRef] = {"part": BL.Part, "chapter": BL.Chapter, "section": BL.Division}
# expressions that translate another one: (resource id, language) -> (resource id, language)
TRANSLATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("ccba2018/part/2", "zh-Hans"): ("wbf2017", "en"),
    ("wbf2017", "zh-Hant"): ("wbf2017", "en"),
}
# correspondence kinds whose two clauses share their content (get the bl:correspondsTo shortcut)
SAME_CONTENT = {"same", "renumbered", "moved", "merged", "split", "revised"}
ARTICLE_RELATIONS: dict[str, URIRef] = {"implements": BL.implements, "specifies": BL.specifies,
                                        "overrides": BL.overrides}
MAIN_LANG: dict[str, str] = {name: e.main_language for name, e in editions().items()}


class GraphDataError(BridgelawError):
    """The clause model or a curated data file holds something the graph cannot represent."""

    exit_code = 3


@dataclass
class BuildReport:
    """What the builder had to improvise: definitions without a curated concept, and the like."""

    uncurated_definitions: list[str] = field(default_factory=list)   # definition ids given a fallback concept


def new_dataset() -> Dataset:
    """An empty Dataset whose default graph is the union of the named graphs, prefixes bound."""
    ds = Dataset(default_union=True)
    for prefix, ns in PREFIXES.items():
        ds.bind(prefix, ns, override=True, replace=True)
    return ds


def text(value: str, lang: str) -> Literal:
    """A text literal; only zh-Hans, zh-Hant and en are allowed (the SHACL shapes check it too)."""
    if lang not in LANGS:
        raise GraphDataError(f"text in language {lang!r} — the graph allows only {', '.join(LANGS)} — "
                             "fix the parser that produced it")
    return Literal(value, lang=lang)


def string(value: object) -> Literal:
    """A plain literal (RDF 1.1: datatype xsd:string) for codes, keys and file names, never prose."""
    return Literal(str(value))


def integer(value: int) -> Literal:
    return Literal(int(value), datatype=XSD.integer)


# ---------------------------------------------------------------------------------------------- editions


def add_edition(g: Graph, name: str, meta: dict[str, object], files: list[str]) -> None:
    """The work of an edition, its source files and one expression per language."""
    work = edition_iri(name)
    for file in files:
        g.add((work, BL.sourceFile, string(file)))
    g.add((work, RDF.type, ELI.LegalResource))
    g.add((work, RDF.type, BL.Edition))
    g.add((work, RDFS.label, string(name)))
    g.add((work, BL.game, string(meta.get("game", "bridge"))))
    titles: dict[str, str] = meta.get("title") or {}  # type: ignore[assignment]
    for lang, title in titles.items():
        g.add((work, ELI.title, text(str(title), lang)))
    if meta.get("version_date"):
        g.add((work, ELI.version_date, Literal(str(meta["version_date"]), datatype=XSD.date)))
    if meta.get("version"):
        g.add((work, ELI.version, string(meta["version"])))
    for lang in _languages(meta):
        add_expression(g, name, work, lang)


def _languages(meta: dict[str, object]) -> list[str]:
    langs = [str(x) for x in (meta.get("languages") or [])]  # type: ignore[attr-defined]
    return [lang for lang in langs if lang in LANGS]


def add_expression(g: Graph, resource_id: str, work: URIRef, lang: str) -> URIRef:
    expr = expression_iri(resource_id, lang)
    g.add((expr, RDF.type, ELI.LegalExpression))
    g.add((expr, ELI.realizes, work))
    g.add((work, ELI.is_realized_by, expr))
    g.add((expr, ELI.language, EU_LANGUAGE[lang]))
    g.add((expr, BL.languageTag, string(lang)))
    original = TRANSLATIONS.get((resource_id, lang))
    if original:
        g.add((expr, ELI.is_translation_of, expression_iri(*original)))
    return expr


def add_headings(g: Graph, ed: Edition) -> set[str]:
    """Parts, chapters and chapter divisions as subdivisions; returns their ids."""
    ids = {ch.id for ch in ed.chapters} | {c.part for c in ed.clauses.values() if c.part}
    work = edition_iri(ed.name)
    by_id = {ch.id: ch for ch in ed.chapters}
    for hid in sorted(ids):
        segs = hid.split("/")
        node = clause_iri(hid)
        g.add((node, RDF.type, ELI.LegalResourceSubdivision))
        g.add((node, RDF.type, HEADING_CLASS.get(segs[-2], BL.Division)))
        g.add((node, BL.edition, work))
        g.add((node, BL.level, string(segs[-2])))
        g.add((node, BL.number, string(segs[-1])))
        parent = "/".join(segs[:-2])
        g.add((node, ELI.is_part_of, clause_iri(parent) if parent in ids else work))
        ch = by_id.get(hid)
        if ch is not None:
            if ch.title:
                g.add((node, ELI.title, text(ch.title, ch.lang)))
            _add_source(g, node, ch.source)
        for lang in _languages(ed.meta):
            if (hid, lang) in TRANSLATIONS:
                add_expression(g, hid, node, lang)
    return ids


def _add_source(g: Graph, node: URIRef, source: object) -> None:
    """First and last source line (the file is on the edition: bl:sourceFile)."""
    if source is None:
        return
    g.add((node, BL.firstLine, integer(source.first)))         # type: ignore[attr-defined]
    g.add((node, BL.lastLine, integer(source.last)))           # type: ignore[attr-defined]


def add_clauses(g: Graph, ed: Edition, headings: set[str]) -> None:
    """Every clause as an eli:LegalResourceSubdivision with number, level, edition, texts, source lines."""
    work = edition_iri(ed.name)
    for pos, c in enumerate(ed.clauses.values()):
        node = clause_iri(c.id)
        g.add((node, RDF.type, ELI.LegalResourceSubdivision))
        cls = LEVEL_CLASS.get(c.level)
        if cls is not None:
            g.add((node, RDF.type, cls))
        g.add((node, BL.edition, work))
        g.add((node, BL.level, string(c.level)))
        g.add((node, BL.number, string(c.number or (c.id.path[-1] if c.id.path else c.id.kind))))   # preface: 'preface'
        g.add((node, BL.position, integer(pos)))
        container = c.parent or (c.chapter if c.chapter in headings else None) or \
            (c.part if c.part in headings else None)
        g.add((node, ELI.is_part_of, clause_iri(container) if container else work))
        for lang, value in c.title.items():
            if value:
                g.add((node, ELI.title, text(value, lang)))
        for lang, value in c.text.items():
            if value:
                g.add((node, BL.text, text(value, lang)))
        lang = MAIN_LANG.get(ed.name, "en")
        for note in c.notes:
            g.add((node, BL.note, text(note, lang)))
        for table in c.tables:
            g.add((node, BL.table, text(table, lang)))
        for lang, term in c.term.items():
            if term:
                g.add((node, BL["term"], text(term, lang)))
        if c.key:
            g.add((node, BL.key, string(c.key)))
        if c.key_printed:
            g.add((node, BL.keyPrinted, string(c.key_printed)))
        _add_source(g, node, c.source)


def add_footnotes(g: Graph, ed: Edition) -> None:
    """Footnotes as subdivisions of the clause holding their marker (level 'footnote')."""
    work = edition_iri(ed.name)
    for fn in ed.footnotes.values():
        node = clause_iri(fn.id)
        g.add((node, RDF.type, ELI.LegalResourceSubdivision))
        g.add((node, RDF.type, BL.Footnote))
        g.add((node, BL.edition, work))
        g.add((node, BL.level, string("footnote")))
        g.add((node, BL.number, string(fn.number)))
        g.add((node, ELI.is_part_of, clause_iri(fn.clause) if fn.clause else work))
        for lang, value in fn.text.items():
            if value:
                g.add((node, BL.text, text(value, lang)))
        if fn.clause:
            g.add((node, BL.footnoteOf, clause_iri(fn.clause)))
            g.add((clause_iri(fn.clause), BL.hasFootnote, node))
        _add_source(g, node, fn.source)


# ---------------------------------------------------------------------------------------------- terms


def add_concept(g: Graph, c: Concept) -> URIRef:
    """A SKOS concept: one prefLabel per language, altLabels for the other editions' words,
    hiddenLabels for OCR forms, and every label again as an edition-scoped skosxl:Label."""
    node = concept_iri(c.id)
    g.add((node, RDF.type, SKOS.Concept))
    g.add((node, SKOS.inScheme, CONCEPT_SCHEME))
    g.add((node, SKOS.notation, string(c.id)))
    pref: dict[str, str] = {}
    for edition in newest_first():                            # the newest wording is preferred
        for lb in c.labels:
            if lb.role == "pref" and lb.edition == edition:
                pref.setdefault(lb.lang, lb.form)
    for lang, form in pref.items():
        g.add((node, SKOS.prefLabel, text(form, lang)))
    for lb in c.labels:
        lit = text(lb.form, lb.lang)
        if lb.role == "hidden":
            g.add((node, SKOS.hiddenLabel, lit))
        elif pref.get(lb.lang) != lb.form:
            g.add((node, SKOS.altLabel, lit))
        xl = label_iri(c.id, lb.edition, lb.lang, lb.role, lb.form)
        g.add((node, BL.editionLabel, xl))
        g.add((xl, RDF.type, SKOSXL.Label))
        g.add((xl, SKOSXL.literalForm, lit))
        g.add((xl, BL.edition, edition_iri(lb.edition)))
        g.add((xl, BL.labelRole, string(lb.role)))
    for key in sorted(c.def_keys()):
        g.add((node, BL.definitionKey, string(key)))
    if c.note:
        g.add((node, SKOS.scopeNote, text(c.note, "en")))
    return node


def add_terminology(g: Graph, terms: Terminology) -> None:
    g.add((CONCEPT_SCHEME, RDF.type, SKOS.ConceptScheme))
    g.add((CONCEPT_SCHEME, SKOS.prefLabel, text("bridge terminology crosswalk", "en")))
    for c in terms.concepts.values():
        add_concept(g, c)


def link_definitions(laws: Graph, terms_graph: Graph, corpus: Corpus, terms: Terminology,
                     report: BuildReport) -> None:
    """Each definitions-chapter entry -> the concept it defines (a fallback concept if none is curated)."""
    for name in BRIDGE_EDITIONS:
        ed = corpus.editions.get(name)
        for d in ed.definitions() if ed else []:
            concept = terms.by_definition((d.key, d.key_printed, d.id.path[-1]), d.term, name)
            if concept is None:
                report.uncurated_definitions.append(d.id)
                labels = tuple(Label(form, name, lang, "pref") for lang, form in d.term.items() if form)
                concept = Concept(f"{name}-{d.id.rsplit('/', 1)[-1]}", labels or
                                  (Label(d.key or d.id, name, "en", "pref"),))
                add_concept(terms_graph, concept)
            laws.add((clause_iri(d.id), BL.definesConcept, concept_iri(concept.id)))


def link_mentions(laws: Graph, corpus: Corpus, terms: Terminology) -> None:
    """clause bl:mentions concept, from edition-scoped phrase matches over titles and texts."""
    for name in BRIDGE_EDITIONS:
        ed = corpus.editions.get(name)
        for c in ed.clauses.values() if ed else []:
            node = clause_iri(c.id)
            for lang in {*c.text, *c.title}:
                content = " ".join(x for x in (c.title.get(lang), c.text.get(lang)) if x)
                for cid in terms.mentions(content, name, lang):
                    laws.add((node, BL.mentions, concept_iri(cid)))


# ---------------------------------------------------------------------------------------------- links


def add_citations(ds: Dataset, citations: Iterable[object]) -> None:
    """Every citation as a bl:Citation (resolved or with its reason) plus eli:cites for resolved ones."""
    ordinal: dict[str, int] = {}
    for cit in citations:
        src: str = cit.source                                   # type: ignore[attr-defined]
        n = ordinal.get(src, 0)
        ordinal[src] = n + 1
        g = ds.graph(graph_for(ClauseId.parse(src).edition))
        node = citation_iri(src, n)
        lang = cit.lang or MAIN_LANG.get(ClauseId.parse(src).edition, "en")  # type: ignore[attr-defined]
        g.add((node, RDF.type, BL.Citation))
        g.add((node, RDF.type, BL.ResolvedCitation if cit.target else BL.UnresolvedCitation))  # type: ignore[attr-defined]
        g.add((node, BL.citingClause, clause_iri(src)))
        g.add((node, BL.citedText, text(cit.text, lang)))      # type: ignore[attr-defined]
        g.add((node, BL.citationKind, string(cit.kind)))       # type: ignore[attr-defined]
        if cit.cited and cit.cited != cit.target:               # type: ignore[attr-defined]
            g.add((node, BL.citedId, string(cit.cited)))       # type: ignore[attr-defined]
        if cit.target:                                          # type: ignore[attr-defined]
            g.add((node, BL.status, string("resolved")))
            g.add((node, BL.citedClause, clause_iri(cit.target)))            # type: ignore[attr-defined]
            g.add((clause_iri(src), ELI.cites, clause_iri(cit.target)))     # type: ignore[attr-defined]
        else:
            g.add((node, BL.status, string("unresolved")))
            g.add((node, BL.reason, string(cit.reason or "unresolved")))    # type: ignore[attr-defined]


def add_correspondences(g: Graph, pairs: Iterable[object]) -> None:
    """Alignment pairs with their change class and evidence; bl:correspondsTo for shared content."""
    for p in pairs:
        f, t, kind = p.from_id, p.to_id, p.kind                # type: ignore[attr-defined]
        node = correspondence_iri(f, t, kind)
        g.add((node, RDF.type, BL.Correspondence))
        g.add((node, BL.changeClass, change_class_iri(kind)))
        if f:
            g.add((node, BL["from"], clause_iri(f)))
        if t:
            g.add((node, BL.to, clause_iri(t)))
        if p.method:                                            # type: ignore[attr-defined]
            g.add((node, BL.method, string(p.method)))         # type: ignore[attr-defined]
        if p.similarity is not None:                            # type: ignore[attr-defined]
            sim = Decimal(str(round(float(p.similarity), 4)))   # type: ignore[attr-defined]
            g.add((node, BL.similarity, Literal(sim, datatype=XSD.decimal)))
        if f and t and kind in SAME_CONTENT:
            g.add((clause_iri(f), BL.correspondsTo, clause_iri(t)))
            g.add((clause_iri(t), BL.correspondsTo, clause_iri(f)))


def read_article_links(path: Path = ARTICLES_FILE) -> dict[str, object]:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def add_article_links(g: Graph, known: set[str], path: Path = ARTICLES_FILE) -> None:
    """CCBA 2018 articles -> the WBF laws they implement, specify or override (curated YAML)."""
    data = read_article_links(path)
    source = str(data.get("source", "")).strip()
    articles: dict[object, dict[str, list[str]]] = data["articles"]  # type: ignore[assignment]
    for number, entry in articles.items():
        article = f"ccba2018/article/{number}"
        if article not in known:
            raise GraphDataError(f"{path.name}: article {number} — {article} is not in the corpus — "
                                 "fix the article number")
        node = clause_iri(article)
        for rel, prop in ARTICLE_RELATIONS.items():
            for target in entry.get(rel) or []:
                if target not in known:
                    raise GraphDataError(f"{path.name}: article {number} {rel} {target} — no such clause — "
                                         "use an existing clause id (bridgelaw show ID)")
                g.add((node, prop, clause_iri(target)))
        note = entry.get("note")
        if note:
            g.add((node, BL.linkNote, text(f"{note} (source: {source})" if source else str(note), "en")))


# ---------------------------------------------------------------------------------------------- build


def primary_files(corpus: Corpus, edition: str) -> list[str]:
    """The files of an edition's primary sources, from the manifest."""
    sources: dict[str, dict[str, object]] = corpus.manifest.get("sources", {})   # type: ignore[assignment]
    return sorted(str(s["file"]) for s in sources.values()
                  if s.get("edition") == edition and s.get("role", "primary") == "primary")


def graph_for(edition: str) -> URIRef:
    return SEPARATE_GRAPHS.get(edition, GRAPH_LAWS)


def build_graph(corpus: Corpus, terms: Terminology | None = None,
                report: BuildReport | None = None) -> Dataset:
    """The whole law graph of a parsed corpus (uncached; see store.load_graph for the cached one)."""
    terms = terms or load_terminology()
    report = report if report is not None else BuildReport()
    ds = new_dataset()
    laws, terms_graph = ds.graph(GRAPH_LAWS), ds.graph(GRAPH_TERMS)
    known: set[str] = set()
    for name, ed in corpus.editions.items():
        g = ds.graph(graph_for(name))
        add_edition(g, name, ed.meta, primary_files(corpus, name))
        headings = add_headings(g, ed)
        add_clauses(g, ed, headings)
        add_footnotes(g, ed)
        known |= headings | set(ed.clauses) | set(ed.footnotes)
    add_terminology(terms_graph, terms)
    link_definitions(laws, terms_graph, corpus, terms, report)
    link_mentions(laws, corpus, terms)
    add_citations(ds, extract_citations(corpus))
    add_correspondences(laws, align_editions(corpus))
    add_article_links(laws, known)
    return ds
