"""The server's open games in one message (`/game overview here`): games show up and leave in
order, a burst of moves edits it a bounded number of times, it never pings anyone, and after a
restart the same message is edited."""
from __future__ import annotations

import random

import pytest

from bot.league import overview as league_overview
from tests.bot import pg
from tests.bot.harness import play_to_end, reply, seat_order, start_table, take_turn, to_act

# The overview's pauses, far longer than simcord's settling (5 s of real time): a pause the
# simulated Discord would otherwise sit out in real time (the real ones are 2 s and 5 s) is
# parked until a test moves virtual time on, so the board of a move is always posted before
# the overview's edit links to it, and a test waits no real seconds.
EVERY, SETTLE = 40.0, 20.0
WAIT = EVERY + SETTLE  # long enough for any owed edit to be made


@pytest.fixture(autouse=True)
def overview_pauses(monkeypatch):
    monkeypatch.setattr(league_overview, "EVERY", EVERY)
    monkeypatch.setattr(league_overview, "SETTLE", SETTLE)


def overview_messages(world, channel):
    return world.bot_messages(channel)


def edits_of(world, message) -> int:
    path = f"/channels/{message.channel.id}/messages/{message.id}"
    return sum(1 for request in world.env.http_requests if request.method == "PATCH" and request.path == path)


def posts_in(world, channel) -> int:
    path = f"/channels/{channel.id}/messages"
    return sum(1 for request in world.env.http_requests if request.method == "POST" and request.path == path)


async def shown(world, channel) -> str:
    """The overview once every owed edit is made: the one bot message in its channel."""
    await world.env.advance_time(WAIT)
    (message,) = overview_messages(world, channel)
    assert world.pinged(message) == [] and "<@" not in message.content  # names, never mentions
    return message.content


def line_of(content: str, game_id: int) -> str:
    return next(line for line in content.splitlines() if f"#{game_id} in" in line)


@pytest.fixture
def places(world):
    return world.guild.create_text_channel("partien"), world.guild.create_text_channel("tisch-2")


async def test_games_show_up_and_leave_in_order_as_they_start_move_finish_and_are_abandoned(world, places):
    overview, second_table = places
    mod = world.player("mod", manage_server=True)
    alice, bob, carol = world.player("alice"), world.player("bob"), world.player("carol")

    refused = reply(await world.slash(alice, "game overview here", channel=overview))
    assert "manage the server" in refused.content and overview_messages(world, overview) == []
    placed = reply(await world.slash(mod, "game overview here", channel=overview))
    assert "never pings anyone" in placed.content
    assert (await shown(world, overview)).splitlines() == [
        (await shown(world, overview)).splitlines()[0],
        "No game is being played right now: `/game new` opens a table."]

    first = await start_table(world, alice, bob)
    starter = seat_order(world, first, [alice, bob])[0]
    content = await shown(world, overview)
    assert content.startswith("📋 **1 game being played on this server** · updated <t:")
    since = world.query("SELECT since FROM day_seats WHERE game_id = ? AND since IS NOT NULL", (first,))[0][0]
    board = world.latest_board()
    assert line_of(content, first) == (
        f"**Pips (test game)** #{first} in <#{world.channel.id}> — to play: **{starter.name.capitalize()}**, "
        f"since <t:{since}:R> · [board](https://discord.com/channels/{world.guild.id}/{world.channel.id}/{board.id})")

    second = await start_table(world, carol, alice, channel=second_table)
    content = await shown(world, overview)
    assert content.startswith("📋 **2 games being played")
    assert content.index(f"#{first} in") < content.index(f"#{second} in")  # oldest first
    assert f"<#{second_table.id}>" in line_of(content, second)

    # A move: whose turn it is changes (the simultaneous choice waits for both).
    await take_turn(world, starter, random.Random(1))
    content = await shown(world, overview)
    assert "to play: **Alice** and **Bob**" in line_of(content, first) or \
        "to play: **Bob** and **Alice**" in line_of(content, first)
    board = world.latest_board()
    assert line_of(content, first).endswith(f"/{world.channel.id}/{board.id})")  # the turn's new message

    # Finished: it leaves; the other stays.
    await play_to_end(world, seat_order(world, first, [alice, bob]), seed=2)
    content = await shown(world, overview)
    assert f"#{first} in" not in content and f"#{second} in" in content
    assert content.startswith("📋 **1 game being played")

    # Abandoned: the list is empty again.
    await world.slash(carol, "game abandon", channel=second_table)
    content = await shown(world, overview)
    assert "No game is being played right now" in content
    assert posts_in(world, overview) == 1  # one message all along, edited

    # Off: the message goes.
    assert "is gone" in reply(await world.slash(mod, "game overview off", channel=overview)).content
    assert overview_messages(world, overview) == []


