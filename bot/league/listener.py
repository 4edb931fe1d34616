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

from bot.changes import Done, End, Move, Replace, SeatSetting, Start, Undo
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

log = logging.getLogger(__name__)


class LeagueListener:
    def __init__(self, storage: Storage, overview_owed: Callable[[int], None]) -> None:
        self.storage = storage
        self.overview_owed = overview_owed  # guild id -> its overview worker is kicked

    async def prepare(self, done: Done) -> Sequence[Write]:
        try:
            return await self._prepare(done)
        except Exception:
            log.exception("The league could not follow game %s version %s", done.table.id, done.version)
            return []

    async def _prepare(self, done: Done) -> list[Write]:
        change = done.change
        table, game = change.table, change.game
        writes: list[Write] = []
        mover = self._mover(change, done) if isinstance(change, Move) else None
        if isinstance(change, Move) and mover is not None:
            user_id, name, computer = mover
            writes += moves_write(table.id, change.seat, user_id, name, computer=computer)
        if isinstance(change, (Move, Undo, Replace)):
            try:
                texts = public_texts(game, change)
            except Exception:
                log.exception("Could not keep the public words of game %s version %s", table.id, done.version)
                texts = None
            if texts is not None:
                writes.append(lines_write(table.id, done.version, change.seat, texts))
        if done.ended:
            writes += await self._ended(done, mover)
            writes += forget_lines_write(table.id)
        elif not isinstance(change, SeatSetting):
            writes.append(turn_write(table.id, done.version))
        if touches_overview(done):
            writes.append(overview_owed_write(table.guild_id))
        return writes

    async def after(self, done: Done) -> None:
        if touches_overview(done):
            self.overview_owed(done.table.guild_id)

    @staticmethod
    def _mover(move: Move, done: Done) -> tuple[int, str, bool]:
        """(user id, name, by the computer) of a move: a computer seat's, a seat the computer
        plays (its player resigned, or timed out three times) or a timed-out turn (bot.days sets
        the seat's timeouts before the computer moves for it) are the computer's; a person's own
        click and a decision made at once on their behalf (publicly forced, a standing order)
        are the person's."""
        holder = move.table.player_at(move.seat)
        if holder.computer:
            return holder.user_id, holder.name, True
        if move.by_person:
            return holder.user_id, holder.name, False
        row = done.seats.get(move.seat, {})
        return holder.user_id, holder.name, row.get("computer") is not None or bool(row.get("timeouts"))

    async def _ended(self, done: Done, mover: tuple[int, str, bool] | None) -> list[Write]:
        change = done.change
        table = change.table
        try:
            match change:
                case Move() if done.outcome is not None:
                    status, result = "finished", outcome_record(done.outcome)
                case End(status=status, result=ended_with):
                    result = dict(ended_with)
                case _:
                    raise ValueError(f"A {type(change).__name__} that ends no game was taken for the end")
            moves = await self.storage.league.seat_moves(table.id)
            if isinstance(change, Move) and mover is not None:  # stored with the change, after this reading
                moves[change.seat] = counted(moves.get(change.seat, []), *mover)
            verdict = judge(FinishedGame(
                status=status, result=result,
                holders={p.seat: (p.user_id, p.name) for p in table.players if p.seat is not None},  # a lobby: none
                practice=(await self.storage.days.table(table.id))["practice"],
                computer={seat: row.get("computer") for seat, row in done.seats.items()},
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


def touches_overview(done: Done) -> bool:
    """Whether the change alters what a server's overview shows: the games being played, whose
    turn it is and since when, and who sits where."""
    match done.change:
        case Start() | End() | Undo() | Replace():
            return True
        case Move():
            return done.outcome is not None or done.waiting_before != done.waiting_after
    return False
