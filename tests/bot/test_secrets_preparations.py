"""Die Glücksritter: arming a yellow document during the secret choice leaves no public trace.

Everybody sees how many documents a player holds, so even "**Anna** made a move" or one move
more in `/game status` tells the table that she armed one. Until the reveal the channel, its
board image, `/game status`, `/game log` and a running game's export stay exactly as they were.
"""
from __future__ import annotations

import json
import random

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, reply, start_table

GAME = REGISTRY["gluecksritter"]
PREPARATIONS = ("veto", "arm")


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games={"gluecksritter": GAME}, seed=11, render=SketchRenderer())


def public_record(world):
    return [(m.id, m.content, world.png(m)) for m in world.messages()]


async def public_answers(world, asker):
    status = reply(await world.slash(asker, "game status")).content
    log = reply(await world.slash(asker, "game log")).content
    return status, log


async def test_arming_a_document_changes_nothing_public(world):
    people = [world.player(name) for name in ("anna", "bernd", "clara")]
    await start_table(world, *people, game="gluecksritter")
    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in people}
    rng = random.Random(1)
    for _ in range(300):
        state = GAME.from_dict(world.stored_state(1))
        assert GAME.outcome(state) is None, "no document could be armed in a whole game"
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        preparation = next((a for a in legal if a.verb in PREPARATIONS), None)
        if preparation is None:
            await world.slash(by_seat[seat], "move", action=rng.choice(legal).encode())
            continue
        asker = by_seat[(seat + 1) % 3]
        channel = public_record(world)
        answers = await public_answers(world, asker)
        version = world.stored(1).version

        await world.slash(by_seat[seat], "move", action=preparation.encode())

        assert world.stored(1).version == version + 1  # stored, so it counts at the reveal
        assert public_record(world) == channel  # no new post, no edit, the same image
        assert await public_answers(world, asker) == answers
        exported = reply(await world.slash(asker, "game export"))
        record = json.loads(await exported.attachments[0].read())
        assert len(record["moves"]) == version  # every earlier move, not the preparation
        return
