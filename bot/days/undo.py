"""`/game undo` and `/game replace`: taking back one's last move, and a substitute taking a seat.

Both are changes to the game through the move pipeline (bot.moves), each with a row of its own
in the action log (bot.replay.UNDO / REPLACE), under the same compare-and-swap on the version as a
move: an undo takes the game back to the state before the last move; a new player changes no
state, only who sits in the seat.
"""
from __future__ import annotations

import random
from typing import Any

import discord

from bot import presenter
from bot.changes import Change, Replace, Undo
from bot.days.options import words
from bot.days.storage import seat_write
from bot.errors import Refusal
from bot.locale import table_language
from bot.moves import Moves
from bot.replay import REPLACE, UNDO, replay
from bot.storage import GameRow, StaleVersion
from bot.storage.games import seat_holder_write
from bot.store import Storage
from bot.turns import notice
from games.core import Action, Game, hooks


class TakingBack:
    def __init__(self, storage: Storage, moves: Moves) -> None:
        self.storage = storage
        self.moves = moves

    async def undo(self, table: GameRow, user: discord.abc.User, lang: str) -> None:
        """Take back the caller's last move, if it drew no chance and revealed nothing hidden."""

        async def make(table: GameRow, game: Game) -> Change:
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refusal(words(lang, "undo_not_playing"))
            actions = await self.storage.games.actions(table.id)
            last = actions[-1] if actions else None
            if last is None or last.action in (UNDO, REPLACE):
                raise Refusal(words(lang, "undo_nothing"))
            if last.seat != seat:
                raise Refusal(words(lang, "undo_not_yours"))
            states, moves = replay(game, table, actions)
            before, after = states[-2], states[-1]
            reason = undo_refusal(game, before, after, seat, Action.parse(last.action), moves[-1].events,
                                  len(table.players))
            if reason is not None:
                raise Refusal(words(lang, reason))
            return Undo(table=table, game=game, before=after, after=before, seat=seat,
                        text=words(table_language(table), "undone", who=presenter.bold_names(table.names)[seat]))

        try:
            await self.moves.change(table.id, make)
        except StaleVersion:
            raise Refusal(words(lang, "stale")) from None

    async def replace(self, table: GameRow, old: discord.abc.User, new: discord.abc.User, lang: str) -> None:
        """A substitute takes `old`'s seat: the seat changes hands, its timeouts are forgiven, the
        new player is mentioned and gets the seat's private view; the old one hears no more."""

        async def make(table: GameRow, game: Game) -> Change:
            seat = table.seat_of(old.id)
            if seat is None:
                raise Refusal(words(lang, "replace_not_seated", who=presenter.bold_names([old.display_name])[0]))
            if table.has_player(new.id):
                raise Refusal(words(lang, "replace_already", who=presenter.bold_names([new.display_name])[0]))
            said = notice(words(table_language(table), "replaced", old=presenter.bold_names([old.display_name])[0],
                                new=presenter.mention(new.id)), [new.id])
            return Replace(table=table, game=game, state=game.from_dict(table.started_state), seat=seat,
                           notices=(said,),
                           writes=(seat_holder_write(table.id, old.id, new.id, new.display_name),
                                   *seat_write(table.id, seat, since=None, computer=None, timeouts=0)))

        try:
            await self.moves.change(table.id, make)
        except StaleVersion:
            raise Refusal(words(lang, "stale")) from None


def undo_refusal(game: Game, before: Any, after: Any, seat: int, action: Action, events, seats: int) -> str | None:
    """Why this move cannot be taken back (a message key), or None when it can: it drew no
    chance and revealed nothing hidden.

    Decided exactly by the engine: its `exposure(state)` changes whenever chance is drawn or
    something hidden comes to light, so a move that changed it is kept (an engine without it
    keeps every move). A line addressed privately to another seat also counts as a reveal.
    Two checks that can only refuse more follow, as a safety net for an engine's mistakes: the
    same move with another seed, and the move from states re-dealt where the mover cannot see.
    """
    if any(event.seat is not None and event.seat != seat for event in events):
        return "undo_revealed"
    if not game.features.undo:
        return "undo_chance"
    if hooks(game).exposure(before) != hooks(game).exposure(after):
        return "undo_chance"
    data = game.to_dict(before)
    if "seed" not in data:
        return "undo_chance"
    try:
        other, _ = game.apply(game.from_dict(dict(data, seed=int(data["seed"]) + 1)), seat, action)
    except Exception:  # noqa: BLE001 - cannot tell: keep the move
        return "undo_chance"
    if _without_seed(game.to_dict(other)) != _without_seed(game.to_dict(after)):
        return "undo_chance"
    viewers = (None, *range(seats))
    probe = random.Random(0)
    for owner in (None, seat):
        for _ in range(2):
            try:
                variant = game.hidden_variant(before, owner, probe)
                changed, _ = game.apply(variant, seat, action)
            except Exception:  # noqa: BLE001 - cannot tell: keep the move
                return "undo_revealed"
            # A viewer who could not tell the two states apart before the move but can after
            # it has learnt something hidden from it.
            for viewer in viewers:
                if game.view(before, viewer) == game.view(variant, viewer) and \
                        game.view(after, viewer) != game.view(changed, viewer):
                    return "undo_revealed"
    return None


def _without_seed(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "seed"}

