"""The ``eventsourcing`` library baseline of ``manage.py bench store``: the same Last Stone workload.

An aggregate holds the pile and whose turn it is; each move checks the rules, triggers one event and is
saved on its own (one event per transaction) through the library's PostgreSQL persistence. The aggregate
stays in memory between saves, which is the library's fastest path (no repository reload).

Imported only by the benchmark: ``eventsourcing`` is a dev/bench dependency (requirements-dev.txt), and its
PostgreSQL persistence also needs ``psycopg_pool``.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate


class StonePile(Aggregate):
    """Last Stone as an eventsourcing aggregate."""

    def __init__(self, stones: int, first_seat: int = 0) -> None:
        self.pile = stones
        self.turn = first_seat
        self.winner: int | None = None

    class StonesTaken(Aggregate.Event):
        seat: int
        count: int

        def apply(self, aggregate: Any) -> None:
            aggregate.pile -= self.count
            aggregate.turn = 1 - self.seat
            if aggregate.pile == 0:
                aggregate.winner = self.seat

    def take(self, seat: int, count: int) -> None:
        if self.winner is not None or seat != self.turn or not 1 <= count <= 3 or count > self.pile:
            raise ValueError("illegal move")
        self.trigger_event(self.StonesTaken, seat=seat, count=count)


class StoneApp(Application):
    name = "ChronicleBench"


def postgres_env(*, dbname: str, host: str, port: str, user: str, password: str) -> dict[str, str]:
    """The environment that points the library at a PostgreSQL database (tables created on first use)."""
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": host or "127.0.0.1",
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": user or "postgres",
        "POSTGRES_PASSWORD": password or "",
        "POSTGRES_POOL_SIZE": "1",
        "CREATE_TABLE": "y",
    }


class PileWriter:
    """One aggregate kept in memory; ``one()`` takes a stone and saves (one event, one transaction)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.app = StoneApp(env=env)
        self.pile = StonePile(stones=10**9)
        self.app.save(self.pile)

    def one(self) -> None:
        self.pile.take(self.pile.turn, 1)
        self.app.save(self.pile)

    def close(self) -> None:
        self.app.close()
