"""A public choice that says nothing by itself (a Carcassonne square, no follower) is told in
words in the running account and in `/game log`, never as "**X** made a move"."""
from __future__ import annotations

import random
import re

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, reply, start_table

GAME = REGISTRY["carcassonne"]


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games={"carcassonne": GAME}, seed=4, render=SketchRenderer())


async def test_choosing_a_square_and_skipping_a_follower_are_said_in_words(world):
    anna, bernd = world.player("anna"), world.player("bernd")
    await start_table(world, anna, bernd, game="carcassonne")
    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in (anna, bernd)}
    rng = random.Random(2)
    verbs = set()
    for _ in range(40):
        state = GAME.from_dict(world.stored_state(1))
        seat = min(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        await world.slash(by_seat[seat], "move", action=action.encode())
        verbs.add(action.verb)
        board = world.latest_board().content
        assert "made a move" not in board
        if action.verb == "at":  # the square by the name the board writes ("K12"), not as a button's "1 · square K12"
            assert re.search(r"picks square -?[A-Z]+\d+\.", board) and "· square" not in board
    assert {"at", "turn"} <= verbs
    log = reply(await world.slash(anna, "game log")).content
    assert "made a move" not in log
