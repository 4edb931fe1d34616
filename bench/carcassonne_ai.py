"""Win rate of the Carcassonne computer player (`suggest`) against a random player, two players.

Run from the repository root: python bench/carcassonne_ai.py [games]
The computer player sits first in half the games and second in the other half; a shared win
counts half.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.carcassonne import GAME  # noqa: E402


def play(seed: int, computer: int) -> tuple[float, tuple[int, ...]]:
    rng = random.Random(seed)
    state = GAME.new_game(2, seed=seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        if seat == computer:
            action = GAME.suggest(state, seat, rng)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    won = 1.0 / len(outcome.winners) if computer in outcome.winners else 0.0
    return won, outcome.scores


def main(games: int = 200) -> None:
    start = time.perf_counter()
    wins, margin = 0.0, 0
    for seed in range(games):
        computer = seed % 2
        won, scores = play(seed, computer)
        wins += won
        margin += scores[computer] - scores[1 - computer]
    took = time.perf_counter() - start
    print(f"computer player vs random, 2 players, {games} games: "
          f"win rate {wins / games:.1%}, average margin {margin / games:+.1f} points "
          f"({took / games * 1000:.0f} ms a game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
