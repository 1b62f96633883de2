"""Benchmarks: one module per subject (``<name>_bench.py``), run by ``manage.py bench <name>`` (docs/PERFORMANCE.md).

A subject module holds ``HELP`` (its line in ``manage.py bench --list``), ``POSTGRES`` ("rerun": re-run against a
local PostgreSQL server when the database is not PostgreSQL; "required": refuse; "": any database),
``add_arguments(parser)`` and ``run(options, out)``; the shared set-up is in ``harness``. Nothing of the app
imports this package: only the command does, when it runs.
"""

SUBJECTS = ("store", "http", "history", "stats", "import", "photos", "photo_memory", "live", "inplace", "offline",
            "get_salty")  # fmt: skip


def module_of(name: str) -> str:
    """The dotted name of subject ``name``'s module."""
    return f"benchmarks.{name}_bench"
