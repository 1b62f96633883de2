"""Looking back: the statistics selectors and their REST endpoints."""
