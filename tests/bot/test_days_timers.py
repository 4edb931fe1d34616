"""Games over days on a fake clock: reminders, deadlines, timeouts, absences and restarts.

The bot runs on `FakeClock`; nothing sleeps. `tick` moves the clock and lets the one scheduler
handle whatever is due, as its loop would.
"""
from __future__ import annotations

import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from tests.bot import fakegame
from tests.bot.harness import move_buttons, reply, seat_order, start_table, take_turn

HOUR = 3600
DAY = 24 * HOUR


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


def reminders_to(world, player):
    return [m for m in world.dms(player) if "waiting for you" in m.content]


def timers(world, game_id=1):
    with sqlite3.connect(world.database_path) as db:
        return db.execute("SELECT seat, kind, due_at FROM timers WHERE game_id = ? ORDER BY seat, kind",
                          (game_id,)).fetchall()


def day_seat(world, seat, game_id=1):
    with sqlite3.connect(world.database_path) as db:
        return db.execute("SELECT computer, timeouts FROM day_seats WHERE game_id = ? AND seat = ?",
                          (game_id, seat)).fetchone()


async def start(world, names=("alice", "bob"), options=None, channel=None):
    players = [world.player(name) for name in names] if isinstance(names[0], str) else list(names)
    game_id = await start_table(world, *players, options=options, channel=channel)
    return game_id, seat_order(world, game_id, players)


# ------------------------------------------------------------------------------ reminders


async def test_a_reminder_comes_once_after_the_reminder_time_and_not_again_before_the_next(world, clock):
    _, (starter, other) = await start(world)

    await tick(world, clock, 12 * HOUR - 1)
    assert reminders_to(world, starter) == []

    await tick(world, clock, 1)
    sent = reminders_to(world, starter)
    assert len(sent) == 1
    assert "Pips (test game)" in sent[0].content and "https://discord.com/channels/" in sent[0].content
    assert reminders_to(world, other) == []  # not their turn

    await tick(world, clock, 6 * HOUR)
    await tick(world, clock, 6 * HOUR - 1)
    assert len(reminders_to(world, starter)) == 1
    await tick(world, clock, 1)
    assert len(reminders_to(world, starter)) == 2


async def test_a_move_starts_the_next_players_reminder_clock(world, clock):
    _, (starter, other) = await start(world)
    await tick(world, clock, 11 * HOUR)
    await world.click(starter, world.latest_board(), label="High cards win")  # now both choose a card

    await tick(world, clock, 11 * HOUR)
    assert reminders_to(world, other) == [] and reminders_to(world, starter) == []
    await tick(world, clock, HOUR)
    assert len(reminders_to(world, other)) == 1 and len(reminders_to(world, starter)) == 1


async def test_reminders_off_sends_none_and_on_again_resumes(world, clock):
    _, (starter, _other) = await start(world)
    result = await world.slash(starter, "game reminders", setting="off")
    assert "off" in reply(result).content

    await tick(world, clock, 13 * HOUR)
    assert reminders_to(world, starter) == []

    await world.slash(starter, "game reminders", setting="on")
    await tick(world, clock, 12 * HOUR)
    assert len(reminders_to(world, starter)) == 1


async def test_with_closed_dms_the_reminder_is_one_channel_mention(world, clock):
    _, (starter, _other) = await start(world)
    world.close_dms(starter)
    before = len(world.messages())

    await tick(world, clock, 12 * HOUR)

    new = world.messages()[before:]
    mentions = [m for m in new if starter.mention in m.content and "waiting for you" in m.content]
    assert len(mentions) == 1 and world.pinged(mentions[0]) == [starter.id]


async def test_a_finished_game_sends_no_reminders_and_keeps_no_timers(world, clock):
    _, (starter, _other) = await start(world)
    await world.slash(starter, "game resign")  # two players: the other wins

    await tick(world, clock, 2 * DAY)
    assert reminders_to(world, starter) == [] and timers(world) == []


# ------------------------------------------------------------------------------ deadlines


async def test_without_a_deadline_nothing_ever_times_out(world, clock):
    await start(world)
    await tick(world, clock, 30 * DAY)
    assert world.stored(1).version == 0


