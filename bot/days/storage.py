"""What games over days store: each table's settings, each seat's wait, the timers and each
user's absence and reminder choice (tables `day_tables`, `day_seats`, `timers`, `day_users`,
`timer_claims`, `standing_orders`; migrations in `bot.days.migrations`).

A repository over the database it holds; it also answers what other features need to know of
days (`practice_tables`, `computer_seats_of_ended_games`, `waiting_since`), so that none of them
reads these tables. `now` always comes from the caller's clock (bot.scheduler), so tests can run
the timers on a fake one.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.storage.database import Database, Write

TIMER_LEASE = 300  # seconds a process has to handle a timer it claimed before another may
TABLE_DEFAULTS: dict[str, Any] = {"deadline": None, "timeout": "computer", "reminder": 12 * 3600, "practice": False,
                                  "hints": False, "strength": "normal", "react": None}


def table_settings_write(game_id: int, settings: dict[str, Any]) -> Write:
    """The statement that stores a table's settings (`TABLE_DEFAULTS`' keys)."""
    values = {**TABLE_DEFAULTS, **settings}
    return ("INSERT INTO day_tables (game_id, deadline, timeout, reminder, practice, hints, strength, react) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline, timeout = excluded.timeout, "
            "reminder = excluded.reminder, practice = excluded.practice, hints = excluded.hints, "
            "strength = excluded.strength, react = excluded.react",
            (game_id, values["deadline"], values["timeout"], values["reminder"], int(values["practice"]),
             int(values["hints"]), values["strength"], values["react"]))


def seat_write(game_id: int, seat: int, **fields: Any) -> list[Write]:
    """Set some of since / computer / timeouts for one seat (the row is made if missing)."""
    assert fields and set(fields) <= {"since", "computer", "timeouts"}
    names = sorted(fields)
    # One upsert (a statement less in the change's transaction than making the row, then setting it).
    return [(f"INSERT INTO day_seats (game_id, seat, {', '.join(names)}) VALUES (?, ?{', ?' * len(names)}) "
             f"ON CONFLICT (game_id, seat) DO UPDATE SET {', '.join(f'{n} = excluded.{n}' for n in names)}",
             (game_id, seat, *(fields[n] for n in names)))]


def timers_writes(game_id: int, since: dict[int, int | None], timers: list[tuple[int, str, int]], *,
                  seats_before: Mapping[int, Mapping[str, Any]] | None = None,
                  timers_before: Iterable[tuple[int, str, int]] | None = None) -> list[Write]:
    """After a change to a game: each seat's wait start (None: not to act) and the game's
    complete set of timers (seat, kind, due_at). `seats_before`, `timers_before`: the seats'
    rows and the timers as stored before (read under the game's lock, as the change leaves
    them): what is the same is not written again (most moves change one or two seats' waits and
    keep the others' timers; rewriting them all was some 0.15 ms of SQLite's thread a move)."""
    before = {} if seats_before is None else seats_before
    # Each seat's row made or its wait start set in one upsert (two statements a seat before),
    # one after another: a run of one statement (bot.storage.database.run_writes).
    writes: list[Write] = [("INSERT INTO day_seats (game_id, seat, since) VALUES (?, ?, ?) "
                            "ON CONFLICT (game_id, seat) DO UPDATE SET since = excluded.since", (game_id, seat, when))
                           for seat, when in since.items()
                           if seat not in before or before[seat].get("since") != when]
    wanted = sorted((seat, kind, int(due)) for seat, kind, due in timers)
    if timers_before is not None and sorted(timers_before) == wanted:
        return writes
    writes.append(("DELETE FROM timers WHERE game_id = ?", (game_id,)))
    writes += [("INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, ?, ?)",
                (game_id, seat, kind, int(due))) for seat, kind, due in timers]
    return writes


def clear_timers_write(game_id: int) -> Write:
    """A game that is over keeps no timers."""
    return ("DELETE FROM timers WHERE game_id = ?", (game_id,))


class DaysRepository:
    """What games over days store (see the module's docstring), over the database it holds."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def table(self, game_id: int) -> dict[str, Any]:
        """The table's deadline (seconds or None), timeout choice, reminder time, whether it is a
        practice table or gives hints, its computer players' strength and its reaction window."""
        return self.table_from(await self.db.rows_by_key(*self.table_read(game_id)))

    @staticmethod
    def table_read(game_id: int) -> Write:
        """The read behind `table`, to read with others at once (`table_from` its rows)."""
        return ("SELECT deadline, timeout, reminder, practice, hints, strength, react FROM day_tables "
                "WHERE game_id = ?", (game_id,))

    @staticmethod
    def table_from(rows: list[Any]) -> dict[str, Any]:
        if not rows:
            return dict(TABLE_DEFAULTS)
        row = rows[0]
        return {"deadline": row["deadline"], "timeout": row["timeout"], "reminder": row["reminder"],
                "practice": bool(row["practice"]), "hints": bool(row["hints"]), "strength": row["strength"],
                "react": row["react"]}

    async def change_inputs(self, game_id: int, user_id: int | None
                            ) -> tuple[dict[str, Any], list[tuple[int, str, int]], dict[str, Any] | None]:
        """What a change's timers are worked out from, read together (one hand-over to SQLite's
        thread): the table's settings (`table`), its timers (`timers`) and, for a person's move,
        the mover's absence and reminder choice (`user`; None without `user_id`)."""
        return self.change_inputs_from(await self.db.reads(self.change_reads(game_id, user_id)))

    def change_reads(self, game_id: int, user_id: int | None) -> list[Write]:
        """The reads behind `change_inputs`, to read with others at once (`change_inputs_from`
        their rows)."""
        reads = [self.table_read(game_id), self._timers_read(game_id)]
        if user_id is not None:
            reads.append(self._user_read(user_id))
        return reads

    def change_inputs_from(self, rows: Sequence[list[Any]]
                           ) -> tuple[dict[str, Any], list[tuple[int, str, int]], dict[str, Any] | None]:
        """`change_inputs` from the rows of `change_reads`."""
        settings, timers, *user = rows
        return self.table_from(settings), self._timers_from(timers), self._user_from(user[0]) if user else None

    async def set_table(self, game_id: int, **settings: Any) -> None:
        await self.db.apply([table_settings_write(game_id, settings)])

    async def seats(self, game_id: int) -> dict[int, dict[str, Any]]:
        """seat -> {since, computer, timeouts} for the seats that have a row."""
        return self.seats_from(await self.db.rows(*self.seats_read(game_id)))

    @staticmethod
    def seats_read(game_id: int) -> Write:
        """The read behind `seats`, to read with others at once (`seats_from` its rows)."""
        return "SELECT seat, since, computer, timeouts FROM day_seats WHERE game_id = ?", (game_id,)

    @staticmethod
    def seats_from(rows: Iterable[Any]) -> dict[int, dict[str, Any]]:
        return {r["seat"]: {"since": r["since"], "computer": r["computer"], "timeouts": r["timeouts"]} for r in rows}

    async def set_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        await self.db.apply(seat_write(game_id, seat, **fields))

    async def timers(self, game_id: int) -> list[tuple[int, str, int]]:
        return self._timers_from(await self.db.rows(*self._timers_read(game_id)))

    @staticmethod
    def _timers_read(game_id: int) -> Write:
        return "SELECT seat, kind, due_at FROM timers WHERE game_id = ? ORDER BY seat, kind", (game_id,)

    @staticmethod
    def _timers_from(rows: list[Any]) -> list[tuple[int, str, int]]:
        return [(r["seat"], r["kind"], r["due_at"]) for r in rows]

    # ------------------------------------------------------- what other features ask of days

    async def practice_tables(self) -> set[int]:
        """The games played at practice tables (they count for nobody's records or ratings)."""
        return {row[0] for row in await self.db.rows("SELECT game_id FROM day_tables WHERE practice = 1")}

    async def computer_seats_of_ended_games(self) -> dict[int, dict[int, str]]:
        """game -> seat -> why the computer plays it ('timeout', 'resigned', 'seat'), for every
        finished or abandoned game with such a seat."""
        seats: dict[int, dict[int, str]] = {}
        for row in await self.db.rows(
                "SELECT d.game_id, d.seat, d.computer FROM day_seats d JOIN games g ON g.id = d.game_id "
                "WHERE g.status IN ('finished', 'abandoned') AND d.computer IS NOT NULL"):
            seats.setdefault(row[0], {})[row[1]] = row[2]
        return seats

    async def waiting_since(self, game_ids: Iterable[int]) -> dict[int, dict[int, int]]:
        """game -> seat -> since when the seat waits to act, for the seats of these games that do."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        waiting: dict[int, dict[int, int]] = {}
        for row in await self.db.rows(f"SELECT game_id, seat, since FROM day_seats WHERE since IS NOT NULL AND "
                                      f"game_id IN ({', '.join('?' * len(ids))})", tuple(ids)):
            waiting.setdefault(row[0], {})[row[1]] = row[2]
        return waiting

    async def next_due(self) -> int | None:
        return (await self.db.row("SELECT MIN(due_at) FROM timers"))[0]

    async def first_due(self, now: float) -> tuple[int, int, str, int] | None:
        """The oldest timer due by `now` that no process is handling: (game_id, seat, kind, due_at)."""
        row = await self.db.row(
            "SELECT game_id, seat, kind, due_at FROM timers WHERE due_at <= ? AND NOT EXISTS ("
            "SELECT 1 FROM timer_claims c WHERE c.game_id = timers.game_id AND c.seat = timers.seat "
            "AND c.kind = timers.kind AND c.due_at = timers.due_at AND c.claimed_at > ?) "
            "ORDER BY due_at, game_id, seat, kind LIMIT 1", (int(now), int(now) - TIMER_LEASE))
        return None if row is None else (row["game_id"], row["seat"], row["kind"], row["due_at"])

    async def claim_timer(self, game_id: int, seat: int, kind: str, due_at: int, now: float) -> bool:
        """Claim a due timer for this process. True for exactly one of several processes (on one
        database) asking at once; a claim older than the lease (its process died mid-way) may
        be taken over. Old claims are swept away on the way."""
        async with self.db.transaction() as db:
            await db.execute("DELETE FROM timer_claims WHERE claimed_at < ?", (int(now) - 86_400,))
            cursor = await db.execute(
                "INSERT INTO timer_claims (game_id, seat, kind, due_at, claimed_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (game_id, seat, kind, due_at) DO UPDATE SET claimed_at = excluded.claimed_at "
                "WHERE timer_claims.claimed_at <= ?",
                (game_id, seat, kind, int(due_at), int(now), int(now) - TIMER_LEASE),
            )
            return cursor.rowcount == 1

    async def move_timer(self, game_id: int, seat: int, kind: str, *, was: int, due_at: int | None) -> None:
        """Reschedule (or with due_at None delete) a timer, only if it is still the one seen."""
        if due_at is None:
            await self.db.update("DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = ? AND due_at = ?",
                                 (game_id, seat, kind, was))
        else:
            await self.db.update("UPDATE timers SET due_at = ? WHERE game_id = ? AND seat = ? AND kind = ? "
                                 "AND due_at = ?", (int(due_at), game_id, seat, kind, was))

    async def user(self, user_id: int) -> dict[str, Any]:
        return self._user_from(await self.db.rows(*self._user_read(user_id)))

    @staticmethod
    def _user_read(user_id: int) -> Write:
        return "SELECT reminders, away_until FROM day_users WHERE user_id = ?", (user_id,)

    @staticmethod
    def _user_from(rows: list[Any]) -> dict[str, Any]:
        if not rows:
            return {"reminders": True, "away_until": None}
        return {"reminders": bool(rows[0]["reminders"]), "away_until": rows[0]["away_until"]}

    async def set_user(self, user_id: int, **fields: Any) -> None:
        assert fields and set(fields) <= {"reminders", "away_until"}
        names = sorted(fields)
        await self.db.apply([
            ("INSERT OR IGNORE INTO day_users (user_id) VALUES (?)", (user_id,)),
            (f"UPDATE day_users SET {', '.join(f'{n} = ?' for n in names)} WHERE user_id = ?",
             (*(fields[n] for n in names), user_id))])

    async def shift_deadlines(self, user_id: int, *, delta: int, not_before: int,
                              except_game: int | None = None) -> None:
        """Move the deadlines of every seat `user_id` holds in an active game (but `except_game`)
        by `delta` seconds (never earlier than `not_before`): /game away and its end."""
        await self.db.update(
            "UPDATE timers SET due_at = MAX(due_at + ?, ?) WHERE kind = 'deadline' AND game_id != ? AND EXISTS ("
            " SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id WHERE s.game_id = timers.game_id"
            " AND s.seat = timers.seat AND s.user_id = ? AND g.status = 'active')",
            (int(delta), int(not_before), -1 if except_game is None else except_game, user_id),
        )

    async def deadlines(self, game_id: int) -> dict[int, int]:
        """seat -> when its deadline falls, for the seats of a game that have one."""
        return self.deadlines_from(await self.db.rows(*self.deadlines_read(game_id)))

    @staticmethod
    def deadlines_read(game_id: int) -> Write:
        """The read behind `deadlines`, to read with others at once (`deadlines_from` its rows)."""
        return "SELECT seat, due_at FROM timers WHERE game_id = ? AND kind = 'deadline'", (game_id,)

    @staticmethod
    def deadlines_from(rows: Iterable[Any]) -> dict[int, int]:
        return {r["seat"]: r["due_at"] for r in rows}

    # ------------------------------------------------------------------ standing orders

    async def standing_orders(self, game_id: int) -> dict[int, frozenset[str]]:
        """seat -> the kinds of decisions outside its turn the computer answers for it."""
        return self.orders_from(await self.db.rows(*self.orders_read(game_id)))

    @staticmethod
    def orders_read(game_id: int) -> Write:
        """The read behind `standing_orders`, to read with others at once (`orders_from` its rows)."""
        return "SELECT seat, kind FROM standing_orders WHERE game_id = ?", (game_id,)

    @staticmethod
    def orders_from(rows: Iterable[Any]) -> dict[int, frozenset[str]]:
        orders: dict[int, set[str]] = {}
        for row in rows:
            orders.setdefault(row["seat"], set()).add(row["kind"])
        return {seat: frozenset(kinds) for seat, kinds in orders.items()}

    async def set_standing_order(self, game_id: int, seat: int, kind: str, on: bool) -> None:
        if on:
            await self.db.update("INSERT OR IGNORE INTO standing_orders (game_id, seat, kind) VALUES (?, ?, ?)",
                                 (game_id, seat, kind))
        else:
            await self.db.update("DELETE FROM standing_orders WHERE game_id = ? AND seat = ? AND kind = ?",
                                 (game_id, seat, kind))
