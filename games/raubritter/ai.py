"""A computer player for Raub Ritter: greedy on the position after its move.

Every legal move is tried on a copy and judged by what the scoring at the end would give now:
its own points against the best opponent's (so taking a town from a leader counts twice, and
blocking counts as well as gaining), with a small bonus for knights still in reserve and for
towns and villages under its own top knight. Ties are broken at random. It sees only what its
seat may see: the engine's legal moves and the public board plus its own hand.
"""
from __future__ import annotations

import random
from typing import Any

from games.core import Action

RESERVE_WEIGHT = 0.05  # a knight kept back is worth a little (ties go to unused knights)


def position_value(game: Any, state: Any, seat: int) -> float:
    from games.raubritter.engine import score

    points = score(state)
    others = max((p for s, p in enumerate(points) if s != seat), default=0)
    return points[seat] - others + RESERVE_WEIGHT * state.knights_left[seat]


def suggest(game: Any, state: Any, seat: int, rng: random.Random) -> Action:
    actions = game.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    best_value, best = None, []
    for action in actions:
        after, _ = game.apply(state, seat, action)
        value = position_value(game, after, seat)
        if best_value is None or value > best_value + 1e-9:
            best_value, best = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)