async def test_a_burst_of_moves_edits_it_a_bounded_number_of_times(world, places):
    overview, _ = places
    mod = world.player("mod", manage_server=True)
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(mod, "game overview here", channel=overview)
    game_id = await start_table(world, alice, bob, options="rounds=3")
    await shown(world, overview)
    (message,) = overview_messages(world, overview)
    rng = random.Random(4)

    # Four moves within the pause after the first: no edit meanwhile, then one for all of them.
    before = edits_of(world, message)
    for _ in range(4):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    assert edits_of(world, message) == before
    await shown(world, overview)
    assert edits_of(world, message) == before + 1

    # Four more within the pause between two edits (a longer one here): no edit meanwhile, then
    # one for all of them once it is over.
    world.parts.league.overviews.every = 600.0
    before = edits_of(world, message)
    for _ in range(4):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    await world.env.advance_time(WAIT)
    assert edits_of(world, message) == before
    await world.env.advance_time(600)
    content = await shown(world, overview)
    assert edits_of(world, message) == before + 1
    # It shows where the game is now.
    waiting = waiting_names(world, game_id)
    assert waiting and all(f"**{name}**" in line_of(content, game_id) for name in waiting)


def waiting_names(world, game_id):
    """The names of the seats the game waits for, as the store holds them (sorted)."""
    return sorted(name for (name,) in world.query(
        "SELECT s.name FROM seats s JOIN day_seats d ON d.game_id = s.game_id AND d.seat = s.seat "
        "WHERE s.game_id = ? AND d.since IS NOT NULL", (game_id,)))


@pg.on_both_stores
async def test_after_a_restart_the_same_message_is_edited(world, places):
    overview, _ = places
    mod = world.player("mod", manage_server=True)
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(mod, "game overview here", channel=overview)
    game_id = await start_table(world, alice, bob)
    before_restart = await shown(world, overview)
    (message,) = overview_messages(world, overview)

    # A move stored, then the bot stops before the overview shows it (a long pause between
    # edits keeps the edit owed).
    world.parts.league.overviews.every = 600.0
    await take_turn(world, seat_order(world, game_id, [alice, bob])[0], random.Random(1))
    assert world.query("SELECT wanted > shown FROM league_overviews") == [(1,)]
    await world.restart()
    posts = posts_in(world, overview)
    content = await shown(world, overview)
    assert content != before_restart
    assert "**Alice** and **Bob**" in content or "**Bob** and **Alice**" in content  # both choose now
    assert [m.id for m in overview_messages(world, overview)] == [message.id]
    assert posts_in(world, overview) == posts  # edited, not posted again
    assert world.query("SELECT wanted > shown FROM league_overviews") == [(0,)]

    # A moderator deletes it: it is posted again, once.
    world.env.backend.delete_message(overview.id, message.id)
    await take_turn(world, to_act(world, [alice, bob])[0], random.Random(2))
    await shown(world, overview)
    assert len(overview_messages(world, overview)) == 1 and posts_in(world, overview) == posts + 1


async def test_a_server_without_an_overview_is_read_for_once_until_one_is_placed(world, places, monkeypatch):
    overview, _ = places
    mod = world.player("mod", manage_server=True)
    alice, bob = world.player("alice"), world.player("bob")
    league = world.parts.league.overviews.storage.league
    reads: list[int] = []
    read = league.overview

    async def counted(guild_id):
        reads.append(guild_id)
        return await read(guild_id)

    monkeypatch.setattr(league, "overview", counted)
    game_id = await start_table(world, alice, bob, options="rounds=3")
    rng = random.Random(5)
    for _ in range(4):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    await world.env.advance_time(WAIT)
    # The start's look found no overview; the moves after it (each one kicks it) read nothing.
    assert reads == [world.guild.id]

    # Placed: shown, and kept current by the moves after it as before.
    await world.slash(mod, "game overview here", channel=overview)
    await shown(world, overview)
    (message,) = overview_messages(world, overview)
    before = edits_of(world, message)
    for _ in range(2):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    content = await shown(world, overview)
    assert edits_of(world, message) == before + 1
    waiting = waiting_names(world, game_id)
    assert waiting and all(f"**{name}**" in line_of(content, game_id) for name in waiting)

    # Off, then moves: read once more (the look that finds it gone), then no more.
    await world.slash(mod, "game overview off", channel=overview)
    for _ in range(2):
        await take_turn(world, to_act(world, [alice, bob])[0], rng)
    await world.env.advance_time(WAIT)
    after_off = len(reads)
    await take_turn(world, to_act(world, [alice, bob])[0], rng)
    await world.env.advance_time(WAIT)
    assert len(reads) == after_off
