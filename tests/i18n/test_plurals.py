"""Every count agrees with its noun, in both languages ("1 knight", "2 Ritter", never "1 knights").

Every catalogue message that puts a number before a countable noun must be a plural message
(`msgid_plural`; the form is chosen by `count`, or by the message's only whole-number
parameter). Each such message is rendered at 0, 1, 2 and 5, and the noun after the number is
checked against the word's singular and plural forms.
"""
from __future__ import annotations

import re

import pytest

from games.core import Msg
from i18n import LANGUAGES, domains, entries, fields, plural_selector, translate

# Countable nouns as our catalogues use them: singular -> plural (the same word when German
# does not change it). German datives ("mit 5 Punkten") count as plurals.
NOUNS = {
    "en": {"point": "points", "knight": "knights", "card": "cards", "cube": "cubes", "tile": "tiles",
           "ducat": "ducats", "castle": "castles", "monk": "monks", "move": "moves", "player": "players",
           "round": "rounds", "document": "documents", "follower": "followers", "wall": "walls",
           "tower": "towers", "coin": "coins", "estate": "estates", "die": "dice", "roll": "rolls",
           "tournament": "tournaments", "warrior": "warriors", "piper": "pipers", "turn": "turns",
           "game": "games", "square": "squares", "space": "spaces", "hour": "hours", "day": "days",
           "minute": "minutes", "seat": "seats", "win": "wins", "village": "villages", "town": "towns",
           "stack": "stacks", "attempt": "attempts", "time": "times", "action": "actions", "farmer": "farmers"},
    "de": {"punkt": ("punkte", "punkten"), "karte": ("karten",), "dukat": ("dukaten",), "burg": ("burgen",),
           "mönch": ("mönche", "mönchen"), "zug": ("züge", "zügen"), "runde": ("runden",),
           "urkunde": ("urkunden",), "mauer": ("mauern",), "turm": ("türme", "türmen"), "münze": ("münzen",),
           "landgut": ("landgüter", "landgütern"), "turnier": ("turniere", "turnieren"),
           "krieger": ("krieger", "kriegern"), "feld": ("felder", "feldern"),
           "stunde": ("stunden",), "tag": ("tage", "tagen"), "minute": ("minuten",), "platz": ("plätze", "plätzen"),
           "sieg": ("siege", "siegen"), "dorf": ("dörfer", "dörfern"), "stadt": ("städte", "städten"),
           "stapel": ("stapel", "stapeln"), "versuch": ("versuche", "versuchen"), "mal": ("mal",),
           "aktion": ("aktionen",), "gefolgsmann": ("gefolgsleute", "gefolgsleuten"), "wurf": ("würfe", "würfen")},
}


def singular_and_plurals(lang: str, word: str) -> tuple[str, tuple[str, ...]] | None:
    word = word.lower()
    for singular, plurals in NOUNS[lang].items():
        plurals = (plurals,) if isinstance(plurals, str) else plurals
        if word == singular or word in plurals:
            return singular, plurals
    return None


# Parameters that hold names or words, not numbers ("{player} wins", "{players} players" for "2–6").
NOT_NUMBERS = {"player", "players", "winner", "winners", "first", "second", "victim", "who", "opener",
               "second_name", "document", "names", "name", "host", "game", "range", "colour", "face", "keep",
               "bag", "value",
               # an average with a decimal point ("12.5 points") is plural whatever its value
               "average"}

NUMBER_NOUN = re.compile(r"\{(\w+)\}\s+([A-Za-zÄÖÜäöüß]+)")


def counted(lang: str):
    """(message id, number parameter) for every message that puts a number before a noun."""
    for domain in domains():
        for message_id, text in entries(lang, domain).items():
            for form in (text if isinstance(text, tuple) else (text,)):
                for match in NUMBER_NOUN.finditer(form):
                    if match.group(1) not in NOT_NUMBERS and singular_and_plurals(lang, match.group(2)):
                        yield message_id, match.group(1)


CASES = sorted({(lang, message_id, param) for lang in LANGUAGES for message_id, param in counted(lang)})


@pytest.mark.parametrize("lang,message_id,param", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_a_number_before_a_noun_agrees_with_it(lang, message_id, param):
    domain = message_id.split(".", 1)[0]
    text = entries(lang, domain)[message_id]
    assert isinstance(text, tuple), f"{message_id} puts {{{param}}} before a noun but has no plural forms"
    names = set().union(*(fields(form) for form in text))
    selector = plural_selector(lang, message_id)
    assert selector == param or param == "count", (
        f"{message_id}: the form follows {{{selector}}}, but {{{param}}} stands before a noun too: "
        "give that count a message of its own")
    for number in (0, 1, 2, 5):
        params = {name: "X" for name in names}
        params[selector] = number
        if param != selector:
            params[param] = number
        said = translate(Msg(message_id, params), lang, strict=True)
        for match in re.finditer(rf"\b{number}\s+([A-Za-zÄÖÜäöüß]+)", said):
            forms = singular_and_plurals(lang, match.group(1))
            if forms is None:
                continue
            singular, plurals = forms
            word = match.group(1).lower()
            if number == 1:
                assert word == singular or (word in plurals and singular in plurals), f"{message_id}: {said!r}"
            else:
                assert word in plurals, f"{message_id}: {said!r}"
