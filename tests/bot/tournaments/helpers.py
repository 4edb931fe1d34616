"""What the tournaments' tests do through the simulated Discord: open a Swiss tournament, sign
players up, play a round's tables in their threads, and read the tournament's one message and
its tables."""
from __future__ import annotations

import json

import simcord

from tests.bot.harness import play_to_end, reply

# The message's pauses, longer than simcord's settling (5 s of real time): a pause the simulated
# Discord would otherwise sit out in real time is parked until a test moves virtual time on.
EVERY, SETTLE = 12.0, 6.0
DAY = 24 * 3600
NAMES = ("anna", "bert", "cleo", "dora", "emil", "fritz", "greta", "hanna", "ida")


async def settle(world):
    """Let the tournament's work and its message catch up (the message edits at most every few seconds)."""
    await world.env.advance_time(EVERY + SETTLE + 0.5)


def announcements(world, channel=None):
    return [m for m in world.bot_messages(channel) if m.content.startswith(("🏆 **Tournament", "🏆 **Turnier"))]


def announcement(world, channel=None):
    """The tournament's one message: the bot's message with the title."""
    found = announcements(world, channel)
    assert len(found) == 1, [m.content[:60] for m in world.bot_messages(channel)]
    return found[0]


def thread_handle(world, thread_id: int) -> simcord.ChannelHandle:
    return simcord.ChannelHandle(world.env, world.guild, world.env.backend.get_channel(thread_id))


def tables(world, tournament_id=1, round_no=None):
    sql = "SELECT round, number, players, status, thread_id, game_id FROM tournament_tables WHERE tournament_id = ?"
    params = (tournament_id,)
    if round_no is not None:
        sql += " AND round = ?"
        params += (round_no,)
    return world.query(sql + " ORDER BY round, number", params)


async def open_swiss(world, organiser, **options):
    settings = dict(game="pips", format="swiss", players=3, rounds=3, options="rounds=1")
    settings.update(options)
    answer = reply(await world.slash(organiser, "game tournament new", **settings))
    await settle(world)
    return answer


async def sign_up(world, players, label="Join"):
    for player in players:
        answer = reply(await world.click(player, announcement(world), label=label))
        assert answer.ephemeral and ("signed up" in answer.content or "angemeldet" in answer.content)


async def play_round(world, players, round_no, seed=1):
    by_id = {player.id: player for player in players}
    for _, _, seated, status, thread_id, _ in tables(world, round_no=round_no):
        if status != "playing":
            continue
        at_table = [by_id[user] for user in json.loads(seated)]
        await play_to_end(world, at_table, seed=seed, channel=thread_handle(world, thread_id))
    await settle(world)


async def started_swiss(world, count=4, **options):
    """A Swiss tournament of `count` players at tables of two over two rounds, its first round
    seated: (organiser, players)."""
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:count]]
    await open_swiss(world, organiser, **{"players": 2, "rounds": 2, **options})
    await sign_up(world, players, label="Mitmachen" if options.get("language") == "de" else "Join")
    await world.slash(organiser, "game tournament start")
    await settle(world)
    return organiser, players
