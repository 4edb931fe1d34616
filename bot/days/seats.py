"""The computer at the table: its moves for a seat, turns that time out, players who resign in a
game of three or more, and computer seats added in the lobby.

Every move the computer makes goes through the move pipeline (bot.moves) like a player's: the
game's lock, the engine, one transaction, the delivery worker.
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from typing import Any

import discord

from bot import presenter
from bot.changes import Change, End, LobbyChange, SeatSetting, Snapshot
from bot.days.computer import computer_action, has_computer_player, is_computer
from bot.days.options import MAX_COMPUTER_STEPS, PASS_VERBS, TIMEOUTS_BEFORE_COMPUTER, words
from bot.days.storage import seat_write, table_settings_write
from bot.delivery.worker import Deliveries
from bot.errors import Refusal
from bot.locale import table_language
from bot.moves import Moves, check_id
from bot.storage import GameRow
from bot.store import Storage
from bot.turns import notice
from games.core import Action, Game
from i18n import game_title

log = logging.getLogger(__name__)


class ComputerSeats:
    def __init__(self, storage: Storage, moves: Moves, deliveries: Deliveries) -> None:
        self.storage = storage
        self.moves = moves
        self.deliveries = deliveries

    # --------------------------------------------------------------------- moving

    async def move(self, table: GameRow, seat: int, due_at: int = 0) -> None:
        """A `computer` timer: a computer seat's move (a turn of several steps is played out by
        the timers that each step sets again); for a person's seat, the moves the game makes at
        once (bot.days.orders) that a stop of the bot left unmade."""
        player = table.player_at(seat)
        if is_computer(player.user_id, (await self.storage.days.seats(table.id)).get(seat)):
            await self.computer_move(table.id, seat)
        else:
            await self.moves.follow_up(table.id)

    async def computer_move(self, game_id: int, seat: int, *, prefer_pass: bool = False) -> bool:
        """One move for `seat` by the computer. True if the same seat, alone, is to act again."""

        async def choose(table: GameRow, game: Game, state: Any) -> Action:
            rng = random.Random(f"{table.seed}:{table.version}:{seat}")
            if prefer_pass:
                action = next((a for a in game.legal_actions(state, seat) if a.verb in PASS_VERBS), None)
                if action is not None:
                    return action
            strength = (await self.storage.days.table(table.id))["strength"]
            # The strong player searches for some tenths of a second: off the event loop.
            return await asyncio.to_thread(computer_action, game, state, seat, rng, strength)

        return await self.moves.computer_move(game_id, seat, choose)

    async def timed_out(self, table: GameRow, seat: int, due_at: int = 0) -> None:
        """A seat's deadline passed: the table's `timeout=` says what happens (the computer moves
        for it, it passes, or the game ends); three in a row and the computer keeps the seat."""
        game = self.moves.engine(table.game)
        state = game.from_dict(table.started_state)
        if seat not in game.to_act(state):
            return
        settings = await self.storage.days.table(table.id)
        seats = await self.storage.days.seats(table.id)
        timeouts = seats.get(seat, {}).get("timeouts", 0) + 1
        computer = "timeout" if timeouts >= TIMEOUTS_BEFORE_COMPUTER else seats.get(seat, {}).get("computer")
        await self.storage.days.set_seat(table.id, seat, timeouts=timeouts, computer=computer)
        lang = table_language(table)
        name = presenter.bold_names(table.names)[seat]
        if settings["timeout"] == "end":
            text = words(lang, "timeout_end", who=name)
            result = {"winners": [], "reason": f"{{s{seat}}} ran out of time.", "timed_out": seat}
            await self.moves.change(table.id, ending(text, "abandoned", result))
            return
        note = words(lang, "timeout_move", who=name)
        if computer == "timeout":
            note += " " + words(lang, "now_computer", who=name, count=TIMEOUTS_BEFORE_COMPUTER)
        await self.moves.notify(table.id, note)
        # The whole turn is played out: a turn of several steps must not wait again per step.
        for _ in range(MAX_COMPUTER_STEPS):
            if not await self.computer_move(table.id, seat, prefer_pass=settings["timeout"] == "skip"):
                break

    # --------------------------------------------------------------------- resigning

    async def resign_to_computer(self, table: GameRow, seat: int) -> None:
        """A resigning player in a game of three or more: the computer takes the seat."""
        await self.check_person(table, seat)

        async def make(table: GameRow, game: Game) -> Change | None:
            said = notice(words(table_language(table), "resigned_computer",
                                who=presenter.bold_names(table.names)[seat]))
            return SeatSetting(table=table, game=game, state=game.from_dict(table.started_state), seat=seat,
                               computer="resigned", notices=(said,),
                               writes=tuple(seat_write(table.id, seat, computer="resigned")))

        await self.moves.change(table.id, make)

    async def gate(self, snapshot: Snapshot, seat: int) -> None:
        """The move pipeline's gate: a move by a player who resigned is refused, judged by the
        seats' rows read with the move."""
        if snapshot.seats.get(seat, {}).get("computer") == "resigned":
            raise Refusal(words(table_language(snapshot.table), "resigned_no_moves"))

    async def check_person(self, table: GameRow, seat: int) -> None:
        """Refuse a move by a player who resigned: the computer plays that seat now."""
        if await self.seat_left(table, seat):
            raise Refusal(words(table_language(table), "resigned_no_moves"))

    async def seat_left(self, table: GameRow, seat: int) -> bool:
        """Whether the seat's player resigned and the computer plays it now: such a player gets
        nothing private of the seat any more (no DMs, no 'My hand')."""
        return await seat_left(self.storage, table, seat)

    # ------------------------------------------------------------- lobby computer seats

    async def add(self, game_id: int, user: discord.abc.User, lang: str, strength: str | None = None) -> GameRow:
        """The host adds a computer seat to the lobby (games with a computer player only), and
        may set how strong the table's computer players are."""

        async def make(table: GameRow, game: Game) -> Change:
            self._check_host(table, user, lang)
            if not has_computer_player(game):
                raise Refusal(words(lang, "computer_none", game=game_title(game)))
            if len(table.players) >= game.max_players:
                raise Refusal(words(lang, "computer_full", count=game.max_players))
            # Numbered after the highest still seated, so a removed one's number comes back.
            number = 1 + max((-p.user_id for p in table.players if p.computer), default=0)
            # The table's strength, if set with it, is stored in the seat's own transaction.
            settings = () if strength is None else (
                table_settings_write(table.id, dict(await self.storage.days.table(table.id), strength=strength)),)
            return LobbyChange(table=table, game=game, joined=((-number, f"Computer {number}"),), writes=settings)

        await self.moves.change(check_id(game_id), make)
        return await self.moves.table(game_id)

    async def remove(self, game_id: int, user: discord.abc.User, lang: str) -> GameRow:
        """The host takes the last computer seat added out of the lobby."""

        async def make(table: GameRow, game: Game) -> Change:
            self._check_host(table, user, lang)
            computers = sorted(p.user_id for p in table.players if p.computer)
            if not computers:
                raise Refusal(words(lang, "computer_none_seated"))
            return LobbyChange(table=table, game=game, left=computers[0])

        await self.moves.change(check_id(game_id), make)
        return await self.moves.table(game_id)

    @staticmethod
    def _check_host(table: GameRow, user: discord.abc.User, lang: str) -> None:
        if table.status != "lobby":
            raise Refusal(words(lang, "computer_started"))
        if user.id != table.host_id:
            raise Refusal(words(lang, "computer_not_host", host=presenter.mention(table.host_id)))


