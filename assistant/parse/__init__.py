"""One parser per source format: pure functions from text to `ParsedSource` records."""
