"""Random full Raub Ritter games per second, for 2, 3 and 4 players.

Run from the repository root: python bench/raubritter_random_games.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.raubritter import GAME  # noqa: E402


def play(seats: int, seed: int) -> int:
    """One game with uniformly random legal moves; returns the number of moves."""
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    moves = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        moves += 1
    return moves


def main(games: int = 20) -> None:
    for seats in (2, 3, 4):
        start = time.perf_counter()
        moves = sum(play(seats, seed) for seed in range(games))
        elapsed = time.perf_counter() - start
        print(f"raubritter {seats} players: {games / elapsed:6.1f} games/s, "
              f"{moves / elapsed:7.0f} moves/s ({moves / games:.0f} moves a game)")


if __name__ == "__main__":
    main()
