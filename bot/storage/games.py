"""The games and their moves (feature `games`, its migrations in `bot.storage.migrations`):
games, seats, the action log, the users' languages and the archive of finished games' moves.

Every other feature builds on these tables and may read them; this module names none of
theirs. A change to a game (a move, a start, an end) is one transaction here, and carries the
statements the other features owe it as `writes` (built by their own modules).
"""
from __future__ import annotations

import json
import sqlite3
import time
import zlib
from collections.abc import Collection, Sequence
from typing import Any

import aiosqlite

from bot.storage.database import Database, Write, run_writes
from bot.storage.rows import (
    OPEN_STATUSES,
    ActionRow,
    ChannelBusy,
    GameRow,
    ResultRow,
    SeatRow,
    StaleVersion,
    StorageError,
    stored_digest,
)


def _now() -> int:
    return int(time.time())


def seat_holder_write(game_id: int, old_user_id: int, new_user_id: int, name: str) -> Write:
    """Another player takes over the seat `old_user_id` holds (bot.days.undo's substitutes), in
    the change's own transaction; whether DMs reach them is not known yet."""
    return ("UPDATE seats SET user_id = ?, name = ?, dm_ok = NULL WHERE game_id = ? AND user_id = ?",
            (new_user_id, name, game_id, old_user_id))


def dm_ok_write(game_id: int, user_id: int, ok: bool) -> Write:
    """Whether DMs reach a seated user (`GamesRepository.set_dm_ok`), to store with others: a
    DM's delivery stores it with the DM's row."""
    return "UPDATE seats SET dm_ok = ? WHERE game_id = ? AND user_id = ?", (int(ok), game_id, user_id)


def language_read(user_id: int) -> Write:
    """The read of a user's language (`GamesRepository.language_of_user`), to read with others."""
    return "SELECT lang FROM user_languages WHERE user_id = ?", (user_id,)


def language_from(rows: list[Any], default: str = "en") -> str:
    """The language the rows of `language_read` name, else `default`."""
    return str(rows[0]["lang"]) if rows else default


def languages_read(game_id: int) -> Write:
    """The read of the languages of a game's seated users (those who have one), to read with
    the game at once (`languages_from`: `GamesRepository.languages_of_users` of its players)."""
    return ("SELECT s.user_id AS user_id, l.lang AS lang FROM seats s JOIN user_languages l "
            "ON l.user_id = s.user_id WHERE s.game_id = ?", (game_id,))


def languages_from(rows: list[Any], user_ids: Collection[int], default: str = "en") -> dict[int, str]:
    """`language_of_user` of each of `user_ids`, from rows of users and their languages
    (`languages_read`'s, or those of the users asked for)."""
    known = {row["user_id"]: row["lang"] for row in rows}
    return {user_id: known.get(user_id, default) for user_id in user_ids}


