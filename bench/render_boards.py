"""Render time and PNG size of every board the bot posts, phone-sized (1080 x 1350).

    python bench/render_boards.py

Boards: Knatsch with 2 and 6 players mid-roll and at the end; Raub Ritter with 2 players
mid-game, with 4 players on a full 10 x 10 area (the largest board), and a seat's private view
(the DM image). Names in several scripts, English and German.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from games.knatsch import GAME as KNATSCH  # noqa: E402
from games.raubritter import GAME as RAUBRITTER  # noqa: E402
from render_timing import time_renders  # noqa: E402
from renderers.knatsch import render as render_knatsch  # noqa: E402
from renderers.raubritter import render as render_raubritter  # noqa: E402

NAMES = ["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"]
RUNS = 20


def played(game, seats: int, seed: int, stop=lambda state: False):
    """States of one random game, up to the first that `stop` picks (or the end)."""
    rng = random.Random(seed)
    state = game.new_game(seats, seed=seed)
    states = [state]
    while game.outcome(state) is None and not stop(state):
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def mid_roll(seats: int, seed: int):
    states = played(KNATSCH, seats, seed)
    rolling = [s for s in states if s.phase == "roll" and s.roll.rolls_used >= 2]
    return rolling[len(rolling) * 2 // 3], states[-1]


def main() -> None:
    boards = []
    for seats in (2, 6):
        rolling, final = mid_roll(seats, seed=3)
        boards.append((f"knatsch {seats}p mid-roll", render_knatsch, KNATSCH.view(rolling, None), seats))
        boards.append((f"knatsch {seats}p final", render_knatsch, KNATSCH.view(final, None), seats))
    two = played(RAUBRITTER, 2, seed=5)
    boards.append(("raubritter 2p mid-game", render_raubritter, RAUBRITTER.view(two[len(two) // 2], None), 2))
    four = played(RAUBRITTER, 4, seed=11)
    boards.append(("raubritter 4p full 10x10", render_raubritter, RAUBRITTER.view(four[-1], None), 4))
    boards.append(("raubritter 4p private (DM)", render_raubritter, RAUBRITTER.view(four[len(four) // 2], 1), 4))
    print(f"{'board':30} {'render ms':>10} {'png ms':>8} {'PNG KB':>8}   (median of {RUNS})")
    for label, render, view, seats in boards:
        figures = time_renders(render, view, NAMES[:seats], RUNS)
        print(f"{label:30} {figures.render_ms:10.1f} {figures.png_ms:8.1f} {figures.png_bytes / 1024:8.1f}")


if __name__ == "__main__":
    main()
