"""How the computer players behave among themselves: over N computer-only games per game and
table size, the longest game in actions, how often all seats of a Die Glücksritter round pick
the same pair of cards, and how often each kind of move is made when it is offered.
Figures only; no test asserts them.

    python bench/ai_behaviour.py [GAME ...] [--games 200] [--strength normal|strong]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import REGISTRY


def run(name: str, games: int, strength: str) -> None:
    game = REGISTRY[name]
    for players in range(game.min_players, game.max_players + 1):
        offered: Counter = Counter()
        made: Counter = Counter()
        longest = 0
        same = rounds = 0
        start = time.perf_counter()
        for seed in range(games):
            state = game.new_game(players, seed=seed)
            rng = random.Random(seed)
            actions = 0
            while game.outcome(state) is None and actions < 200_000:
                if name == "gluecksritter" and state.phase == "choose" and not any(c["ready"] for c in state.choices):
                    picks = [game.suggest(state, seat, random.Random(rng.random())) for seat in range(players)]
                    if all(p.verb == "play" for p in picks):
                        rounds += 1
                        same += len({p.args[0] for p in picks}) == 1
                seat = min(game.to_act(state))
                legal = game.legal_actions(state, seat)
                offered.update({action.verb for action in legal})
                action = game.suggest(state, seat, rng, strength=strength)
                made[action.verb] += 1
                state, _ = game.apply(state, seat, action)
                actions += 1
            longest = max(longest, actions)
        kinds = ", ".join(f"{verb} {made[verb]}/{offered[verb]}" for verb in sorted(offered))
        extra = f"; all seats the same pair in {same}/{rounds} rounds" if rounds else ""
        print(f"{name} {players}p, {games} games in {time.perf_counter() - start:.1f} s: longest {longest} actions"
              f"{extra}\n  made/offered: {kinds}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help=f"any of {', '.join(sorted(REGISTRY))} (all by default)")
    parser.add_argument("--games", dest="count", type=int, default=200)
    parser.add_argument("--strength", default="normal", choices=("normal", "strong"))
    args = parser.parse_args()
    unknown = [name for name in args.games if name not in REGISTRY]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}")
    for name in args.games or sorted(REGISTRY):
        run(name, args.count, args.strength)


if __name__ == "__main__":
    main()
