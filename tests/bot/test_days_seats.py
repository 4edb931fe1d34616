"""Games over days: `/game mine`, substitutes, resigning to the computer, and undo."""
from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock, Scheduler, SystemClock
from tests.bot import fakegame
from tests.bot.harness import latest_dm_with_moves, move_buttons, reply, seat_order, start_table, take_turn


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer,
                          seed_source=random.Random(7), clock=clock)
    return build


async def tick(world, clock, seconds):
    clock.advance(seconds)
    await world.run_timers()


def acting(world, game_id=1):
    return fakegame.GAME.to_act(world.stored_state(game_id))


async def play_out(world, clock, players, *, computer_seats=(), seed=1, game_id=1, limit=300):
    """Everyone plays as a person would; seats the computer holds are left to the scheduler."""
    rng = random.Random(seed)
    for _ in range(limit):
        if world.stored(game_id).status != "active":
            return
        humans = [p for s, p in enumerate(players) if s in acting(world, game_id) and s not in computer_seats]
        if humans:
            await take_turn(world, humans[0], rng)
        else:
            await tick(world, clock, 3)
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------------- mine


async def test_game_mine_lists_every_open_game_on_every_server_mine_first_also_in_a_dm(world):
    alice, bob, carol = world.player("alice"), world.player("bob"), world.player("carol")
    await start_table(world, alice, bob)
    other_guild = world.env.create_guild("Zweite Runde")
    other_channel = other_guild.create_text_channel("tisch")
    alice_there = other_guild.add_member(alice.user)
    dave = other_guild.add_member(world.env.create_user("dave", global_name="Dave"))
    await start_table(world, dave, alice_there, channel=other_channel)
    third = world.thread("lobby", carol)
    await world.slash(carol, "game new", channel=third, game="pips")
    await world.click(alice, world.latest(third), label="Join")

    result = await alice.user.slash("game mine")
    text = reply(result).content if reply(result) is not None else result.response.content

    assert "(3)" in text
    lines = text.split("\n")[1:]
    assert len(lines) == 3
    first_starter = seat_order(world, 1, [alice, bob])[0]
    second_starter = seat_order(world, 2, [alice, dave])[0]
    mine_first = [n for n, starter in ((1, first_starter), (2, second_starter)) if starter.id == alice.id]
    for line, game_id in zip(lines, mine_first):
        assert "your move" in line and f"#{game_id}" in line
    assert all("<t:" in line for line in lines[:2]) and "lobby" in lines[2]
    assert f"https://discord.com/channels/{other_guild.id}/{other_channel.id}" in text


async def test_game_mine_with_no_games(world):
    zoe = world.player("zoe")
    result = await world.slash(zoe, "game mine")
    assert "no open games" in reply(result).content


# ------------------------------------------------------------------------------- replace


async def test_a_substitute_takes_the_seat_with_its_hand_and_the_game_goes_to_the_end(world, clock):
    names = ("alice", "bob", "carol", "dave")
    players = [world.player(n) for n in names]
    await start_table(world, *players)
    players = seat_order(world, 1, players)
    rng = random.Random(5)
    await take_turn(world, players[0], rng)  # trump: now everyone picks a card in secret
    hand = world.stored_state(1)["hands"][2]
    version = world.stored(1).version
    erin = world.player("erin")
    assert latest_dm_with_moves(world, players[2]) is not None

    host = next(p for p in players if p.name == "alice")
    await world.slash(host, "game replace", old=players[2], new=erin)

    assert world.stored(1).version == version + 1
    assert world.seats(1)[erin.id] == 2 and players[2].id not in world.seats(1)
    dm = latest_dm_with_moves(world, erin)
    assert [b["label"] for b in move_buttons(dm)] == [f"Play your {card}" for card in hand]
    assert erin.mention in world.messages()[-2].content or erin.mention in world.latest().content
    # The old player's DM lost its buttons: nothing of the seat can be done or seen there.
    assert latest_dm_with_moves(world, players[2]) is None
    assert world.stored(1).version == version + 1

    players[2] = erin
    await play_out(world, clock, players)
    assert world.stored(1).status == "finished"
    assert "Game over" in world.latest_board().content


async def test_replace_refusals_change_nothing(world):
    alice, bob, carol = world.player("alice"), world.player("bob"), world.player("carol")
    mod = world.player("mod", manage_server=True)
    zoe = world.player("zoe")
    await start_table(world, alice, bob, carol)
    before = world.stored(1)

    not_host = await world.slash(bob, "game replace", old=carol, new=zoe)
    already = await world.slash(alice, "game replace", old=carol, new=bob)
    not_seated = await world.slash(alice, "game replace", old=zoe, new=mod)

    assert "Only the host" in reply(not_host).content
    assert "already plays" in reply(already).content
    assert "does not play" in reply(not_seated).content
    assert world.stored(1) == before
    await world.slash(mod, "game replace", old=carol, new=zoe)  # Manage Server may
    assert world.seats(1).get(zoe.id) is not None


# -------------------------------------------------------------------------------- resign


async def test_resigning_in_a_four_player_game_hands_the_seat_to_the_computer_to_the_end(world, clock):
    players = [world.player(n) for n in ("alice", "bob", "carol", "dave")]
    await start_table(world, *players)
    players = seat_order(world, 1, players)

    await world.slash(players[3], "game resign")
    assert world.stored(1).status == "active"

    refused = await world.slash(players[3], "game resign")
    assert "computer plays your seat" in reply(refused).content

    await play_out(world, clock, players, computer_seats=(3,))

    assert world.stored(1).status == "finished"
    with sqlite3.connect(world.database_path) as db:
        moved = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = 1 AND seat = 3").fetchone()[0]
    assert moved >= 2  # the computer played seat 4's cards


