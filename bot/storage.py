"""SQLite storage through aiosqlite: games, seats and the action log.

Everything the bot knows lives here, so a restart loses nothing. The database runs in WAL mode
with foreign keys on; the schema comes from the numbered migrations in `bot.migrations`.

One aiosqlite connection serves the whole bot. Its statements run one at a time on a worker
thread, so an `asyncio.Lock` keeps each operation (and each transaction) whole: a statement
from one task can never land inside another task's open transaction. Operations are a few
statements long, so different games only ever wait for each other for microseconds.
"""
from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator

import aiosqlite

from bot.migrations import MIGRATIONS

OPEN_STATUSES = ("lobby", "active")
TIMER_LEASE = 300  # seconds a process has to handle a timer it claimed before another may


class StorageError(Exception):
    """A write was refused because the stored game is not in the expected state."""


class StaleVersion(StorageError):
    """Compare-and-swap failed: someone else changed the game first."""


class ChannelBusy(StorageError):
    """The channel already has an open game."""


@dataclass(frozen=True)
class SeatRow:
    user_id: int
    name: str
    seat: int | None
    dm_ok: bool | None


@dataclass(frozen=True)
class ActionRow:
    version: int
    seat: int
    action: str
    at: int
    answered: bool = True


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: int | None
    state: dict | None
    version: int
    result: dict | None
    lobby_message_id: int | None
    board_message_id: int | None
    created_at: int
    updated_at: int
    players: tuple[SeatRow, ...]  # join order in the lobby, seat order once started
    lang: str = "en"  # the table's language: channel posts and boards
    board_owed: bool = False  # a stored move has no board in the channel yet

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> int | None:
        for player in self.players:
            if player.user_id == user_id:
                return player.seat
        return None

    def has_player(self, user_id: int) -> bool:
        return any(player.user_id == user_id for player in self.players)

    def player_at(self, seat: int) -> SeatRow:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    @property
    def names(self) -> list[str]:
        return [player.name for player in self.players]


