"""Hybrid search across editions and languages (`bridgelaw ask`): lexical + embeddings, grouped by law."""
