"""What a DM shows of the table is current while its decision is open: a player still choosing
in Die Glücksritter sees who has chosen since, one still to discard in Mac Robber no longer
reads that a player who has discarded must discard. A DM whose decision is over keeps what it
showed and offers nothing (it is history)."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from i18n import translate
from tests.bot.harness import bot_factory, offers_moves, start_table, take_turn, to_act

NAMES = ("alice", "bob", "carol", "dave", "erin")


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={name: REGISTRY[name] for name in ("gluecksritter", "macrobber")},
                       seed=5, render=renderer)


@pytest.mark.parametrize("name, players, moves", [("gluecksritter", 5, 30), ("macrobber", 4, 45)])
async def test_an_open_dm_shows_who_must_act_as_it_is_now(world, name, players, moves):
    game = REGISTRY[name]
    people = [world.player(person) for person in NAMES[:players]]
    game_id = await start_table(world, *people, game=name)
    seats = world.seats(game_id)
    names = dict(world.query("SELECT seat, name FROM seats WHERE game_id = ?", (game_id,)))
    bold = [f"**{names[seat]}**" for seat in range(players)]
    rng = random.Random(4)
    checked = 0
    for _ in range(moves):
        if world.stored(game_id).status != "active":
            break
        await take_turn(world, to_act(world, people)[0], rng)
        if world.stored(game_id).status != "active":
            break
        state = game.from_dict(world.stored_state(game_id))
        for person in people:
            dms = world.dms(person)
            if not dms:
                continue
            if not offers_moves(dms[-1]):
                # Nothing to decide in it: it does not say who must act (that would go stale).
                assert not any(word in dms[-1].content for word in (" must ", " chooses ", "choosing")), \
                    dms[-1].content
                continue
            status = translate(game.view(state, seats[person.id])["status"], "en", bold)
            assert status in dms[-1].content, (person.name, status, dms[-1].content)
            checked += 1
    assert checked >= 10, checked
