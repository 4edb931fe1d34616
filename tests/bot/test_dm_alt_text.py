"""A Mac Robber (Raub Ritter) DM picture of the seat's cards (tiles) alone is described by them alone: its alt text
says nothing of the table (who must act), which would go stale in a DM not kept current; one that
shows the table around the cards while the seat decides says who must act, as it is now."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from i18n import translate
from renderers import hand_alone
from tests.bot.harness import bot_factory, start_table, take_turn, to_act

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={name: REGISTRY[name] for name in ("macrobber", "raubritter")}, seed=5,
                       render=renderer)


@pytest.mark.parametrize("name", ["macrobber", "raubritter"])
async def test_a_cards_only_dm_pictures_alt_text_describes_the_cards_alone(world, renderer, name):
    game = REGISTRY[name]
    people = [world.player(person) for person in NAMES]
    game_id = await start_table(world, *people, game=name)
    seats = world.seats(game_id)
    names = dict(world.query("SELECT seat, name FROM seats WHERE game_id = ?", (game_id,)))
    names = [names[seat] for seat in range(len(people))]
    rng = random.Random(4)
    alone = with_table = 0
    for _ in range(45):
        if world.stored(game_id).status != "active":
            break
        await take_turn(world, to_act(world, people)[0], rng)
        state = game.from_dict(world.stored_state(game_id))
        for person in people:
            dms = world.dms(person)
            png = world.png(dms[-1]) if dms else None
            if png is None:
                continue
            description = next(a.description for a in dms[-1].attachments if a.filename.endswith(".png"))
            drawn = renderer.views_of[png][-1]
            cards = translate(drawn["private"]["summary"], "en")
            assert cards in description, (person.name, description)
            if hand_alone(drawn):
                assert description.endswith(cards), (person.name, description)  # nothing after the cards
                assert not any(word in description for word in (" must ", " chooses ", " plays ", " may ")), \
                    (person.name, description)
                alone += 1
            elif seats[person.id] in game.to_act(state):  # deciding: the table around the cards, current
                assert translate(drawn["status"], "en", names) in description, (person.name, description)
                with_table += 1
    assert alone >= 5 and with_table >= 3, (alone, with_table)
