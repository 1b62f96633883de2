"""The REST API: serializers and one small view per operation (matches, every stream's events, players as people)."""
