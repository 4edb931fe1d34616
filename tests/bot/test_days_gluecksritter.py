"""Games over days with a simultaneous secret choice: taking a choice back to change it rejoins
the round's wait; it does not buy a fresh deadline."""
from __future__ import annotations

import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from games import REGISTRY
from tests.bot.harness import reply, seat_order, start_table

HOUR = 3600
GAME = REGISTRY["gluecksritter"]


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"gluecksritter": GAME}, render=renderer,
                          seed_source=random.Random(5), clock=clock)
    return build


def deadlines(world) -> dict[int, int]:
    with sqlite3.connect(world.database_path) as db:
        return dict(db.execute("SELECT seat, due_at FROM timers WHERE game_id = 1 AND kind = 'deadline'"))


async def test_changing_a_confirmed_choice_keeps_the_rounds_deadline(world, clock):
    people = [world.player(name) for name in ("anna", "bernd", "clara")]
    await start_table(world, *people, game="gluecksritter", options="deadline=24h")
    anna, bernd, _ = seat_order(world, 1, people)
    round_deadlines = deadlines(world)
    assert sorted(round_deadlines) == [0, 1, 2] and len(set(round_deadlines.values())) == 1

    clock.advance(HOUR)
    assert reply(await world.slash(anna, "move", action="play 2,5")).content.startswith("✅")
    assert sorted(deadlines(world)) == [1, 2]  # nobody waits for her any more
    clock.advance(9 * HOUR)
    assert reply(await world.slash(anna, "move", action="change")).content.startswith("✅")
    assert deadlines(world) == round_deadlines  # back in the round's wait, on the round's clock
    state = GAME.from_dict(world.stored_state(1))
    assert 0 in GAME.to_act(state) and not state.choices[0]["ready"]
    assert reply(await world.slash(bernd, "move", action="play 1,6")).content.startswith("✅")
    assert deadlines(world)[0] == round_deadlines[0]
