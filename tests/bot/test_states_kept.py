"""A game's state is decoded from the store once, and each of its views worked out once: the move
that made a state hands it, and its views, on to its delivery, to the toggles tapped on its
messages and to the next move (bot.choices: `stored_form`, `stored_state`, `KeptViews`)."""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

from games import REGISTRY
from tests.bot.harness import bot_factory, start_table, take_turn, to_act

NAMES = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
def make_bot(database_path, renderer):
    names = ("gluecksritter", "raubritter")
    return bot_factory(database_path, games={name: REGISTRY[name] for name in names}, seed=5, render=renderer)


def _asked_by_the_bot() -> bool:
    """Whether the engine's caller (two frames up: past the counting wrapper) is the bot's, not
    the test harness's."""
    return "/bot/" in sys._getframe(2).f_code.co_filename.replace("\\", "/")


@pytest.mark.parametrize("name, players", [("gluecksritter", 5), ("raubritter", 4)])
async def test_a_state_is_decoded_once_and_each_view_worked_out_once(world, monkeypatch, name, players):
    game = REGISTRY[name]
    people = [world.player(person) for person in NAMES[:players]]
    game_id = await start_table(world, *people, game=name)
    engine = type(game)
    decode, view = engine.from_dict, engine.view
    decoded: list[int] = []
    views: Counter[tuple[str, int | None]] = Counter()

    def counted_decode(self, data):
        if _asked_by_the_bot():
            decoded.append(1)
        return decode(self, data)

    def counted_view(self, state, seat):
        if _asked_by_the_bot():
            views[(repr(self.to_dict(state)), seat)] += 1
        return view(self, state, seat)

    monkeypatch.setattr(engine, "from_dict", counted_decode)
    monkeypatch.setattr(engine, "view", counted_view)
    rng = random.Random(3)
    moves = 0
    for _ in range(24):
        if world.stored(game_id).status != "active":
            break
        await take_turn(world, to_act(world, people)[0], rng)
        moves += 1
    assert moves >= 12
    # Only the state the game started with is read back from its text (`start` stores it as such).
    assert len(decoded) <= 1
    # No state's view for a seat is worked out again by the move that made it, its delivery and the
    # next move (a state met again later, changed and changed back, may be: at most twice).
    assert max(views.values()) <= 2
    assert sum(count > 1 for count in views.values()) <= len(views) // 10
