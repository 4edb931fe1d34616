"""Records and replays: how long `/game stats` and `/game leaderboard` take on a busy server, and
what an export, a replay check and the end-of-game score chart cost for a long game.

    python bench/records.py [--games 1000]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import records
from bot.store import Storage
from games import REGISTRY
from games.replay import Move, check, dumps, export_game, replay
from renderers.score_chart import render_chart_png


def random_game(name: str, players: int, seed: int):
    game = REGISTRY[name]
    state = game.new_game(players, seed=seed)
    chooser = random.Random(seed)
    moves = []
    while game.outcome(state) is None:
        seat = chooser.choice(sorted(game.to_act(state)))
        action = chooser.choice(game.legal_actions(state, seat))
        moves.append(Move(seat, action.encode(), 0))
        state, _ = game.apply(state, seat, action)
    return game, moves, state


async def stats_timing(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bot.sqlite3")
        rng = random.Random(1)
        users = list(range(100, 130))
        for number in range(count):
            seated = rng.sample(users, rng.randint(2, 4))
            table = await storage.games.create_lobby(guild_id=1, channel_id=10_000 + number, game="knatsch",
                                                     host_id=seated[0], host_name=f"u{seated[0]}", options={})
            for user in seated[1:]:
                await storage.games.add_player(table.id, user, f"u{user}")
            await storage.games.start_game(table.id, seat_order=seated, seed=number, state={})
            status = rng.choice(["finished", "finished", "finished", "abandoned"])
            result = {"winners": [0], "scores": [rng.randint(0, 4) for _ in seated], "reason": "x"}
            await storage.games.end_game(table.id, status=status, result=result)
        started = time.perf_counter()
        results = await storage.games.results_in_guild(1, "knatsch")
        loaded = time.perf_counter()
        board = records.leaderboard_text(records.leaderboard(results, "knatsch"), "Knatsch", "de")
        mine = records.stats_text(records.player_records(results, 100), "u100", {"knatsch": "Knatsch"}, "en")
        done = time.perf_counter()
        print(f"stats/leaderboard over {count} ended games: load {1000 * (loaded - started):.1f} ms, "
              f"tally + text {1000 * (done - loaded):.1f} ms ({len(board)} + {len(mine)} characters)")
        await storage.close()


def replay_figures() -> None:
    for name, players in (("knatsch", 4), ("raubritter", 4)):
        game, moves, state = random_game(name, players, 7)
        outcome = game.outcome(state)
        result = {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": outcome.reason}
        names = [f"Player {i + 1}" for i in range(players)]
        started = time.perf_counter()
        data = json.loads(dumps(export_game(game, seed=7, options={}, names=names, moves=moves, status="finished",
                                            result=result)))
        exported = time.perf_counter()
        problems = check(data, replay(data))
        checked = time.perf_counter()

        class Table:
            seed, options = 7, {}
            players = names

        history = records.score_history(game, Table, moves)
        scored = time.perf_counter()
        png = render_chart_png(history, names, "de", game.title, list(result["winners"]))
        drawn = time.perf_counter()
        print(f"{name}: {len(moves)} moves; export {1000 * (exported - started):.0f} ms, "
              f"{len(dumps(data)) / 1024:.0f} KB; replay check {1000 * (checked - exported):.0f} ms "
              f"({'ok' if not problems else problems}); score history {1000 * (scored - checked):.0f} ms; "
              f"chart {1000 * (drawn - scored):.0f} ms, {len(png) / 1024:.0f} KB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(stats_timing(args.games))
    replay_figures()


if __name__ == "__main__":
    main()
