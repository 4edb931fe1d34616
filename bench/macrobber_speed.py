"""Mac Robber speed: random full games per second, render time and PNG size.

    python bench/macrobber_speed.py [games]

Random games: every seat picks uniformly among its legal actions (3 to 5 players). Rendering:
the public and a seat's board of a five-player game in mid play and at the end, in both languages.
"""
from __future__ import annotations

import random
import statistics
import sys
import time

from games import REGISTRY
from renderers import render_png

GAME = REGISTRY["macrobber"]
NAMES = ["Anna", "Bernd", "Clara", "Dieter", "Eva", "Friedrich"]


def random_game(players: int, seed: int):
    rng = random.Random(seed)
    state = GAME.new_game(players, seed=seed)
    steps = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        steps += 1
    return state, steps


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for players in (3, 4, 5):
        start = time.perf_counter()
        steps = rounds = 0
        for seed in range(games):
            state, n = random_game(players, seed)
            steps += n
            rounds += state.round
        took = time.perf_counter() - start
        print(f"{players} players: {games / took:.0f} random games/s, {steps / games:.0f} actions and "
              f"{rounds / games:.1f} rounds a game, {took / steps * 1e6:.0f} µs an action")
    # A five-player board in mid play and at the end.
    rng = random.Random(1)
    state = GAME.new_game(5, seed=11)
    boards = []
    while GAME.outcome(state) is None:
        if state.round == 4 and not boards:
            boards.append(state)
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    boards.append(state)
    times, sizes = [], []
    for board in boards:
        for viewer in (None, 0):
            for lang in ("en", "de"):
                for _ in range(5):
                    start = time.perf_counter()
                    png = render_png(GAME.view(board, viewer), NAMES, lang)
                    times.append(time.perf_counter() - start)
                sizes.append(len(png))
    print(f"five-player board: render + PNG median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms; PNG {min(sizes) / 1024:.0f}-{max(sizes) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
