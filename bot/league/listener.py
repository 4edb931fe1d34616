"""The league's listener on the move pipeline (bot.moves): what every change to a game adds to
its own transaction.

- a move: who made it (the seat's holder, by themselves or by the computer), counted per seat
  and holder (`league_moves`);
- a move, an undo, a new player: its public words, for the recap (`league_lines`), and the
  version at which the game's open turn began (`league_turns`);
- the end of a game: its place in the order of ended games, and, if it is rated, every player's
  new rating and history row (bot.league.ratings decides), so the end message can show them;
- whatever changes whose turn it is (a start, a move that wakes someone, an end): the server's
  overview owes an edit, and its worker hears of it once the change is stored.

Nothing here may cost a move: a failure to work out a rating is logged and the game is stored
as not rated ("error"); `python -m bot ratings rebuild` rates it later.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from bot.league.ratings import FinishedGame, SeatMoves, judge, rate
from bot.league.recap import public_texts
from bot.league.storage import (
    finished_writes,
    forget_lines_write,
    lines_write,
    moves_write,
    overview_owed_write,
    turn_write,
)
from bot.records import outcome_record
from bot.storage import Write
from bot.store import Storage
from bot.turns import Change

log = logging.getLogger(__name__)


def seat_named(change: Change) -> int:
    """The seat a move, an undo or a new player is about: every such change names one."""
    if change.seat is None:
        raise ValueError(f"A {change.kind} change of game {change.table.id} names no seat")
    return change.seat


class LeagueListener:
    def __init__(self, storage: Storage, overview_owed: Callable[[int], None]) -> None:
        self.storage = storage
        self.overview_owed = overview_owed  # guild id -> its overview worker is kicked

    async def prepare(self, change: Change) -> Sequence[Write]:
        try:
            return await self._prepare(change)
        except Exception:
            log.exception("The league could not follow game %s version %s", change.table.id, change.version)
            return []

    async def _prepare(self, change: Change) -> list[Write]:
        table, game = change.table, change.game
        writes: list[Write] = []
        mover = await self._mover(change) if change.kind == "move" else None
        if mover is not None:
            user_id, name, computer = mover
            writes += moves_write(table.id, seat_named(change), user_id, name, computer=computer)
        if change.kind in ("move", "undo", "replace"):
            try:
                texts = public_texts(game, change)
            except Exception:
                log.exception("Could not keep the public words of game %s version %s", table.id, change.version)
                texts = None
            if texts is not None:
                writes.append(lines_write(table.id, change.version, seat_named(change), texts))
        if ended(change):
            writes += await self._ended(change, mover)
            writes += forget_lines_write(table.id)
        elif change.kind != "seat":
            writes.append(turn_write(table.id, change.version))
        if touches_overview(change):
            writes.append(overview_owed_write(table.guild_id))
        return writes

    async def after(self, change: Change) -> None:
        if touches_overview(change):
            self.overview_owed(change.table.guild_id)

    async def _mover(self, change: Change) -> tuple[int, str, bool]:
        """(user id, name, by the computer) of a move: a computer seat's, a seat the computer
        plays (its player resigned, or timed out three times) or a timed-out turn (bot.days sets
        the seat's timeouts before the computer moves for it) are the computer's; a person's own
        click and a decision made at once on their behalf (publicly forced, a standing order)
        are the person's."""
        seat = seat_named(change)
        holder = change.table.player_at(seat)
        if holder.computer:
            return holder.user_id, holder.name, True
        if change.by_person:
            return holder.user_id, holder.name, False
        row = (await self.storage.days.seats(change.table.id)).get(seat, {})
        return holder.user_id, holder.name, row.get("computer") is not None or bool(row.get("timeouts"))

    async def _ended(self, change: Change, mover: tuple[int, str, bool] | None) -> list[Write]:
        table = change.table
        try:
            if change.kind == "move":
                outcome = change.game.outcome(change.after)
                if outcome is None:
                    raise ValueError("A move that ends no game was taken for the end")
                status, result = "finished", outcome_record(outcome)
            else:
                status, result = change.record["status"], change.record.get("result") or {}
            moves = await self.storage.league.seat_moves(table.id)
            if mover is not None:  # this very move is stored with the change, after this reading
                seat = seat_named(change)
                moves[seat] = counted(moves.get(seat, []), *mover)
            verdict = judge(FinishedGame(
                status=status, result=result,
                holders={p.seat: (p.user_id, p.name) for p in table.players if p.seat is not None},  # a lobby: none
                practice=(await self.storage.days.table(table.id))["practice"],
                computer={seat: row.get("computer") for seat, row in (await self.storage.days.seats(table.id)).items()},
                moves=moves))
            if not verdict.rated:
                return finished_writes(table.id, table.guild_id, table.game, verdict.reason, [], {})
            stored = await self.storage.league.ratings(table.guild_id, table.game, [e.user_id for e in verdict.entries])
            changes = rate(verdict.entries, {user: row.rating for user, row in stored.items()})
            log.info("ratings game=%s guild=%s %s", table.id, table.guild_id,
                     " ".join(f"{c.entry.user_id}:{c.before.points}->{c.after.points}" for c in changes))
            return finished_writes(table.id, table.guild_id, table.game, None, changes, stored)
        except Exception:
            log.exception("Could not rate game %s; `python -m bot ratings rebuild` will", table.id)
            return finished_writes(table.id, table.guild_id, table.game, "error", [], {})


def counted(moves: list[SeatMoves], user_id: int, name: str, computer: bool) -> list[SeatMoves]:
    """A seat's counts with one more move by `user_id` (by the computer or the person)."""
    person, by_computer = (0, 1) if computer else (1, 0)
    for index, found in enumerate(moves):
        if found.user_id == user_id:
            return [*moves[:index], SeatMoves(user_id, name, found.person + person, found.computer + by_computer),
                    *moves[index + 1:]]
    return [*moves, SeatMoves(user_id, name, person, by_computer)]


def ended(change: Change) -> bool:
    """Whether the change ends the game (finished by its rules, resigned, abandoned, out of time)."""
    if change.kind == "end":
        return True
    return change.kind == "move" and change.game.outcome(change.after) is not None


def touches_overview(change: Change) -> bool:
    """Whether the change alters what a server's overview shows: the games being played, whose
    turn it is and since when, and who sits where."""
    if change.kind in ("start", "end", "undo", "replace"):
        return True
    if change.kind != "move":
        return False
    game = change.game
    return game.outcome(change.after) is not None or game.to_act(change.before) != game.to_act(change.after)
