"""Carcassonne per-move handling through the offline harness (the real bot in simcord), with the
real renderer, over a whole three-player game: all moves, and the last 100 (the end-game board).

Uses `play` and `report` of bench/bot_moves.py. Needs the bot that translates engine labels.

    python bench/carcassonne_bot_moves.py
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot_moves import percentile, play, report  # noqa: E402


def main() -> None:
    handling, timings, renderer = asyncio.run(play("carcassonne", 3, 2000, seed=3))
    report("Carcassonne, 3 players, whole game", handling, timings, renderer)
    tail = [t * 1000 for t in handling[-100:]]
    print(f"  last 100 moves (end-game board): handling p99 {percentile(tail, .99):6.1f} ms, "
          f"max {max(tail):6.1f} ms")


if __name__ == "__main__":
    main()
