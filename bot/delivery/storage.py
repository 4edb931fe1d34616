"""What the bot owes Discord, stored with the change that owes it (its migrations: `bot.delivery.migrations`).

A change to a game (a move, an undo, a start, an end) writes in its own transaction what the
channel and the players must be shown; the delivery worker (`bot.delivery.worker`) sends it
later, outside the game's lock, and marks it delivered. So nothing a player must see is lost to
a crash or to Discord refusing a request: what is owed stays owed until it is shown.

- The board is state on the game's row, newest wins: `board_owed` while the channel's board
  does not show the current version (or the current turn). Each turn (a wait that begins when
  someone new must act) has a number; `turn_number` is the newest, `board_turn` the one the board
  message belongs to: a newer turn gets a new message (mentioning `turn_pings`), the same turn an
  edit. `turn_lines` is the open turn's running account as its message shows it, so the bot never
  reads its own messages back.
- Channel posts (`notice`), older turn messages that become history (`close`) and the lobby
  message (`lobby`) are rows of `deliveries`, delivered in order; so is a message whose edit got
  no answer in time (`late`): it may still land after newer edits, so it is shown as meant last
  once it can no longer land.
- Each seat's DM is a row of `seat_dms`: the open DM (so a restart edits it rather than sending
  another) and whether it owes the seat its private view (`owed`: the version), with the private
  lines not shown yet.
"""
from __future__ import annotations

import json
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.storage.database import Database, Write, run_writes
from bot.storage.rows import GameRow


@dataclass
class OwedDm:
    """A seat's DM owed by a change: `fresh` for a new decision (a new DM, not an edit), with
    the private lines (engine texts) the change gave the seat."""

    fresh: bool = False
    lines: list[Any] = field(default_factory=list)


@dataclass
class Owed:
    """What one change owes Discord (see the module's docstring)."""

    board: bool = False
    new_turn: bool = False          # someone new must act: a new turn message
    # the open turn's account after the change (None: unchanged)
    turn_lines: list[str | dict[str, Any]] | None = None
    # whom a new turn message mentions (None: all it waits for)
    turn_pings: list[int] | None = field(default_factory=list)
    notices: list[dict[str, Any]] = field(default_factory=list)   # channel posts, before the board
    closes: list[dict[str, Any]] = field(default_factory=list)    # {message_id, lines | None}: older messages
    dms: dict[int, OwedDm] = field(default_factory=dict)


@dataclass(frozen=True)
class DmRow:
    """A seat's DM as stored: the open DM and what it still owes."""

    seat: int
    user_id: int | None
    channel_id: int | None
    message_id: int | None
    buttons: bool
    done_text: str | None
    owed: int | None        # the version whose private view it owes (None: nothing)
    fresh: bool
    lines: tuple[Any, ...]
    closed_until: int | None  # DMs refused: not tried again before then (or their next interaction)


def _now() -> int:
    return int(time.time())


def owed_writes(table: GameRow, owed: Owed, dm_rows: dict[int, DmRow], *, version: int) -> list[Write]:
    """The statements that store `owed` for a change of `table` that makes `version`, for the
    change's own transaction. `dm_rows`: the seats' DM rows read under the game's lock."""
    writes: list[Write] = []
    for notice in owed.notices:
        writes.append(notice_write(table.id, notice))
    for close in owed.closes:
        writes.append(close_write(table.id, close))
    if owed.board:
        lines = list(table.turn_lines) if owed.turn_lines is None else owed.turn_lines
        if owed.new_turn:
            pings = None if owed.turn_pings is None else list(owed.turn_pings)
            writes.append(("UPDATE games SET board_owed = 1, board_whole = 0, turn_number = turn_number + 1, "
                           "turn_lines = ?, turn_pings = ? WHERE id = ?",
                           (json.dumps(lines), json.dumps(pings), table.id)))
        else:
            writes.append(("UPDATE games SET board_owed = 1, board_whole = 0, turn_lines = ? WHERE id = ?",
                           (json.dumps(lines), table.id)))
    for seat, dm in owed.dms.items():
        row = dm_rows.get(seat)
        pending = list(row.lines) if row is not None and row.owed is not None else []
        fresh = dm.fresh or bool(row is not None and row.owed is not None and row.fresh)
        # The seat's row made or what it owes set in one upsert (two statements a seat before).
        writes.append(("INSERT INTO seat_dms (game_id, seat, owed, fresh, lines) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (game_id, seat) DO UPDATE SET owed = excluded.owed, fresh = excluded.fresh, "
                       "lines = excluded.lines",
                       (table.id, seat, version, int(fresh), json.dumps(pending + list(dm.lines)))))
    return writes


