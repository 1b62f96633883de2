"""manage.py bench <name> [options]: run one benchmark of ``benchmarks/`` (``--list`` names them; docs/PERFORMANCE.md)."""

from __future__ import annotations

import argparse
import importlib
from types import ModuleType
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import connection


def subject(name: str) -> ModuleType:
    """The module of benchmark ``name`` (imported here only: the app never imports ``benchmarks``)."""
    from benchmarks import module_of

    return importlib.import_module(module_of(name))


class Command(BaseCommand):
    help = "Run one benchmark: manage.py bench <name> [options] (manage.py bench <name> --help for its options)."

    def add_arguments(self, parser: Any) -> None:
        from benchmarks import SUBJECTS

        parser.add_argument("--list", action="store_true", help="list the benchmarks, one line each")
        subjects = parser.add_subparsers(dest="subject", metavar="name", title="benchmarks")
        self.parsers: dict[str, argparse.ArgumentParser] = {}
        for name in SUBJECTS:
            module = subject(name)
            sub = subjects.add_parser(name, help=module.HELP, description=module.__doc__,
                                      formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
            module.add_arguments(sub)
            # ``bench store -v2`` as well as ``bench -v2 store``; the subject's own default leaves the outer one
            sub.add_argument("-v", "--verbosity", type=int, choices=[0, 1, 2, 3], default=argparse.SUPPRESS)
            self.parsers[name] = sub

    def handle(self, *args: Any, **options: Any) -> None:
        from benchmarks import SUBJECTS
        from benchmarks.harness import Out, argv_of, rerun_on_postgres

        out = Out(self.stdout, self.stderr)
        name = options.get("subject")
        if options["list"] or not name:
            width = max(len(s) for s in SUBJECTS)
            for each in SUBJECTS:
                out(f"{each:<{width}}  {subject(each).HELP}")
            return
        module = subject(name)
        if module.POSTGRES and connection.vendor != "postgresql":
            if module.POSTGRES == "rerun":
                rerun_on_postgres(name, argv_of(self.parsers[name], options), out)
                return
            raise CommandError(f"bench {name} measures on PostgreSQL: set DATABASE_URL=postgres://… (a scratch "
                               "database is made there)")  # fmt: skip
        module.run(options, out)
