"""How often a game's computer player (`suggest`) wins against random players.

    python bench/ai_win_rate.py GAME [games] [players]

Seat order rotates: the computer plays seat g % players in game g; every other seat picks
uniformly among its legal actions. A shared win counts as a fraction. Prints the win rate per
table size and what random play would give (1 / players). Default: 200 games at every size.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY


def play(game, players: int, seed: int) -> float:
    rng = random.Random(seed)
    computer = seed % players
    state = game.new_game(players, seed=seed)
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        if seat == computer:
            action = game.suggest(state, seat, rng)
        else:
            action = rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    winners = game.outcome(state).winners
    return 1 / len(winners) if computer in winners else 0.0


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in REGISTRY:
        sys.exit(f"usage: python bench/ai_win_rate.py GAME [games] [players]; games: {', '.join(sorted(REGISTRY))}")
    game = REGISTRY[sys.argv[1]]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    counts = [int(sys.argv[3])] if len(sys.argv) > 3 else list(range(game.min_players, game.max_players + 1))
    for players in counts:
        start = time.perf_counter()
        wins = sum(play(game, players, seed) for seed in range(games))
        took = time.perf_counter() - start
        print(f"{game.title}, {players} players: computer won {wins:.1f} of {games} games against random "
              f"seats = {wins / games:.0%} (random play: {1 / players:.0%}); {took:.1f} s")


if __name__ == "__main__":
    main()
