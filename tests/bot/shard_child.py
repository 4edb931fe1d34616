"""A real bot process running as one of two shards on a shared PostgreSQL, for the shard tests.

    python -m tests.bot.shard_child <database_url> <shard id> <log>

The bot is `create_bot(url, shard_count=2, shard_ids=[<shard id>])` with the test game "pips",
in a simulated Discord of its own. Both processes build the same server (one id, owned by
shard 1), channel and players in the same order, so the ids agree: a user id stored by one
process is the same user in the other. Discord would route a server's clicks to the process of
its shard and DM clicks to shard 0; here every click given to a process reaches its bot, so the
parent can hand the same click to both processes at once.

One command per line on stdin (JSON), one JSON line back on stdout:

    {"op": "ids"}                                   -> {"guild": .., "channel": .., "users": {..}}
    {"op": "open", "players": [..], "options": ".."} -> {"game": 1}        (the owning process)
    {"op": "offer", "user": "alice"}                -> {"moves": [{"where": "board"|"dm", "custom_id": ..}]}
    {"op": "click", "user": "alice", "where": "dm", "custom_id": ".."}  -> outcome
    {"op": "move", "user": "alice", "action": "@4 play 17"}           -> outcome (a /move)
    {"op": "poke"}                                  -> {}   (the scheduler looks at its timers now)
    {"op": "tick"}                                  -> {"posted": n}  (the owed-board check)

An outcome is {"applied": bool, "refusal": text or null, "reply": the ephemeral answer or null}.
Every board this process posts or edits, and every DM it sends, is appended (and fsynced) to
the log as one JSON line, with the game's version the board shows: the simulated Discords die
with their processes, so the parent reads "the channel" from the logs.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from pathlib import Path

import discord

from bot.app import create_bot
from bot.delivery.requests import Failure
from bot.delivery.worker import Deliveries
from bot.errors import message_for
from bot.league import overview
from bot.moves import Moves
from tests.bot import fakegame
from tests.bot.harness import World, buttons, latest_dm_with_moves, move_buttons, reply, start_table

# A server id of shard 1 (of 2): (id >> 22) % 2 == 1.
GUILD_ID = (123_456_789 << 22) | 7
PLAYERS = ("alice", "bob", "carl")
SETUP_AT = 3600.0  # the simulated clock's second at which both processes make their ids
# The simulated Discord runs asyncio's timers on its own virtual clock, where a short periodic
# check would never let it settle: the parent says when to look for owed boards ("tick"), which
# is what the bot's scheduler does every `GameBot.owed_board_every` seconds.
OWED_BOARD_EVERY = 24 * 3600.0
BOARDS: list[dict] = []  # the boards this process delivered


def deliver_every_click_here() -> None:
    """Interactions reach this process whatever shard Discord would route them to."""
    from simcord.gateway import ShardRouter

    routed = ShardRouter._event_shard_id

    def event_shard_id(self, event, payload):
        shard = routed(self, event, payload)
        if event == "INTERACTION_CREATE" and shard not in self.gateways:
            return next(iter(self.gateways))
        return shard

    ShardRouter._event_shard_id = event_shard_id


def install_logs(log_path: Path, shard: int) -> list:
    """Log boards and DMs; return the list of `play` outcomes (appended as they happen)."""
    outcomes: list = []

    def write(entry: dict) -> None:
        with log_path.open("a") as log:
            log.write(json.dumps({"shard": shard, "at": time.time(), **entry}) + "\n")
            log.flush()
            os.fsync(log.fileno())

    deliver_board = Deliveries._board

    async def logged_board(self, table, game, state, drawn, facts=None):
        message = await deliver_board(self, table, game, state, drawn, facts)
        if not isinstance(message, Failure):
            entry = {"kind": "board", "game": table.id, "version": table.version, "message": message.id}
            if table.status != "active":
                entry["end"] = True
            elif table.turn_posted:
                entry["edit"] = True
            write(entry)
            BOARDS.append(entry)
        return message

    Deliveries._board = logged_board

    send = discord.abc.Messageable.send

    async def send_and_log(self, content=None, **kwargs):
        message = await send(self, content, **kwargs)
        if message.guild is None:
            # Sent to a DM channel known by its id alone (the bot remembers each user's), or as
            # discord.py opened it: its recipient as discord.py knows the channel.
            channel = message.channel
            if getattr(channel, "recipient", None) is None:
                channel = message._state._get_private_channel(channel.id)
            write({"kind": "dm", "user": getattr(getattr(channel, "recipient", None), "id", None),
                   "content": (content or "")[:300]})
        return message

    discord.abc.Messageable.send = send_and_log

    play = Moves.play

    async def play_and_remember(self, *args, **kwargs):
        try:
            played = await play(self, *args, **kwargs)
        except Exception as error:
            outcomes.append({"applied": False, "refusal": message_for(error) or repr(error)})
            raise
        outcomes.append({"applied": not played.already_done, "refusal": None, "version": played.version})
        return played

    Moves.play = play_and_remember
    return outcomes


def render(view, names, lang="en"):
    return fakegame.render(view, names)


async def run(url: str, shard: int, log_path: Path) -> None:
    import simcord

    outcomes = install_logs(log_path, shard)
    deliver_every_click_here()

    overview.SHARDED_CHECK = OWED_BOARD_EVERY  # the same for the league's look for overviews owed

    def build():
        bot = create_bot(url, games={"pips": fakegame.GAME}, seed_source=random.Random(7), render=render,
                         shard_count=2, shard_ids=[shard])
        bot.owed_board_every = OWED_BOARD_EVERY
        return bot

    bot = build()
    async with simcord.run(bot) as env:
        if shard != 0:
            await bot.tree.sync()  # registered once for the whole application (by shard 0's process)
        env.backend.clock.elapsed = max(env.backend.clock.elapsed, SETUP_AT)
        world = World(env, build, url)
        world.guild = env.create_guild("Ritterrunde", id=GUILD_ID)
        world.channel = world.guild.create_text_channel("spieltisch")
        players = {name: world.player(name) for name in PLAYERS}
        print(json.dumps({"ready": True}), flush=True)
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                await bot.close_storage()
                return
            command = json.loads(line)
            print(json.dumps(await handle(command, world, players, outcomes)), flush=True)


async def handle(command: dict, world: World, players: dict, outcomes: list) -> dict:
    op = command["op"]
    if op == "ids":
        return {"guild": world.guild.id, "channel": world.channel.id,
                "users": {name: member.id for name, member in players.items()}}
    if op == "open":
        members = [players[name] for name in command["players"]]
        return {"game": await start_table(world, *members, options=command.get("options"))}
    if op == "offer":
        player = players[command["user"]]
        moves = []
        try:
            board = world.latest_board()
            moves += [{"where": "board", "custom_id": b["custom_id"]} for b in move_buttons(board)]
        except LookupError:
            pass
        dm = latest_dm_with_moves(world, player)
        if dm is not None:
            moves += [{"where": "dm", "custom_id": b["custom_id"]} for b in move_buttons(dm)]
        return {"moves": moves}
    if op in ("click", "move"):
        player = players[command["user"]]
        before = len(outcomes)
        if op == "click":
            message = find_message(world, player, command["where"], command["custom_id"])
            result = await world.click(player, message, custom_id=command["custom_id"])
        else:
            result = await world.slash(player, "move", action=command["action"])
        answer = reply(result)
        mine = outcomes[before:]
        assert len(mine) == 1, mine
        return {**mine[0], "reply": answer.content if answer is not None else None}
    if op == "tick":
        before = len(BOARDS)
        world.bot._owed_check_at = 0.0
        with world.env._bot_scope():  # as the bot's scheduler does it: its deliveries are the bot's work
            await world.bot._check_owed_boards(time.time())
        await world.env.settle()
        return {"posted": len([entry for entry in BOARDS[before:] if not entry.get("edit")])}
    if op == "poke":
        world.bot.scheduler.poke()
        return {}
    raise ValueError(f"unknown op {op!r}")


def find_message(world: World, player, where: str, custom_id: str):
    messages = world.bot_messages() if where == "board" else world.dms(player)
    for message in reversed(messages):
        if any(b["custom_id"] == custom_id for b in buttons(message)):
            return message
    raise LookupError(f"no message with {custom_id} in {where}")


def main() -> None:
    asyncio.run(run(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])))


if __name__ == "__main__":
    main()
