"""The web forms built from ruleset schemas: the pure inputs (run offline too), parsing what was posted, and the match page's recording forms."""
