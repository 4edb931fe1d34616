"""Render time and PNG size of every game's boards, phone-sized (1080 x 1350).

    python bench/render_boards.py [GAME]

Boards (names in several scripts, English and German): Knatsch with 2 and 6 players mid-roll
and at the end; Raub Ritter with 2 players mid-game, with 4 on a full 10 x 10 area (its largest
board) and a seat's private view (the DM image); Mac Robber with 5 players mid-game and at the
end; Die Glücksritter with 6 players mid-game, a seat's private view and the end; Carcassonne's
finished board with 5 players (the most tiles). Each: the drawing alone, drawing plus PNG
encoding, and the PNG's size, medians of 20 runs.
"""
from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY
from renderers import render_png

NAMES = ["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"]
RUNS = 20


def played(game, seats: int, seed: int) -> list:
    """Every state of one random game."""
    rng = random.Random(seed)
    state = game.new_game(seats, seed=seed)
    states = [state]
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        states.append(state)
    return states


def boards(name: str) -> list[tuple[str, int, dict]]:
    """(label, seats, view) of the boards worth timing for one game."""
    game = REGISTRY[name]
    if name == "knatsch":
        found = []
        for seats in (2, 6):
            states = played(game, seats, seed=3)
            rolling = [s for s in states if s.phase == "roll" and s.roll.rolls_used >= 2]
            found.append((f"{seats}p mid-roll", seats, game.view(rolling[len(rolling) * 2 // 3], None)))
            found.append((f"{seats}p final", seats, game.view(states[-1], None)))
        return found
    if name == "raubritter":
        two, four = played(game, 2, seed=5), played(game, 4, seed=11)
        return [("2p mid-game", 2, game.view(two[len(two) // 2], None)),
                ("4p full 10x10", 4, game.view(four[-1], None)),
                ("4p private (DM)", 4, game.view(four[len(four) // 2], 1))]
    if name == "carcassonne":
        return [("5p finished", 5, game.view(played(game, 5, seed=1)[-1], None))]
    seats = game.max_players
    states = played(game, seats, seed=11)
    middle = states[len(states) // 2]
    return [(f"{seats}p mid-game", seats, game.view(middle, None)),
            (f"{seats}p private (DM)", seats, game.view(middle, 0)),
            (f"{seats}p final", seats, game.view(states[-1], None))]


def time_renders(name: str, view: dict, names: list[str], lang: str) -> tuple[float, float, int]:
    """Median ms of the game's drawing alone and of drawing plus PNG encoding, and the PNG bytes."""
    draw = importlib.import_module(f"renderers.{name}").render
    draw(view, names, lang)  # warm up fonts and palettes
    drawing, encoded, sizes = [], [], []
    for _ in range(RUNS):
        start = time.perf_counter()
        draw(view, names, lang)
        drawing.append(time.perf_counter() - start)
        start = time.perf_counter()
        png = render_png(view, names, lang)
        encoded.append(time.perf_counter() - start)
        sizes.append(len(png))
    return statistics.median(drawing) * 1000, statistics.median(encoded) * 1000, int(statistics.median(sizes))


def main() -> None:
    parser = argparse.ArgumentParser(description="Render time and PNG size of every game's boards, phone-sized.")
    parser.add_argument("games", nargs="*", metavar="GAME", help=f"one of {', '.join(sorted(REGISTRY))} (default: all)")
    names = parser.parse_args().games or sorted(REGISTRY)
    if unknown := [name for name in names if name not in REGISTRY]:
        parser.error(f"no such game: {', '.join(unknown)} (the games: {', '.join(sorted(REGISTRY))})")
    print(f"{'board':42} {'lang':4} {'draw ms':>8} {'+png ms':>8} {'PNG KB':>7}   (median of {RUNS})")
    for name in names:
        for label, seats, view in boards(name):
            for lang in ("en", "de"):
                draw_ms, png_ms, size = time_renders(name, view, NAMES[:seats], lang)
                board = f"{name} {label}"
                print(f"{board:42} {lang:4} {draw_ms:8.1f} {png_ms:8.1f} "
                      f"{size / 1024:7.1f}")


if __name__ == "__main__":
    main()
