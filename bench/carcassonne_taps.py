"""Carcassonne: how often placing the tile takes a second tap (a group of squares picked before
the square), over seeded whole games of the normal computer player, three and five players.
Figures only; no test asserts them.

    python bench/carcassonne_taps.py [--games 30]

Per table size, over every placement:
- grouped: the squares came in groups (one picture cannot show them all close up). Before the
  first picture showed a group close up, every one of these took a second tap.
- second tap: the square the computer player chose was not in the group shown first, so it
  picked another group before the square (the computer's choice stands in for a player's).
- random square: the same for a square chosen at random among those that fit (the share of
  squares off the first picture), a proxy that owes nothing to the computer's way of playing.
- largest group: what showing the largest group first would have given (the computer's choice).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY
from games.carcassonne.engine import first_group, squares_offered


def run(players: int, games: int) -> dict[str, float]:
    game = REGISTRY["carcassonne"]
    placements = grouped = second = 0
    off_random = off_largest = 0.0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_game(players, seed=seed)
        start = None  # the state the current placement began with
        picks = 0
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            if state.phase == "place" and start is None:
                start, picks = state, 0
            action = game.suggest(state, seat, rng)
            if state.phase == "place" and action.verb == "group":
                picks += 1
            if action.verb == "at":
                placements += 1
                plan = squares_offered(start)
                if plan.groups:
                    grouped += 1
                    second += picks > 0
                    shown = plan.groups[first_group(start) or 0]
                    off_random += 1 - len(shown) / len(start.fits)
                    largest = max(plan.groups, key=len)
                    square = tuple(int(v) for v in action.args[0].split(","))
                    off_largest += square not in largest
            state, _ = game.apply(state, seat, action)
            if state.phase != "place":
                start = None
    return {"placements": placements, "grouped": grouped / placements, "second tap": second / placements,
            "random square": off_random / placements, "largest group": off_largest / placements}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    for players in (3, 5):
        began = time.perf_counter()
        figures = run(players, args.games)
        shares = ", ".join(f"{name} {value:.0%}" for name, value in figures.items() if name != "placements")
        print(f"{players} players, {args.games} games, {figures['placements']} placements "
              f"({time.perf_counter() - began:.0f} s): {shares}")


if __name__ == "__main__":
    main()
