"""Copy every game, seat, move and setting from a SQLite store into PostgreSQL.

    python -m bot.copy_store data/bot.sqlite3 postgresql://user:password@host/database

Stop the bot first. The target gets the schema from the usual migrations and must hold no games
yet; the copy is one transaction, so it is all there or not at all. Then set `DATABASE_URL` and
start the bot: every game goes on where it was.
"""
from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from bot.postgres import PostgresStorage


class CopyError(Exception):
    pass


def _tables(source: sqlite3.Connection) -> list[str]:
    # Parents before children (games before seats and actions), as the schema created them.
    # schema_migrations: the target records its own (the versions are checked to be the same).
    rows = source.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                          "AND name <> 'schema_migrations' ORDER BY rowid").fetchall()
    return [name for (name,) in rows]


def _schema_versions(source: sqlite3.Connection) -> dict[str, int]:
    """feature -> its newest migration run on the SQLite database (empty: made by an older bot)."""
    if not source.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchone():
        return {}
    return dict(source.execute("SELECT feature, MAX(version) FROM schema_migrations GROUP BY feature").fetchall())


async def copy_store(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy all rows; returns the number of rows per table."""
    if not Path(sqlite_path).exists():
        raise CopyError(f"There is no SQLite database at {sqlite_path}.")
    target = await PostgresStorage.open(url)  # creates the schema
    source = sqlite3.connect(sqlite_path)
    try:
        wanted = await target.schema_version()
        version = _schema_versions(source)
        if version != wanted:
            raise CopyError(f"The SQLite database is at schema {version}; start the bot on it once to bring it "
                            f"up to date ({wanted}), then copy.")
        raw = target.asyncpg_connection
        counts: dict[str, int] = {}
        async with raw.transaction():
            if await raw.fetchval("SELECT count(*) FROM games"):
                raise CopyError("The PostgreSQL database already holds games; copy into an empty one.")
            for table in _tables(source):
                cursor = source.execute(f'SELECT * FROM "{table}"')
                columns = [description[0] for description in cursor.description]
                rows = cursor.fetchall()
                if rows:
                    await raw.copy_records_to_table(table, records=rows, columns=columns)
                counts[table] = len(rows)
            # New games continue the numbering after the copied ones.
            await raw.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), "
                              "GREATEST((SELECT max(id) FROM games), 1))")
        return counts
    finally:
        source.close()
        await target.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.copy_store", description=__doc__.split("\n\n")[0])
    parser.add_argument("sqlite_path", help="the bot's SQLite file, e.g. data/bot.sqlite3")
    parser.add_argument("database_url", help="postgresql://user:password@host/database")
    args = parser.parse_args(argv)
    try:
        counts = asyncio.run(copy_store(args.sqlite_path, args.database_url))
    except CopyError as exc:
        print(f"Nothing copied: {exc}", file=sys.stderr)
        return 1
    print(", ".join(f"{table}: {count}" for table, count in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
