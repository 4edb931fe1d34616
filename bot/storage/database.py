"""The database layer: one connection, its lock, transactions, a change's writes and the
migrations runner. It knows no feature: the games and moves (`bot.storage.games`), games over
days (`bot.days.storage`), deliveries (`bot.delivery.storage`), the league (`bot.league.storage`)
and tournaments (`bot.tournaments.storage`) each have a repository that holds a `Database`, and
their own migrations beside their code, which `migrate` takes as `Feature`s.

One aiosqlite connection serves the whole bot. Its statements run one at a time on a worker
thread, so an `asyncio.Lock` keeps each operation (and each transaction) whole: a statement
from one task can never land inside another task's open transaction. Operations are a few
statements long, so different games only ever wait for each other for microseconds. A read is
one `execute_fetchall`: one hand-over to that thread, not one for the statement, one per fetch
and one for closing the cursor. A fixed list of statements (a change's whole transaction, a
game read with its seats, an update with its BEGIN and COMMIT) is one `batch`: a function that
runs them all in that thread, one hand-over for the lot (each costs some 20-25 us of CPU in the
event loop and as much in the thread); PostgreSQL's connection runs the same list one statement
after another.

A game's reads (`reads`: a game with its seats, a change's rows, a turn's lines; a few rows by
key, tens of microseconds of SQLite's work) are read on the event loop's own thread, through a
second, read-only connection: a hand-over to aiosqlite's thread and back costs more than such
reads themselves (some 110 us of the process's CPU against 8 us for a read by key, measured
alone), for the wake-ups of both threads. They are read under the same lock, never while the
writer's transaction is open, so they see exactly what the one connection would have shown: in
WAL mode a read sees every commit made before it. A read the reader cannot make at once (the
database busy, which WAL mode leaves to rare moments such as a recovery) goes to aiosqlite's
thread after all, which waits for it as every statement there does (`busy_timeout`). Reads of
unknown size (`rows`, `row`) stay in that thread, so that no long read holds up the event loop;
a single read by key is `rows_by_key`.

Migrations. Each feature numbers its own migrations 1, 2, 3, ...; the table
`schema_migrations(feature, version)` records which have run, each in the transaction of its
script. Until this layer, one global list was counted in `PRAGMA user_version` (1-12; PostgreSQL
kept the number in a one-row table `schema_version`). Those twelve scripts were split into the
features' first migrations, each part marked with the old number it was part of (`legacy`); the
parts keep the scripts' statements word for word and in their order, so a fresh database gets
the very schema the global list made (tests/bot/test_migrations.py compares them). A database
the old code made has no `schema_migrations` yet: the first start records, for every feature,
the migrations whose old number its `user_version` had reached, and runs only the rest.
Splitting (rather than a frozen legacy list before per-feature lists) keeps each feature's
whole schema beside its code, with no second place to look for where a table came from; it is
simple to keep correct because the old numbers are immutable facts and one test builds the old
schema from a copy of the old scripts.
"""
from __future__ import annotations

import asyncio
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any, Self

import aiosqlite

from bot.storage.backups import backup_file
from bot.storage.rows import StorageError

Write = tuple[str, tuple[Any, ...]]
"""One statement (SQL in the SQLite dialect, parameters) to run inside a change's transaction."""


@dataclass(frozen=True)
class Answer:
    """What one statement of a batch answered: its rows (none for a write) and how many rows
    it changed (sqlite3's `rowcount`: -1 for a read)."""

    rows: list[Any]
    rowcount: int


def _batch_here(connection: sqlite3.Connection, statements: Sequence[Write], transaction: bool,
                guarded: bool) -> list[Answer] | None:
    """`Database.batch` itself, run in aiosqlite's thread on its sqlite3 connection."""
    if transaction:
        connection.execute("BEGIN IMMEDIATE")
    try:
        answers = []
        for sql, params in statements:
            cursor = connection.execute(sql, params)
            answers.append(Answer(cursor.fetchall(), cursor.rowcount))
            if guarded and len(answers) == 1 and cursor.rowcount != 1:
                if transaction:
                    connection.execute("ROLLBACK")
                return None
        if transaction:
            connection.execute("COMMIT")
        return answers
    except BaseException:
        if transaction and connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


