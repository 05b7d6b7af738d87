"""The graph's namespaces and IRI minting, defined once: every module builds IRIs through here.

IRIs follow the clause ids (`wbf2017/law/64/A/1` -> https://bridgelaw.example/id/wbf2017/law/64/A/1), so
a clause id, a search hit and a graph node are the same string modulo the base.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from urllib.parse import quote

from rdflib import DCTERMS, RDF, RDFS, SKOS, XSD, Namespace, URIRef

ELI = Namespace("http://data.europa.eu/eli/ontology#")
BL = Namespace("https://bridgelaw.example/ns#")
ID = Namespace("https://bridgelaw.example/id/")
SKOSXL = Namespace("http://www.w3.org/2008/05/skos-xl#")
SH = Namespace("http://www.w3.org/ns/shacl#")
EU_LANG = Namespace("http://publications.europa.eu/resource/authority/language/")

# prefix -> namespace, bound on every graph we build and pre-declared for SPARQL queries
PREFIXES: dict[str, Namespace] = {
    "eli": ELI, "bl": BL, "id": ID, "skos": Namespace(str(SKOS)), "skosxl": SKOSXL,
    "dcterms": Namespace(str(DCTERMS)), "rdf": Namespace(str(RDF)), "rdfs": Namespace(str(RDFS)),
    "xsd": Namespace(str(XSD)), "sh": SH,
}

# BCP 47 tag of a text -> EU language authority (ELI wants a language IRI); the script stays in the tag
EU_LANGUAGE: dict[str, URIRef] = {"en": EU_LANG.ENG, "zh-Hans": EU_LANG.ZHO, "zh-Hant": EU_LANG.ZHO}

# named graphs: bridge editions with their links, the guandan rules apart, the terminology
GRAPH_LAWS = ID["graph/laws"]
GRAPH_GUANDAN = ID["graph/guandan2017"]
GRAPH_TERMS = ID["graph/terms"]
SEPARATE_GRAPHS: dict[str, URIRef] = {"guandan2017": GRAPH_GUANDAN}   # edition -> own named graph


def _safe(segment: str) -> str:
    return quote(segment, safe="-._~/")


@lru_cache(maxsize=None)
def clause_iri(clause_id: str) -> URIRef:
    """The IRI of a clause, footnote, chapter or part id: ID + the id itself."""
    return ID[_safe(clause_id.strip("/"))]


def iri_to_id(iri: URIRef | str) -> str | None:
    """The clause id of an IRI minted by clause_iri, else None."""
    s = str(iri)
    return s[len(str(ID)):] if s.startswith(str(ID)) else None


def edition_iri(edition: str) -> URIRef:
    """The work (eli:LegalResource) of an edition: id/wbf2017."""
    return ID[_safe(edition)]


def expression_iri(resource_id: str, lang: str) -> URIRef:
    """A language expression of a work or part: id/wbf2017/expression/en."""
    return ID[f"{_safe(resource_id)}/expression/{_safe(lang)}"]


def citation_iri(source_id: str, ordinal: int) -> URIRef:
    """The n-th citation (0-based, document order) found in a clause: id/<clause>/citation/<n>."""
    return ID[f"{_safe(source_id)}/citation/{ordinal}"]


def correspondence_iri(from_id: str | None, to_id: str | None, kind: str) -> URIRef:
    """A deterministic IRI for one alignment pair (no blank nodes: builds stay isomorphic)."""
    digest = hashlib.sha1(f"{from_id}|{to_id}|{kind}".encode()).hexdigest()[:16]
    return ID[f"correspondence/{digest}"]


def concept_iri(concept_id: str) -> URIRef:
    return ID[f"concept/{_safe(concept_id)}"]


def label_iri(concept_id: str, edition: str, lang: str, role: str, form: str) -> URIRef:
    """An edition-scoped label (skosxl:Label) of a concept; the form is hashed into the IRI."""
    digest = hashlib.sha1(form.encode()).hexdigest()[:10]
    return ID[f"concept/{_safe(concept_id)}/label/{_safe(edition)}/{_safe(lang)}/{role}/{digest}"]


CONCEPT_SCHEME = ID["concept"]


def change_class_iri(kind: str) -> URIRef:
    """The change class individual of a correspondence kind: same -> bl:same, different_subject -> bl:differentSubject."""
    head, *rest = kind.split("_")
    return BL[head + "".join(w.capitalize() for w in rest)]
