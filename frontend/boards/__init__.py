"""Board partials: the shared drawing and one module per game (run by the server, and by the phone offline)."""
