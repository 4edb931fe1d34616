"""A computer never hosts: a lobby whose host leaves passes to a person, and a lobby with no
person left closes (issue: it passed to a computer and nobody could start or end it). Computer
seats are added and removed with lobby buttons, the host's."""
from __future__ import annotations

import pytest

from games import REGISTRY
from tests.bot.harness import SketchRenderer, bot_factory, buttons, reply


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games=REGISTRY, seed=3, render=SketchRenderer())


def labels(message) -> list[str]:
    return [b["label"] for b in buttons(message)]


async def test_computer_seats_come_and_go_by_the_hosts_buttons(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="knatsch")
    assert labels(world.latest()) == ["Join", "Leave", "Start", "Add computer"]

    await world.click(alice, world.latest(), label="Add computer")
    await world.click(alice, world.latest(), label="Add computer")
    assert len(world.seats(1)) == 3
    assert "Computer 1" in world.latest().content and "Computer 2" in world.latest().content
    assert labels(world.latest())[-1] == "Remove computer"

    refused = reply(await world.click(bob, world.latest(), label="Add computer"))
    assert refused.ephemeral and "host" in refused.content.lower()
    assert len(world.seats(1)) == 3

    await world.click(alice, world.latest(), label="Remove computer")
    assert len(world.seats(1)) == 2 and "Computer 2" not in world.latest().content
    await world.click(alice, world.latest(), label="Remove computer")
    assert len(world.seats(1)) == 1 and "Remove computer" not in labels(world.latest())


async def test_a_lobby_left_to_computers_closes(world):
    alice = world.player("alice")
    await world.slash(alice, "game new", game="knatsch")
    await world.click(alice, world.latest(), label="Add computer")
    await world.click(alice, world.latest(), label="Add computer")

    await world.click(alice, world.latest(), label="Leave")

    assert world.stored(1).status == "abandoned"
    assert not buttons(world.latest())
    again = await world.slash(alice, "game new", game="knatsch")
    assert "game #2" in reply(again).content  # the channel is free


async def test_the_host_passes_to_a_person_not_a_computer(world):
    alice, bob = world.player("alice"), world.player("bob")
    await world.slash(alice, "game new", game="knatsch")
    await world.click(alice, world.latest(), label="Add computer")
    await world.click(bob, world.latest(), label="Join")

    await world.click(alice, world.latest(), label="Leave")

    assert world.query("SELECT host_id FROM games WHERE id = 1")[0][0] == bob.id
    await world.click(bob, world.latest(), label="Add computer")
    await world.click(bob, world.latest(), label="Start")
    assert world.stored(1).status == "active"