class _Unchanged(Exception):
    """A guarded batch's first statement changed no row: roll it back."""


async def run_writes(connection: Any, writes: Iterable[Write]) -> None:
    """`writes` in their order on `connection` (in a transaction), a run of one statement after
    another (a row for each seat or timer) as one `executemany`: one hand-over to the database's
    thread for the run instead of one a statement."""
    for sql, run in groupby(writes, key=itemgetter(0)):
        params = [write[1] for write in run]
        if len(params) == 1:
            await connection.execute(sql, params[0])
        else:
            await connection.executemany(sql, params)

_FEATURE_NAME = re.compile(r"^[a-z][a-z_]*$")


@dataclass(frozen=True)
class Migration:
    """One step of a feature's schema. Never edit one that has shipped; append a new one."""

    version: int
    title: str
    sql: str
    legacy: int | None = None  # the old global migration (PRAGMA user_version) this was part of


@dataclass(frozen=True)
class Feature:
    """A feature's name (its rows in `schema_migrations`) and its migrations in order, declared
    beside the feature's code (its `migrations` module's `FEATURE`).

    They are numbered for this feature alone, 1, 2, 3, ...; `legacy`: the old global migration
    (PRAGMA user_version) the script was part of. Append new migrations; never edit one that has
    shipped.
    """

    name: str
    migrations: Sequence[Migration]

    def __post_init__(self) -> None:
        if not _FEATURE_NAME.match(self.name):
            raise ValueError(f"Not a feature name: {self.name!r}")
        if [m.version for m in self.migrations] != list(range(1, len(self.migrations) + 1)):
            raise ValueError(f"The migrations of {self.name} are not numbered 1, 2, 3, ... in order")


def legacy_applied(features: Iterable[Feature], user_version: int) -> list[tuple[str, int]]:
    """(feature, version) of every migration the old global numbering had applied at `user_version`."""
    return [(feature.name, m.version) for feature in features for m in feature.migrations
            if m.legacy is not None and m.legacy <= user_version]


def pending(features: Iterable[Feature], applied: set[tuple[str, int]]) -> list[tuple[Feature, Migration]]:
    """The migrations still to run, feature by feature in the order given (a feature's tables
    may refer to those of the features before it: the games come first)."""
    return [(feature, m) for feature in features for m in feature.migrations
            if (feature.name, m.version) not in applied]


SCHEMA_MIGRATIONS = """CREATE TABLE IF NOT EXISTS schema_migrations (
    feature TEXT    NOT NULL,
    version INTEGER NOT NULL,
    PRIMARY KEY (feature, version)
)"""


