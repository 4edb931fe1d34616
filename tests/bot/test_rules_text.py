"""`/game rules` through simcord: every game's summary and table options in the language of the
user who asks (their Discord client's), whole, with the game's own German words."""
from __future__ import annotations

import re

import pytest

from games import REGISTRY
from i18n import game_title, translate
from tests.bot.harness import bot_factory, reply

DISCORD_LIMIT = 2000

# Words each game's German catalogue already uses for its pieces; the German summary uses them too.
GERMAN_WORDS = {
    "knatsch": ["Burg", "Turnier", "Sonderkarte", "Wächter", "Kartenwürfel", "Verrat", "Schutz", "Katapult",
                "Stapel", "Rache des Königs"],
    "raubritter": ["Burg", "Dorf", "Stadt", "Ebene", "Wald", "Gebirge", "See", "Ritter", "Plättchen",
                   "Spielfläche zu dritt"],
    "macrobber": ["Landgut", "Vieh", "Krieger", "Dudelsackspieler", "Größten Gefolgschaft", "Überfall", "Beutel",
                  "Gleichstand am Ende"],
    "gluecksritter": ["Dukaten", "Urkunde", "Aktionskarten", "Bruder Jakob", "Schwarzer Ritter", "Kerker",
                      "Königssteuer", "Mauern", "Türme"],
    "carcassonne": ["Gefolgsleute", "Wegelagerer", "Kloster", "Wiese", "Räuber", "Zählleiste", "Kornkreis",
                    "Wer nach einer Räuberkarte"],
}
ENGLISH_WORDS = {
    "knatsch": ["castles, tournaments and special cards", "Catapult", "king's revenge"],
    "raubritter": ["village", "forest", "mountain", "Play area with three players"],
    "macrobber": ["estate", "cattle", "Biggest Following", "Ties at the end"],
    "gluecksritter": ["Ducats", "document", "Brother Jacob", "dungeon"],
    "carcassonne": ["followers", "cloister", "Crop circle", "who else may place a robber"],
}
# Commands the player types stay the same in every language.
MOVE_SYNTAX = {
    "knatsch": [],
    "raubritter": ["`lay Fv D5`", "`knights E 1,2,1`", "`end`", "`area=8x8`"],
    "macrobber": [],
    "gluecksritter": ["`play 2,5`", "`doc grant`", "`ransom`", "`offer 3`"],
    "carcassonne": [],
}
MESSAGE_ID = re.compile(r"\b(?:bot|core|knatsch|raubritter|macrobber|gluecksritter|carcassonne)\.[a-z_]+\.[a-z_.]+")


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games=dict(REGISTRY), seed=5, render=renderer)


def assert_whole_words(text: str) -> None:
    assert "{" not in text and "}" not in text, text
    assert not MESSAGE_ID.search(text), MESSAGE_ID.search(text)
    assert len(text) < DISCORD_LIMIT and not text.endswith("…"), len(text)  # never clipped


def test_the_words_lists_cover_every_game():
    assert set(GERMAN_WORDS) == set(ENGLISH_WORDS) == set(MOVE_SYNTAX) == set(REGISTRY)


@pytest.mark.parametrize("name", sorted(REGISTRY))
async def test_rules_in_german_for_a_german_user(world, client_languages, name):
    game = REGISTRY[name]
    dora = world.player("dora")
    client_languages[dora.id] = "de"
    text = reply(await world.slash(dora, "game rules", game=name)).content
    assert_whole_words(text)
    title, *rest = text.splitlines()
    assert title == f"**{translate(game_title(game), 'de')}** ({game.min_players}–{game.max_players} Spieler)"
    for word in [*GERMAN_WORDS[name], *MOVE_SYNTAX[name]]:
        assert word in text, word
    assert "Dein Zug" in text or "Jede Runde" in text
    for english in ENGLISH_WORDS[name]:
        assert english not in text, english
    if game.options:
        assert "**Optionen** für `/spiel neu optionen:`" in rest
        for option in game.options:
            line = next(line for line in rest if line.startswith(f"• `{option.name}` — "))
            assert line.endswith(f": {', '.join(option.choices)} (Standard {option.default})")
    else:
        assert "Optionen" not in text


@pytest.mark.parametrize("name", sorted(REGISTRY))
async def test_rules_in_english_for_an_english_user(world, client_languages, name):
    game = REGISTRY[name]
    alice = world.player("alice")
    client_languages[alice.id] = "en-GB"
    text = reply(await world.slash(alice, "game rules", game=name)).content
    assert_whole_words(text)
    assert text.splitlines()[0] == f"**{game.title}** ({game.min_players}–{game.max_players} players)"
    for word in [*ENGLISH_WORDS[name], *MOVE_SYNTAX[name]]:
        assert word in text, word
    assert "Dein Zug" not in text and "Spieler" not in text
    if game.options:
        assert "**Options** for `/game new options:`" in text
        for option in game.options:
            assert f"(default {option.default})" in text


async def test_rules_follow_the_asker_not_the_table(world, client_languages):
    """An ephemeral answer: the user's language, even at a table that speaks the other one."""
    alice, dora = world.player("alice"), world.player("dora")
    client_languages[dora.id] = "de"
    await world.slash(alice, "game new", game="knatsch", language="de")  # a German table
    english = reply(await world.slash(alice, "game rules")).content  # this channel's game
    german = reply(await world.slash(dora, "game rules")).content
    assert english.startswith("**Knatsch (Knights)** (2–6 players)") and "Rache des Königs" not in english
    assert german.startswith("**Knatsch** (2–6 Spieler)") and "Rache des Königs" in german


async def test_without_a_game_here_the_refusal_is_in_the_askers_language(world, client_languages):
    dora = world.player("dora")
    client_languages[dora.id] = "de"
    text = reply(await world.slash(dora, "game rules")).content
    assert "In diesem Kanal gibt es keine Partie" in text and "/spiel regeln spiel:" in text
