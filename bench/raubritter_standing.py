"""How well the strong Raub Ritter player's judgement of a position foretells the game.

Plays games between normal computer players and, at the start of turns along the way, asks
each judgement who stands best; prints how often that seat went on to win, and the log loss of
the judgement's odds (lower is better). Compares `ai.standing_scores` (the strong player's
search) with the plain points on top counted as the normal player sees them (a top OPEN where
it is not closed, a knight at hand KNIGHT_COST).

    python bench/raubritter_standing.py [--games 300] [--players 3]
"""
from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.raubritter import (
    GAME,
    ai,
)
from games.raubritter.tiles import POINTS


def normal_view(state) -> list[float]:
    """The points on top as the normal player weighs knights: OPEN where not closed."""
    values = [ai.KNIGHT_COST * left for left in state.knights_left]
    for laid in state.board.values():
        if laid.building is not None and laid.stack:
            values[laid.stack[-1]] += POINTS[laid.building] * ai._security(laid, len(laid.stack))
    return values


JUDGEMENTS = {"standing_scores (search)": ai.standing_scores, "points on top (normal)": normal_view,
              "score now": lambda state: [float(points) for points in GAME.scores(state)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    right = {name: 0.0 for name in JUDGEMENTS}
    loss = {name: 0.0 for name in JUDGEMENTS}
    positions = 0
    for seed in range(args.games):
        state = GAME.new_game(args.players, seed=10_000 + seed)
        rng = random.Random(seed)
        seen, actions = [], 0
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
            actions += 1
            if actions % 12 == 0 and state.phase == "lay" and state.lays_this_turn == 0:
                seen.append(state)
        winners = GAME.outcome(state).winners
        for position in seen:
            positions += 1
            for name, judge in JUDGEMENTS.items():
                values = judge(position)
                best = max(range(args.players), key=lambda s: values[s])
                right[name] += 1.0 / len(winners) if best in winners else 0.0
                scale = max(1.0, 0.15 * max(values + [1]))  # as games.search.standing squashes
                odds = [math.exp((v - max(values)) / scale) for v in values]
                loss[name] -= math.log(max(1e-9, sum(odds[w] for w in winners) / sum(odds)))
    print(f"Raub Ritter, {args.players} players: {positions} positions of {args.games} games between normal players")
    for name in JUDGEMENTS:
        print(f"  {name:26s} names the winner in {right[name] / positions:5.1%}   "
              f"log loss {loss[name] / positions:.3f}")


if __name__ == "__main__":
    main()
