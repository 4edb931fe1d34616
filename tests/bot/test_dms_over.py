"""A DM whose decision is over says so and asks nothing more: after every move of whole games,
no DM but the current decision's still asks its player to move (no "Your move" line, no
buttons), and the current one does."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, move_buttons, selects, start_table, toggle_buttons

ASKS = ("Your move", "Du bist dran")


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games=REGISTRY, seed=8, render=SketchRenderer())


def asking(message) -> bool:
    return any(word in message.content for word in ASKS) or bool(
        move_buttons(message) or selects(message) or toggle_buttons(message))


@pytest.mark.parametrize("name,players,moves", [("raubritter", 3, 60), ("macrobber", 3, 80), ("gluecksritter", 3, 80)])
async def test_only_the_current_decision_asks_to_move(world, name, players, moves):
    game = REGISTRY[name]
    people = [world.player(n) for n in ("anna", "bernd", "clara")[:players]]
    await start_table(world, *people, game=name)
    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in people}
    rng = random.Random(4)
    for _ in range(moves):
        state = game.from_dict(world.stored_state(1))
        if game.outcome(state) is not None:
            break
        for seat, person in by_seat.items():
            dms = world.dms(person)
            older = [m for m in dms[:-1] if asking(m)]
            assert not older, f"{name}: an older DM of seat {seat} still asks: {older[-1].content!r}"
            if dms and asking(dms[-1]) and any(w in dms[-1].content for w in ASKS):
                assert game.legal_actions(state, seat), f"{name}: seat {seat} is asked with nothing to do"
        seat = min(game.to_act(state))
        await world.slash(by_seat[seat], "move", action=rng.choice(game.legal_actions(state, seat)).encode())
