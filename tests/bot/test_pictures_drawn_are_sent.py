"""A move draws only the pictures it sends: a DM whose decision is over and that has nothing new
to say gets its done text alone, so no picture is drawn for it (Raub Ritter's mover at the end of
a turn, Die Glücksritter's seats once they have chosen)."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.harness import bot_factory, seat_order, start_table, take_turn, to_act


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={name: REGISTRY[name] for name in ("raubritter", "gluecksritter")},
                       seed=3, render=renderer)


def uploads(world) -> int:
    """The images the bot sent Discord: the new attachments of the messages it posted or edited,
    itself or in answer to a click."""
    sent = 0
    for entry in world.env.backend.http_requests:
        fields = entry.json if isinstance(entry.json, dict) else {}
        fields = fields.get("data") if isinstance(fields.get("data"), dict) else fields  # a click's answer
        sent += sum(1 for attachment in fields.get("attachments") or () if "filename" in attachment)
    return sent


@pytest.mark.parametrize("name, players, moves", [("raubritter", 4, 30), ("gluecksritter", 5, 30)])
async def test_every_picture_drawn_is_sent(world, renderer, name, players, moves):
    people = [world.player(person) for person in ("anna", "bernd", "clara", "dora", "emil")[:players]]
    game_id = await start_table(world, *people, game=name)
    order = seat_order(world, game_id, people)
    rng = random.Random(4)
    for _ in range(moves):
        await take_turn(world, to_act(world, order)[0], rng)
    drawn = sum(len(views) for views in renderer.views_of.values())
    private = sum(1 for views in renderer.views_of.values() for view in views if view["viewer"] is not None)
    assert private > moves // 2, "hardly a DM picture drawn: the test would prove nothing"
    assert drawn == uploads(world), "a picture was drawn that no message carried"