async def test_a_resigned_player_cannot_move_any_more(world, clock):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players)
    players = seat_order(world, 1, players)
    await world.slash(players[0], "game resign")  # the starter: the computer calls trump

    assert move_buttons(world.latest_board())
    result = await world.click(players[0], world.latest_board(), label="High cards win")
    assert "computer plays your seat" in reply(result).content
    assert world.stored(1).version == 0
    await tick(world, clock, 3)
    assert world.stored(1).version == 1


# ---------------------------------------------------------------------------------- undo


async def test_undo_takes_back_a_move_that_drew_nothing_and_showed_nothing(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    starter, other = seat_order(world, 1, [alice, bob])
    state = world.stored_state(1)
    await world.click(starter, world.latest_board(), label="High cards win")

    result = await world.slash(starter, "game undo")

    assert "taken back" in reply(result).content
    assert world.stored(1).version == 2 and world.stored_state(1) == state
    assert "took back" in world.latest_board().content
    await world.click(starter, world.latest_board(), label="Low cards win")  # the choice is open again
    assert world.stored_state(1)["trump"] == "low"
    log = await world.slash(starter, "game log")
    assert "took back" in reply(log).content


async def test_undo_refusals(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    starter, other = seat_order(world, 1, [alice, bob])

    nothing = await world.slash(starter, "game undo")
    assert "no move to take back" in reply(nothing).content

    await world.click(starter, world.latest_board(), label="High cards win")
    wrong = await world.slash(other, "game undo")
    assert "not yours" in reply(wrong).content

    hands = world.stored_state(1)["hands"]
    await world.click(other, latest_dm_with_moves(world, other), label=f"Play your {hands[1][0]}")
    after_another = await world.slash(starter, "game undo")
    assert "not yours" in reply(after_another).content
    # The last card of the round reveals every card and draws new ones: it stands.
    await world.click(starter, latest_dm_with_moves(world, starter), label=f"Play your {hands[0][0]}")
    before = world.stored(1)
    revealed = await world.slash(starter, "game undo")
    assert "stands" in reply(revealed).content
    assert world.stored(1) == before


# ---------------------------------------------------------------------------- scheduler


class DueTimers:
    """A scheduler's source for the tests: the times `due`, those `fired`, and when it was looked at."""

    def __init__(self, scheduler: Scheduler) -> None:
        self.scheduler = scheduler
        self.due: list[float] = []
        self.fired: list[float] = []
        self.looks: list[float] = []

    async def next_due(self):
        self.looks.append(self.scheduler.clock.now())
        return min(self.due) if self.due else None

    async def run_due(self, now):
        for when in [w for w in self.due if w <= now]:
            self.due.remove(when)
            self.fired.append(when)


async def test_the_scheduler_loop_sleeps_until_the_earliest_timer_and_wakes_when_poked():
    scheduler = Scheduler(SystemClock())
    timers = DueTimers(scheduler)
    fired, due = timers.fired, timers.due
    scheduler.add_source(timers.next_due, timers.run_due)
    scheduler.start()
    try:
        await asyncio.sleep(0.05)
        assert fired == [] and scheduler.wakeups == 0  # nothing due: parked, not polling
        due.append(scheduler.clock.now() + 0.1)
        scheduler.poke()
        await asyncio.sleep(0.3)
        assert len(fired) == 1
        assert scheduler.wakeups <= 3
    finally:
        await scheduler.stop()


async def test_a_poke_with_a_time_after_the_planned_wake_costs_no_look_and_one_before_it_does():
    scheduler = Scheduler(SystemClock())
    timers = DueTimers(scheduler)
    looks, fired, due = timers.looks, timers.fired, timers.due
    scheduler.add_source(timers.next_due, timers.run_due)
    start = scheduler.clock.now()
    due.append(start + 0.4)
    scheduler.start()
    try:
        await asyncio.sleep(0.05)
        assert len(looks) == 1  # the first pass: sleeping until start + 0.4
        later = start + 3600
        due.append(later)
        scheduler.poke(later)  # a timer an hour away: the wake planned comes sooner anyway
        await asyncio.sleep(0.05)
        assert len(looks) == 1 and fired == []
        sooner = scheduler.clock.now() + 0.1
        due.append(sooner)
        scheduler.poke(sooner)  # due before the planned wake: looked at now
        await asyncio.sleep(0.05)
        assert len(looks) == 2 and fired == []
        await asyncio.sleep(0.5)
        assert fired == [sooner, start + 0.4]  # each on time; the hour-away one still waits
        assert due == [later]
    finally:
        await scheduler.stop()


async def test_a_poke_with_a_time_heard_during_a_pass_bounds_the_next_sleep():
    scheduler = Scheduler(SystemClock())
    timers = DueTimers(scheduler)
    fired, due = timers.fired, timers.due
    stored_meanwhile: list[float] = []

    async def run_due(now):
        await timers.run_due(now)
        if not stored_meanwhile:  # a change stores a timer while the pass looks, unseen by this look
            when = now + 0.15
            stored_meanwhile.append(when)
            scheduler.poke(when)
            due.append(when)

    async def unseen_next_due():
        return None if len(fired) == 0 else await timers.next_due()

    scheduler.add_source(unseen_next_due, run_due)
    scheduler.start()
    try:
        await asyncio.sleep(0.5)
        assert fired == stored_meanwhile  # woken for it although the look said nothing was due
    finally:
        await scheduler.stop()
