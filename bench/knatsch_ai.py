"""How often the Knatsch computer player wins against random players.

    python bench/knatsch_ai.py [games] [players]

Seat order rotates: the computer plays seat g % players in game g; every other seat picks
uniformly among its legal actions. A shared win counts as a fraction. Prints the win rate and
what random play would give (1 / players).
"""
from __future__ import annotations

import random
import sys
import time

from games import REGISTRY

GAME = REGISTRY["knatsch"]


def play(players: int, seed: int) -> float:
    rng = random.Random(seed)
    computer = seed % players
    state = GAME.new_game(players, seed=seed)
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        if seat == computer:
            action = GAME.suggest(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    winners = GAME.outcome(state).winners
    return 1 / len(winners) if computer in winners else 0.0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    counts = [int(sys.argv[2])] if len(sys.argv) > 2 else [2, 3, 4, 5, 6]
    for players in counts:
        start = time.perf_counter()
        wins = sum(play(players, seed) for seed in range(games))
        took = time.perf_counter() - start
        print(f"{players} players: computer won {wins:.1f} of {games} games against random seats "
              f"= {wins / games:.0%} (random play: {1 / players:.0%}); {took:.1f} s")


if __name__ == "__main__":
    main()