class GamesRepository:
    """The games and their moves: lobbies, seats, the action log and every change to a game,
    over the database it holds. The other features keep their own tables beside these and may
    read them; this knows none of theirs (a change carries their statements as `writes`)."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.loads = 0  # games read from the store (a start-up test counts them)

    # ------------------------------------------------------------------------------ reads

    async def _load(self, where: str, params: tuple[Any, ...]) -> GameRow | None:
        """The newest game `where` says (the caller holds the lock)."""
        return (await self._load_with(where, params, ()))[0]

    async def _load_with(self, where: str, params: tuple[Any, ...],
                         more: Sequence[Write]) -> tuple[GameRow | None, list[list[Any]]]:
        """The newest game `where` says, and the rows of the reads `more` (another feature's rows
        of the game), all read in one hand-over (the caller holds the lock)."""
        # A game asked for by its id: its seats by that id (not by a look-up of the game again).
        game = "?" if where == "id = ?" else f"(SELECT id FROM games WHERE {where} ORDER BY id DESC LIMIT 1)"
        found, seats, *others = await self.db.held_reads([
            (f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT 1", params),
            (f"SELECT user_id, name, seat, dm_ok FROM seats WHERE game_id = {game} "
             "ORDER BY seat IS NULL, seat, joined_at, rowid", params),
            *more])
        return self._game_row(found, seats), others

    def _game_row(self, found: list[Any], seats: list[Any]) -> GameRow | None:
        if not found:
            return None
        row = found[0]
        self.loads += 1
        players = tuple(
            SeatRow(r["user_id"], r["name"], r["seat"], None if r["dm_ok"] is None else bool(r["dm_ok"]))
            for r in seats
        )
        pings = json.loads(row["turn_pings"])
        return GameRow(
            id=row["id"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            game=row["game"],
            status=row["status"],
            host_id=row["host_id"],
            options=json.loads(row["options"]),
            seed=row["seed"],
            state=row["state"],  # the stored JSON text (None before the start), decoded when read
            state_digest=stored_digest(row["state"]) if isinstance(row["state"], str) else None,
            version=row["version"],
            result=None if row["result"] is None else json.loads(row["result"]),
            lobby_message_id=row["lobby_message_id"],
            board_message_id=row["board_message_id"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            players=players,
            lang=row["lang"],
            board_owed=bool(row["board_owed"]),
            board_version=row["board_version"],
            board_turn=row["board_turn"],
            turn_number=row["turn_number"],
            turn_lines=tuple(json.loads(row["turn_lines"])),
            board_whole=bool(row["board_whole"]),
            turn_pings=None if pings is None else tuple(pings),
        )

    async def get_game(self, game_id: int) -> GameRow | None:
        async with self.db.lock:
            return await self._load("id = ?", (game_id,))

    async def get_game_with(self, game_id: int, more: Sequence[Write]) -> tuple[GameRow | None, list[list[Any]]]:
        """The game, and the rows of the reads `more` (another feature's rows of it, such as its
        seats' waits), read together: one hand-over to SQLite's thread."""
        async with self.db.lock:
            return await self._load_with("id = ?", (game_id,), more)

    async def open_game_in(self, channel_id: int) -> GameRow | None:
        async with self.db.lock:
            return await self._load("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def latest_game_in(self, channel_id: int) -> GameRow | None:
        async with self.db.lock:
            return await self._load("channel_id = ?", (channel_id,))

    async def by_ids(self, ids: list[int]) -> list[GameRow]:
        """The games with these ids, in that order (those that exist)."""
        async with self.db.lock:
            return [row for game_id in ids if (row := await self._load("id = ?", (game_id,))) is not None]

    async def actions(self, game_id: int) -> list[ActionRow]:
        """The game's action log, oldest first (from the archive for an archived game)."""
        logged = await self.db.rows(
            "SELECT version, seat, action, at, answered FROM actions WHERE game_id = ? ORDER BY version", (game_id,))
        rows = [ActionRow(r["version"], r["seat"], r["action"], r["at"], bool(r["answered"])) for r in logged]
        if rows:
            return rows
        archived = await self.db.row("SELECT actions FROM archived_actions WHERE game_id = ?", (game_id,))
        if archived is None:
            return []
        return [ActionRow(version, seat, action, at) for version, seat, action, at in
                json.loads(zlib.decompress(bytes(archived[0])))]

    async def archive_finished(self, before: int, limit: int = 200) -> int:
        """Archive up to `limit` games that ended before `before` (Unix seconds): their action log
        in one compressed row, their last state dropped (seed and log rebuild it). Results,
        records, exports and replays read them as before. Returns how many were archived."""
        ids = [row[0] for row in await self.db.rows(
            "SELECT id FROM games WHERE status IN ('finished', 'abandoned') AND updated_at < ? AND state IS NOT NULL "
            "ORDER BY updated_at LIMIT ?", (int(before), int(limit)))]
        for game_id in ids:
            log_rows = [[r["version"], r["seat"], r["action"], r["at"]] for r in await self.db.rows(
                "SELECT version, seat, action, at FROM actions WHERE game_id = ? ORDER BY version", (game_id,))]
            packed = zlib.compress(json.dumps(log_rows, separators=(",", ":")).encode(), 9)
            await self.db.apply([
                ("INSERT INTO archived_actions (game_id, actions) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING",
                 (game_id, packed)),
                ("DELETE FROM actions WHERE game_id = ?", (game_id,)),
                ("UPDATE games SET state = NULL WHERE id = ?", (game_id,)),
            ])
        return len(ids)

    async def last_action_of(self, game_id: int, seat: int) -> ActionRow | None:
        """The newest move a seat made in a game (None before its first)."""
        row = await self.db.row("SELECT version, seat, action, at, answered FROM actions WHERE game_id = ? "
                                "AND seat = ? ORDER BY version DESC LIMIT 1", (game_id, seat))
        return None if row is None else ActionRow(row["version"], row["seat"], row["action"], row["at"],
                                                  bool(row["answered"]))

    async def mark_answered(self, game_id: int, version: int) -> None:
        """The mover has seen the answer to the move that made `version`."""
        await self.db.update("UPDATE actions SET answered = 1 WHERE game_id = ? AND version = ? AND answered = 0",
                           (game_id, version))

    async def count_open(self) -> dict[str, int]:
        """How many games are in the lobby and how many are being played."""
        rows = await self.db.rows("SELECT status, COUNT(*) AS n FROM games WHERE status IN ('lobby', 'active') "
                                "GROUP BY status")
        counts = {row["status"]: row["n"] for row in rows}
        return {status: counts.get(status, 0) for status in OPEN_STATUSES}

    async def open_games_of(self, user_id: int) -> list[GameRow]:
        """Every open game (lobby or active) `user_id` sits at, on any server, oldest first."""
        ids = [r["id"] for r in await self.db.rows(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? "
            "AND g.status IN ('lobby', 'active') ORDER BY g.id", (user_id,))]
        return await self.by_ids(ids)

    # ----------------------------------------------------------------------------- lobby

    async def create_lobby(
        self, *, guild_id: int, channel_id: int, game: str, host_id: int, host_name: str,
        options: dict[str, str], lang: str = "en", writes_for=None,
    ) -> GameRow:
        """A new lobby; `writes_for(game_id)`: more statements for the same transaction (a
        feature's settings for the new table)."""
        now = _now()
        async with self.db.lock:
            try:
                async with self.db.held_transaction() as db:
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
                    await run_writes(db, writes_for(game_id) if writes_for is not None else ())
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy("This channel already has an open game.") from exc
            created = await self._load("id = ?", (game_id,))
            if created is None:  # written just above, under the same lock
                raise StorageError(f"Game {game_id} was not stored.")
            return created

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self.db.update("UPDATE games SET lobby_message_id = ? WHERE id = ?", (message_id, game_id))

    async def add_player(self, game_id: int, user_id: int, name: str) -> None:
        await self.change_lobby(game_id, joined=[(user_id, name)])

    async def change_lobby(self, game_id: int, *, joined: Sequence[tuple[int, str]] = (), left: int | None = None,
                           new_host_id: int | None = None, writes: Sequence[Write] = ()) -> None:
        """A lobby's change in one transaction: seats taken (`joined`: user id and name each) or
        given up (`left`, handing the lobby to `new_host_id` when given), and `writes` (the lobby
        message's edit it owes, the table's settings), so the message never misses a seat."""
        async with self.db.transaction() as db:
            await self._require_status(db, game_id, "lobby")
            for user_id, name in joined:
                await db.execute(
                    "INSERT OR IGNORE INTO seats (game_id, user_id, name, joined_at) VALUES (?, ?, ?, ?)",
                    (game_id, user_id, name, _now()),
                )
            if left is not None:
                await db.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, left))
            if new_host_id is not None:
                await db.execute("UPDATE games SET host_id = ? WHERE id = ?", (new_host_id, game_id))
            await self._touch(db, game_id)
            await run_writes(db, writes)

    # --------------------------------------------------------------------------- changes

    async def start_game(self, game_id: int, *, seat_order: list[int], seed: int, state: dict,
                         writes: Sequence[Write] = ()) -> None:
        """Lobby -> active in one transaction: seats, seed, the first state, and `writes` (what
        the start owes Discord, the first timers)."""
        async with self.db.transaction() as db:
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
            await run_writes(db, writes)

    async def record_change(
        self, game_id: int, *, expected_version: int, seat: int, action: str, state: dict | str,
        finished_result: dict | None = None, answered: bool = True, writes: Sequence[Write] = (),
    ) -> int:
        """The one transaction per change of a game (a move, an undo, a new player in a seat): the
        log row, the new state (the engine's `to_dict`, or its JSON text), the version bump, and
        `writes` (what it owes Discord, its timers), or nothing. `answered=False`: the mover still
        has to be told (a typed /move).

        Compare-and-swap on `version`: if the stored version is not `expected_version` (or the
        game is no longer active) nothing is written and StaleVersion is raised.
        """
        new_version = expected_version + 1
        now = _now()
        text = state if isinstance(state, str) else json.dumps(state)
        # One batch (one hand-over to SQLite's thread), its first statement the compare-and-swap.
        # A move that ends nothing leaves `status` out: an UPDATE that sets an indexed column
        # rewrites its index entries even to the same value (two index pages more in the commit,
        # games_by_guild and games_one_open_per_channel); the WHERE keeps it 'active'.
        swap: Write = (
            "UPDATE games SET state = ?, version = ?, result = NULL, updated_at = ? "
            "WHERE id = ? AND version = ? AND status = 'active'",
            (text, new_version, now, game_id, expected_version),
        ) if finished_result is None else (
            "UPDATE games SET state = ?, version = ?, status = 'finished', result = ?, updated_at = ? "
            "WHERE id = ? AND version = ? AND status = 'active'",
            (text, new_version, json.dumps(finished_result), now, game_id, expected_version))
        stored = await self.db.batch([
            swap,
            ("INSERT INTO actions (game_id, version, seat, action, at, answered) VALUES (?, ?, ?, ?, ?, ?)",
             (game_id, new_version, seat, action, now, int(answered))),
            *writes,
        ], guarded=True)
        if stored is None:
            raise StaleVersion("The game changed while this move was being made.")
        return new_version

    async def end_game(self, game_id: int, *, status: str, result: dict, expected_status: str | None = None,
                       writes: Sequence[Write] = ()) -> None:
        """Finish or abandon an open game (resignation, abandonment, a timeout), with `writes`
        (the end message it owes Discord) in the same transaction."""
        assert status in ("finished", "abandoned")
        stored = await self.db.batch([
            ("UPDATE games SET status = ?, result = ?, updated_at = ? "
             "WHERE id = ? AND status IN ('lobby', 'active') AND (? IS NULL OR status = ?)",
             (status, json.dumps(result), _now(), game_id, expected_status, expected_status)),
            *writes,
        ], guarded=True)
        if stored is None:
            raise StaleVersion("The game is no longer open.")

    # ------------------------------------------------------------------------- players

    async def remember_language(self, user_id: int, lang: str) -> None:
        """The language a user last spoke to the bot in, for DMs the bot sends them later."""
        await self.db.update(
            "INSERT INTO user_languages (user_id, lang, at) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang, at = excluded.at",
            (user_id, lang, _now()),
        )

    async def language_of_user(self, user_id: int, default: str = "en") -> str:
        return language_from(await self.db.rows(*language_read(user_id)), default)

    async def languages_of_users(self, user_ids: Sequence[int], default: str = "en") -> dict[int, str]:
        """`language_of_user` of each of `user_ids`, in one read."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self.db.rows(f"SELECT user_id, lang FROM user_languages WHERE user_id IN ({marks})",
                                  tuple(user_ids))
        return languages_from(rows, user_ids, default)

    async def set_dm_ok(self, game_id: int, user_id: int, ok: bool) -> None:
        await self.db.update(*dm_ok_write(game_id, user_id, ok))

    async def set_table_language(self, game_id: int, lang: str) -> None:
        """The language of a table's channel posts (chosen at `/game new`)."""
        await self.db.update("UPDATE games SET lang = ? WHERE id = ?", (lang, game_id))

    # ------------------------------------------------------------------------- records

    async def results_in_guild(self, guild_id: int, game: str | None = None, *,
                               leave_out: Collection[int] = ()) -> list[ResultRow]:
        """Every ended game (finished or abandoned) of a server, optionally of one game, oldest
        first, with its seated players: what `/game stats` and `/game leaderboard` count.
        `leave_out`: games that count for nobody's records (practice tables, which bot.days knows)."""
        where = "g.guild_id = ? AND g.status IN ('finished', 'abandoned')"
        params: tuple[Any, ...] = (guild_id,)
        if game is not None:
            where += " AND g.game = ?"
            params += (game,)
        rows = await self.db.rows(
            f"SELECT g.id, g.game, g.status, g.result, g.updated_at, s.user_id, s.name, s.seat "
            f"FROM games g JOIN seats s ON s.game_id = g.id WHERE {where} AND s.seat IS NOT NULL "
            f"ORDER BY g.id, s.seat", params)
        results: dict[int, ResultRow] = {}
        for r in rows:
            if r["id"] in leave_out:
                continue
            if r["id"] not in results:
                results[r["id"]] = ResultRow(r["id"], r["game"], r["status"],
                                             None if r["result"] is None else json.loads(r["result"]),
                                             r["updated_at"], [])
            results[r["id"]].players.append(SeatRow(r["user_id"], r["name"], r["seat"], None))
        return list(results.values())

    # --------------------------------------------------------------------------- helpers

    @staticmethod
    async def _require_status(db: aiosqlite.Connection, game_id: int, status: str) -> None:
        rows = list(await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (game_id,)))
        if not rows or rows[0]["status"] != status:
            raise StorageError(f"The game is not in the {status} any more.")

    @staticmethod
    async def _touch(db: aiosqlite.Connection, game_id: int) -> None:
        await db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (_now(), game_id))
