"""Benchmarks: manage.py bench_store helpers and standalone speed checks (docs/PERFORMANCE.md)."""
