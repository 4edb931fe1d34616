"""A Knatsch roll in the account ("Anna: 3 6 1 5 4 2 +1, 5 → 2× 5s + 4") is one line of a 390 px
phone in both languages, at its longest: every result six dice and up to two die cards can make
(without die cards the longest count words, "three", "fünf", with an extra die; with them the
largest counts, "7× 5s + 4"), a name of six characters, no die card, one and two (both plural
forms)."""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import pytest

from bot.presenter import phone_lines
from bot.turns import ACCOUNT_MARK
from games.core import SeatRef, msg
from games.knatsch.cards import CARDS
from games.knatsch.dice import dice_text, evaluate, result_msg
from i18n import translate

NAME = "**Alicia**"  # six characters, bold as the account names players
DIE_CARD_VALUES = range(1, 6)  # a player holds die cards of different values only
MOST_DIE_CARDS = 2


def roll_line(dice, die_cards) -> object:
    """The event a roll makes, with the parameters the engine gives it (`KnatschGame._after_roll`)."""
    common = dict(player=SeatRef(0), dice=dice_text(dice), used=3, allowed=4,
                  result=result_msg(evaluate(dice, die_cards)))
    if die_cards:
        return msg("knatsch.event.rolled_cards", cards=", ".join(map(str, die_cards)), count=len(die_cards), **common)
    return msg("knatsch.event.rolled", **common)


def every_roll():
    """One roll per (die cards, result): every result the dice can make with those die cards."""
    for count in range(MOST_DIE_CARDS + 1):
        for die_cards in combinations(DIE_CARD_VALUES, count):
            seen = set()
            for dice in combinations_with_replacement(range(1, 7), 6):
                result = evaluate(dice, die_cards)
                if result not in seen:
                    seen.add(result)
                    yield list(dice), list(die_cards)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_roll_in_the_account_is_one_line_of_a_phone(lang):
    lines = [translate(roll_line(dice, cards), lang, [NAME]) for dice, cards in every_roll()]
    too_long = [line for line in lines if phone_lines(ACCOUNT_MARK + line) != 1]
    assert not too_long, too_long[:5]
    longest = max(lines, key=len)
    assert len(longest.replace("**", "")) >= 36, longest  # the longest forms were among them
    # both plural forms of the die cards, the longest count words and the largest counts were among them
    said = " ".join(lines)
    for words in {"en": ("+1 →", "+1, 2 →", "→ three 5s + 4", "+4, 5 → 7× 5s + 4"),
                  "de": ("+1 →", "+1, 2 →", "→ fünf 5er + 4", "+4, 5 → 7× 5er + 4")}[lang]:
        assert words in said, words


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_account_line_names_the_dice_the_die_cards_and_the_result(lang):
    line = translate(roll_line([3, 6, 1, 5, 4, 2], [1, 5]), lang, ["Anna"])
    assert line == {"en": "Anna: 3 6 1 5 4 2 +1, 5 → 2× 5s + 4",
                    "de": "Anna: 3 6 1 5 4 2 +1, 5 → 2× 5er + 4"}[lang]
    assert translate(roll_line([3, 6, 1, 5, 4, 2], []), lang, ["Anna"]).endswith(
        {"en": "3 6 1 5 4 2 → one 5 + 4", "de": "3 6 1 5 4 2 → ein 5er + 4"}[lang])


def test_the_lines_here_are_the_ones_the_engine_writes():
    """The engine's own roll event (Anna holds die cards 1 and 5) reads as `roll_line` builds it."""
    from tests.games.test_knatsch_rules import ANNA, engine, play, table

    die_cards = [cid for cid, card in CARDS.items() if card.ability == "die" and card.value in (1, 5)]
    state = table(3, [["C01", *die_cards], ["C04"], ["C07"]], stack1=["C05"])
    _, texts = play(engine(3, 6, 1, 5, 4, 2), state, (ANNA, "target C05"))
    assert texts[-1] == translate(roll_line([3, 6, 1, 5, 4, 2], [1, 5]), "en", ["Anna"])