def new_turn_write(game_id: int, *, lines: list[str], pings: list[int] | None, whole: bool = False) -> Write:
    """A new turn message for the game as it is (a board deleted, `/game board`); `whole`: the
    whole board, where a game shows only the part where the decision is."""
    return ("UPDATE games SET board_owed = 1, board_whole = ?, turn_number = turn_number + 1, turn_lines = ?, "
            "turn_pings = ? WHERE id = ?", (int(whole), json.dumps(lines), json.dumps(pings), game_id))


def close_write(game_id: int, close: dict[str, Any]) -> Write:
    """An older message of the game becomes history: {message_id, lines} (lines None: it keeps
    what it says and loses its buttons)."""
    return ("INSERT INTO deliveries (game_id, kind, payload, created_at) VALUES (?, 'close', ?, ?)",
            (game_id, json.dumps(close), _now()))


def strip_write(game_id: int, message_id: int) -> Write:
    """An older message of the game loses its buttons (and keeps what it says)."""
    return close_write(game_id, {"message_id": message_id, "lines": None})


def notice_write(game_id: int, notice: dict[str, Any]) -> Write:
    """A channel post owed. It carries a key of its own for its nonce: the rows' ids are used
    again once delivered rows are deleted, and Discord would answer a repeated nonce with the
    earlier post instead of making this one."""
    return ("INSERT INTO deliveries (game_id, kind, payload, created_at) VALUES (?, 'notice', ?, ?)",
            (game_id, json.dumps({**notice, "key": uuid.uuid4().hex}), _now()))


def late_write(game_id: int, message_id: int) -> Write:
    """An edit of the game's message got no answer in time and may still land after newer ones:
    once it can no longer, the message is shown as meant last (bot.delivery.worker)."""
    return ("INSERT INTO deliveries (game_id, kind, payload, created_at) VALUES (?, 'late', ?, ?)",
            (game_id, json.dumps({"message_id": message_id, "at": time.time()}), _now()))


def late_closed_write(delivery_id: int, payload: dict[str, Any]) -> Write:
    """The message of a `late` delivery was made history meanwhile: `payload` says with what."""
    return ("UPDATE deliveries SET payload = ? WHERE id = ?", (json.dumps(payload), delivery_id))


def delivered_write(delivery_id: int) -> Write:
    return ("DELETE FROM deliveries WHERE id = ?", (delivery_id,))


def lobby_write(game_id: int, message_id: int) -> Write:
    """The lobby message shows the table as it is now."""
    return ("INSERT INTO deliveries (game_id, kind, payload, created_at) VALUES (?, 'lobby', ?, ?)",
            (game_id, json.dumps({"message_id": message_id}), _now()))


def dm_delivered_write(game_id: int, seat: int, *, version: int | None, user_id: int, channel_id: int,
                       message_id: int, buttons: bool, done_text: str | None) -> Write:
    """The seat's DM `message_id` is open (with or without buttons); what was owed for `version`
    is shown (None: only the message changed, nothing owed was paid). Stored only once Discord
    confirmed the DM: until then it stays owed."""
    return ("UPDATE seat_dms SET user_id = ?, channel_id = ?, message_id = ?, buttons = ?, done_text = ?, "
            "closed_until = NULL, fresh = CASE WHEN owed = ? THEN 0 ELSE fresh END, "
            "lines = CASE WHEN owed = ? THEN '[]' ELSE lines END, "
            "owed = CASE WHEN owed = ? THEN NULL ELSE owed END WHERE game_id = ? AND seat = ?",
            (user_id, channel_id, message_id, int(buttons), done_text, version, version, version, game_id, seat))


def dm_finished_write(game_id: int, seat: int, *, forget: bool) -> Write:
    """The seat's DM shows no buttons any more (`forget`: nothing more goes to it)."""
    if forget:
        return ("UPDATE seat_dms SET buttons = 0, message_id = NULL, user_id = NULL, "
                "channel_id = NULL WHERE game_id = ? AND seat = ?", (game_id, seat))
    return ("UPDATE seat_dms SET buttons = 0 WHERE game_id = ? AND seat = ?", (game_id, seat))


