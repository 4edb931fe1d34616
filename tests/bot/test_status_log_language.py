"""/game status and /game log answer each user in their own language, game words included."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from tests.bot.conftest import SEED
from tests.bot.harness import bot_factory, start_table, take_turn, to_act
from tests.bot.test_records import text_of


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games=dict(REGISTRY), seed=SEED, render=renderer)


async def test_status_and_log_answer_each_user_in_their_language(world, client_languages):
    alice, dora = world.player("alice"), world.player("dora")
    client_languages[dora.id] = "de"
    await start_table(world, alice, dora, game="knatsch")  # an English server: an English table
    rng = random.Random(3)
    for _ in range(3):
        await take_turn(world, to_act(world, [alice, dora])[0], rng)

    german_status = text_of(await world.slash(dora, "game status"))
    english_status = text_of(await world.slash(alice, "game status"))
    assert "Partie #1, bisher" in german_status and "Plätze:" in german_status and "am Zug" in german_status
    assert "game #1," in english_status and "Seats:" in english_status and "to act" in english_status
    german_log = text_of(await world.slash(dora, "game log"))
    english_log = text_of(await world.slash(alice, "game log"))
    assert german_log.startswith("**Letzte Züge — ") and english_log.startswith("**Recent moves — ")
    assert "wählt" in german_log and "picks" in english_log
    for text in (german_status, english_status, german_log, english_log):
        assert "{" not in text and "knatsch." not in text and "bot." not in text


async def test_refusals_speak_the_users_language(world, client_languages):
    alice, dora = world.player("alice"), world.player("dora")
    client_languages[dora.id] = "de"
    assert "In diesem Kanal gibt es keine Partie" in text_of(await world.slash(dora, "game status"))
    assert "There is no game in this channel" in text_of(await world.slash(alice, "game status"))
    await world.slash(alice, "game new", game="knatsch")
    lobby = world.latest()
    await world.click(dora, lobby, label="Join")
    assert "Du sitzt schon an diesem Tisch" in text_of(await world.click(dora, lobby, label="Join"))
    assert "Nur wer den Tisch eröffnet hat" in text_of(await world.click(dora, lobby, label="Start"))
    await world.click(alice, lobby, label="Start")
    state = REGISTRY["knatsch"].from_dict(world.stored_state(1))
    waiting = alice if world.seats(1)[alice.id] in REGISTRY["knatsch"].to_act(state) else dora
    idle = dora if waiting is alice else alice
    refused = text_of(await world.slash(idle, "move", action="roll"))
    assert ("Du bist nicht am Zug" if idle is dora else "It is not your turn") in refused

