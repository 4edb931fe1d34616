"""A player's name as the owner of something ("Bobs Ritter", "Hans' Ritter", "Bob's knight") is
formed in one place (`i18n.possessive`, asked for by a catalogue text as ``{owner:poss}``): German
writes an apostrophe alone after s, ß, x, z, tz and ce, never "Hanss" or "Maxs"."""
from __future__ import annotations

import re

import pytest

from games.core import SeatRef, msg
from i18n import LANGUAGES, domains, entries, possessive, translate

S_SOUND_NAMES = ["Hans", "Klaus", "Strauß", "Max", "Felix", "Heinz", "Fritz", "Moritz", "Alice", "Maurice",
                 "JONAS"]
OTHER_NAMES = ["Bob", "Anna", "Carol", "Kunibert", "R2D2", "Bartholo…"]


@pytest.mark.parametrize("name", S_SOUND_NAMES)
def test_a_german_name_ending_in_an_s_sound_takes_an_apostrophe_alone(name):
    assert possessive(name, "de") == f"{name}'"
    assert possessive(f"**{name}**", "de") == f"**{name}**'"


@pytest.mark.parametrize("name", OTHER_NAMES)
def test_any_other_german_name_takes_an_s(name):
    assert possessive(name, "de") == f"{name}s"
    assert possessive(f"**{name}**", "de") == f"**{name}**s"


@pytest.mark.parametrize("name", S_SOUND_NAMES + OTHER_NAMES)
def test_an_english_name_takes_apostrophe_s_once(name):
    assert possessive(name, "en") == f"{name}'s"


def test_the_catalogues_say_whose_a_card_is_with_the_one_form():
    names = ["Hans", "Max", "Bob"]
    attack = msg("knatsch.event.attack", player=SeatRef(2), owner=SeatRef(0), card=msg("knatsch.castle.red"))
    assert translate(attack, "de", names, strict=True).startswith("Bob greift Hans' ")
    assert translate(attack, "en", names, strict=True).startswith("Bob attacks Hans's ")
    veto = msg("gluecksritter.event.vetoed", player=SeatRef(1), victim=SeatRef(2),
               document=msg("gluecksritter.doc.permit"))
    german = translate(veto, "de", names, strict=True)
    assert german.startswith("Max' Veto hebt Bobs ") and "Maxs" not in german, german
    assert translate(veto, "en", names, strict=True).startswith("Max's Veto cancels Bob's ")


def test_a_bold_name_in_the_turn_message_keeps_its_apostrophe_outside_the_bold():
    from bot.presenter import bold_names

    took = msg("knatsch.event.take_owned", player=SeatRef(0), owner=SeatRef(1), card=msg("knatsch.castle.red"))
    assert translate(took, "de", bold_names(["Anna", "Fritz"]), strict=True).startswith(
        "**Anna** erbeutet **Fritz**' ")


PERSONS = r"\{(player|victim|owner|leader|attacker|winner|name)\}"
BY_HAND = {"de": re.compile(PERSONS + r"s\b"), "en": re.compile(PERSONS + r"['’]s?\b")}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_catalogue_forms_a_possessive_by_hand(lang):
    by_hand = []
    for domain in domains():
        for message_id, text in entries(lang, domain).items():
            for form in text if isinstance(text, tuple) else (text,):
                if BY_HAND[lang].search(form):
                    by_hand.append((message_id, form))
    assert not by_hand, by_hand


def test_a_raid_is_named_by_whose_it_is():
    raid = msg("macrobber.status.combat", attacker=SeatRef(0), defender=SeatRef(1), round=3, player=SeatRef(1))
    assert translate(raid, "de", ["Klaus", "Bob"], strict=True) == \
        "Klaus' Überfall auf Bob, Runde 3: Bob spielt eine Karte."
    assert translate(raid, "en", ["Klaus", "Bob"], strict=True) == "Klaus's raid on Bob, round 3: Bob plays a card."
