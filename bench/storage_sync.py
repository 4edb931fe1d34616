"""What `synchronous = FULL` costs per move: the one move transaction (`Storage.record_change`)
timed on a database file with NORMAL and with FULL, plus an online back-up of the result.

    .venv/bin/python bench/storage_sync.py [moves]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.storage.database import Database
from bot.store import Storage


async def run(mode: str, moves: int, folder: Path) -> list[float]:
    Database.synchronous = mode
    storage = await Storage.open(folder / f"{mode}.sqlite3")
    try:
        table = await storage.games.create_lobby(guild_id=1, channel_id=2, game="knatsch", host_id=3, host_name="A",
                                                 options={})
        state = {"board": list(range(400)), "note": "x" * 2000}  # a state of a realistic size
        await storage.games.start_game(table.id, seat_order=[3], seed=1, state=state)
        times = []
        for version in range(moves):
            started = time.perf_counter()
            await storage.games.record_change(table.id, expected_version=version, seat=0, action="roll", state=state)
            times.append((time.perf_counter() - started) * 1000)
        if mode == "FULL":
            started = time.perf_counter()
            await storage.backup(folder / "backup.sqlite3")
            print(f"online back-up of {moves} moves: {(time.perf_counter() - started) * 1000:.1f} ms")
        return times
    finally:
        await storage.close()


async def main(moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for mode in ("NORMAL", "FULL"):
            times = await run(mode, moves, Path(folder))
            print(f"synchronous={mode:6}: median {statistics.median(times):.2f} ms, "
                  f"p95 {sorted(times)[int(len(times) * 0.95)]:.2f} ms per move ({moves} moves)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="What synchronous = FULL costs per move, against NORMAL.")
    parser.add_argument("moves", type=int, nargs="?", default=300)
    asyncio.run(main(parser.parse_args().moves))
