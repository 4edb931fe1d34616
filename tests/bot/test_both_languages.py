"""Every game through the bot at a German table and at an English one: the opening moves of a
three-player game, read as the players read them (channel posts, DMs, buttons and menus), in
the table's language, with no placeholder, message id or action code; and a German player at
an English table gets German DMs."""
from __future__ import annotations

import random
import re

import pytest

from games import REGISTRY
from tests.bot.conftest import SEED
from tests.bot.harness import (
    SketchRenderer,
    bot_factory,
    buttons,
    components,
    seat_order,
    selects,
    take_turn,
    to_act,
)

MOVES = 30
# A word of each game's own that its channel posts use early on, per language.
GAME_WORDS = {
    "knatsch": {"de": "würfel", "en": "rolls"},
    "raubritter": {"de": "legt", "en": "lays"},
    "macrobber": {"de": "zieht", "en": "draws"},
    "gluecksritter": {"de": "hat gewählt", "en": "has chosen"},
    "carcassonne": {"de": "legt", "en": "places"},
}
# The bot's own words: the lobby's start; a call to several to act, or to one whom the status does
# not name (a call to one it names says the status), with the buttons or in their DMs.
TABLE_WORDS = {"de": ("Das Spiel hat begonnen", "du bist dran", "ihr seid dran", "in deiner DM", "in euren DMs"),
               "en": ("The game has started", "your move", "in your DM")}
PLACEHOLDER = re.compile(r"\{s\d\}|\{[a-z_]+\}")


@pytest.fixture
def renderer():
    return SketchRenderer()


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games=dict(REGISTRY), seed=SEED, render=renderer)


def readable(message) -> list[str]:
    """Everything a player reads on a message: its text, buttons, menus and their options."""
    texts = [message.content or ""]
    texts += [b.get("label") or "" for b in buttons(message)]
    for menu in selects(message):
        texts.append(menu.get("placeholder") or "")
        texts += [option["label"] for option in menu["options"]]
    return texts


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("name", sorted(REGISTRY))
async def test_the_opening_of_every_game_reads_in_the_tables_language(world, name, lang):
    people = [world.player(person) for person in ("anna", "bernd", "clara")]
    await world.slash(people[0], "game new", game=name, language=lang)
    lobby = world.latest()
    join, start = ("Mitspielen", "Starten") if lang == "de" else ("Join", "Start")
    for person in people[1:]:
        await world.click(person, lobby, label=join)
    await world.click(people[0], lobby, label=start)
    players = seat_order(world, 1, people)
    rng = random.Random(7)
    for _ in range(MOVES):
        if world.stored(1).status != "active":
            break
        await take_turn(world, to_act(world, players)[0], rng)

    channel = [text for message in world.bot_messages() for text in readable(message)]
    private = [text for person in people for message in world.dms(person) for text in readable(message)]
    said = "\n".join(channel)
    assert any(words in said for words in TABLE_WORDS[lang]) and GAME_WORDS[name][lang] in said
    other = "en" if lang == "de" else "de"
    assert not any(words in said for words in TABLE_WORDS[other])
    ids = re.compile(rf"\b(bot|{name})\.[a-z_]+\.")
    for text in channel + private:
        assert not PLACEHOLDER.search(text) and not ids.search(text), text
        assert not re.search(r"\brk:", text), text


async def test_a_german_player_at_an_english_table_gets_german_dms(world, client_languages):
    anna, dora = world.player("anna"), world.player("dora")
    client_languages[dora.id] = "de"
    await world.slash(anna, "game new", game="raubritter", language="en")
    await world.click(dora, world.latest(), label="Join")  # her click tells the bot her language
    await world.click(anna, world.latest(), label="Start")
    german = "\n".join(text for message in world.dms(dora) for text in readable(message))
    english = "\n".join(text for message in world.dms(anna) for text in readable(message))
    assert "Burg" in german and "behalten" in german.lower()
    assert "castle" in english.lower() and "Burg" not in english
    board = world.latest_board().content  # the channel stays English: the call to keep tiles says the status
    assert "keeps their castle" in board and "Burg" not in board
    assert components(world.dms(dora)[-1])
