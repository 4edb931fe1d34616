"""Database bytes per stored game.

Plays random full games of each game straight through the bot's storage layer (the same
`record_change` transaction the bot uses: state, action log row, version bump), then reports the
SQLite file size per game, for finished games, for the same games archived
(`ARCHIVE_AFTER_DAYS`: their move log in one compressed row, bot.storage.archive) and for games
stopped half-way.

    python bench/storage_size.py [--games 40]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.records import outcome_record
from bot.store import Storage
from games import REGISTRY


async def store_games(path: Path, game_name: str, players: int, count: int, stop_share: float | None,
                      archive: bool = False) -> int:
    """Store `count` random games; with stop_share, stop each game after that share of its moves."""
    game = REGISTRY[game_name]
    storage = await Storage.open(path)
    moves_total = 0
    try:
        for number in range(count):
            chooser = random.Random(number)
            table = await storage.games.create_lobby(guild_id=1, channel_id=10_000 + number, game=game_name,
                                                     host_id=100, host_name="player0", options={})
            for seat in range(1, players):
                await storage.games.add_player(table.id, 100 + seat, f"player{seat}")
            state = game.new_game(players, seed=number)
            await storage.games.start_game(table.id, seat_order=[100 + s for s in range(players)], seed=number,
                                           state=game.to_dict(state))
            log = []
            while game.outcome(state) is None:
                seat = chooser.choice(sorted(game.to_act(state)))
                action = chooser.choice(game.legal_actions(state, seat))
                state, _ = game.apply(state, seat, action)
                log.append((seat, action, state))
            if stop_share is not None:
                log = log[: int(len(log) * stop_share)]
            for version, (seat, action, after) in enumerate(log):
                finished = game.outcome(after)
                await storage.games.record_change(table.id, expected_version=version, seat=seat, action=action.encode(),
                                          state=game.to_dict(after),
                                          finished_result=None if finished is None else outcome_record(finished))
            moves_total += len(log)
        if archive:
            while await storage.games.archive_finished(before=2**40, limit=1000):
                pass
    finally:
        await storage.close()
    with sqlite3.connect(path) as db:  # fold the WAL into the file and drop free pages
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # in WAL mode the vacuumed pages reach the file here
    return moves_total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:  # the schema's own pages, counted for no game
        empty = Path(folder) / "empty.sqlite3"
        asyncio.run(store_games(empty, "knatsch", 3, 0, None))
        schema = empty.stat().st_size
    print(f"An empty store: {schema / 1024:.0f} KiB (left out of the figures per game)")
    for game_name, players in (("knatsch", 3), ("knatsch", 6), ("raubritter", 4)):
        for label, share, archive in (("finished", None, False), ("finished, archived", None, True),
                                      ("half-way", 0.5, False)):
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "size.sqlite3"
                moves = asyncio.run(store_games(path, game_name, players, args.games, share, archive))
                size = path.stat().st_size - schema
                print(f"{REGISTRY[game_name].title}, {players} players, {label}: "
                      f"{size / args.games / 1024:6.1f} KiB per game "
                      f"({moves / args.games:.0f} moves per game, {args.games} games, file {size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
