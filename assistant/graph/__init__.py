"""The law graph: RDF of every edition (ELI + SKOS), citations, alignments, terminology; store, SHACL, SPARQL."""
