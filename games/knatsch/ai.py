"""A computer player for Knatsch: sensible greedy play, clearly better than random.

It estimates, by simulating the dice (never by peeking at the real ones to come), how likely each
roll it could start is to succeed, and goes for the card it can most likely win, preferring
castles and its opponents' cards. While rolling it keeps the dice of its best group and rerolls
the rest, and stops as soon as it beats what it must beat.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Action
from games.knatsch.dice import SIX, beats, evaluate

SIMULATIONS = 120
CASTLE_WEIGHT = 1.5  # castles are what wins the game
STEAL_BONUS = 1.3    # a card taken from an opponent also sets them back


def keep_and_reroll(dice: list[int], die_cards: list[int]) -> list[int]:
    """0-based positions to reroll: every rolled die that is not of the best group and no six."""
    values = [d for d in dice if 1 <= d <= 5] + list(die_cards)
    if not values:
        return [i for i, d in enumerate(dice) if d != SIX]
    counts = Counter(values)
    _, best = max((count, value) for value, count in counts.items())
    return [i for i, d in enumerate(dice) if d not in (best, SIX)]


def success_chance(dice: list[int], rolls_left: int, die_cards: list[int], to_beat: Any,
                   rng: random.Random, simulations: int = SIMULATIONS) -> float:
    """How often the keep-the-best-group policy beats `to_beat` from here (0 = unrolled die)."""
    wins = 0
    for _ in range(simulations):
        current = [d if d else rng.randint(1, 6) for d in dice]
        left = rolls_left - (1 if not all(dice) else 0)
        while True:
            if beats(evaluate(current, die_cards), to_beat):
                wins += 1
                break
            reroll = keep_and_reroll(current, die_cards)
            if left <= 0 or not reroll:
                break
            for i in reroll:
                current[i] = rng.randint(1, 6)
            left -= 1
    return wins / simulations


def suggest(game: Any, state: Any, seat: int, rng: random.Random) -> Action:
    actions = game.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    by_verb: dict[str, list[Action]] = {}
    for action in actions:
        by_verb.setdefault(action.encode().split()[0], []).append(action)
    roll = state.roll
    if roll is not None and roll.roller == seat and ({"roll", "reroll", "stop"} & set(by_verb)):
        return _while_rolling(game, state, seat, by_verb, actions, rng)
    return _choose(game, state, seat, by_verb, actions, rng)


def _while_rolling(game, state, seat, by_verb, actions, rng) -> Action:
    roll = state.roll
    if "roll" in by_verb:
        return by_verb["roll"][0]
    die_cards = game._die_values(state, seat)
    if beats(evaluate(roll.dice, die_cards), roll.to_beat) and "stop" in by_verb:
        return by_verb["stop"][0]
    wanted = keep_and_reroll(roll.dice, die_cards)
    wanted_text = ",".join(str(i + 1) for i in wanted)
    for action in by_verb.get("reroll", []):
        if action.encode().split(" ", 1)[1] == wanted_text:
            return action
    # The exact set is not offered (a locked die): the offered set closest to it.
    if by_verb.get("reroll"):
        def overlap(action: Action) -> int:
            chosen = {int(i) - 1 for i in action.encode().split(" ", 1)[1].split(",")}
            return len(chosen & set(wanted)) * 2 - len(chosen - set(wanted))
        return max(by_verb["reroll"], key=overlap)
    return by_verb.get("stop", actions)[0]


def _value_of_roll(game, state, seat, action, rng) -> float:
    """Chance of success of the roll this action starts, times what winning it is worth."""
    try:
        after, _ = game.apply(state, seat, action)
    except Exception:  # noqa: BLE001 - an action we cannot judge is worth nothing to us
        return 0.0
    roll = after.roll
    if roll is None or roll.roller != seat:
        return 0.0
    chance = success_chance(list(roll.dice), roll.rolls_allowed - roll.rolls_used,
                            game._die_values(after, seat), roll.to_beat, rng)
    worth = 1.0
    target = roll.target or ""
    if target.startswith("C"):
        worth *= CASTLE_WEIGHT
    if roll.owner is not None and roll.owner != seat:
        worth *= STEAL_BONUS
    return chance * worth


def _choose(game, state, seat, by_verb, actions, rng) -> Action:
    candidates = by_verb.get("target", []) + by_verb.get("topple", [])
    if candidates:
        scored = [(_value_of_roll(game, state, seat, action, rng), i, action)
                  for i, action in enumerate(candidates)]
        best_value, _, best = max(scored, key=lambda item: (item[0], -item[1]))
        if best_value >= 0.25 or not (by_verb.get("under") or by_verb.get("end")):
            return best
    if by_verb.get("end"):
        return by_verb["end"][0]
    if by_verb.get("under"):
        return rng.choice(by_verb["under"])
    return rng.choice(actions)
