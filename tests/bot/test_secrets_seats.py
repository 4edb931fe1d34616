"""A player who left a seat learns nothing more of it: after `/game resign` (the computer takes
the seat) or `/game replace`, no DM of theirs is sent or edited with the seat's secrets, and
`/game hand` and the My hand button refuse them (issue: a resigned Mac Robber player still got
"Your raid cards: 1, 2 and 3" and could pass them on)."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, buttons, reply, start_table

GAME = REGISTRY["macrobber"]


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games=REGISTRY, seed=5, render=SketchRenderer())


def dm_snapshot(world, member):
    return [(m.id, m.content, tuple(b.get("label") for b in buttons(m))) for m in world.dms(member)]


async def play(world, by_seat, moves: int, rng) -> None:
    for _ in range(moves):
        state = GAME.from_dict(world.stored_state(1))
        if GAME.outcome(state) is not None:
            return
        seat = min(GAME.to_act(state))
        if by_seat.get(seat) is None:  # the computer's seat: it moves by itself
            return
        action = rng.choice(GAME.legal_actions(state, seat))
        await world.slash(by_seat[seat], "move", action=action.encode())


async def test_a_resigned_player_gets_nothing_private_of_the_seat(world):
    anna, bernd, clara = (world.player(n) for n in ("anna", "bernd", "clara"))
    await start_table(world, anna, bernd, clara, game="macrobber")
    assert world.dms(bernd), "Mac Robber deals raid cards by DM"
    await world.slash(bernd, "game resign")
    before = dm_snapshot(world, bernd)
    assert all(not label for _, _, labels in before for label in labels), "the old DM lost its buttons"

    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in (anna, clara)}
    await play(world, by_seat, 20, random.Random(2))
    assert world.stored(1).version > 1

    assert dm_snapshot(world, bernd) == before  # no new DM, no edit
    hand = reply(await world.slash(bernd, "game hand"))
    assert "resigned" in hand.content and not buttons(hand) and not hand.attachments
    board = world.latest_board()
    if any(b.get("label") == "My hand" for b in buttons(board)):
        mine = reply(await world.click(bernd, board, label="My hand"))
        assert "resigned" in mine.content and not mine.attachments


async def test_a_replaced_player_gets_nothing_private_of_the_seat(world):
    anna, bernd, clara = (world.player(n, manage_server=(n == "anna")) for n in ("anna", "bernd", "clara"))
    dora = world.player("dora")
    await start_table(world, anna, bernd, clara, game="macrobber")
    await world.slash(anna, "game replace", old=bernd, new=dora)
    before = dm_snapshot(world, bernd)
    assert world.dms(dora), "the substitute gets the seat's private view"

    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in (anna, clara, dora)}
    await play(world, by_seat, 20, random.Random(4))
    assert world.stored(1).version > 2

    assert dm_snapshot(world, bernd) == before
    hand = reply(await world.slash(bernd, "game hand"))
    assert not hand.attachments and not buttons(hand)
