"""`/game undo` through the bot: a move that drew a card, cube or tile stands (issue: a Mac Robber
warrior draw and a Raub Ritter lay were taken back, and the drawn thing went back on the pile)."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, reply, start_table


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games=REGISTRY, seed=7, render=SketchRenderer())


@pytest.mark.parametrize("name", ["macrobber", "raubritter", "carcassonne"])
async def test_a_move_that_drew_stands(world, name):
    game = REGISTRY[name]
    players = [world.player(n) for n in ("anna", "bernd", "clara")]
    await start_table(world, players[0], *players[1:], game=name)
    by_seat = {seat: next(p for p in players if p.id == user) for user, seat in world.seats(1).items()}
    rng = random.Random(3)
    for _ in range(120):
        state = game.from_dict(world.stored_state(1))
        seat = min(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        after, _ = game.apply(state, seat, action)
        await world.slash(by_seat[seat], "move", action=action.encode())
        if game.exposure(state) != game.exposure(after):
            before = world.stored(1)
            answer = await world.slash(by_seat[seat], "game undo")
            assert "stands" in reply(answer).content
            assert world.stored(1) == before  # nothing taken back, no version spent
            return
    pytest.fail("no drawing move within 120 moves")
