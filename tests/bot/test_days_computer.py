"""Computer seats added in the lobby, for a game that has a computer player (`suggest`)."""
from __future__ import annotations

import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.days.computer import computer_action
from bot.scheduler import FakeClock
from tests.bot import fakegame
from tests.bot.harness import reply, take_turn


class PipsWithComputer(fakegame.Pips):
    """The test game with a computer player: it plays its lowest card and calls high.
    It reads only its own seat's view, as a computer player must."""

    name = "pipsbot"
    title = "Pips with a computer"
    features = fakegame.Features(computer=True, undo=True, public_moves=True)

    def __init__(self) -> None:
        self.views_read: list[int | None] = []
        self.suggested: list[tuple[int, str]] = []

    def suggest(self, state, seat, rng):
        view = self.view(state, seat)
        self.views_read.append(view["viewer"])
        if state["phase"] == "trump":
            action = fakegame.Action("trump", ("high",))
        else:
            action = fakegame.Action("play", (str(min(view["hand"])),))
        self.suggested.append((seat, action.encode()))
        return action


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def computer_game():
    return PipsWithComputer()


@pytest.fixture
def make_bot(database_path, clock, computer_game):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME, "pipsbot": computer_game},
                          render=fakegame.render, seed_source=random.Random(7), clock=clock)
    return build


async def test_computer_seats_play_a_whole_game_with_people_seeing_only_their_own_hands(world, clock, computer_game):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="pipsbot")
    await world.click(bob, world.latest(), label="Join")
    added = await world.slash(alice, "game computer")
    assert "3 seated" in reply(added).content
    await world.slash(alice, "game computer")
    assert "Computer 1" in world.latest().content and "Computer 2" in world.latest().content
    await world.click(alice, world.latest(), label="Start")

    seats = world.seats(1)
    assert sorted(user for user in seats if user < 0) == [-2, -1]
    people = {seats[alice.id]: alice, seats[bob.id]: bob}
    rng = random.Random(2)
    for _ in range(200):
        if world.stored(1).status != "active":
            break
        acting = fakegame.GAME.to_act(world.stored_state(1))
        humans = [people[s] for s in sorted(acting) if s in people]
        if humans:
            await take_turn(world, humans[0], rng)
        else:
            await world.run_timers()
            version = world.stored(1).version
            clock.advance(3)  # the computer answers after a short pause
            await world.run_timers()
            assert world.stored(1).version > version
    assert world.stored(1).status == "finished"
    computer_seats = {seats[-1], seats[-2]}
    assert set(computer_game.views_read) == computer_seats  # never anyone else's view
    with sqlite3.connect(world.database_path) as db:
        played = db.execute("SELECT seat, action FROM actions WHERE game_id = 1 ORDER BY version").fetchall()
    assert [row for row in played if row[0] in computer_seats] == computer_game.suggested
    assert "<@-" not in "".join(m.content for m in world.messages())  # computers are never pinged


async def test_computer_seats_need_the_host_a_lobby_and_a_game_with_a_computer_player(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="pips")
    no_computer = await world.slash(alice, "game computer")
    assert "no computer player" in reply(no_computer).content
    await world.slash(alice, "game abandon")

    await world.slash(alice, "game new", game="pipsbot")
    await world.click(bob, world.latest(), label="Join")
    not_host = await world.slash(bob, "game computer")
    assert "Only the host" in reply(not_host).content
    for _ in range(2):
        await world.slash(alice, "game computer")
    full = await world.slash(alice, "game computer")
    assert "full" in reply(full).content
    await world.click(alice, world.latest(), label="Start")
    started = await world.slash(alice, "game computer")
    assert "before the game starts" in reply(started).content


def test_without_suggest_the_computer_plays_a_uniformly_random_legal_move():
    game = fakegame.GAME
    state = game.new_game(2, seed=3)
    state = game.apply(state, 0, fakegame.Action("trump", ("low",)))[0]
    legal = game.legal_actions(state, 1)
    picks = [computer_action(game, state, 1, random.Random(n)) for n in range(300)]
    assert set(picks) == set(legal)


async def test_the_strength_given_with_a_computer_seat_is_the_tables_and_leaves_its_other_settings(world):
    alice = world.player("alice")
    await world.slash(alice, "game new", game="pipsbot", options="deadline=24h")

    await world.slash(alice, "game computer", strength="strong")

    assert world.query("SELECT strength, deadline FROM day_tables WHERE game_id = 1") == [("strong", 24 * 3600)]
    assert "Computer 1" in world.latest().content
