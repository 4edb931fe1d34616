"""How often the Knatsch computer player wins against random players.

    python bench/knatsch_ai.py [games] [players ...]

Seat order rotates: the computer plays seat g % players in game g; every other seat picks
uniformly among its legal actions. Prints the computer's win rate, random play's own win rate
for the same seat (the baseline), and how many games ended without a winner.
"""
from __future__ import annotations

import random
import sys
import time

from games import REGISTRY

GAME = REGISTRY["knatsch"]


def play(players: int, seed: int, computer: bool) -> tuple[float, bool]:
    rng = random.Random(seed)
    me = seed % players
    state = GAME.new_game(players, seed=seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        if computer and seat == me:
            action = GAME.suggest(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    winners = GAME.outcome(state).winners
    return (1 / len(winners) if me in winners else 0.0), not winners


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    counts = [int(n) for n in sys.argv[2:]] or [2, 3, 4]
    for players in counts:
        start = time.perf_counter()
        results = [play(players, seed, True) for seed in range(games)]
        took = time.perf_counter() - start
        baseline = [play(players, seed, False) for seed in range(games)]
        wins = sum(r[0] for r in results)
        base = sum(r[0] for r in baseline)
        print(f"{players} players, {games} games: computer won {wins / games:.0%} "
              f"(random seat in its place: {base / games:.0%}; "
              f"no winner {sum(r[1] for r in results)}); {took:.1f} s")


if __name__ == "__main__":
    main()
