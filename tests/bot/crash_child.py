"""A real child process running the bot's code on a database file, for the crash tests.

    python -m tests.bot.crash_child <database> <channel log>

It runs the bot in the simulated Discord (the test game "pips", two players) and takes one
command per line on stdin (JSON), answering one JSON line on stdout:

    {"op": "move", "user": "alice", "action": "@3 play 17"}  -> {"reply": "...", "version": 4}
    {"op": "ping"}                                          -> {"version": 4}

The simulated Discord lives in this process and dies with it, so every board the channel
receives is also appended (and fsynced) to the channel log, as one JSON line with the game's
version stored when it was posted (boards are posted under the game's lock): the parent reads "the channel" from there.

Kill points for the parent: the environment variable CRASH_AT names one of `before_store`,
`after_store`, `after_board`, `before_answered`; the first time the bot's code reaches it, the
process SIGKILLs itself (a real SIGKILL, like the OOM killer or a power cut of the process).
SLOW_RENDER=<seconds> makes drawing a board take that long (for SIGTERM while a move is under way).
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import discord

from bot.app import GameBot
from bot.delivery.worker import Deliveries
from bot.moves import Moves
from bot.storage.games import GamesRepository
from tests.bot import fakegame
from tests.bot.harness import World, bot_factory, reply, start_table

CRASH_AT = os.environ.get("CRASH_AT", "")
SLOW_RENDER = float(os.environ.get("SLOW_RENDER", "0") or 0)
PLAYERS = ("alice", "bob", "carl")
CHANNEL_EXISTS = False
ARMED = False


def die_at(point: str) -> None:
    if ARMED and point == CRASH_AT:  # armed once started: kills land in moves, not in start-up
        os.kill(os.getpid(), signal.SIGKILL)


def install_kill_points(channel_log: Path, database: Path) -> None:
    record_change = GamesRepository.record_change

    async def record_change_with_kill_points(self, *args, **kwargs):
        die_at("before_store")
        version = await record_change(self, *args, **kwargs)
        die_at("after_store")
        return version

    GamesRepository.record_change = record_change_with_kill_points

    answered = Moves.answered

    async def answered_with_kill_point(self, played):
        die_at("before_answered")
        return await answered(self, played)

    Moves.answered = answered_with_kill_point

    send = discord.abc.Messageable.send

    async def send_and_log(self, content=None, **kwargs):
        message = await send(self, content, **kwargs)
        if any(a.filename == "board.png" for a in message.attachments):  # only the channel gets boards
            # Moves here come one at a time: the stored version is the one drawn.
            # (Message ids restart in every process's simulated Discord: the pid tells them apart.)
            with channel_log.open("a") as log:
                log.write(json.dumps({"pid": os.getpid(), "message": message.id, "version": version(database),
                                      "content": message.content[:200]}) + "\n")
                log.flush()
                os.fsync(log.fileno())
            die_at("after_board")
        return message

    discord.abc.Messageable.send = send_and_log

    # The first bot of a process starts before the simulated server and channel exist again (a
    # fresh simulated Discord accepts posts to channels it does not know yet): only the bot
    # started once they exist may deliver what is owed, as the real bot does into a real channel.
    start = Deliveries.start

    async def start_once_the_channel_exists(self):
        return await start(self) if CHANNEL_EXISTS else 0

    Deliveries.start = start_once_the_channel_exists
    new_session = Deliveries.new_session

    async def new_session_once_the_channel_exists(self):
        return await new_session(self) if CHANNEL_EXISTS else 0

    Deliveries.new_session = new_session_once_the_channel_exists


def render(view, names):
    if SLOW_RENDER:
        time.sleep(SLOW_RENDER)
    return fakegame.render(view, names)


async def run(database: Path, channel_log: Path) -> None:
    global CHANNEL_EXISTS, ARMED
    import simcord

    fresh = not database.exists()
    factory = bot_factory(database, games={"pips": fakegame.GAME}, seed=7, render=render)

    def build() -> GameBot:
        bot = factory()
        bot.handle_signals = True
        return bot

    async with simcord.run(build()) as env:
        world = World(env, build, database)
        players = {name: world.player(name) for name in PLAYERS}
        CHANNEL_EXISTS = True
        if fresh:
            await start_table(world, players["alice"], players["bob"], players["carl"], options="rounds=3")
        else:
            # The simulated Discord was born with this process: now that its server and channel
            # exist again, start the bot once more, as after a crash (start-up posts owed boards).
            await world.restart()
        original_close = GameBot.close

        async def close_then_exit(self):
            await original_close(self)
            print(json.dumps({"stopped": True}), flush=True)
            os._exit(0)

        GameBot.close = close_then_exit
        print(json.dumps({"ready": True, "version": version(database)}), flush=True)
        ARMED = True
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            command = json.loads(line)
            if command["op"] == "move":
                result = await world.slash(players[command["user"]], "move", action=command["action"])
                answer = reply(result)
                print(json.dumps({"reply": answer.content if answer else None, "version": version(database)}),
                      flush=True)
            else:
                print(json.dumps({"version": version(database)}), flush=True)


def version(database: Path) -> int:
    import sqlite3

    with sqlite3.connect(database) as db:
        row = db.execute("SELECT version FROM games ORDER BY id DESC LIMIT 1").fetchone()
    return row[0] if row else -1


def main() -> None:
    database, channel_log = Path(sys.argv[1]), Path(sys.argv[2])
    install_kill_points(channel_log, database)
    asyncio.run(run(database, channel_log))


if __name__ == "__main__":
    main()
