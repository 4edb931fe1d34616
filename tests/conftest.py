"""Fixtures shared by every test package."""
from __future__ import annotations

import pytest

from tests import sampling
from tests.bot import pg


def pytest_addoption(parser):
    parser.addoption("--exhaustive", action="store_true", default=False,
                     help="play every case of the tests that play a sample by default (tests/sampling.py)")


def pytest_configure(config):
    sampling.set_exhaustive(config.getoption("--exhaustive"))


@pytest.fixture
def database_path(request, tmp_path):
    """Where the bot under test stores its games: a fresh SQLite file, or, for a test marked
    `@pg.on_both_stores` (its "postgresql" run), a fresh database on a real PostgreSQL (skipped,
    saying why, when none can be started)."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return pg.fresh_database_url()
    return tmp_path / "bot.sqlite3"