def ending(text: str, status: str, result: dict, *, expected_status: str | None = "active"):
    """A maker for `Moves.change`: the game ends early (resigned, abandoned, out of time), and
    `text` says so in the channel with the board as it was left."""

    async def make(table: GameRow, game: Game) -> Change | None:
        if table.status not in ("lobby", "active") or (expected_status and table.status != expected_status):
            return None
        state = game.from_dict(table.state) if table.state is not None else None
        return End(table=table, game=game, state=state, text=text, status=status, result=result,
                   expected_status=expected_status)

    return make


async def seat_left(storage: Storage, table: GameRow, seat: int) -> bool:
    """Whether the seat's player resigned (`ComputerSeats.seat_left`); the storage alone says it,
    so a board's content asks it before the parts that make moves exist (bot.parts)."""
    return seat in await seats_left(storage, table)


async def seats_left(storage: Storage, table: GameRow) -> frozenset[int]:
    """The seats whose players resigned (`seat_left` of every seat, in one read: a delivery
    pass's DMs)."""
    return left_of(await storage.days.seats(table.id))


def left_of(seats: Mapping[int, Mapping[str, Any]]) -> frozenset[int]:
    """`seats_left`, from the seats' rows (`DaysRepository.seats`, or its read's rows read with
    others: `seats_read`, `seats_from`)."""
    return frozenset(seat for seat, row in seats.items() if row.get("computer") == "resigned")
