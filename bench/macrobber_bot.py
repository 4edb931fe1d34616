"""Mac Robber per-move handling through the offline harness, with real rendering.

Plays 4 and 5 players through the real bot code in simcord (as bench/bot_moves.py does for the
other games): every player takes random moves from the board, their DMs or 'My hand'. Prints the
bot's per-move handling time (move stored, board rendered and posted, DMs sent) and the whole
simulated turn: median, 95th and 99th percentile, slowest; and the rendering time.

    python bench/macrobber_bot.py [--moves 150]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_moves import TimedRenderer, report  # noqa: E402
from tests.bot.harness import seat_order, simulated_discord, take_turn, to_act  # noqa: E402
from games import REGISTRY  # noqa: E402


async def play(players: int, moves: int, seed: int):
    renderer = TimedRenderer()
    with tempfile.TemporaryDirectory() as folder:
        async with simulated_discord(Path(folder) / "bench.sqlite3", games={"macrobber": REGISTRY["macrobber"]},
                                     seed=seed, render=renderer) as world:
            members = [world.player(f"player{i}") for i in range(players)]
            await world.slash(members[0], "game new", game="macrobber")
            for member in members[1:]:
                await world.click(member, world.latest(), label="Join")
            await world.click(members[0], world.latest(), label="Start")
            seated = seat_order(world, 1, members)
            rng = random.Random(seed)
            timings, handling = [], []
            service = world.bot.service
            original_play = service.play

            async def timed_play(*args, **kwargs):
                started = time.perf_counter()
                try:
                    return await original_play(*args, **kwargs)
                finally:
                    handling.append(time.perf_counter() - started)

            service.play = timed_play
            renderer.seconds.clear()
            for _ in range(moves):
                if "Game over" in world.latest_board().content:
                    break
                player = to_act(world, seated)[0]
                started = time.perf_counter()
                await take_turn(world, player, rng)
                timings.append(time.perf_counter() - started)
    return handling, timings, renderer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    args = parser.parse_args()
    for players in (4, 5):
        handling, timings, renderer = asyncio.run(play(players, args.moves, seed=3))
        report(f"Mac Robber, {players} players", handling, timings, renderer)


if __name__ == "__main__":
    main()
