"""What tournaments store (`bot.tournaments.migrations`), beside the games:

- `tournaments`: each tournament, its settings, its status and round, who cancelled it, and its
  one message (the sign-up, later the standings), which owes an edit while `wanted` > `shown`
  (as the league's overview does);
- `tournament_players`: who signed up, their seeding rating, the round they withdrew in (and
  whether because they left the server), and their final place once it is over;
- `tournament_tables`: each round's tables in order (a knockout's in bracket order), each with
  its thread (and when it was asked of Discord) and game once opened, when it is past its time,
  and its result once done; a bye is a table of one;
- `tournament_guilds`: the role (besides Manage Server) that may run tournaments on a server.

A table's game is linked in the transaction that makes the game, its result is written in the
transaction that ends it (bot.tournaments.listener), and a round's tables in the one that moves
the tournament on to that round (a compare-and-swap on the round): a restart at any point finds
each table either not made yet or made whole.

A repository over the database it holds.
"""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database, Write, run_writes

OPEN = ("signup", "running")


def _now() -> int:
    return int(time.time())


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    format: str
    size: int
    rounds: int | None
    options: dict[str, str]
    settings: dict[str, Any]
    game_time: int | None
    overtime: str
    signup_until: int | None
    lang: str
    status: str
    round: int
    schedule: list[Any] | None
    winner_id: int | None
    message_id: int | None
    wanted: int
    shown: int
    posts: int
    created_at: int
    cancelled_by: int | None = None   # the organiser who cancelled it (None: too few signed up)
    cancel_tables: str | None = None  # what became of its open tables then: "rule" or "abandon"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN


@dataclass(frozen=True)
class EntrantRow:
    user_id: int
    name: str
    rating: float
    seq: int
    withdrawn: int | None  # the round they withdrew in
    left_server: bool = False  # withdrawn because they left the server
    place: int | None = None  # their final place, once the tournament is finished

    @property
    def playing(self) -> bool:
        return self.withdrawn is None


@dataclass(frozen=True)
class TableRow:
    tournament_id: int
    round: int
    number: int
    players: tuple[int, ...]
    status: str  # pending, playing, done, bye
    thread_id: int | None
    game_id: int | None
    due_at: int | None
    overtime: bool
    result: dict[str, Any] | None
    thread_asked_at: int | None = None  # when its thread was asked of Discord (a retry looks for it first)

    @property
    def over(self) -> bool:
        return self.status in ("done", "bye")


def _tournament(row: Any) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], host_id=row["host_id"],
        game=row["game"], format=row["format"], size=row["size"], rounds=row["rounds"],
        options=json.loads(row["options"]), settings=json.loads(row["settings"]), game_time=row["game_time"],
        overtime=row["overtime"], signup_until=row["signup_until"], lang=row["lang"], status=row["status"],
        round=row["round"], schedule=None if row["schedule"] is None else json.loads(row["schedule"]),
        winner_id=row["winner_id"], message_id=row["message_id"], wanted=row["wanted"], shown=row["shown"],
        posts=row["posts"], created_at=row["created_at"], cancelled_by=row["cancelled_by"],
        cancel_tables=row["cancel_tables"])


def _table(row: Any) -> TableRow:
    return TableRow(row["tournament_id"], row["round"], row["number"], tuple(json.loads(row["players"])),
                    row["status"], row["thread_id"], row["game_id"], row["due_at"], bool(row["overtime"]),
                    None if row["result"] is None else json.loads(row["result"]), row["thread_asked_at"])


def _entrant(row: Any) -> EntrantRow:
    return EntrantRow(row["user_id"], row["name"], row["rating"], row["seq"], row["withdrawn"],
                      bool(row["left_server"]), row["place"])


@dataclass(frozen=True)
class TournamentRecord:
    """A player's finished tournaments of one game on one server (`/game stats`)."""

    game: str
    played: int
    won: int
    best: int | None  # their best final place


# ------------------------------------------------------------------- statements (a change's own)