def backup_file(source: str | Path, target: str | Path) -> None:
    """Copy the database at `source` to `target` with SQLite's back-up API (one step: one read
    snapshot, so concurrent writes never restart it). Also the restore command's copy."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(Path(source))
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")  # a self-contained single file
        finally:
            dst.close()
    finally:
        src.close()
    partial.replace(target)


def restore_file(backup: str | Path, database: str | Path) -> Path | None:
    """Put a back-up in place of the database (the bot must be stopped). The back-up is checked
    first; the database it replaces is kept beside it as `<name>.before-restore-<time>`, with its
    WAL files, so a restore can itself be undone. Returns where the old database went."""
    backup, database = Path(backup), Path(database)
    if not backup.is_file():
        raise ValueError("no such file")
    check = sqlite3.connect(f"file:{backup.resolve()}?mode=ro", uri=True)
    try:
        (verdict,) = check.execute("PRAGMA quick_check").fetchone()
        has_games = check.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone()
    except sqlite3.DatabaseError as error:
        raise ValueError(f"not a database of this bot ({error})") from None
    finally:
        check.close()
    if verdict != "ok" or not has_games:
        raise ValueError("not an intact database of this bot")
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S', time.gmtime())}")
        database.replace(kept)
        for suffix in ("-wal", "-shm"):
            side = database.with_name(database.name + suffix)
            if side.exists():
                side.replace(kept.with_name(kept.name + suffix))
    backup_file(backup, database)
    return kept


def _now() -> int:
    return int(time.time())


class Storage:
    synchronous = "FULL"  # bench/storage_sync.py measures what FULL costs per move

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._lock = asyncio.Lock()
        self._closed = False
        self.path: Path | None = None

    @classmethod
    async def open(cls, path: str | Path) -> "Storage":
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: no implicit transactions; we BEGIN IMMEDIATE ourselves.
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = sqlite3.Row
        storage = cls(connection)
        storage.path = None if str(path) == ":memory:" else Path(path)
        try:
            await storage._configure()
            await storage._migrate()
        except BaseException:
            await connection.close()
            raise
        return storage

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            async with self._lock:
                await self._db.close()

    async def _configure(self) -> None:
        # execute_fetchall: these PRAGMAs answer with a row; an unread cursor would keep a
        # statement open and block the first COMMIT.
        # synchronous = FULL: a commit is on disk before the bot answers, so a power cut can never
        # undo a move players have already seen (NORMAL in WAL mode may lose the last commits).
        for pragma in ("journal_mode = WAL", "foreign_keys = ON", f"synchronous = {self.synchronous}",
                       "busy_timeout = 5000"):
            await self._db.execute_fetchall(f"PRAGMA {pragma}")

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cursor:
            (current,) = await cursor.fetchone()
        for number, _title, sql in MIGRATIONS:
            if number <= current:
                continue
            # The script and the version bump commit together, or not at all.
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {int(number)};\nCOMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise

    async def schema_version(self) -> int:
        async with self._lock, self._db.execute("PRAGMA user_version") as cursor:
            return (await cursor.fetchone())[0]

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error. Caller holds self._lock."""
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            await self._db.execute("ROLLBACK")
            raise
        await self._db.execute("COMMIT")

    # ------------------------------------------------------------------------------ reads

    async def _load(self, where: str, params: tuple[Any, ...]) -> GameRow | None:
        async with self._db.execute(f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT 1", params) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT user_id, name, seat, dm_ok FROM seats WHERE game_id = ? "
            "ORDER BY seat IS NULL, seat, joined_at, rowid",
            (row["id"],),
        ) as cur:
            players = tuple(
                SeatRow(r["user_id"], r["name"], r["seat"], None if r["dm_ok"] is None else bool(r["dm_ok"]))
                for r in await cur.fetchall()
            )
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            status=row["status"],
            host_id=row["host_id"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            state=None if row["state"] is None else json.loads(row["state"]),
            version=row["version"],
            result=None if row["result"] is None else json.loads(row["result"]),
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            players=players,
            lang=row["lang"],
            board_owed=bool(row["board_owed"]),
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self._lock:
            return await self._load("id = ?", (game_id,))

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        async with self._lock:
            return await self._load("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        async with self._lock:
            return await self._load("channel_id = ?", (channel_id,))

    async def actions(self, game_id: int) -> list[ActionRow]:
        async with self._lock, self._db.execute(
            "SELECT version, seat, action, at, answered FROM actions WHERE game_id = ? ORDER BY version", (game_id,)
        ) as cur:
            return [ActionRow(r["version"], r["seat"], r["action"], r["at"], bool(r["answered"]))
                    for r in await cur.fetchall()]

    async def last_action_of(self, game_id: int, seat: int) -> ActionRow | None:
        """The newest move a seat made in a game (None before its first)."""
        async with self._lock, self._db.execute(
            "SELECT version, seat, action, at, answered FROM actions WHERE game_id = ? AND seat = ? "
            "ORDER BY version DESC LIMIT 1", (game_id, seat),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else ActionRow(row["version"], row["seat"], row["action"], row["at"],
                                                  bool(row["answered"]))

    async def mark_answered(self, game_id: int, version: int) -> None:
        """The mover has seen the answer to the move that made `version`."""
        await self._update("UPDATE actions SET answered = 1 WHERE game_id = ? AND version = ? AND answered = 0",
                           (game_id, version))

    async def owed_boards(self) -> list[GameRow]:
        """Games with a stored move whose board was never posted (the bot stopped in between)."""
        async with self._lock:
            async with self._db.execute("SELECT id FROM games WHERE board_owed = 1 ORDER BY id") as cur:
                ids = [row["id"] for row in await cur.fetchall()]
            return [game for game_id in ids if (game := await self._load("id = ?", (game_id,))) is not None]

    async def count_open(self) -> dict[str, int]:
        """How many games are in the lobby and how many are being played."""
        async with self._lock, self._db.execute(
            "SELECT status, COUNT(*) AS n FROM games WHERE status IN ('lobby', 'active') GROUP BY status"
        ) as cur:
            counts = {row["status"]: row["n"] for row in await cur.fetchall()}
        return {status: counts.get(status, 0) for status in OPEN_STATUSES}

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

    # ----------------------------------------------------------------------------- lobby

    async def create_lobby(
        self, *, guild_id: int, channel_id: int, game: str, host_id: int, host_name: str,
        options: dict[str, str], lang: str = "en",
    ) -> GameRow:
        now = _now()
        async with self._lock:
            try:
                async with self._transaction() as db:
                    cursor = await db.execute(
                        "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, lang, "
                        "created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                        (guild_id, channel_id, game, host_id, json.dumps(options), lang, now, now),
                    )
                    game_id = cursor.lastrowid
                    await db.execute(
                        "INSERT INTO seats (game_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                        (game_id, host_id, host_name, now),
                    )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy("This channel already has an open game.") from exc
            return await self._load("id = ?", (game_id,))

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._update("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))

    async def add_player(self, game_id: int, user_id: int, name: str) -> None:
        async with self._lock, self._transaction() as db:
            await self._require_status(db, game_id, "lobby")
            await db.execute(
                "INSERT OR IGNORE INTO seats (game_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                (game_id, user_id, name, _now()),
            )
            await self._touch(db, game_id)

    async def remove_player(self, game_id: int, user_id: int, *, new_host_id: int | None) -> None:
        """Leave a lobby; hands the lobby to `new_host_id` when given."""
        async with self._lock, self._transaction() as db:
            await self._require_status(db, game_id, "lobby")
            await db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
            if new_host_id is not None:
                await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (new_host_id, game_id))
            await self._touch(db, game_id)

    async def start_game(self, game_id: int, *, seat_order: list[int], seed: int, state: dict) -> None:
        """Lobby -> active in one transaction: seats, seed and the first state."""
        async with self._lock, self._transaction() as db:
            await self._require_status(db, game_id, "lobby")
            for seat, user_id in enumerate(seat_order):
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND user_id = ?", (seat, game_id, user_id)
                )
            await db.execute(
                "UPDATE games SET status = 'active', seed = ?, state = ?, version = 0, updated_at = ? "
                "WHERE id = ?",
                (seed, json.dumps(state), _now(), game_id),
            )

    # ---------------------------------------------------------------------------- moves

    async def record_move(
        self, game_id: int, *, expected_version: int, seat: int, action: str, state: dict,
        finished_result: dict | None = None, answered: bool = True,
    ) -> int:
        """The one transaction per move: log row, new state, version bump and the board owed for
        it, or nothing. `answered=False`: the mover still has to be told (a typed /move).

        Compare-and-swap on `version`: if the stored version is not `expected_version` (or the
        game is no longer active) nothing is written and StaleVersion is raised.
        """
        new_version = expected_version + 1
        now = _now()
        status = "active" if finished_result is None else "finished"
        result = None if finished_result is None else json.dumps(finished_result)
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET state = ?, version = ?, status = ?, result = ?, updated_at = ?, board_owed = 1 "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (json.dumps(state), new_version, status, result, now, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersion("The game changed while this move was being made.")
            await db.execute(
                "INSERT INTO actions (game_id, version, seat, action, at, answered) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, action, now, int(answered)),
            )
        return new_version

    async def end_game(self, game_id: int, *, status: str, result: dict, expected_status: str | None = None) -> None:
        """Finish or abandon an open game (resignation, abandonment)."""
        assert status in ("finished", "abandoned")
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET status = ?, result = ?, updated_at = ? "
                "WHERE id = ? AND status IN ('lobby', 'active') AND (? IS NULL OR status = ?)",
                (status, json.dumps(result), _now(), game_id, expected_status, expected_status),
            )
            if cursor.rowcount != 1:
                raise StaleVersion("The game is no longer open.")

    async def remember_language(self, user_id: int, lang: str) -> None:
        """The language a user last spoke to the bot in, for DMs the bot sends them later."""
        await self._update(
            "INSERT INTO user_languages (user_id, lang, at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang, at = excluded.at",
            (user_id, lang, _now()),
        )

    async def language_of_user(self, user_id: int, default: str = "en") -> str:
        async with self._lock, self._db.execute("SELECT lang FROM user_languages WHERE user_id = ?", (user_id,)) as cur:
            row = await cur.fetchone()
        return row["lang"] if row else default

    async def set_board_message(self, game_id: int, message_id: int, version: int | None = None) -> None:
        """The board just posted is the latest; it pays the board owed only if it shows the
        current `version`. (The game's lock covers one process only: another process on the same
        database may have stored a newer move meanwhile, whose board is then still owed.)
        Without `version`, it pays whatever is owed."""
        if version is None:
            await self._update("UPDATE games SET board_message_id = ?, board_owed = 0 WHERE id = ?",
                               (message_id, game_id))
            return
        await self._update(
            "UPDATE games SET board_message_id = ?, board_owed = CASE WHEN version = ? THEN 0 ELSE board_owed END "
            "WHERE id = ?", (message_id, version, game_id))

    async def set_dm_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        await self._update(
            "UPDATE seats SET dm_ok = ? WHERE game_id = ? AND user_id = ?", (int(ok), game_id, user_id)
        )

    # --------------------------------------------------------------------------- helpers

    async def _update(self, sql: str, params: tuple[Any, ...]) -> None:
        async with self._lock, self._transaction() as db:
            await db.execute(sql, params)

    @staticmethod
    async def _require_status(db: aiosqlite.Connection, game_id: int, status: str) -> None:
        async with db.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None or row["status"] != status:
            raise StorageError(f"The game is not in the {status} any more.")

    @staticmethod
    async def _touch(db: aiosqlite.Connection, game_id: int) -> None:
        await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (_now(), game_id))

    # ------------------------------------------------------- games over days (bot.days)
    # Timers, deadlines, absences and computer seats. `now` always comes from the caller's
    # clock (bot.scheduler), so tests can run them on a fake one.

    async def days_table(self, game_id: int) -> dict[str, Any]:
        """The table's deadline (seconds or None), timeout choice and reminder time."""
        async with self._lock, self._db.execute(
            "SELECT deadline, timeout, reminder, practice, hints, strength FROM day_tables WHERE game_id = ?",
            (game_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return {"deadline": None, "timeout": "computer", "reminder": 12 * 3600, "practice": False,
                    "hints": False, "strength": "normal"}
        return {"deadline": row["deadline"], "timeout": row["timeout"], "reminder": row["reminder"],
                "practice": bool(row["practice"]), "hints": bool(row["hints"]), "strength": row["strength"]}

    async def days_set_table(self, game_id: int, *, deadline: int | None, timeout: str, reminder: int,
                             practice: bool = False, hints: bool = False, strength: str = "normal") -> None:
        await self._update(
            "INSERT INTO day_tables (game_id, deadline, timeout, reminder, practice, hints, strength) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline, timeout = excluded.timeout, "
            "reminder = excluded.reminder, practice = excluded.practice, hints = excluded.hints, "
            "strength = excluded.strength",
            (game_id, deadline, timeout, reminder, int(practice), int(hints), strength),
        )

    async def days_seats(self, game_id: int) -> dict[int, dict[str, Any]]:
        """seat -> {since, computer, timeouts} for the seats that have a row."""
        async with self._lock, self._db.execute(
            "SELECT seat, since, computer, timeouts FROM day_seats WHERE game_id = ?", (game_id,)
        ) as cur:
            return {r["seat"]: {"since": r["since"], "computer": r["computer"], "timeouts": r["timeouts"]}
                    for r in await cur.fetchall()}

    async def days_set_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Set some of since / computer / timeouts for one seat (the row is made if missing)."""
        assert fields and set(fields) <= {"since", "computer", "timeouts"}
        names = sorted(fields)
        async with self._lock, self._transaction() as db:
            await db.execute("INSERT OR IGNORE INTO day_seats (game_id, seat) VALUES (?, ?)", (game_id, seat))
            await db.execute(
                f"UPDATE day_seats SET {', '.join(f'{n} = ?' for n in names)} WHERE game_id = ? AND seat = ?",
                (*(fields[n] for n in names), game_id, seat),
            )

    async def days_sync(self, game_id: int, since: dict[int, int | None],
                        timers: list[tuple[int, str, int]]) -> None:
        """After a change to a game, in one transaction: each seat's wait start (None: not to
        act) and the game's complete set of timers (seat, kind, due_at)."""
        async with self._lock, self._transaction() as db:
            for seat, when in since.items():
                await db.execute("INSERT OR IGNORE INTO day_seats (game_id, seat) VALUES (?, ?)", (game_id, seat))
                await db.execute("UPDATE day_seats SET since = ? WHERE game_id = ? AND seat = ?",
                                 (when, game_id, seat))
            await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)",
                [(game_id, seat, kind, int(due)) for seat, kind, due in timers],
            )

    async def days_clear(self, game_id: int) -> None:
        """A game that is over keeps no timers."""
        await self._update("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def days_timers(self, game_id: int) -> list[tuple[int, str, int]]:
        async with self._lock, self._db.execute(
            "SELECT seat, kind, due_at FROM timers WHERE game_id = ? ORDER BY seat, kind", (game_id,)
        ) as cur:
            return [(r["seat"], r["kind"], r["due_at"]) for r in await cur.fetchall()]

    async def days_next_due(self) -> int | None:
        async with self._lock, self._db.execute("SELECT MIN(due_at) FROM timers") as cur:
            return (await cur.fetchone())[0]

    async def days_first_due(self, now: float) -> tuple[int, int, str, int] | None:
        """The oldest timer due by `now` that no process is handling: (game_id, seat, kind, due_at)."""
        async with self._lock, self._db.execute(
            "SELECT game_id, seat, kind, due_at FROM timers WHERE due_at <= ? AND NOT EXISTS ("
            "SELECT 1 FROM timer_claims c WHERE c.game_id = timers.game_id AND c.seat = timers.seat "
            "AND c.kind = timers.kind AND c.due_at = timers.due_at AND c.claimed_at > ?) "
            "ORDER BY due_at, game_id, seat, kind LIMIT 1", (int(now), int(now) - TIMER_LEASE)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else (row["game_id"], row["seat"], row["kind"], row["due_at"])

    async def days_claim_timer(self, game_id: int, seat: int, kind: str, due_at: int, now: float) -> bool:
        """Claim a due timer for this process. True for exactly one of several processes (on one
        database) asking at once; a claim older than the lease (its process died mid-way) may
        be taken over. Old claims are swept away on the way."""
        async with self._lock, self._transaction() as db:
            await db.execute("DELETE FROM timer_claims WHERE claimed_at < ?", (int(now) - 86_400,))
            cursor = await db.execute(
                "INSERT INTO timer_claims (game_id, seat, kind, due_at, claimed_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, kind, due_at) DO UPDATE SET claimed_at = excluded.claimed_at "
                "WHERE timer_claims.claimed_at <= ?",
                (game_id, seat, kind, int(due_at), int(now), int(now) - TIMER_LEASE),
            )
            return cursor.rowcount == 1

    async def days_move_timer(self, game_id: int, seat: int, kind: str, *, was: int, due_at: int | None) -> None:
        """Reschedule (or with due_at None delete) a timer, only if it is still the one seen."""
        if due_at is None:
            await self._update("DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ? AND due_at = ?",
                               (game_id, seat, kind, was))
        else:
            await self._update("UPDATE timers SET due_at = ? WHERE game_id = ? AND seat = ? AND kind = ? "
                               "AND due_at = ?", (int(due_at), game_id, seat, kind, was))

    async def days_user(self, user_id: int) -> dict[str, Any]:
        async with self._lock, self._db.execute(
            "SELECT reminders, away_until FROM day_users WHERE user_id = ?", (user_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return {"reminders": True, "away_until": None}
        return {"reminders": bool(row["reminders"]), "away_until": row["away_until"]}

    async def days_set_user(self, user_id: int, **fields: Any) -> None:
        assert fields and set(fields) <= {"reminders", "away_until"}
        names = sorted(fields)
        async with self._lock, self._transaction() as db:
            await db.execute("INSERT OR IGNORE INTO day_users (user_id) VALUES (?)", (user_id,))
            await db.execute(f"UPDATE day_users SET {', '.join(f'{n} = ?' for n in names)} WHERE user_id = ?",
                             (*(fields[n] for n in names), user_id))

    async def days_shift_deadlines(self, user_id: int, *, delta: int, not_before: int) -> None:
        """Move the deadlines of every seat `user_id` holds in an active game by `delta`
        seconds (never earlier than `not_before`): /game away and its end."""
        await self._update(
            "UPDATE timers SET due_at = MAX(due_at + ?, ?) WHERE kind = 'deadline' AND EXISTS ("
            " SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = timers.game_id"
            " AND s.seat = timers.seat AND s.user_id = ? AND g.status = 'active')",
            (int(delta), int(not_before), user_id),
        )

    async def days_games_of(self, user_id: int) -> list[GameRow]:
        """Every open game (lobby or active) `user_id` sits at, on any server, oldest first."""
        async with self._lock:
            async with self._db.execute(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? "
                "AND g.status IN ('lobby', 'active') ORDER BY g.id", (user_id,)
            ) as cur:
                ids = [r["id"] for r in await cur.fetchall()]
            return [row for game_id in ids if (row := await self._load("id = ?", (game_id,))) is not None]

    async def days_replace_player(self, game_id: int, *, expected_version: int, seat: int, old_user_id: int,
                                  new_user_id: int, new_name: str, action: str) -> int:
        """A substitute takes a seat: the seat row changes hands and a log row (`action`, which
        changes no state) bumps the version, in one transaction, like a move."""
        new_version = expected_version + 1
        now = _now()
        async with self._lock, self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET version = ?, updated_at = ? WHERE id = ? AND version = ? AND status = 'active'",
                (new_version, now, game_id, expected_version),
            )
            if cursor.rowcount != 1:
                raise StaleVersion("The game changed while the seat was being handed over.")
            await db.execute("UPDATE seats SET user_id = ?, name = ?, dm_ok = NULL WHERE game_id = ? AND user_id = ?",
                             (new_user_id, new_name, game_id, old_user_id))
            await db.execute("INSERT INTO actions (game_id, version, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (game_id, new_version, seat, action, now))
        return new_version

    async def days_all_deadlines(self) -> list[tuple[int, int, int, int]]:
        """(game_id, version, seat, due_at) of every stored deadline of an active game."""
        async with self._lock, self._db.execute(
            "SELECT t.game_id, g.version, t.seat, t.due_at FROM timers t JOIN games g ON g.id = t.game_id "
            "WHERE t.kind = 'deadline' AND g.status = 'active'"
        ) as cur:
            return [(r[0], r[1], r[2], r[3]) for r in await cur.fetchall()]
    # ------------------------------------------------------------ records (bot.records)

    async def results_in_guild(self, guild_id: int, game: str | None = None) -> list["ResultRow"]:
        """Every ended game (finished or abandoned) of a server, optionally of one game, oldest
        first, with its seated players: what `/game stats` and `/game leaderboard` count."""
        # Practice tables (the asker against the computer) count for nobody's records.
        where = ("g.guild_id = ? AND g.status IN ('finished', 'abandoned') AND NOT EXISTS "
                 "(SELECT 1 FROM day_tables d WHERE d.game_id = g.id AND d.practice = 1)")
        params: tuple[Any, ...] = (guild_id,)
        if game is not None:
            where += " AND g.game = ?"
            params += (game,)
        async with self._lock, self._db.execute(
            f"SELECT g.id, g.game, g.status, g.result, g.updated_at, s.user_id, s.name, s.seat "
            f"FROM games g JOIN seats s ON s.game_id = g.id WHERE {where} AND s.seat IS NOT NULL "
            f"ORDER BY g.id, s.seat", params,
        ) as cur:
            rows = await cur.fetchall()
        results: dict[int, ResultRow] = {}
        for r in rows:
            if r["id"] not in results:
                results[r["id"]] = ResultRow(r["id"], r["game"], r["status"],
                                             None if r["result"] is None else json.loads(r["result"]),
                                             r["updated_at"], [])
            results[r["id"]].players.append(SeatRow(r["user_id"], r["name"], r["seat"], None))
        return list(results.values())

    async def set_table_language(self, game_id: int, lang: str) -> None:
        """The language of a table's channel posts (chosen at `/game new`)."""
        await self._update("UPDATE games SET lang = ? WHERE id = ?", (lang, game_id))


@dataclass(frozen=True)
class ResultRow:
    """An ended game as the records count it."""

    id: int
    game: str
    status: str  # 'finished' or 'abandoned'
    result: dict | None
    ended_at: int
    players: list[SeatRow]  # seat order
