"""Median render time and PNG size of a full 10x10 four-player Raub Ritter board.

Run from the repository root: python bench/raubritter_render.py
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.raubritter import GAME  # noqa: E402
from renderers.raubritter import render  # noqa: E402
from render_timing import time_renders  # noqa: E402

NAMES = ["Alice", "Bob", "Chloe", "Dmitri"]


def finished_four_player_view(seed: int = 3) -> dict:
    rng = random.Random(seed)
    state = GAME.new_game(4, seed=seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        actions = GAME.legal_actions(state, seat)
        action = actions[-1] if state.phase == "knights" and rng.random() < 0.6 else rng.choice(actions)
        state, _ = GAME.apply(state, seat, action)
    return GAME.view(state, None)


def main(runs: int = 30) -> None:
    view = finished_four_player_view()
    figures = time_renders(render, view, NAMES, runs)
    print(f"raubritter render: {len(view['tiles'])} tiles, {runs} runs")
    print(f"  median render()      {figures.render_ms:6.1f} ms")
    print(f"  median render_png()  {figures.png_ms:6.1f} ms")
    print(f"  PNG size             {figures.png_bytes / 1024:6.1f} KB")


if __name__ == "__main__":
    main()
