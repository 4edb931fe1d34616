"""Every Knatsch card, as data, in one place.

Sources: counts and the king's and Betrayal's combinations come from the rules (the king and
Betrayal from the Dutch text); the rest is marked "chosen": the rule text lost its card
pictures, so the arms names, which combination each castle shows and the special cards'
combinations are this project's choice (see docs/decisions.md). They are plain
values: change them here and nothing else needs to change.

Ids are stable and short, for action texts: castles C01..C16, tournaments T1..T9, specials
S01..S23. The 5 blank cards and the 3 goal cards are not in play and have no ids.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import Msg, msg


@dataclass(frozen=True)
class Combination:
    """Dice to beat: `count` dice showing `value` (the red dice) plus a yellow `extra` die."""

    count: int
    value: int
    extra: int

    @property
    def key(self) -> tuple[int, int, int]:
        """Compared lexicographically with a roll result (count, value, extra)."""
        return (self.count, self.value, self.extra)

    @property
    def text(self) -> str:
        return "-".join([str(self.value)] * self.count) + f"+{self.extra}"


@dataclass(frozen=True)
class Card:
    id: str
    kind: str  # "castle" | "special" | "tournament"
    name: str
    combination: Combination | None  # tournaments have none
    arms: str | None = None  # castles only
    ability: str | None = None  # specials only, one of ABILITIES
    value: int | None = None  # die cards only: the extra die they add

    @property
    def dice_to_beat(self) -> Combination:
        """The combination a roll for this card must beat (castles and specials show one)."""
        if self.combination is None:
            raise ValueError(f"card {self.id} is a tournament: it shows no dice to beat")
        return self.combination

    @property
    def die_value(self) -> int:
        """The extra die a die card adds."""
        if self.value is None:
            raise ValueError(f"card {self.id} is not a die card")
        return self.value

    @property
    def label(self) -> str:
        """A short name with the combination, e.g. "Blue castle (4-4-4+2)"."""
        if self.combination is None:
            return self.name
        return f"{self.name} ({self.combination.text})"


CASTLE = "castle"
SPECIAL = "special"
TOURNAMENT = "tournament"

# From the rules.
KING = Combination(4, 5, 1)
BETRAYAL_COMBINATION = Combination(3, 2, 4)

ARMS = ("red", "blue", "green", "yellow", "purple", "black")  # chosen names

# Castles by arms as (red value, yellow value): chosen, four of them from public examples.
CASTLE_COMBINATIONS: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((3, 1), (4, 1), (5, 1)),
    "blue": ((3, 2), (4, 2), (5, 2)),
    "green": ((2, 4), (4, 5), (3, 5)),
    "yellow": ((2, 3), (3, 4), (4, 3)),
    "purple": ((2, 5), (5, 3)),
    "black": ((1, 5), (5, 4)),
}

DIE = "die"
CATAPULT = "catapult"
CHAMPION = "champion"
STACK = "stack"
CASTLE_GUARD = "castle_guard"
SPECIAL_GUARD = "special_guard"
BETRAYAL = "betrayal"
PROTECTION = "protection"

ABILITY_NAMES = {
    DIE: "Die card",
    CATAPULT: "Catapult",
    CHAMPION: "Tournament Champion",
    STACK: "Stack",
    CASTLE_GUARD: "Castle guard",
    SPECIAL_GUARD: "Special-card guard",
    BETRAYAL: "Betrayal",
    PROTECTION: "Protection",
}
ABILITIES = tuple(ABILITY_NAMES)

# Die cards as (die value, (red, yellow)): counts from the rules, combinations chosen.
DIE_CARDS = ((1, (2, 3)), (2, (2, 5)), (3, (3, 2)), (4, (3, 4)),
             (5, (4, 2)), (2, (2, 4)), (3, (3, 3)), (4, (4, 1)))

# Other specials as (ability, ((red, yellow), ...)): counts from the rules, combinations chosen.
OTHER_SPECIALS = (
    (CATAPULT, ((4, 2), (3, 4), (2, 5))),
    (CHAMPION, ((5, 1),)),
    (STACK, ((3, 3), (2, 2), (4, 4))),
    (CASTLE_GUARD, ((4, 4), (3, 5), (5, 2))),
    (SPECIAL_GUARD, ((3, 5), (2, 3), (4, 3))),
    (BETRAYAL, ((2, 4),)),
    (PROTECTION, ((4, 5),)),
)

TOURNAMENT_COUNT = 9


def _build() -> dict[str, Card]:
    cards: list[Card] = []
    for arms in ARMS:
        for red, yellow in CASTLE_COMBINATIONS[arms]:
            cards.append(Card(f"C{len(cards) + 1:02d}", CASTLE, f"{arms.capitalize()} castle",
                              Combination(3, red, yellow), arms=arms))
    for number in range(1, TOURNAMENT_COUNT + 1):
        cards.append(Card(f"T{number}", TOURNAMENT, "Tournament", None))
    specials: list[Card] = []
    for value, (red, yellow) in DIE_CARDS:
        specials.append(Card(f"S{len(specials) + 1:02d}", SPECIAL, f"Die card {value}",
                             Combination(3, red, yellow), ability=DIE, value=value))
    for ability, combinations in OTHER_SPECIALS:
        for red, yellow in combinations:
            specials.append(Card(f"S{len(specials) + 1:02d}", SPECIAL, ABILITY_NAMES[ability],
                                 Combination(3, red, yellow), ability=ability))
    return {card.id: card for card in cards + specials}


CARDS: dict[str, Card] = _build()
CARD_ORDER = {card_id: index for index, card_id in enumerate(CARDS)}

assert sum(c.kind == CASTLE for c in CARDS.values()) == 16
assert sum(c.kind == TOURNAMENT for c in CARDS.values()) == 9
assert sum(c.kind == SPECIAL for c in CARDS.values()) == 23


def likeness(card: Card) -> tuple[str, object] | None:
    """Cards with the same likeness may not be owned twice ("no double cards").

    Castles are alike by arms, die cards by value, other specials by ability; tournaments are
    never alike (a player may win any number of them)."""
    if card.kind == CASTLE:
        return (CASTLE, card.arms)
    if card.kind == SPECIAL:
        return (DIE, card.value) if card.ability == DIE else (SPECIAL, card.ability)
    return None


def card_name(card: Card) -> Msg:
    """The card's name as words: "Blue castle" / "Blaue Burg", "Die card 3" / "Kartenwürfel 3"."""
    if card.kind == CASTLE:
        return msg(f"knatsch.castle.{card.arms}")
    if card.kind == TOURNAMENT:
        return msg("knatsch.card.tournament")
    if card.ability == DIE:
        return msg("knatsch.card.die", value=card.value)
    return msg(f"knatsch.card.{card.ability}")