def dm_settled_write(game_id: int, seat: int, version: int) -> Write:
    """Nothing to send for what was owed at `version` (the seat's player reads no DMs)."""
    return ("UPDATE seat_dms SET owed = NULL, fresh = 0, lines = '[]' WHERE game_id = ? AND seat = ? "
            "AND owed = ?", (game_id, seat, version))


def dm_rows_read(game_id: int) -> Write:
    """The read of the game's DM rows (`DeliveryRepository.dm_rows`), to read with others at once."""
    return "SELECT * FROM seat_dms WHERE game_id = ?", (game_id,)


def dm_rows_from(rows: list[Any]) -> dict[int, DmRow]:
    """The DM rows by seat, from the rows of `dm_rows_read`."""
    return {r["seat"]: DmRow(r["seat"], r["user_id"], r["channel_id"], r["message_id"], bool(r["buttons"]),
                             r["done_text"], r["owed"], bool(r["fresh"]), tuple(json.loads(r["lines"])),
                             r["closed_until"]) for r in rows}


def last_moves_read(game_id: int) -> Write:
    """The read of the version of the newest move of each seat with a DM row (that of
    `GamesRepository.last_action_of`), to read with the game at once (`last_moves_from`)."""
    return ("SELECT d.seat AS seat, (SELECT a.version FROM actions a WHERE a.game_id = d.game_id "
            "AND a.seat = d.seat ORDER BY a.version DESC LIMIT 1) AS version FROM seat_dms d WHERE d.game_id = ?",
            (game_id,))


def last_moves_from(rows: list[Any]) -> dict[int, int | None]:
    """The version of each seat's newest move (None before its first), by seat, from the rows of
    `last_moves_read`."""
    return {r["seat"]: r["version"] for r in rows}


def deliveries_read(game_id: int) -> Write:
    """The read of the game's owed channel deliveries (`DeliveryRepository.deliveries`)."""
    return "SELECT id, kind, payload FROM deliveries WHERE game_id = ? ORDER BY id", (game_id,)


def deliveries_from(rows: list[Any]) -> list[tuple[int, str, dict[str, Any]]]:
    """(id, kind, payload) of each owed channel delivery, from the rows of `deliveries_read`."""
    return [(r["id"], r["kind"], json.loads(r["payload"])) for r in rows]


BOARD_FIELDS = ("SELECT status, version, board_owed, board_message_id, board_version, board_turn, turn_number "
                "FROM games WHERE id = ?")
"""The board's fields of a game (`with_board_fields`)."""


def with_board_fields(table: GameRow, row: Any) -> GameRow:
    """`table` with the board's fields of a row of `BOARD_FIELDS`."""
    return replace(table, status=row[0], version=row[1], board_owed=bool(row[2]), board_message_id=row[3],
                   board_version=row[4], board_turn=row[5], turn_number=row[6])


def _board_delivered_writes(game_id: int, message_id: int, version: int | None, turn: int) -> list[Write]:
    """`board_delivered`'s statements, one batch (one hand-over to SQLite's thread): each names the
    turn it is for, so only the ones for the stored turn change anything."""
    _, (_, payload, now) = strip_write(game_id, message_id)
    return [
        ("UPDATE games SET post_turn = NULL WHERE id = ? AND turn_number <> ?", (game_id, turn)),
        ("INSERT INTO deliveries (game_id, kind, payload, created_at) SELECT id, 'close', ?, ? FROM games "
         "WHERE id = ? AND turn_number <> ?", (payload, now, game_id, turn)),
        ("UPDATE games SET board_message_id = ?, board_version = ?, board_turn = ?, post_turn = NULL, "
         "board_owed = CASE WHEN version = ? THEN 0 ELSE board_owed END WHERE id = ? AND turn_number = ?",
         (message_id, version, turn, version, game_id, turn))]