async def test_a_passed_deadline_makes_the_computer_move_through_the_normal_path(world, clock):
    _, (starter, other) = await start(world, options="deadline=24h")
    board = world.latest_board()

    await tick(world, clock, DAY - 1)
    assert world.stored(1).version == 0
    await tick(world, clock, 1)

    stored = world.stored(1)
    assert stored.version == 1 and stored.actions == 1
    assert world.stored_state(1)["phase"] == "play"
    assert any("ran out of time" in m.content for m in world.messages())
    new_board = world.latest_board()
    # A new turn message; only the newly waiting seat is pinged (the timed-out one was waiting already).
    assert new_board.id != board.id and world.pinged(new_board) == [other.id]
    assert day_seat(world, 0) == (None, 1)
    # The old board lost its buttons, as after any move.
    assert move_buttons(next(m for m in world.messages() if m.id == board.id)) == []


def acting(world, game_id=1):
    return fakegame.GAME.to_act(world.stored_state(game_id))


async def absent_until(world, clock, other, timeouts, rng):
    """Seat 0 never moves (its deadlines pass); the other player moves whenever they can."""
    for _ in range(20):
        if day_seat(world, 0) is not None and day_seat(world, 0)[1] >= timeouts:
            return
        if 1 in acting(world):
            await take_turn(world, other, rng)
        else:
            await tick(world, clock, DAY)
    raise AssertionError("the deadlines did not pass")


async def test_three_timeouts_in_a_row_make_a_computer_seat_until_the_player_comes_back(world, clock):
    _, (absent, other) = await start(world, options="deadline=24h rounds=3")
    rng = random.Random(3)

    await absent_until(world, clock, other, 2, rng)
    assert day_seat(world, 0) == (None, 2)
    await absent_until(world, clock, other, 3, rng)
    assert day_seat(world, 0) == ("timeout", 3)
    assert any("computer plays for" in m.content for m in world.messages())

    # From now on the computer answers after a short pause, without waiting for a deadline.
    while 0 not in acting(world):
        await take_turn(world, other, rng)
    assert [kind for seat, kind, _ in timers(world) if seat == 0] == ["computer"]
    version = world.stored(1).version
    await tick(world, clock, 5)
    assert world.stored(1).version > version

    # Coming back: `/game back` gives the seat back.
    await world.slash(absent, "game back")
    assert day_seat(world, 0) == (None, 0)
    assert not any(kind == "computer" for _, kind, _ in timers(world))


async def test_a_move_of_their_own_brings_the_player_back(world, clock):
    _, (absent, other) = await start(world, options="deadline=24h rounds=3")
    rng = random.Random(3)
    await absent_until(world, clock, other, 2, rng)
    while 0 not in acting(world):
        await take_turn(world, other, rng)

    await take_turn(world, absent, rng)  # in time, this once

    assert day_seat(world, 0) == (None, 0)


async def test_timeout_end_ends_the_game(world, clock):
    await start(world, options="deadline=48h timeout=end")

    await tick(world, clock, 2 * DAY)

    assert world.stored(1).status == "abandoned"
    assert "ran out of time" in world.latest().content and timers(world) == []


async def test_bad_table_options_are_refused(world):
    alice = world.player("alice")
    result = await world.slash(alice, "game new", game="pips", options="deadline=5h")
    assert "deadline" in reply(result).content and "24h" in reply(result).content
    assert world.bot_messages() == []


# ------------------------------------------------------------------------------- away


async def test_away_pauses_deadlines_and_a_move_resumes_them(world, clock):
    _, (starter, other) = await start(world, options="deadline=24h")
    await tick(world, clock, 10 * HOUR)

    result = await world.slash(starter, "game away", days=2)
    assert "<t:" in reply(result).content
    assert any("is away until" in m.content and "Alice" in m.content or "Bob" in m.content
               for m in world.messages())
    deadline = [due for seat, kind, due in timers(world) if kind == "deadline"][0]
    assert deadline == int(clock.now()) + 2 * DAY + 14 * HOUR  # the 14 hours left wait for the absence

    await tick(world, clock, 2 * DAY)
    assert world.stored(1).version == 0  # still paused by the absence

    await world.slash(starter, "game back")  # back early (no move yet)
    deadline = [due for seat, kind, due in timers(world) if kind == "deadline"][0]
    assert deadline == int(clock.now()) + 14 * HOUR
    await tick(world, clock, 14 * HOUR)
    assert world.stored(1).version == 1


async def test_away_days_out_of_range_are_refused_and_change_nothing(world, clock):
    _, (starter, _other) = await start(world, options="deadline=24h")
    before = timers(world)
    for days in (0, 15, 90):
        result = await world.slash(starter, "game away", days=days)
        assert "between 1 and 14" in reply(result).content
    assert timers(world) == before


