"""How the store answers what the bot asks on a move and at start-up: `EXPLAIN QUERY PLAN` on
SQLite and `EXPLAIN` on PostgreSQL for every statement the bot ran.

Plays a few whole games of the test game and a Knatsch game through the real bot (offline, as the
tests do), restarts it once, records every statement the store ran, and prints each distinct one
with its plan: a line marked `SCAN` on SQLite (or `Seq Scan` on PostgreSQL, asked with
sequential scans discouraged so that an index that exists is shown) reads a whole table.

    python bench/query_plans.py [--postgresql]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import re
import sqlite3
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from games import REGISTRY
from tests.bot import fakegame
from tests.bot.harness import SketchRenderer, play_to_end, seat_order, simulated_discord, start_table, take_turn, to_act

SKIP = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|PRAGMA|CREATE|ALTER|DROP)", re.I)


async def record(database: Path) -> OrderedDict[str, tuple]:
    seen: OrderedDict[str, tuple] = OrderedDict()
    original = aiosqlite.Connection.execute
    original_fetchall = aiosqlite.Connection.execute_fetchall  # the store's reads

    def note(sql, parameters):
        if not SKIP.match(sql):
            seen.setdefault(" ".join(sql.split()), tuple(parameters or ()))

    def execute(self, sql, parameters=None):
        note(sql, parameters)
        return original(self, sql, parameters)

    def execute_fetchall(self, sql, parameters=None):
        note(sql, parameters)
        return original_fetchall(self, sql, parameters)

    aiosqlite.Connection.execute = execute
    aiosqlite.Connection.execute_fetchall = execute_fetchall
    try:
        games = {"pips": fakegame.GAME, "knatsch": REGISTRY["knatsch"]}
        async with simulated_discord(database, games=games, seed=3, render=SketchRenderer()) as world:
            alice, bob = world.player("alice"), world.player("bob")
            await start_table(world, alice, bob)
            await play_to_end(world, seat_order(world, 1, [alice, bob]))
            channel = world.guild.create_text_channel("zwei")
            await start_table(world, alice, bob, channel=channel, game="knatsch")
            players = seat_order(world, 2, [alice, bob])
            rng = random.Random(1)
            for _ in range(20):
                acting = to_act(world, players, channel)
                if not acting:
                    break
                await take_turn(world, acting[0], rng, channel)
            await world.slash(alice, "game mine")
            await world.slash(alice, "game stats")
            await world.restart()
    finally:
        aiosqlite.Connection.execute = original
        aiosqlite.Connection.execute_fetchall = original_fetchall
    return seen


def sqlite_plans(database: Path, statements) -> None:
    db = sqlite3.connect(database)
    scans = 0
    for sql, params in statements.items():
        try:
            plan = db.execute(f"EXPLAIN QUERY PLAN {sql}", params).fetchall()
        except sqlite3.Error as error:
            print(f"  (no plan: {error}) {sql[:120]}")
            continue
        lines = [row[-1] for row in plan]
        full = [line for line in lines if line.startswith("SCAN") and "USING" not in line]
        scans += bool(full)
        print(("! " if full else "  ") + sql[:150])
        for line in lines:
            print(f"      {line}")
    print(f"{len(statements)} statements, {scans} reading a whole table")


async def postgresql_plans(statements) -> None:
    import asyncpg

    from bot.postgres import PostgresStorage, to_postgres
    from tests.bot import pg

    url = pg.fresh_database_url()
    store = await PostgresStorage.open(url)
    await store.close()
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("SET enable_seqscan = off")
        for sql, params in statements.items():
            try:
                plan = await connection.fetch(f"EXPLAIN {to_postgres(sql)}", *params)
            except Exception as error:  # noqa: BLE001 - a statement the dummy data cannot take
                print(f"  (no plan: {type(error).__name__}) {sql[:120]}")
                continue
            lines = [row[0] for row in plan]
            full = any("Seq Scan" in line for line in lines)
            print(("! " if full else "  ") + sql[:150])
            for line in lines[:4]:
                print(f"      {line}")
    finally:
        await connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgresql", action="store_true", help="also explain them on PostgreSQL")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "plans.sqlite3"
        statements = asyncio.run(record(database))
        print("SQLite:")
        sqlite_plans(database, statements)
        if args.postgresql:
            print("\nPostgreSQL:")
            asyncio.run(postgresql_plans(statements))


if __name__ == "__main__":
    main()