class DeliveryRepository:
    """What the bot owes Discord (see the module's docstring), over the database it holds."""

    def __init__(self, database: Database) -> None:
        self.db = database

    async def owed_games(self) -> list[tuple[int, int]]:
        """(game id, guild id) of every game that owes Discord something, oldest first. Reads
        ids only: a restart with many stored games loads none of them for this."""
        rows = await self.db.rows(
            "SELECT id, guild_id FROM games WHERE board_owed = 1 "
            "UNION SELECT id, guild_id FROM games WHERE id IN (SELECT game_id FROM deliveries) "
            "UNION SELECT id, guild_id FROM games WHERE id IN (SELECT game_id FROM seat_dms WHERE owed IS NOT NULL) "
            "ORDER BY 1")
        return [(row[0], row[1]) for row in rows]

    async def deliveries(self, game_id: int) -> list[tuple[int, str, dict[str, Any]]]:
        """The game's owed channel deliveries (id, kind, payload), oldest first."""
        return deliveries_from(await self.db.rows(*deliveries_read(game_id)))

    async def delivered(self, delivery_id: int) -> None:
        await self.db.update("DELETE FROM deliveries WHERE id = ?", (delivery_id,))

    async def board_posting(self, game_id: int, turn: int) -> int:
        """A new message for turn `turn` is about to be sent: the turn whose nonce it carries.
        That is the oldest turn whose message was sent without the bot hearing the answer (Discord
        then hands back the message it made), else `turn` itself."""
        answers = await self.db.batch([
            ("UPDATE games SET post_turn = COALESCE(post_turn, ?) WHERE id = ?", (turn, game_id)),
            ("SELECT post_turn FROM games WHERE id = ?", (game_id,))])
        assert answers is not None  # not guarded
        post_turn: int = answers[1].rows[0][0]
        return post_turn

    async def board_delivered(self, game_id: int, *, message_id: int, version: int | None, turn: int) -> bool:
        """The board message `message_id` shows `version` (None: not known) of turn `turn`: owed no
        more unless the game moved on meanwhile (another process, or a move made while it was
        sent). False if turn `turn` is over already (a move began the next one while its message
        was being sent): that message loses its buttons, and the open turn gets a message of its own."""
        answers = await self.db.batch(_board_delivered_writes(game_id, message_id, version, turn))
        assert answers is not None  # not guarded
        return answers[0].rowcount != 1  # a row changed: the turn is over, its message loses its buttons

    async def board_shown(self, table: GameRow, *, message_id: int, version: int | None,
                          turn: int) -> tuple[bool, GameRow | None]:
        """`board_delivered` for `table`, and `table` with its board's fields as that left them
        (`board_now`), in the same hand-over. None for the game if it is gone."""
        answers = await self.db.batch([*_board_delivered_writes(table.id, message_id, version, turn),
                                       (BOARD_FIELDS, (table.id,))])
        assert answers is not None  # not guarded
        fields = answers[-1].rows
        return answers[0].rowcount != 1, with_board_fields(table, fields[0]) if fields else None

    async def board_now(self, table: GameRow) -> GameRow | None:
        """`table` with its board's fields as stored now (which message, whether it is owed, the
        version and turns): what the worker needs after a board is shown, without reading and
        decoding the whole game again. None if the game is gone."""
        rows = await self.db.rows_by_key(BOARD_FIELDS, (table.id,))
        return with_board_fields(table, rows[0]) if rows else None

    async def board_again(self, game_id: int) -> None:
        """The open turn's message is edited once more (an older edit may have landed after the
        newest): owed again, as it is."""
        await self.db.update("UPDATE games SET board_owed = 1 WHERE id = ? AND status = 'active' "
                             "AND board_message_id IS NOT NULL AND board_turn = turn_number", (game_id,))

    async def boards_shown(self) -> list[tuple[int, int, int, int]]:
        """(game id, guild id, channel id, message id) of every game being played whose board
        message the store takes as shown, most recently changed first: after a time in which the
        bot heard nothing (stopped, a new gateway session), each is looked for."""
        rows = await self.db.rows(
            "SELECT id, guild_id, channel_id, board_message_id FROM games WHERE status = 'active' "
            "AND board_message_id IS NOT NULL AND board_owed = 0 ORDER BY updated_at DESC, id DESC")
        return [(row[0], row[1], row[2], row[3]) for row in rows]

    async def board_gone(self, game_id: int, message_id: int) -> bool:
        """The board message was deleted: the turn is posted again (mentioning all it waits for).
        False if it was not the game's board."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET board_owed = 1, turn_number = turn_number + 1, turn_pings = 'null', "
                "board_message_id = NULL WHERE id = ? AND board_message_id = ? AND status IN ('active', 'finished', "
                "'abandoned')", (game_id, message_id))
            return cursor.rowcount == 1

    async def game_moved(self, game_id: int, channel_id: int, writes: Sequence[Write] = ()) -> bool:
        """A game goes on in another channel (a tournament table's new thread): its turn is posted
        there afresh (mentioning all it waits for, like a deleted board), with `writes` (the
        notice that tells the players) in the same transaction; edits still owed to messages of
        the old channel are dropped. False if the game is over (nothing moves)."""
        async with self.db.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET channel_id = ?, board_owed = 1, turn_number = turn_number + 1, turn_pings = 'null', "
                "board_message_id = NULL, lobby_message_id = NULL WHERE id = ? AND channel_id <> ? "
                "AND status IN ('lobby', 'active')", (channel_id, game_id, channel_id))
            if cursor.rowcount != 1:
                return False
            await db.execute("DELETE FROM deliveries WHERE game_id = ? AND kind IN ('close', 'late', 'lobby')",
                             (game_id,))
            await run_writes(db, writes)
            return True

    async def dm_rows(self, game_id: int) -> dict[int, DmRow]:
        return dm_rows_from(await self.db.rows(*dm_rows_read(game_id)))

    async def dm_delivered(self, game_id: int, seat: int, *, version: int | None, user_id: int, channel_id: int,
                           message_id: int, buttons: bool, done_text: str | None) -> None:
        """`dm_delivered_write`, stored alone."""
        await self.db.apply([dm_delivered_write(game_id, seat, version=version, user_id=user_id, channel_id=channel_id,
                                                message_id=message_id, buttons=buttons, done_text=done_text)])

    async def dm_finished(self, game_id: int, seat: int, *, forget: bool) -> None:
        """`dm_finished_write`, stored alone."""
        await self.db.apply([dm_finished_write(game_id, seat, forget=forget)])

    async def dm_settled(self, game_id: int, seat: int, version: int) -> None:
        """`dm_settled_write`, stored alone."""
        await self.db.apply([dm_settled_write(game_id, seat, version)])

    async def dm_refused(self, game_id: int, seat: int, *, until: int) -> None:
        """The player's DMs are closed: not tried again before `until` (or their next interaction)."""
        await self.db.update("UPDATE seat_dms SET closed_until = ? WHERE game_id = ? AND seat = ?",
                             (until, game_id, seat))

    async def dms_reopened(self, user_id: int) -> list[int]:
        """The player interacted with the bot: their refused DMs may be tried again at once.
        Returns the games concerned."""
        rows = await self.db.rows(
            "SELECT DISTINCT d.game_id FROM seat_dms d JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat "
            "WHERE s.user_id = ? AND d.closed_until IS NOT NULL", (user_id,))
        if rows:
            await self.db.update(
                "UPDATE seat_dms SET closed_until = NULL WHERE closed_until IS NOT NULL AND EXISTS (SELECT 1 FROM "
                "seats s WHERE s.game_id = seat_dms.game_id AND s.seat = seat_dms.seat AND s.user_id = ?)", (user_id,))
        return [row[0] for row in rows]

    async def dms_next_retry(self) -> int | None:
        """When the first refused DM that still owes something may be tried again."""
        next_retry: int | None = (await self.db.row("SELECT MIN(closed_until) FROM seat_dms WHERE owed IS NOT NULL"))[0]
        return next_retry

    async def dms_due(self, now: int) -> list[int]:
        """The games with a refused DM that may be tried again now (no longer held back)."""
        answers = await self.db.batch([
            ("SELECT DISTINCT game_id FROM seat_dms WHERE owed IS NOT NULL AND closed_until <= ?", (now,)),
            ("UPDATE seat_dms SET closed_until = NULL WHERE closed_until <= ?", (now,))])
        assert answers is not None  # not guarded
        return [row[0] for row in answers[0].rows]

    async def channel_gone(self, game_id: int) -> None:
        """The game's channel was deleted: nothing more can be shown there, and the game ends."""
        # Its timers (bot.days) find the game over when they fall due, and go.
        await self.db.apply([
            ("DELETE FROM deliveries WHERE game_id = ?", (game_id,)),
            ("UPDATE games SET board_owed = 0, status = CASE WHEN status IN ('lobby', 'active') THEN 'abandoned' "
             "ELSE status END, result = CASE WHEN status IN ('lobby', 'active') THEN ? ELSE result END WHERE id = ?",
             (json.dumps({"reason": "The game's channel was deleted."}), game_id)),
        ])

    async def users_with_closed_dms(self) -> list[int]:
        """Players with a refused DM still held back (to try again when they are back)."""
        return [row[0] for row in await self.db.rows(
            "SELECT DISTINCT s.user_id FROM seat_dms d JOIN seats s ON s.game_id = d.game_id AND s.seat = d.seat "
            "WHERE d.closed_until IS NOT NULL")]
