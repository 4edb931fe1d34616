"""Random full Knatsch games per second (uniform random legal moves, 2 to 6 players).

    python bench/knatsch_random_games.py
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.knatsch import GAME  # noqa: E402

GAMES_PER_SIZE = 10


def play_one(players: int, seed: int) -> int:
    state = GAME.new_game(players, seed=seed)
    rng = random.Random(seed)
    actions = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        actions += 1
    return actions


def main() -> None:
    total_games = total_actions = 0
    start = time.perf_counter()
    for players in range(2, 7):
        size_start = time.perf_counter()
        size_actions = sum(play_one(players, seed) for seed in range(GAMES_PER_SIZE))
        elapsed = time.perf_counter() - size_start
        print(f"{players} players: {GAMES_PER_SIZE / elapsed:6.1f} games/s, "
              f"{size_actions / GAMES_PER_SIZE:6.0f} actions per game")
        total_games += GAMES_PER_SIZE
        total_actions += size_actions
    elapsed = time.perf_counter() - start
    print(f"all: {total_games / elapsed:.1f} random full games/s, {total_actions / elapsed:.0f} actions/s")


if __name__ == "__main__":
    main()
