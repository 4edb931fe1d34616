"""Median render time and PNG size of a six-player Knatsch table in mid-game.

    python bench/knatsch_render.py
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.knatsch import GAME  # noqa: E402
from renderers.knatsch import render  # noqa: E402
from render_timing import time_renders  # noqa: E402

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
    figures = time_renders(render, mid_game_view(), NAMES, RUNS)
    print(f"knatsch render, 6 players mid-game: median {figures.render_ms:.1f} ms")
    print(f"knatsch render_png (render + encode): median {figures.png_ms:.1f} ms, "
          f"{figures.png_bytes / 1024:.1f} KB")


if __name__ == "__main__":
    main()
