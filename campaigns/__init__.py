"""Long-running streams on the shared store: the Saltmarsh campaign (``saltmarsh/``) and series of matches
(``series/``), their stream kinds and tables."""
