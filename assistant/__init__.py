"""bridgelaw: a rules knowledge base and ruling assistant for contract bridge."""

__version__ = "0.1.0"
