"""Random full games per second, for every table size of a game (or of every game).

    python bench/random_games.py [GAME] [games]

Every seat picks uniformly among its legal actions. Prints games per second on the wall clock
and on CPU time (other work on the machine slows only the first), actions per game and the time
per action. Default: every game, 20 games per table size.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY


def random_game(game, players: int, seed: int) -> int:
    """One game of uniformly random legal moves; returns its number of actions."""
    rng = random.Random(seed)
    state = game.new_game(players, seed=seed)
    actions = 0
    while game.outcome(state) is None:
        seat = rng.choice(sorted(game.to_act(state)))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        actions += 1
    return actions


def main() -> None:
    args = sys.argv[1:]
    names = [args.pop(0)] if args and args[0] in REGISTRY else sorted(REGISTRY)
    if args and not args[0].isdigit():
        sys.exit(f"usage: python bench/random_games.py [GAME] [games]; games: {', '.join(sorted(REGISTRY))}")
    games = int(args[0]) if args else 20
    for name in names:
        game = REGISTRY[name]
        for players in range(game.min_players, game.max_players + 1):
            wall, cpu = time.perf_counter(), time.process_time()
            actions = sum(random_game(game, players, seed) for seed in range(games))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{game.title}, {players} players: {games / wall:6.1f} games/s ({games / cpu:6.1f} on CPU time), "
                  f"{actions / games:5.0f} actions a game, {cpu / actions * 1e6:5.0f} µs an action")


if __name__ == "__main__":
    main()
