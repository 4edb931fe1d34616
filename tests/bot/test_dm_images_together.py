"""A move that gives several seats a new DM image (Mac Robber's hands, a new round of Die
Glücksritter's secret choice) draws them together: the board they share once, each seat's own
strip apart, and the public board with them. Every image still reaches only its own seat, and
the board only the channel."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.harness import bot_factory, open_table, seat_order, start_table, take_turn, to_act


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={name: REGISTRY[name] for name in ("macrobber", "gluecksritter")},
                       seed=3, render=renderer)


@pytest.mark.parametrize("name, names", [("macrobber", ("anna", "bernd", "clara", "dora")),
                                         ("gluecksritter", ("anna", "bernd", "clara", "dora", "emil"))])
async def test_images_drawn_together_reach_only_their_own_seats(world, renderer, name, names):
    people = [world.player(person) for person in names]
    game_id = await start_table(world, *people, game=name)
    order = seat_order(world, game_id, people)
    rng = random.Random(4)
    for _ in range(40):
        await take_turn(world, to_act(world, order)[0], rng)
    together = [batch for batch in renderer.batches if len(batch) >= 2]
    assert together, "no move drew several seats' images at once"
    # The public board (viewer None) may be drawn with them, first; it goes only to the channel.
    assert all(len(set(batch)) == len(batch) and None not in batch[1:] for batch in together)
    assert any(batch[0] is None for batch in together), "the board was never drawn with the DM images"
    for message in world.bot_messages():
        png = world.png(message)
        if png is not None:
            assert renderer.viewers_of[png] == {None}
    seats = world.seats(game_id)
    shown = 0
    for person in people:
        for message in world.dms(person):
            png = world.png(message)
            if png is not None:
                # (Two seats holding the same cards get the very same picture.)
                assert seats[person.id] in renderer.viewers_of[png]
                shown += 1
    assert shown >= len(people)


async def test_the_dms_of_one_pass_are_stored_together_once_discord_took_them(world, monkeypatch):
    """Die Glücksritter's first round owes all five seats a DM: each is stored as shown only once
    Discord confirmed it, and the five together, in one hand-over to the store."""
    people = [world.player(person) for person in ("anna", "bernd", "clara", "dora", "emil")]
    game_id = await open_table(world, *people, game="gluecksritter")
    database = world.parts.storage.database
    held_batch = database.held_batch
    stored: list[int] = []  # the DMs stored as shown, by hand-over

    async def counted(statements, **kwargs):
        shown = sum(1 for sql, _ in statements if sql.startswith("UPDATE seat_dms SET user_id"))
        if shown:
            stored.append(shown)
        return await held_batch(statements, **kwargs)

    monkeypatch.setattr(database, "held_batch", counted)
    await world.click(people[0], world.latest(), label="Start")
    assert stored == [5]
    assert all(len(world.dms(person)) == 1 for person in people)
    assert world.query("SELECT COUNT(*) FROM seat_dms WHERE game_id = ? AND owed IS NULL AND message_id IS NOT NULL",
                       (game_id,)) == [(5,)]
