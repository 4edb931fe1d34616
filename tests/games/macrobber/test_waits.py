"""Mac Robber decisions the bot may make without asking: publicly forced ones (a defender's last
card, with no piper to add) and the kinds of decisions outside one's own turn (defending a raid,
discards owed on another player's turn) that standing orders may cover."""
from __future__ import annotations

import random

from games.core import Action, Automatic, automatic_decision
from tests.games.macrobber.helpers import (
    GAME,
    check,
    fresh,
    labels,
    move,
    set_display,
    set_estates,
    set_hand,
    set_yard,
)

DEFENCE, DISCARD = "macrobber.reaction.defence", "macrobber.reaction.discard"


def raid(attacker_cards, defender_cards, defender_pipers=0):
    state = fresh(4)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    set_yard(state, 0, y=3, b=0)
    set_yard(state, 1, y=3, b=defender_pipers)
    set_hand(state, 0, attacker_cards)
    set_hand(state, 1, defender_cards)
    set_estates(state, 1, ["cattle", ""])
    check(state)
    return move(state, 0, "raid 1")[0]


def test_the_defenders_last_card_is_publicly_forced_but_two_cards_of_one_value_are_not():
    state = raid([4, 4, 1], [2, 2, 1])
    state, _ = move(state, 0, "play 4")
    assert GAME.publicly_forced(state, 1) is None and labels(state, 1) == ["play 1", "play 2"]
    state, _ = move(state, 1, "play 1")
    state, _ = move(state, 0, "play 4")
    # Two 2s: one move, but only the defender knows it (everyone sees two cards): still asked.
    assert labels(state, 1) == ["play 2"] and GAME.publicly_forced(state, 1) is None
    assert automatic_decision(GAME, state) is None
    state, _ = move(state, 1, "play 2")
    # The attacker's last card is forced too (no piper): the attacker's own turn.
    assert GAME.publicly_forced(state, 0) == Action("play", ("1",))
    assert GAME.reaction_kind(state, 0) is None
    state, _ = move(state, 0, "play 1")
    assert GAME.publicly_forced(state, 1) == Action("play", ("2",))
    assert automatic_decision(GAME, state) == Automatic(1, Action("play", ("2",)), None)
    # Whatever the last card is, everyone can tell it is the only move.
    rng = random.Random(1)
    for _ in range(5):
        variant = GAME.hidden_variant(state, 1, rng)
        assert GAME.publicly_forced(variant, 1) == GAME.legal_actions(variant, 1)[0]


def test_a_last_card_with_a_piper_to_add_is_a_choice():
    state = raid([4, 4, 1], [2, 3, 1], defender_pipers=1)
    for attacker, defender in (("play 4", "play 3"), ("play 4", "play 2 piper"), ("play 1", None)):
        state, _ = move(state, 0, attacker)
        if defender:
            state, _ = move(state, 1, defender)
    assert labels(state, 1) == ["play 1"] and GAME.publicly_forced(state, 1) == Action("play", ("1",))
    state = raid([4, 4, 1], [2, 3, 1], defender_pipers=2)
    for attacker, defender in (("play 4", "play 3"), ("play 4", "play 2 piper"), ("play 1", None)):
        state, _ = move(state, 0, attacker)
        if defender:
            state, _ = move(state, 1, defender)
    assert labels(state, 1) == ["play 1", "play 1 piper"] and GAME.publicly_forced(state, 1) is None


def test_defending_a_raid_and_the_defenders_discards_are_outside_ones_turn_the_attackers_are_not():
    state = raid([4, 4, 1], [2, 3, 1])
    assert GAME.reaction_kind(state, 0) is None  # the attacker's own turn
    state, _ = move(state, 0, "play 4")
    assert GAME.reaction_kind(state, 1) == DEFENCE
    assert automatic_decision(GAME, state, {1: {DEFENCE}}) == Automatic(1, None, DEFENCE)
    assert automatic_decision(GAME, state, {1: {DISCARD}}) is None
    assert automatic_decision(GAME, state, {0: {DEFENCE}}) is None
    state, _ = move(state, 1, "play 2")
    state, _ = move(state, 0, "play 4")
    state, _ = move(state, 1, "play 3")
    state, _ = move(state, 0, "play 1")
    state, _ = move(state, 1, "play 1")
    assert state.phase == "plunder" and GAME.reaction_kind(state, 0) is None
    state, _ = move(state, 0, "plunder cattle")
    # Both drew five and owe two; the engine has begun the next player's turn meanwhile.
    assert GAME.to_act(state) == {0, 1} and state.active == 1
    assert GAME.reaction_kind(state, 0) is None  # it closes the attacker's own turn
    assert GAME.reaction_kind(state, 1) == DISCARD  # the defender's, though the turn is theirs next
    assert GAME.reaction_kind(state, 2) is None


def test_a_bards_victim_discards_outside_their_turn():
    state = fresh(4)
    set_display(state, b=1, y=5)
    set_yard(state, 2, y=5, b=0, g=0)
    state, _ = move(state, 0, "bard 2")
    assert GAME.reaction_kind(state, 0) is None
    state, _ = move(state, 0, "take y -")
    assert GAME.to_act(state) == {2} and GAME.reaction_kind(state, 2) == DISCARD
    assert GAME.publicly_forced(state, 2) is None  # a card of five: the owner chooses
