"""Computer players: who is one, and the move one makes for a seat.

A computer player is the engine's `suggest(state, seat, rng)` (declared by `Features.computer`),
which sees only what the seat may see, at the table's strength; engines without one play a
uniformly random legal move. A seat is played by the computer when it was added as one in the
lobby (a negative user id) or when the computer keeps it for a player (timeouts, resigned).
"""
from __future__ import annotations

import logging
import random
from typing import Any

from bot.storage.rows import is_computer_user
from games.core import Action, Game, hooks

log = logging.getLogger(__name__)


def is_computer(user_id: int, days_seat: dict[str, Any] | None = None) -> bool:
    """Whether the computer plays a seat now: a computer seat, or a player's seat it keeps
    (`days_seat` is the seat's row of `Storage.days_seats`: timed out or resigned)."""
    return is_computer_user(user_id) or bool((days_seat or {}).get("computer"))


def has_computer_player(game: Game) -> bool:
    return game.features.computer


def computer_action(game: Game, state: Any, seat: int, rng: random.Random, strength: str = "normal") -> Action:
    """The computer's move for `seat`: the engine's `suggest` when it has one (it reads only
    what the seat may see), at the table's strength where the engine offers it, else a
    uniformly random legal move."""
    legal = game.legal_actions(state, seat)
    if game.features.computer:
        try:
            if strength in game.features.strengths and strength != "normal":
                action = hooks(game).suggest(state, seat, rng, strength=strength)
            else:
                action = hooks(game).suggest(state, seat, rng)
            if action in legal:
                return action
            log.warning("%s suggested an illegal move %s; playing a random one", game.name, action)
        except Exception:
            log.exception("%s.suggest failed; playing a random move", game.name)
    return rng.choice(legal)
