"""One tournament run by two bot processes on one SQLite file, as shards: the first (in the
simulated Discord) serves shard 1, which holds the server; the second serves shard 0, has its
own Storage connection and hears none of the server's events, but a move may reach it (a
/move routed to it). Each round's tables are seated exactly once, by the process serving the
server; the standings message is kept by that one process; the last table ended by the other
process, both processes then looking, doubles nothing."""
from __future__ import annotations

import asyncio
import json
import random
from types import SimpleNamespace

import pytest

from bot.app import create_bot
from bot.parts import Parts
from bot.postgres import open_storage
from bot.tournaments.runner import SHARDED_CHECK
from tests.bot import fakegame
from tests.bot.harness import play_to_end, reply
from tests.bot.shard_child import GUILD_ID, deliver_every_click_here
from tests.bot.tournaments.helpers import NAMES, announcements, open_swiss, settle, sign_up, tables, thread_handle


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer,
                          seed_source=random.Random(7), clock=clock, shard_count=2, shard_ids=[1])
    return build


@pytest.fixture
async def shard_world(world, monkeypatch):
    """The first process's simulated Discord, with a server of its shard (1 of 2)."""
    monkeypatch.setattr("simcord.gateway.ShardRouter._event_shard_id",
                        _every_click_here(monkeypatch))
    with world.env._bot_scope():
        await world.bot.tree.sync()  # registered once for the application (by shard 0's process)
    world.guild = world.env.create_guild("Ritterrunde", id=GUILD_ID)
    world.channel = world.guild.create_text_channel("turniere")
    return world


def _every_click_here(monkeypatch):
    """DM clicks, which Discord routes to shard 0, reach the first process too (it holds the game)."""
    from simcord.gateway import ShardRouter

    original = ShardRouter._event_shard_id
    deliver_every_click_here()
    patched = ShardRouter._event_shard_id
    ShardRouter._event_shard_id = original
    return patched


@pytest.fixture
async def other(database_path, renderer, clock):
    """The second process: shard 0 of 2, its own connection to the same file, no Discord of its own.
    Its deliveries are not sent (it serves no shard of the server; the DMs of moves it applies are
    the shard tests' business): only the requests it would make are counted."""
    bot = create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer, seed_source=random.Random(8),
                     clock=clock, shard_count=2, shard_ids=[0])
    bot.parts = Parts.build(bot, await open_storage(str(database_path)), bot.part_settings())
    kicked: list[int] = []
    bot.parts.deliveries.kick = kicked.append
    yield bot
    await bot.close_storage()


def requests_of(bot) -> int:
    return bot.parts.tournaments.messages.requests + bot.parts.league.overviews.requests


async def play_by_moves(bot, game_id: int, people: dict[int, object]) -> None:
    """A table played to its end by /move commands that reach `bot` (the other process)."""
    game = fakegame.GAME
    for _ in range(200):
        table = await bot.parts.storage.games.get_game(game_id)
        if table.status != "active":
            return
        state = game.from_dict(table.state)
        seat = min(game.to_act(state))
        user_id = next(p.user_id for p in table.players if p.seat == seat)
        action = game.legal_actions(state, seat)[0]
        await bot.parts.moves.play(people[user_id], game_id=game_id, action_text=action.encode(), typed=True)
    raise AssertionError("the game did not end")


async def test_two_processes_run_one_tournament_seating_each_round_once_and_keeping_one_message(
        shard_world, other, clock):
    world = shard_world
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES[:4]]
    people = {p.id: SimpleNamespace(id=p.id, display_name=p.name, name=p.name) for p in players}
    by_id = {p.id: p for p in players}
    await open_swiss(world, organiser, players=2, rounds=2)
    await sign_up(world, players)
    started = reply(await world.slash(organiser, "game tournament start"))
    assert "has begun" in started.content
    await settle(world)
    assert len(tables(world, round_no=1)) == 2

    # The other process's first scheduler pass looks at every running tournament and owed
    # message: neither is its own, so it seats nothing and shows nothing.
    await other.parts.tournaments.run_due(clock.now())
    await other.parts.tournaments.settled()
    assert len(tables(world)) == 2 and requests_of(other) == 0

    # Table 1 is played in the first process; table 2's moves reach the other one, which ends
    # the round: its tournament run leaves the round to the server's process.
    first, second = tables(world, round_no=1)
    await play_to_end(world, [by_id[u] for u in json.loads(first[2])], channel=thread_handle(world, first[4]))
    await play_by_moves(other, second[5], people)
    await other.parts.tournaments.settled()
    assert tables(world, round_no=2) == []  # not seated by the process that does not serve the server
    # The standings owe an edit now; asked to show them at once, the other process leaves them.
    other.parts.tournaments.messages.kick(1, at_once=True)
    await other.parts.deliveries.settled(("tournament", 1))
    assert requests_of(other) == 0
    # Both processes look (the server's at its next look for others' changes) at the same time.
    clock.advance(SHARDED_CHECK)
    with world.env._bot_scope():
        await asyncio.gather(world.bot.scheduler.run_due(), other.parts.tournaments.run_due(clock.now()))
    await world.run_timers()
    await settle(world)
    await other.parts.tournaments.settled()
    second_round = tables(world, round_no=2)
    assert len(second_round) == 2 and all(row[3] == "playing" for row in second_round)
    threads = [c for c in world.env.backend.channels.values()
               if c.is_thread and c.parent_id == world.channel.id and "tournament 1" in c.name]
    assert len(threads) == 4  # one per table, never a second
    (message,) = announcements(world)
    assert "Round 2 of 2" in message.content and requests_of(other) == 0

    # The last round ends in the other process again; both look again: one end, one message.
    for row in second_round:
        await play_by_moves(other, row[5], people)
    clock.advance(SHARDED_CHECK)
    with world.env._bot_scope():
        await asyncio.gather(world.bot.scheduler.run_due(), other.parts.tournaments.run_due(clock.now()))
    await world.run_timers()
    await settle(world)
    await other.parts.tournaments.settled()
    assert world.query("SELECT status, round FROM tournaments WHERE id = 1") == [("finished", 2)]
    assert len(tables(world)) == 4
    (final,) = announcements(world)
    assert final.id == message.id and "wins the tournament!" in final.content and final.attachments
    assert requests_of(other) == 0
