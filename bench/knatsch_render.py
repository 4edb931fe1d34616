"""Median render time and PNG size of a six-player Knatsch table in mid-game.

    python bench/knatsch_render.py
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.knatsch import GAME  # noqa: E402
from renderers import render_png  # noqa: E402
from renderers.knatsch import render  # noqa: E402

NAMES = ["Anna", "Bob", "Chris", "Dave", "Eve", "Frank"]
RUNS = 40


def mid_game_view(seed: int = 3) -> dict:
    """A six-player table from a random game, caught mid-roll about two thirds of the way in."""
    state = GAME.new_game(6, seed=seed)
    rng = random.Random(seed)
    mid_rolls = []
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if state.phase == "roll" and state.roll.rolls_used >= 2:
            mid_rolls.append(state)
    return GAME.view(mid_rolls[len(mid_rolls) * 2 // 3], None)


def main() -> None:
    view = mid_game_view()
    render_times, png_times, sizes = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        render(view, NAMES)
        render_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        png = render_png(view, NAMES)
        png_times.append(time.perf_counter() - start)
        sizes.append(len(png))
    print(f"knatsch render, 6 players mid-game: median {statistics.median(render_times) * 1000:.1f} ms")
    print(f"knatsch render_png (render + encode): median {statistics.median(png_times) * 1000:.1f} ms, "
          f"{sizes[-1] / 1024:.1f} KB")


if __name__ == "__main__":
    main()
