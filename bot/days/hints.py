"""`/game hint` and the Hint button: the move the computer would make in the caller's seat, and
why, for them alone; at practice tables and tables opened with `hints=on`."""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from typing import Any

import discord

import i18n
from bot import presenter
from bot.days.computer import computer_action
from bot.days.options import words
from bot.days.storage import DaysRepository
from bot.days.timers import deadline_text
from bot.delivery.content import BoardFacts
from bot.errors import Refusal
from bot.moves import Moves
from bot.storage import GameRow, Write
from bot.store import Storage
from games.core import hooks

log = logging.getLogger(__name__)


class Hints:
    def __init__(self, storage: Storage, moves: Moves, check_person) -> None:
        self.storage = storage
        self.moves = moves
        self.check_person = check_person  # refuses a player who resigned the seat

    async def offered(self, table) -> bool:
        """A practice table's turn message carries a Hint button."""
        return await hint_offered(self.storage, table)

    async def hint(self, game_id: int, user: discord.abc.User, lang: str) -> str:
        """Built from what the seat may see: the engine's `hint` (or its computer player) reads
        only the seat's own view."""
        table = await self.moves.table(game_id)
        if table.status != "active":
            raise Refusal(words(lang, "hint_no_game"))
        settings = await self.storage.days.table(table.id)
        if not (settings["practice"] or settings["hints"]):
            raise Refusal(words(lang, "hint_off"))
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal(words(lang, "hint_not_playing"))
        await self.check_person(table, seat)
        game = self.moves.engine(table.game)
        state = game.from_dict(table.started_state)
        if not game.legal_actions(state, seat):
            raise Refusal(words(lang, "hint_not_your_turn"))
        # The same question gets the same answer until the game moves on.
        rng = random.Random(f"hint:{table.seed}:{table.version}:{seat}")
        names = presenter.bold_names(table.names)
        reason = None
        if game.features.hints:
            try:
                # A search of some tenths of a second: off the event loop.
                action, reason = await asyncio.to_thread(hooks(game).hint, state, seat, rng)
            except Exception:
                log.exception("%s.hint failed; falling back to the computer's move", game.name)
                action, reason = computer_action(game, state, seat, rng, settings["strength"]), None
        else:
            action = computer_action(game, state, seat, rng, settings["strength"])
        if action not in game.legal_actions(state, seat):
            action = computer_action(game, state, seat, rng)
        move = i18n.translate(game.describe(state, seat, action), lang, names)
        lines = [words(lang, "hint_move", move=move)]
        if reason is not None:
            lines.append(i18n.translate(reason, lang, names))
        lines.append(words(lang, "hint_typed", action=action.encode()))
        return "\n".join(lines)


async def hint_offered(storage: Storage, table: GameRow) -> bool:
    """Whether a turn message carries a Hint button (`Hints.offered`): the storage alone says it."""
    return table.status == "active" and (await storage.days.table(table.id))["practice"]


def board_read(game_id: int) -> list[Write]:
    """What a board's message asks of bot.days (the deadlines in its footer, and whether it
    offers a Hint), to read with the game in the delivery pass's one read (`board_facts` its rows)."""
    return [DaysRepository.deadlines_read(game_id), DaysRepository.table_read(game_id)]


def board_facts(table: GameRow, rows: Sequence[list[Any]]) -> BoardFacts:
    """`Timers.deadline_line` and `hint_offered` of `table`, from the rows of `board_read`."""
    deadlines, settings = rows
    return BoardFacts(deadline_text(table, DaysRepository.deadlines_from(deadlines)),
                      table.status == "active" and DaysRepository.table_from(settings)["practice"])
