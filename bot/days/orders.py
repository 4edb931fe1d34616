"""Decisions nobody must wait for: publicly forced ones, standing orders and the reaction window.

- A decision everyone can already tell has one possible move (the engine says which:
  `publicly_forced`) is made at once, and the turn message says so. One forced only by what the
  seat hides is still asked: an instant answer would tell everybody what the hand holds.
- A standing order: a player lets the computer answer, at this table, the kinds of decisions
  outside their own turn that the game declares (`Features.reactions`: a Knatsch defence, a raid
  card in Mac Robber, a robber in Carcassonne). The computer plays at the table's strength from
  that seat's view alone. Their own turn is always theirs. Nobody else learns of the order: it
  is stored with the seat and shown only to its player (their DM and `/game hand`); the move it
  makes looks like any other.
- The reaction window (`react=15m|1h|6h`): a decision outside one's own turn that waits longer
  is made by the computer for the seat, without counting as a timed-out turn; the turn message
  says so.

Every such move goes through the move pipeline (bot.moves, built with `ComputerChoices`'
`automatic_decision` and `automatic_move`) as its own change, so it is stored, delivered and
replayed like any move. A timer backs each one up (bot.days.timers), so one owed when the bot
stopped is made after the restart.
"""
from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from typing import Any

import discord

import i18n
from bot import presenter
from bot.days.computer import computer_action
from bot.days.options import MAX_COMPUTER_STEPS, words
from bot.errors import Refusal
from bot.locale import table_language
from bot.moves import Moves
from bot.storage import GameRow
from bot.store import Storage
from bot.turns import notice
from games.core import Action, Automatic, Game, automatic_decision, msg, reaction_kind

log = logging.getLogger(__name__)


class ComputerChoices:
    """The moves the computer makes for a person's seat: a decision nobody must be asked for
    (`Moves`' automatic decision and move) and a decision it takes over. It reads the storage only, so the
    move pipeline is built with it (bot.parts) before `Orders`, which makes moves through it."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def automatic_decision(self, table: GameRow, game: Game, state: Any,
                                 standing: Mapping[int, frozenset[str]]) -> Automatic | None:
        """The decision the game makes at once in `state` (publicly forced, or a standing
        order's: `standing`, the seats' orders read with the game), or None when it waits for people."""
        return automatic_decision(game, state, standing if game.features.reactions else {})

    async def automatic_move(self, table: GameRow, game: Game, state: Any, made: Automatic) -> tuple[int, Action, str]:
        """The move that makes the decision, with the word that says so after its account line
        (none for a standing order: nobody else learns of it)."""
        if made.action is not None:
            return made.seat, made.action, words(table_language(table), "forced_move")
        return made.seat, await self.computer_choice(table, game, state, made.seat, "order"), ""

    async def computer_choice(self, table: GameRow, game: Game, state: Any, seat: int, why: str) -> Action:
        """The computer's move for a person's seat, at the table's strength, from that seat's view."""
        strength = (await self.storage.days.table(table.id))["strength"]
        rng = random.Random(f"{table.seed}:{table.version}:{seat}:{why}")
        # The strong player searches for some tenths of a second: off the event loop.
        return await asyncio.to_thread(computer_action, game, state, seat, rng, strength)


class Orders:
    def __init__(self, storage: Storage, moves: Moves, choices: ComputerChoices) -> None:
        self.storage = storage
        self.moves = moves
        self.choices = choices

    # ------------------------------------------------------------------- the window

    async def window_closed(self, table: GameRow, seat: int, due_at: int) -> None:
        """A reaction window ran out: the computer makes the seat's decision outside its turn
        (the whole of it: a defence's rolls too), and the turn message says so."""
        game = self.moves.engine(table.game)
        if not game.features.reactions or reaction_kind(game, game.from_dict(table.started_state), seat) is None:
            return
        settings = await self.storage.days.table(table.id)
        said = [notice(words(table_language(table), "react_made", who=presenter.bold_names(table.names)[seat],
                             after=window_words(settings["react"], table_language(table))))]

        async def choose(table: GameRow, game: Game, state: Any) -> Action:
            return await self.choices.computer_choice(table, game, state, seat, "window")

        for step in range(MAX_COMPUTER_STEPS):
            again = await self.moves.computer_move(table.id, seat, choose, notices=said if step == 0 else ())
            fresh = await self.moves.table(table.id)
            if not again and (fresh.status != "active" or reaction_kind(
                    game, game.from_dict(fresh.started_state), seat) is None):
                return

    # --------------------------------------------------------------- giving orders

    async def set(self, table: GameRow, user: discord.abc.User, kind: str, on: bool, lang: str) -> frozenset[str]:
        """A player gives (or takes back) a standing order for their seat; the orders it leaves."""
        game, seat = self.seat_for(table, user, lang)
        if kind not in game.features.reactions:
            raise Refusal(words(lang, "orders_unknown", kinds=kinds_text(game.features.reactions, lang)))
        await self.storage.days.set_standing_order(table.id, seat, kind, on)
        if on:
            await self.moves.follow_up(table.id)  # the decision it covers may be waiting now
        return (await self.storage.days.standing_orders(table.id)).get(seat, frozenset())

    def seat_for(self, table: GameRow, user: discord.abc.User, lang: str) -> tuple[Game, int]:
        """The game and the user's seat, for orders; refused when there are none to give."""
        game = self.moves.engine(table.game)
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal(words(lang, "orders_not_playing"))
        if not game.features.reactions:
            raise Refusal(words(lang, "orders_none", game=i18n.translate(i18n.game_title(game), lang)))
        return game, seat

    async def set_kind(self, game_id: int, user: discord.abc.User, index: int, on: bool, lang: str) -> None:
        """A toggle on the player's DM: the `index`-th kind the game declares."""
        table = await self.moves.table(game_id)
        if table.status != "active":
            raise Refusal.of("bot.errors.game_finished_no_moves")
        kinds = self.moves.engine(table.game).features.reactions
        if not 0 <= index < len(kinds):
            raise Refusal.of("bot.errors.bad_choice")
        await self.set(table, user, kinds[index], on, lang)

    async def of(self, table: GameRow, seat: int) -> frozenset[str]:
        return await standing_orders(self.storage, table, seat)


async def standing_orders(storage: Storage, table: GameRow, seat: int) -> frozenset[str]:
    """The kinds of decision the computer answers for the seat (a board shows them)."""
    return (await storage.days.standing_orders(table.id)).get(seat, frozenset())


def kinds_text(kinds, lang: str) -> str:
    return i18n.join_list([i18n.translate(msg(kind), lang) for kind in kinds], lang)


def window_words(seconds: int | None, lang: str) -> str:
    """'15 minutes', '1 hour', '6 hours' in the reader's language."""
    if not seconds:
        return ""
    if seconds < 3600:
        return words(lang, "minutes", count=seconds // 60)
    return words(lang, "hours", count=seconds // 3600)
