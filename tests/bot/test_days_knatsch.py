"""Games over days with a real engine: Knatsch turns of several steps time out as one turn."""
from __future__ import annotations

import random
import sqlite3

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from games import REGISTRY
from tests.bot.harness import start_table

DAY = 24 * 3600


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"knatsch": REGISTRY["knatsch"]}, render=renderer,
                          seed_source=random.Random(11), clock=clock)
    return build


async def test_a_timed_out_knatsch_turn_is_played_out_by_the_computer_until_the_next_player(world, clock):
    game = REGISTRY["knatsch"]
    players = [world.player(n) for n in ("alice", "bob", "carol")]
    await start_table(world, *players, game="knatsch", options="deadline=24h")
    state = game.from_dict(world.stored_state(1))
    (first,) = game.to_act(state)

    for _ in range(3):  # three turns in a row: whoever is to act lets the time run out
        acting = game.to_act(game.from_dict(world.stored_state(1)))
        clock.advance(DAY)
        await world.run_timers()
        after = game.to_act(game.from_dict(world.stored_state(1)))
        assert after != acting or world.stored(1).status != "active"

    with sqlite3.connect(world.database_path) as db:
        moves = db.execute("SELECT seat FROM actions WHERE game_id = 1 ORDER BY version").fetchall()
        timeouts = dict(db.execute("SELECT seat, timeouts FROM day_seats WHERE game_id = 1").fetchall())
    assert len(moves) >= 3 and moves[0][0] == first
    assert sum(timeouts.values()) == 3  # one timed-out turn per deadline, however many steps it had
    assert world.stored(1).status == "active"


def test_undo_rules_on_knatsch_a_roll_drew_chance_stopping_did_not():
    from bot.days.undo import undo_refusal

    game = REGISTRY["knatsch"]
    state = game.new_game(3, seed=5)
    rng = random.Random(1)
    seen = {}
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        after, events = game.apply(state, seat, action)
        seen.setdefault(action.verb, set()).add(undo_refusal(game, state, after, seat, action, events, 3))
        state = after
    assert seen["roll"] == {"undo_chance"}
    assert seen["target"] == {"undo_chance"}  # choosing whom to attack rolls in the same tap
    assert None in seen["stop"]  # stopping draws nothing (unless it reveals a card)
