"""The bot's memory with 1,000 active games in the database.

Builds a simulated server with 1,000 channels, stores a game in each, all five games in turn
(three players, stopped at a random point of a random game), restarts the bot on that database,
then makes one
move through `/move` in every game. Prints the process's resident memory at each stage. The
simulated Discord (its message store and attachment CDN) lives in the same process; its
attachment bytes are subtracted and reported separately.

    python bench/memory.py [--games 1000] [--moves 1000]
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import ctypes
import gc
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.resident import rss_mib
from bot.store import Storage
from games import REGISTRY
from tests.bot.harness import simulated_discord


def release_free_memory() -> None:
    """glibc keeps freed memory for reuse; ask it to return what it can, so RSS shows use."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:
        pass


class UploadedImages(dict):
    """The simulated CDN's store, keeping only the size of each upload: a real bot's images
    leave the process for Discord's servers, and holding them here (some 130 KB a board) would
    fragment the process's heap between the bot's own objects and count as the bot's memory."""

    uploaded = 0

    def __setitem__(self, url: str, data: bytes) -> None:
        self.uploaded += len(data)
        super().__setitem__(url, b"")


def cdn_mib(world) -> float:
    return world.env.backend.cdn._blobs.uploaded / 2**20


GAMES = sorted(REGISTRY)  # every game, in turn: a mixed server


async def populate(path: Path, guild_id: int, channel_ids: list[int], user_ids: list[int]) -> None:
    storage = await Storage.open(path)
    try:
        for number, channel_id in enumerate(channel_ids):
            chooser = random.Random(number)
            game = REGISTRY[GAMES[number % len(GAMES)]]
            table = await storage.games.create_lobby(guild_id=guild_id, channel_id=channel_id, game=game.name,
                                                     host_id=user_ids[0], host_name="p0", options={})
            for index, user_id in enumerate(user_ids[1:], start=1):
                await storage.games.add_player(table.id, user_id, f"p{index}")
            state = game.new_game(len(user_ids), seed=number)
            await storage.games.start_game(table.id, seat_order=user_ids, seed=number, state=game.to_dict(state))
            for version in range(chooser.randrange(0, 60)):
                seat = chooser.choice(sorted(game.to_act(state)))
                action = chooser.choice(game.legal_actions(state, seat))
                after, _ = game.apply(state, seat, action)
                if game.outcome(after) is not None:
                    break
                state = after
                await storage.games.record_change(table.id, expected_version=version, seat=seat,
                                          action=action.encode(), state=game.to_dict(state))
    finally:
        await storage.close()


async def run(games: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "memory.sqlite3"
        async with simulated_discord(path, games=REGISTRY, seed=1) as world:
            world.env.backend.cdn._blobs = UploadedImages()
            # simcord's logs of every request and gateway event (for tests to read) are kept short:
            # they are Discord's side, and grown through the run they fragment the heap the bot uses.
            world.env.backend.http_requests = collections.deque(maxlen=100)
            world.env.backend.transcript = collections.deque(maxlen=100)
            print(f"bot started, empty database:            {rss_mib():7.1f} MiB")
            members = [world.player(f"p{i}") for i in range(3)]
            channels = [world.guild.create_text_channel(f"table-{i}") for i in range(games)]
            await populate(path, world.guild.id, [c.id for c in channels], [m.id for m in members])
            await world.restart()
            gc.collect()
            print(f"restarted with {games} active games stored: {rss_mib():7.1f} MiB "
                  f"(database {path.stat().st_size / 2**20:.1f} MiB)")
            by_id = {m.id: m for m in members}
            for channel in channels[:moves]:
                table = await world.parts.storage.games.open_game_in(channel.id)
                engine = REGISTRY[table.game]
                state = engine.from_dict(table.state)
                seat = min(engine.to_act(state))
                action = engine.legal_actions(state, seat)[0]
                player = by_id[table.player_at(seat).user_id]
                await world.slash(player, "move", channel=channel, action=action.encode())
            gc.collect()
            print(f"after one move in each of {moves} games:    {rss_mib():7.1f} MiB, with the simulated "
                  f"Discord holding {moves} boards ({cdn_mib(world):.1f} MiB of PNGs uploaded in all)")
            # What the bot itself holds: empty the simulated Discord's message store and CDN (a
            # real bot's messages live on Discord's servers) and give freed memory back.
            backend = world.env.backend
            backend.messages.clear()
            backend.cdn._blobs.clear()
            # simcord's own records of the run (every HTTP request, the transcript of all that
            # happened, the interactions answered) are what Discord keeps on its side, not the bot.
            for record in ("http_requests", "transcript", "interactions", "interaction_tokens"):
                getattr(backend, record).clear()
            gc.collect()
            release_free_memory()
            print(f"the same without the simulated messages:   {rss_mib():7.1f} MiB  <- the bot's memory")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=1000)
    args = parser.parse_args()
    asyncio.run(run(args.games, min(args.moves, args.games)))


if __name__ == "__main__":
    main()
