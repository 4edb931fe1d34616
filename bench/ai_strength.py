"""Strong against normal, head to head: one strong seat, the others normal, the strong seat
rotating round the table; prints its win rate with a 95 % interval against its fair share, and
the decision times of both strengths (median, p99). Figures only; no test asserts them.

    python bench/ai_strength.py GAME [--games 100] [--players N] [--budget 0.25] [--first SEED]
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games.search as search
from games import REGISTRY

USUAL = {"knatsch": 3, "raubritter": 3, "macrobber": 4, "gluecksritter": 4, "carcassonne": 2}


def play(game, players: int, strong: int, seed: int, times: dict) -> float:
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        kind = "strong" if seat == strong else "normal"
        start = time.perf_counter()
        action = game.suggest(state, seat, rng, strength=kind)
        times[kind].append(time.perf_counter() - start)
        state, _ = game.apply(state, seat, action)
    outcome = game.outcome(state)
    if outcome is None:
        return 0.0
    return 1.0 / len(outcome.winners) if strong in outcome.winners else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(REGISTRY))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int)
    parser.add_argument("--budget", type=float, default=search.BUDGET)
    parser.add_argument("--first", type=int, default=0, help="first game's seed (to split a long run over processes)")
    args = parser.parse_args()
    search.BUDGET = args.budget
    game = REGISTRY[args.game]
    players = args.players or USUAL[args.game]
    times: dict[str, list[float]] = {"strong": [], "normal": []}
    wins: list[float] = []
    for seed in range(args.first, args.first + args.games):
        wins.append(play(game, players, seed % players, seed, times))
        if len(wins) % 10 == 0 and len(wins) < args.games:
            # A long run shows how it goes: an interrupted one still leaves figures.
            print(f"  after {len(wins)} games: strong won {sum(wins):.1f} ({sum(wins) / len(wins):.0%})", flush=True)
    rate = sum(wins) / len(wins)
    margin = 1.96 * math.sqrt(max(rate * (1 - rate), 1e-9) / len(wins))
    fair = 1 / players
    print(f"{game.name}, {players} players, {len(wins)} games: strong won {sum(wins):.1f} "
          f"= {rate:.0%} ± {margin:.0%} (fair share {fair:.0%}; {rate / fair:.2f} × fair share)")
    for kind, values in times.items():
        values.sort()
        p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
        print(f"  {kind:6s} decision: median {statistics.median(values) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms "
              f"over {len(values)} decisions")


if __name__ == "__main__":
    main()