async def test_back_when_not_away_is_refused(world):
    _, (starter, _other) = await start(world)
    result = await world.slash(starter, "game back")
    assert "not away" in reply(result).content


# ----------------------------------------------------------------------------- restarts


async def test_after_a_restart_overdue_timers_are_handled_once_in_order(world, clock):
    alice, bob = world.player("alice"), world.player("bob")
    await start(world, (alice, bob), options="deadline=24h")
    thread = world.thread("second", alice)
    await start(world, (alice, bob), options="deadline=48h", channel=thread)

    await world.restart()
    clock.advance(3 * DAY)  # the bot was down for three days
    await world.restart()
    await world.run_timers()
    await world.run_timers()  # a second pass finds nothing left to do

    assert world.stored(1).version == 1 and world.stored(2).version == 1
    with sqlite3.connect(world.database_path) as db:
        order = [game for (game,) in db.execute("SELECT game_id FROM actions ORDER BY rowid")]
    assert order == [1, 2]  # game 1's deadline fell due first
    # One reminder each for the two overdue turns, not one per missed interval.
    starters = {seat_order(world, 1, [alice, bob])[0], seat_order(world, 2, [alice, bob])[0]}
    assert sum(len(reminders_to(world, p)) for p in starters) == 2
    # The new deadlines run from now.
    assert all(due > clock.now() for _, kind, due in timers(world, 1) + timers(world, 2))


async def test_the_board_shows_each_waiting_seats_deadline_as_a_discord_timestamp(world, clock):
    _, (starter, other) = await start(world, options="deadline=72h")
    first = int(clock.now()) + 3 * DAY
    assert f"<t:{first}:R>" in world.latest_board().content

    await tick(world, clock, HOUR)
    await world.click(starter, world.latest_board(), label="High cards win")

    board = world.latest_board().content
    assert f"**Alice** <t:{first + HOUR}:R>" in board or f"**Bob** <t:{first + HOUR}:R>" in board
    assert board.count(f"<t:{first + HOUR}:R>") == 2  # both choose a card now, both from now


async def test_a_boards_deadlines_are_read_with_the_game_not_apart(world, clock, monkeypatch):
    _, (starter, other) = await start(world, options="deadline=72h")
    asked = []

    async def deadline_line(table, lang=None):  # the read apart a board made before
        asked.append(table.id)
        return ""

    monkeypatch.setattr(world.parts.content, "deadline_line", deadline_line)
    await tick(world, clock, HOUR)
    await world.click(starter, world.latest_board(), label="High cards win")
    board = world.latest_board().content
    assert board.count(f"<t:{int(clock.now()) + 3 * DAY}:R>") == 2 and asked == []


async def test_without_a_deadline_the_board_shows_none(world):
    await start(world)
    assert "⏳" not in world.latest_board().content


async def test_others_moving_while_i_wait_neither_repeats_my_reminder_nor_moves_my_deadline(world, clock):
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    _, order = await start(world, players, options="deadline=72h")
    await world.click(order[0], world.latest_board(), label="High cards win")  # all three choose now
    waiting = order[2]
    deadline = [due for seat, kind, due in timers(world) if seat == 2 and kind == "deadline"]

    await tick(world, clock, 12 * HOUR)
    assert len(reminders_to(world, waiting)) == 1
    await take_turn(world, order[1], random.Random(1))  # someone else moves

    await world.run_timers()
    assert len(reminders_to(world, waiting)) == 1
    assert [due for seat, kind, due in timers(world) if seat == 2 and kind == "deadline"] == deadline


async def test_status_shows_deadlines_absences_and_after_a_restart_the_board_still_has_its_deadlines(world, clock):
    _, (starter, other) = await start(world, options="deadline=24h")
    due = int(clock.now()) + DAY
    await world.slash(other, "game away", days=3)

    status = reply(await world.slash(starter, "game status")).content
    assert f"<t:{due}:R>" in status and "is away until" in status

    await world.restart()
    await world.slash(starter, "game board")
    assert f"<t:{due}:R>" in world.latest_board().content


async def test_timeout_skip_passes_where_the_game_can_and_else_the_computer_moves(world, clock):
    await start(world, options="deadline=24h timeout=skip")  # Pips has no pass move

    await tick(world, clock, DAY)

    assert world.stored(1).version == 1 and world.stored_state(1)["trump"] in ("high", "low")
