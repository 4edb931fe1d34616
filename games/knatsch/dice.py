"""Scoring a roll: the best group of equal dice, then the highest other die as the extra value.

A result is a tuple (count, value, extra) and results compare lexicographically, which is
exactly the rule: more of a kind wins, then the higher value, then (only on a tie) the higher
extra. A card's combination is (3, red, yellow); the king is (4, 5, 1). To capture, defend or
lead a tournament a result must be strictly greater: a full tie loses.
"""
from __future__ import annotations

from collections.abc import Iterable

from games.core import Msg, msg

Result = tuple[int, int, int]

NOTHING: Result = (0, 0, 0)
SIX = 6  # sixes are locked and worthless

COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
               8: "eight", 9: "nine", 10: "ten", 11: "eleven"}


def evaluate(dice: Iterable[int], die_cards: Iterable[int] = ()) -> Result:
    """The best result from rolled dice (0 = not rolled, 6 = worthless) and die card values.

    Die cards are extra dice: counting all of them is never worse, so they always count.
    Taking every copy of the best value is never worse either (a bigger group beats any extra).
    """
    values = [d for d in dice if 1 <= d <= 5]
    values.extend(die_cards)
    if not values:
        return NOTHING
    counts = [0] * 6
    for value in values:
        counts[value] += 1
    count, value = max((counts[v], v) for v in range(1, 6))
    extra = max((v for v in values if v != value), default=0)
    return (count, value, extra)


def beats(result: Result | list[int], target: Result | list[int] | None) -> bool:
    """True when `result` strictly beats `target`; anything beats no target at all."""
    return target is None or tuple(result) > tuple(target)


def result_text(result: Result | list[int]) -> str:
    """E.g. "three 5s + 2", "two 4s", "one 3 + 1", "nothing"."""
    count, value, extra = result
    if count == 0:
        return "nothing"
    group = f"{COUNT_WORDS.get(count, count)} {value}{'s' if count > 1 else ''}"
    return f"{group} + {extra}" if extra else group


def result_msg(result: Result | list[int]) -> Msg:
    """`result_text` as words for the catalogues: "three 5s + 2" / "drei 5er + 2"."""
    count, value, extra = result
    if count == 0:
        return msg("knatsch.result.nothing")
    group = msg("knatsch.result.group", count=count, value=value, word=msg(f"knatsch.count.{count}"))
    return msg("knatsch.result.extra", group=group, extra=extra) if extra else group


def dice_text(dice: Iterable[int]) -> str:
    return " ".join(str(d) if d else "-" for d in dice)
