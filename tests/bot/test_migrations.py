"""Each feature's own migrations (`bot.storage.database`): a fresh database gets the very schema
the old global migrations made, and a database the old bot made opens without losing or
redoing anything."""
from __future__ import annotations

import re
import sqlite3

import pytest

from bot.storage.database import Feature, Migration, legacy_applied, pending
from bot.store import Storage
from tests.bot.fixtures.old_migrations import MIGRATIONS as OLD

NEWEST = {"games": 4, "days": 5, "delivery": 2, "league": 1, "tournaments": 2}


def old_database(path, up_to: int = OLD[-1][0]) -> None:
    """A database as the old bot left it: the old scripts up to `up_to`, each bumping user_version."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA foreign_keys = ON")
        for number, _title, sql in OLD:
            if number <= up_to:
                db.executescript(f"BEGIN;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
    finally:
        db.close()


def schema(path) -> dict[str, object]:
    """Every table's columns (name, type, not null, default, key) and every index's definition."""
    db = sqlite3.connect(path)
    try:
        found: dict[str, object] = {}
        for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                                          "AND name <> 'schema_migrations'"):
            if kind == "table":
                found[name] = [row[1:] for row in db.execute(f'PRAGMA table_info("{name}")')]
            else:
                found[name] = " ".join(sql.split()) if sql else None
        return found
    finally:
        db.close()


async def test_a_fresh_database_has_the_old_migrations_schema(tmp_path):
    """The features' parts of the old scripts make what the old scripts made; the migrations added
    since run on both alike (a database the old bot made gets them at its first start)."""
    old_database(tmp_path / "old.sqlite3")
    old_only = schema(tmp_path / "old.sqlite3")
    for name in ("old", "new"):
        store = await Storage.open(tmp_path / f"{name}.sqlite3")
        assert await store.schema_version() == NEWEST
        await store.close()
    old, new = schema(tmp_path / "old.sqlite3"), schema(tmp_path / "new.sqlite3")
    assert set(new) == set(old) and set(old_only) <= set(new)
    assert "league_ratings" in new and "tournament_tables" in new  # every feature's tables are there
    for name in old:
        assert new[name] == old[name], name
    added_since = {name for feature in Storage.features() for migration in feature.migrations
                   if migration.legacy is None for name in re.findall(r"(?i)\bCREATE\s+(?:TABLE|INDEX)\s+(\w+)",
                                                                     migration.sql)}
    assert set(new) - set(old_only) == added_since


@pytest.mark.parametrize("up_to", [12, 7, 8])
async def test_a_database_of_the_old_numbering_opens_and_works(tmp_path, up_to):
    path = tmp_path / "bot.sqlite3"
    old_database(path, up_to)
    db = sqlite3.connect(path)
    with db:  # a game the old bot stored: it must be there, untouched, afterwards
        db.execute("INSERT INTO games (guild_id, channel_id, game, status, host_id, created_at, updated_at) "
                   "VALUES (1, 10, 'pips', 'lobby', 100, 0, 0)")
        db.execute("INSERT INTO seats (game_id, user_id, name, joined_at) VALUES (1, 100, 'Alice', 0)")
    db.close()

    store = await Storage.open(path)  # a script run twice would fail (a table made again)
    assert await store.schema_version() == NEWEST
    table = await store.games.get_game(1)
    assert (table.status, table.names) == ("lobby", ["Alice"])
    await store.games.add_player(1, 200, "Bob")
    await store.games.start_game(1, seat_order=[200, 100], seed=4, state={"n": 0})
    assert await store.games.record_change(1, expected_version=0, seat=0, action="roll", state={"n": 1}) == 1
    await store.days.set_table(1, deadline=60, react=900)  # a column the old migration 8 added
    assert (await store.days.table(1))["react"] == 900
    await store.close()

    again = await Storage.open(path)  # and once taken over, opening runs nothing again
    assert await again.schema_version() == NEWEST
    assert (await again.games.get_game(1)).version == 1
    await again.close()
    fresh = await Storage.open(tmp_path / "fresh.sqlite3")
    await fresh.close()
    assert schema(path) == schema(tmp_path / "fresh.sqlite3")


def test_each_old_migration_is_split_among_the_features_once():
    """Every old script's statements are in the features' migrations, each part marked with its old number."""
    features = Storage.features()
    parts: dict[int, str] = {}
    for feature in features:
        for migration in feature.migrations:
            if migration.legacy is not None:
                parts[migration.legacy] = parts.get(migration.legacy, "") + migration.sql
    for number, _title, sql in OLD:
        statements = sorted(" ".join(s.split()) for s in sql.split(";") if s.strip())
        assert sorted(" ".join(s.split()) for s in parts[number].split(";") if s.strip()) == statements, number


def test_the_plan_runs_what_is_missing_in_feature_order():
    one = Feature("one", [Migration(1, "a", "", legacy=1), Migration(2, "b", "", legacy=3), Migration(3, "c", "")])
    two = Feature("two", [Migration(1, "d", "", legacy=2)])
    assert legacy_applied([one, two], 2) == [("one", 1), ("two", 1)]
    assert [(f.name, m.version) for f, m in pending([one, two], {("one", 1), ("two", 1)})] == [("one", 2), ("one", 3)]
    with pytest.raises(ValueError):
        Feature("three", [Migration(2, "e", "")])
