"""Players as people: linking a table's player to an account (invite, claim) and merging duplicates."""
