"""The match stream kind (see ``matches.streams``): registered when the app is ready."""

from __future__ import annotations

from matches.models import Match
from matches.selectors import match_seat_names
from matches.streams import StreamKind, kind_register

MATCH = kind_register(StreamKind(name="match", noun="match", model=Match, seat_names=match_seat_names, touch=False))