def card_label(card: Card) -> Msg:
    """The name with the dice to beat, in brackets so that a number in the name stands apart from
    the dice: "Blue castle (4-4-4+2)", "Die card 2 (2-2-2+5)"."""
    if card.combination is None:
        return card_name(card)
    return msg("knatsch.card.label", name=card_name(card), combination=card.combination.text)


def card_json(card: Card) -> dict[str, Any]:
    """The card as a view shows it, worked out once a card (a view holds every card in play, and
    a move asks for a dozen views): a dictionary of its own, whose words and dice it shares with
    the card's other views (views are read, never changed)."""
    kept = _CARD_JSON.get(card.id)
    if kept is None or (kept[0] is not card and kept[0] != card):
        kept = _CARD_JSON[card.id] = (card, _card_json(card))
    return dict(kept[1])


_CARD_JSON: dict[str, tuple[Card, dict[str, Any]]] = {}


def _card_json(card: Card) -> dict[str, Any]:
    combination = card.combination
    return {
        "id": card.id,
        "kind": card.kind,
        "name": card_name(card).to_json(),
        "label": card_label(card).to_json(),
        "combination": None if combination is None else {
            "count": combination.count, "red": combination.value,
            "yellow": combination.extra, "text": combination.text,
        },
        "arms": card.arms,
        "ability": card.ability,
        "value": card.value,
    }