def owed_write(tournament_id: int) -> Write:
    """The tournament's message owes an edit."""
    return ("UPDATE tournaments SET wanted = wanted + 1, updated_at = ? WHERE id = ?", (_now(), tournament_id))


def game_link_write(tournament_id: int, round_no: int, number: int, game_id: int) -> Write:
    """The table's game, in the transaction that makes it."""
    return ("UPDATE tournament_tables SET game_id = ? WHERE tournament_id = ? AND round = ? AND number = ? "
            "AND game_id IS NULL", (game_id, tournament_id, round_no, number))


def playing_write(tournament_id: int, round_no: int, number: int, due_at: int | None) -> Write:
    """The table's game started (in the start's own transaction): past its time at `due_at`."""
    return ("UPDATE tournament_tables SET status = 'playing', due_at = ? WHERE tournament_id = ? AND round = ? "
            "AND number = ? AND status = 'pending'", (due_at, tournament_id, round_no, number))


def result_write(tournament_id: int, round_no: int, number: int, result: dict[str, Any]) -> Write:
    """The table is done (in the transaction that ends its game)."""
    return ("UPDATE tournament_tables SET status = 'done', result = ? WHERE tournament_id = ? AND round = ? "
            "AND number = ? AND status IN ('pending', 'playing')",
            (json.dumps(result), tournament_id, round_no, number))


