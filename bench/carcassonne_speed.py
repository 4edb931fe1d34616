"""Carcassonne speed: random full games per second (2 to 5 players), and the render time and
PNG size of a finished 81-tile board.

Run from the repository root: python bench/carcassonne_speed.py [games]
CPU time is printed besides wall time, since other work on the machine slows the wall clock.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.carcassonne import GAME  # noqa: E402
from renderers import render_png  # noqa: E402


def play(seats: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new_game(seats, seed=seed)
    moves = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        moves += 1
    return state, moves


def main(games: int = 100) -> None:
    last = None
    for seats in (2, 3, 5):
        wall, cpu = time.perf_counter(), time.process_time()
        moves = 0
        for seed in range(games):
            last, n = play(seats, seed)
            moves += n
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{seats} players: {games / wall:.1f} random games/s wall ({games / cpu:.1f} on CPU time), "
              f"{moves / games:.0f} moves a game, {cpu / moves * 1e6:.0f} us a move")
    names = [f"Player {i + 1}" for i in range(last.seats)]
    view = GAME.view(last, None)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        png = render_png(view, names)
        times.append(time.perf_counter() - start)
    print(f"render of the finished {len(view['tiles'])}-tile board: median {sorted(times)[2] * 1000:.0f} ms, "
          f"PNG {len(png) / 1024:.0f} KB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