class Database:
    """The connection with its lock (see the module's docstring)."""

    synchronous = "FULL"  # bench/storage_sync.py measures what FULL costs per move

    def __init__(self, connection: aiosqlite.Connection, path: Path | None = None) -> None:
        self.connection = connection
        self.lock = asyncio.Lock()
        self.path = path
        self._closed = False
        self._reader: sqlite3.Connection | None = None  # the event loop thread's, for `reads`
        self._reader_thread: int | None = None

    @classmethod
    async def open(cls, path: str | Path, features: Sequence[Feature]) -> Self:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we BEGIN IMMEDIATE ourselves.
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        database = cls(connection, None if str(path) == ":memory:" else Path(path))
        try:
            await database._configure()
            await database.migrate(features)
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            async with self.lock:
                if self._reader is not None:
                    self._reader.close()
                    self._reader = None
                await self.connection.close()

    async def _configure(self) -> None:
        # execute_fetchall: these PRAGMAs answer with a row; an unread cursor would keep a
        # statement open and block the first COMMIT.
        # synchronous = FULL: a commit is on disk before the bot answers, so a power cut can never
        # undo a move players have already seen (NORMAL in WAL mode may lose the last commits).
        for pragma in ("journal_mode = WAL", "foreign_keys = ON", f"synchronous = {self.synchronous}",
                       "busy_timeout = 5000"):
            await self.connection.execute_fetchall(f"PRAGMA {pragma}")

    # ------------------------------------------------------------------------ migrations

    async def migrate(self, features: Sequence[Feature]) -> None:
        """Run every feature's migrations not run yet, each script with its record in one
        transaction; a database of the old global numbering is taken over first."""
        db = self.connection
        async with self.lock:
            known = await db.execute_fetchall(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
            if not known:
                (user_version,) = list(await db.execute_fetchall("PRAGMA user_version"))[0]
                await self._run_script(SCHEMA_MIGRATIONS + ";\n" + "".join(
                    f"INSERT INTO schema_migrations (feature, version) VALUES ('{name}', {int(version)});\n"
                    for name, version in legacy_applied(features, int(user_version))))
            applied = {(row[0], row[1]) for row in await db.execute_fetchall(
                "SELECT feature, version FROM schema_migrations")}
            for feature, migration in pending(features, applied):
                await self._run_script(
                    f"{migration.sql}\nINSERT INTO schema_migrations (feature, version) "
                    f"VALUES ('{feature.name}', {int(migration.version)});")

    async def _run_script(self, script: str) -> None:
        try:
            await self.connection.executescript(f"BEGIN IMMEDIATE;\n{script}\nCOMMIT;")
        except BaseException:
            if self.connection.in_transaction:
                await self.connection.execute("ROLLBACK")
            raise

    async def schema_versions(self) -> dict[str, int]:
        """feature -> the newest of its migrations that has run."""
        return {row[0]: row[1] for row in await self.rows(
            "SELECT feature, MAX(version) FROM schema_migrations GROUP BY feature ORDER BY feature")}

    # ---------------------------------------------------------------- reads and writes

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The lock, and BEGIN IMMEDIATE ... COMMIT, rolled back on any error."""
        async with self.lock, self.held_transaction() as db:
            yield db

    @asynccontextmanager
    async def held_transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error. The caller holds `lock`."""
        await self.connection.execute("BEGIN IMMEDIATE")
        try:
            yield self.connection
        except BaseException:
            await self.connection.execute("ROLLBACK")
            raise
        await self.connection.execute("COMMIT")

    async def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        async with self.lock:
            return list(await self.connection.execute_fetchall(sql, params))

    async def row(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """The first row the statement answers (None: none)."""
        rows = await self.rows(sql, params)
        return rows[0] if rows else None

    async def rows_by_key(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of a read by key (a game's row of a feature): few, so read as `reads` are,
        on the event loop's thread."""
        return (await self.reads([(sql, params)]))[0]

    async def update(self, sql: str, params: tuple[Any, ...]) -> None:
        """One statement in a transaction of its own."""
        await self.batch([(sql, params)])

    async def apply(self, writes: Sequence[Write]) -> None:
        """Statements that belong together, in one transaction."""
        await self.batch(writes)

    async def reads(self, statements: Sequence[Write]) -> list[list[Any]]:
        """The rows of each of several reads, read together (one hand-over on SQLite; no
        transaction: the lock keeps every other task's statements out from between them)."""
        async with self.lock:
            return await self.held_reads(statements)

    async def held_reads(self, statements: Sequence[Write]) -> list[list[Any]]:
        """`reads`; the caller holds `lock`. On SQLite read on the event loop's thread (see the
        module)."""
        reader = self._here()
        if reader is not None:
            try:
                answers = _batch_here(reader, statements, False, False)
            except sqlite3.OperationalError:  # busy, or not a read: in aiosqlite's thread after all
                answers = None
            if answers is not None:
                # A read still lets the loop's other tasks take a turn, as one handed over did:
                # the bot's tasks take their turns in the order they always had.
                await asyncio.sleep(0)
                return [answer.rows for answer in answers]
        answers = await self.held_batch(statements, transaction=False)
        assert answers is not None  # not guarded
        return [answer.rows for answer in answers]

    def _here(self) -> sqlite3.Connection | None:
        """The read-only connection of the event loop's thread, opened at the first read; None
        where reads go to the connection's own thread (PostgreSQL, a database in memory, a read
        from another thread, the writer's transaction open)."""
        if self.path is None or self._closed or not isinstance(self.connection, aiosqlite.Connection):
            return None
        if self._reader is None:
            # timeout=0: a busy database answers at once, and the read goes to aiosqlite's thread.
            self._reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                           timeout=0)
            self._reader.row_factory = sqlite3.Row
            self._reader.execute("PRAGMA query_only = ON")
            self._reader_thread = threading.get_ident()
        if self._reader_thread != threading.get_ident() or self.connection.in_transaction:
            return None
        return self._reader

    async def batch(self, statements: Sequence[Write], *, transaction: bool = True,
                    guarded: bool = False) -> list[Answer] | None:
        """A fixed list of statements (none of whose answers decides what comes after it), under
        the lock and, with `transaction`, in BEGIN IMMEDIATE ... COMMIT (rolled back on any
        error); each statement's `Answer`. `guarded`: the first statement must change exactly
        one row (a compare-and-swap); if it does not, nothing is written and the answer is None.

        On SQLite the whole list goes to aiosqlite's thread as one function: one hand-over
        (20-25 us of CPU each way) instead of one a statement plus two for BEGIN and COMMIT.
        Any other connection (PostgreSQL's, `bot.postgres`) runs the statements one by one.
        No statements: nothing to do, no hand-over and no empty transaction (a BEGIN and COMMIT
        are some 0.3 ms of SQLite's thread, nearly all the commit's `fdatasync`)."""
        if not statements:
            return []
        async with self.lock:
            return await self.held_batch(statements, transaction=transaction, guarded=guarded)

    async def held_batch(self, statements: Sequence[Write], *, transaction: bool = True,
                         guarded: bool = False) -> list[Answer] | None:
        """`batch`; the caller holds `lock`."""
        connection: Any = self.connection  # aiosqlite's, or one that speaks its part (bot.postgres)
        if isinstance(connection, aiosqlite.Connection):
            # aiosqlite has no public call for a function of ours in its thread: `_execute` is
            # what each of its own calls goes through (tests/bot/test_storage.py counts on it).
            answers: list[Answer] | None = await connection._execute(
                _batch_here, connection._conn, statements, transaction, guarded)
            return answers
        return await self._batch_by_statement(statements, transaction, guarded)

    async def _batch_by_statement(self, statements: Sequence[Write], transaction: bool,
                                  guarded: bool) -> list[Answer] | None:
        if not transaction:
            return [await self._answer(sql, params) for sql, params in statements]
        answers = []
        try:
            async with self.held_transaction():
                for sql, params in statements:
                    answers.append(await self._answer(sql, params))
                    if guarded and len(answers) == 1 and answers[0].rowcount != 1:
                        raise _Unchanged  # rolls back
        except _Unchanged:
            return None
        return answers

    async def _answer(self, sql: str, params: tuple[Any, ...]) -> Answer:
        cursor = await self.connection.execute(sql, params)
        return Answer(list(await cursor.fetchall()), cursor.rowcount)

    async def backup(self, target: str | Path) -> Path:
        """An online copy of the whole database with SQLite's back-up API, through a connection of
        its own in a worker thread: in WAL mode it reads one consistent snapshot while the bot
        keeps writing, so play never waits for it. Written under a temporary name, then renamed,
        so a half-written copy never looks like a back-up."""
        if self.path is None:
            raise StorageError("An in-memory database has no file to back up.")
        target = Path(target)
        await asyncio.to_thread(backup_file, self.path, target)
        return target