class TournamentRepository:
    """What tournaments store (see the module's docstring), over the database it holds."""

    def __init__(self, database: Database) -> None:
        self.db = database

    # ------------------------------------------------------------------------- tournaments

    async def create(self, *, guild_id: int, channel_id: int, host_id: int, game: str, format: str,
                     size: int, rounds: int | None, options: dict[str, str], settings: dict[str, Any],
                     game_time: int | None, overtime: str, signup_until: int | None,
                     lang: str) -> int:
        now = _now()
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO tournaments (guild_id, channel_id, host_id, game, format, size, rounds, options, "
                "settings, game_time, overtime, signup_until, lang, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?)",
                (guild_id, channel_id, host_id, game, format, size, rounds, json.dumps(options), json.dumps(settings),
                 game_time, overtime, signup_until, lang, now, now))
            assert cursor.lastrowid is not None
            return int(cursor.lastrowid)

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self.db.row("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def in_guild(self, guild_id: int, statuses: Sequence[str] = OPEN) -> list[TournamentRow]:
        """The server's tournaments with one of `statuses`, newest first."""
        marks = ", ".join("?" * len(statuses))
        rows = await self.db.rows(f"SELECT * FROM tournaments WHERE guild_id = ? AND status IN ({marks}) "
                                  f"ORDER BY id DESC", (guild_id, *statuses))
        return [_tournament(row) for row in rows]

    async def running(self) -> list[int]:
        rows = await self.db.rows("SELECT id FROM tournaments WHERE status = 'running' ORDER BY id")
        return [row["id"] for row in rows]

    async def begin(self, tournament_id: int, *, rounds: int, schedule: list[Any] | None,
                    ratings: dict[int, float]) -> bool:
        """Sign-up -> running, with the rounds to play, a round robin's schedule and everyone's
        seeding rating. False if it was not in the sign-up any more."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?, schedule = ?, wanted = wanted + 1, "
                "updated_at = ? WHERE id = ? AND status = 'signup'",
                (rounds, None if schedule is None else json.dumps(schedule), _now(), tournament_id))
            if cursor.rowcount != 1:
                return False
            for user_id, rating in ratings.items():
                await db.execute("UPDATE tournament_players SET rating = ? WHERE tournament_id = ? AND user_id = ?",
                                 (rating, tournament_id, user_id))
            return True

    async def change_settings(self, tournament_id: int, *, settings: dict[str, Any],
                              signup_until: int | None) -> bool:
        """The organiser's change in the sign-up: the tables' settings and when the sign-up closes.
        False if it is not in the sign-up any more (it started meanwhile)."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET settings = ?, signup_until = ?, wanted = wanted + 1, updated_at = ? "
                "WHERE id = ? AND status = 'signup'", (json.dumps(settings), signup_until, _now(), tournament_id))
            return cursor.rowcount == 1

    async def end(self, tournament_id: int, *, status: str, winner_id: int | None = None,
                  places: dict[int, int] | None = None, cancelled_by: int | None = None,
                  cancel_tables: str | None = None) -> bool:
        """Running or in the sign-up -> finished (with its winner and everyone's final place) or
        cancelled (by an organiser, and what becomes of its open tables). False if it had ended
        already."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET status = ?, winner_id = ?, cancelled_by = ?, cancel_tables = ?, "
                "wanted = wanted + 1, updated_at = ? WHERE id = ? AND status IN ('signup', 'running')",
                (status, winner_id, cancelled_by, cancel_tables, _now(), tournament_id))
            if cursor.rowcount != 1:
                return False
            for user_id, place in (places or {}).items():
                await db.execute("UPDATE tournament_players SET place = ? WHERE tournament_id = ? AND user_id = ?",
                                 (place, tournament_id, user_id))
            return True

    async def next_round(self, tournament_id: int, *, round_no: int, tables: Sequence[Sequence[int]],
                         writes: Sequence[Write] = ()) -> bool:
        """The tournament moves on to `round_no` with its tables in order (each in seat order,
        pending; a table of one is a bye, over at once), if it is still at the round before (else
        False: another process moved it on first)."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET round = ?, wanted = wanted + 1, updated_at = ? WHERE id = ? AND round = ? "
                "AND status = 'running'", (round_no, _now(), tournament_id, round_no - 1))
            if cursor.rowcount != 1:
                return False
            for number, players in enumerate(tables, start=1):
                await db.execute("INSERT INTO tournament_tables (tournament_id, round, number, players, status) "
                                 "VALUES (?, ?, ?, ?, ?)", (tournament_id, round_no, number, json.dumps(list(players)),
                                                            "bye" if len(players) == 1 else "pending"))
            await run_writes(db, writes)
            return True

    # ----------------------------------------------------------------------------- players

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await self.db.rows("SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY seq",
                                  (tournament_id,))
        return [_entrant(row) for row in rows]

    async def join(self, tournament_id: int, user_id: int, name: str, rating: float) -> bool:
        """Sign up (only while the sign-up is open). False if they had signed up already."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, seq) SELECT ?, ?, ?, ?, "
                "COALESCE((SELECT MAX(seq) FROM tournament_players WHERE tournament_id = ?), 0) + 1 "
                "WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup') "
                "AND NOT EXISTS (SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?)",
                (tournament_id, user_id, name, rating, tournament_id, tournament_id, tournament_id, user_id))
            if cursor.rowcount != 1:
                return False
            await db.execute(*owed_write(tournament_id))
            return True

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Take back a sign-up (only while the sign-up is open). False if they had not signed up."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ? AND EXISTS "
                "(SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup')",
                (tournament_id, user_id, tournament_id))
            if cursor.rowcount != 1:
                return False
            await db.execute(*owed_write(tournament_id))
            return True

    async def withdraw(self, tournament_id: int, user_id: int, round_no: int, *,
                       left_server: bool = False) -> bool:
        """A player leaves a running tournament in round `round_no` (`left_server`: because they
        left the server). False if they were not in it (or had withdrawn already)."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournament_players SET withdrawn = ?, left_server = ? WHERE tournament_id = ? "
                "AND user_id = ? AND withdrawn IS NULL", (round_no, int(left_server), tournament_id, user_id))
            if cursor.rowcount != 1:
                return False
            await db.execute(*owed_write(tournament_id))
            return True

    # ------------------------------------------------------------------------------ tables

    async def tables(self, tournament_id: int, round_no: int | None = None) -> list[TableRow]:
        """The tournament's tables (of one round), by round and number."""
        if round_no is None:
            rows = await self.db.rows("SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round, number",
                                      (tournament_id,))
        else:
            rows = await self.db.rows("SELECT * FROM tournament_tables WHERE tournament_id = ? AND round = ? "
                                      "ORDER BY number", (tournament_id, round_no))
        return [_table(row) for row in rows]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        row = await self.db.row("SELECT * FROM tournament_tables WHERE game_id = ?", (game_id,))
        return None if row is None else _table(row)

    async def thread_asked(self, tournament_id: int, round_no: int, number: int) -> None:
        """The table's thread is about to be asked of Discord: stored first, so that a retry
        (after a crash or a lost answer) looks for a thread made meanwhile before asking again."""
        await self.db.update("UPDATE tournament_tables SET thread_asked_at = ? WHERE tournament_id = ? AND round = ? "
                             "AND number = ? AND thread_id IS NULL", (_now(), tournament_id, round_no, number))

    async def set_thread(self, tournament_id: int, round_no: int, number: int, thread_id: int) -> None:
        await self.db.update("UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ? "
                             "AND number = ? AND thread_id IS NULL", (thread_id, tournament_id, round_no, number))

    async def tables_in_thread(self, thread_id: int) -> list[TableRow]:
        """The tables being played in a thread (one, unless a thread was found twice)."""
        rows = await self.db.rows("SELECT * FROM tournament_tables WHERE thread_id = ? AND status = 'playing' "
                                  "AND game_id IS NOT NULL", (thread_id,))
        return [_table(row) for row in rows]

    async def thread_lost(self, tournament_id: int, round_no: int, number: int, thread_id: int) -> bool:
        """The table's thread is deleted (or closed for good): the table is to get a new one, found
        by the runner as a table being played without a thread. False if it had another thread
        already."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournament_tables SET thread_id = NULL WHERE tournament_id = ? AND round = ? AND number = ? "
                "AND thread_id = ? AND status = 'playing'", (tournament_id, round_no, number, thread_id))
            return cursor.rowcount == 1

    async def claim_overtime(self, tournament_id: int, round_no: int, number: int) -> bool:
        """The table's time ran out (or its tournament was cancelled): True for the one process
        that applies the rule."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournament_tables SET overtime = 1 WHERE tournament_id = ? AND round = ? AND number = ? "
                "AND overtime = 0 AND status = 'playing'", (tournament_id, round_no, number))
            return cursor.rowcount == 1

    async def overtime(self, game_id: int) -> tuple[int, str] | None:
        """Whether the computer finishes the game of a tournament table, because its time ran out
        or its tournament was cancelled: (tournament id, its status), or None."""
        row = await self.db.row("SELECT t.id AS id, t.status AS status FROM tournament_tables tt JOIN tournaments t "
                                "ON t.id = tt.tournament_id WHERE tt.game_id = ? AND tt.overtime = 1", (game_id,))
        return None if row is None else (row["id"], row["status"])

    async def overtime_of(self, game_id: int) -> tuple[int, str, bool] | None:
        """For the game of a tournament table: (tournament id, its status, whether the computer
        finishes the game: `overtime`); None for a game that is no tournament table's."""
        row = await self.db.row("SELECT t.id AS id, t.status AS status, tt.overtime AS overtime FROM "
                                "tournament_tables tt JOIN tournaments t ON t.id = tt.tournament_id "
                                "WHERE tt.game_id = ?", (game_id,))
        return None if row is None else (row["id"], row["status"], bool(row["overtime"]))

    # ------------------------------------------------------------------------------ timers

    async def next_due(self) -> int | None:
        """When the next sign-up closes or the next table runs out of time."""
        # One read (one hand-over to the store's thread) for both: the scheduler asks before
        # each of its sleeps, and a game's timers wake it often.
        signup, table = await self.db.row(
            "SELECT (SELECT MIN(signup_until) FROM tournaments WHERE status = 'signup'), "
            "(SELECT MIN(due_at) FROM tournament_tables WHERE status = 'playing' AND overtime = 0)")
        due = [when for when in (signup, table) if when is not None]
        return min(due) if due else None

    async def signup_due(self, now: int) -> list[int]:
        return [row["id"] for row in await self.db.rows(
            "SELECT id FROM tournaments WHERE status = 'signup' AND signup_until <= ? ORDER BY id", (now,))]

    async def tables_due(self, now: int) -> list[TableRow]:
        rows = await self.db.rows("SELECT * FROM tournament_tables WHERE status = 'playing' AND overtime = 0 "
                                  "AND due_at <= ? ORDER BY due_at, tournament_id, round, number", (now,))
        return [_table(row) for row in rows]

    # ----------------------------------------------------------------------------- message

    async def owed(self) -> list[int]:
        """Tournaments whose message owes an edit."""
        return [row["id"] for row in await self.db.rows("SELECT id FROM tournaments WHERE wanted > shown ORDER BY id")]

    async def shown(self, tournament_id: int, *, message_id: int, shown: int) -> None:
        """The message `message_id` shows what was owed up to `shown`."""
        await self.db.update("UPDATE tournaments SET message_id = ?, shown = CASE WHEN shown > ? THEN shown ELSE ? END "
                             "WHERE id = ?", (message_id, shown, shown, tournament_id))

    async def message_gone(self, tournament_id: int, message_id: int) -> bool:
        """The message was deleted: a new one is owed (posted with a nonce of its own). False if
        the tournament had moved on to another message already."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE tournaments SET message_id = NULL, posts = posts + 1, wanted = wanted + 1 WHERE id = ? "
                "AND message_id = ?", (tournament_id, message_id))
            return cursor.rowcount == 1

    async def with_message(self, channel_id: int, message_ids: Sequence[int]) -> list[tuple[int, int]]:
        """The open tournaments whose message is one of `message_ids` in the channel: (id, message id)."""
        if not message_ids:
            return []
        marks = ", ".join("?" * len(message_ids))
        rows = await self.db.rows(f"SELECT id, message_id FROM tournaments WHERE message_id IN ({marks}) "
                                  f"AND channel_id = ? AND status IN ('signup', 'running')",
                                  (*message_ids, channel_id))
        return [(row["id"], row["message_id"]) for row in rows]

    async def messages_shown(self) -> list[tuple[int, int, int, int]]:
        """Every open tournament's message as stored: (id, guild id, channel id, message id)."""
        rows = await self.db.rows("SELECT id, guild_id, channel_id, message_id FROM tournaments WHERE "
                                  "message_id IS NOT NULL AND status IN ('signup', 'running') ORDER BY id")
        return [(row["id"], row["guild_id"], row["channel_id"], row["message_id"]) for row in rows]

    async def owe(self, tournament_id: int) -> None:
        await self.db.apply([owed_write(tournament_id)])

    # ------------------------------------------------------------------------------ records

    async def records(self, guild_id: int, user_id: int, game: str | None = None) -> list[TournamentRecord]:
        """A player's finished tournaments on a server, one record per game (by game name)."""
        sql = ("SELECT t.game AS game, COUNT(*) AS played, "
               "SUM(CASE WHEN t.winner_id = p.user_id THEN 1 ELSE 0 END) AS won, MIN(p.place) AS best "
               "FROM tournaments t JOIN tournament_players p ON p.tournament_id = t.id "
               "WHERE t.guild_id = ? AND t.status = 'finished' AND p.user_id = ?")
        params: tuple[Any, ...] = (guild_id, user_id)
        if game is not None:
            sql += " AND t.game = ?"
            params += (game,)
        rows = await self.db.rows(sql + " GROUP BY t.game ORDER BY t.game", params)
        return [TournamentRecord(row["game"], int(row["played"]), int(row["won"] or 0),
                                 None if row["best"] is None else int(row["best"])) for row in rows]

    # ------------------------------------------------------------------------------ servers

    async def role(self, guild_id: int) -> int | None:
        row = await self.db.row("SELECT role_id FROM tournament_guilds WHERE guild_id = ?", (guild_id,))
        return None if row is None else row["role_id"]

    async def set_role(self, guild_id: int, role_id: int | None) -> None:
        await self.db.update("INSERT INTO tournament_guilds (guild_id, role_id) VALUES (?, ?) ON CONFLICT (guild_id) "
                             "DO UPDATE SET role_id = excluded.role_id", (guild_id, role_id))
