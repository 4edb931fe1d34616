"""Tournaments through the simulated Discord (bot.tournaments): a Swiss of three rounds with nine
players at tables in threads, the rounds running themselves; a restart mid-round; a withdrawal;
a table past its time ended by the rule; and bad input answered clearly, only to the asker."""
from __future__ import annotations

import random

import discord
import pytest
import simcord

from bot.app import create_bot
from bot.scheduler import FakeClock
from bot.tournaments.message import EVERY, SETTLE
from tests.bot import fakegame
from tests.bot.harness import buttons, play_to_end, reply

DAY = 24 * 3600
NAMES = ("anna", "bert", "cleo", "dora", "emil", "fritz", "greta", "hanna", "ida")


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer,
                          seed_source=random.Random(7), clock=clock)
    return build


async def settle(world):
    """Let the tournament's work and its message catch up (the message edits at most every few seconds)."""
    await world.env.advance_time(EVERY + SETTLE + 0.5)


def announcement(world, channel=None):
    """The tournament's one message: the bot's message with the title."""
    found = [m for m in world.bot_messages(channel) if m.content.startswith(("🏆 **Tournament", "🏆 **Turnier"))]
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


async def sign_up(world, players):
    for player in players:
        answer = reply(await world.click(player, announcement(world), label="Join"))
        assert answer.ephemeral and "signed up" in answer.content


async def play_round(world, players, round_no, seed=1):
    by_id = {player.id: player for player in players}
    for _, _, seated, status, thread_id, _ in tables(world, round_no=round_no):
        if status != "playing":
            continue
        import json
        at_table = [by_id[user] for user in json.loads(seated)]
        await play_to_end(world, at_table, seed=seed, channel=thread_handle(world, thread_id))
    await settle(world)


async def test_a_swiss_of_three_rounds_with_nine_players_runs_itself_to_a_winner(world):
    organiser = world.player("orga", manage_server=True)
    players = [world.player(name) for name in NAMES]

    answer = await open_swiss(world, organiser)
    assert answer.ephemeral and "Tournament #1 is open for sign-up" in answer.content
    message = announcement(world)
    assert [b["label"] for b in buttons(message)] == ["Join", "Leave"]
    await sign_up(world, players)
    await settle(world)
    assert "Signed up (9)" in world.fresh(message).content and world.pinged(world.fresh(message)) == []

    started = reply(await world.slash(organiser, "game tournament start"))
    assert "has begun" in started.content
    await settle(world)
    round_one = tables(world, round_no=1)
    assert len(round_one) == 3 and all(row[3] == "playing" for row in round_one)
    for _, number, _, _, thread_id, game_id in round_one:
        thread = world.env.backend.get_channel(thread_id)
        assert thread.is_thread and thread.parent_id == world.channel.id and f"table {number}" in thread.name
        assert world.stored(game_id).status == "active"
        board = world.latest_board(thread_handle(world, thread_id))
        assert "Tournament #1 · round 1 of 3" in world.messages(thread_handle(world, thread_id))[0].content or \
            "Tournament #1" in board.content
    assert buttons(world.fresh(message)) == []  # the sign-up is closed
    assert "Round 1 of 3" in world.fresh(message).content

    for round_no in (1, 2, 3):
        await play_round(world, players, round_no, seed=round_no)
    content = world.fresh(message).content
    assert "wins the tournament!" in content and "Final standings" in content
    ((status, winner),) = world.query("SELECT status, winner_id FROM tournaments WHERE id = 1")
    assert status == "finished" and winner in {player.id for player in players}
    assert len(tables(world)) == 9
