"""The strong player's search (games.search) on a small made-up game whose moves' worth is known."""
from __future__ import annotations

import random

from games import search
from games.core import Action, Features, Search
from tests.games.test_conformance import SteppingClock

WORTH = {"0": -50.0, "1": 0.0, "2": 4.0, "3": 0.5}


class PickOne:
    """Seat 0 picks a number once; its worth against seat 1 is WORTH plus a shared hidden luck."""

    features = Features(computer=True, scores=True, search=Search(playout_actions=1))

    def new(self):
        return {"picked": None, "luck": 0.0}

    def view(self, state, seat):
        return {"seats": 2}

    def legal_actions(self, state, seat):
        return [Action("pick", (n,)) for n in WORTH] if state["picked"] is None else [Action("wait")]

    def suggest(self, state, seat, rng):
        return Action("pick", ("1",)) if state["picked"] is None else Action("wait")

    def apply(self, state, seat, action):
        new = dict(state)
        if action.verb == "pick":
            new["picked"] = action.args[0]
        return new, []

    def outcome(self, state):
        return None

    def to_act(self, state):
        return {0}

    def hidden_variant(self, state, owner, rng):
        new = dict(state)
        if owner is None:
            new["luck"] = rng.uniform(-20, 20)
        return new

    def scores(self, state):
        return [WORTH[state["picked"]] + state["luck"], 0.0]


def Clock() -> SteppingClock:
    return SteppingClock(step=0.001)


def test_the_clearly_better_move_is_taken_though_the_normal_player_would_not():
    game = PickOne()
    weighed = search.weigh(game, game.new(), 0, random.Random(1), budget=0.5, clock=Clock())
    assert weighed[0].action == Action("pick", ("2",))


def test_a_clearly_worse_move_is_dropped_and_the_time_goes_to_the_others():
    game = PickOne()
    weighed = {item.action.args[0]: item for item in
               search.weigh(game, game.new(), 0, random.Random(1), budget=0.5, clock=Clock())}
    dropped = weighed["0"].playouts
    assert search.PRUNE_AFTER <= dropped < weighed["2"].playouts / 4
    assert weighed["1"].playouts == weighed["2"].playouts  # the normal choice is never dropped


def test_the_normal_choice_stands_against_moves_within_the_noise():
    game = PickOne()
    original = dict(WORTH)
    try:
        WORTH.update({"2": 0.0, "3": 0.0})  # no better move: the luck is the same for each
        weighed = search.weigh(game, game.new(), 0, random.Random(2), budget=0.5, clock=Clock())
        assert weighed[0].action == Action("pick", ("1",))
    finally:
        WORTH.update(original)


def test_a_turns_big_choice_gets_more_time_and_the_rest_the_plain_budget():
    game = PickOne()
    game.features = Features(computer=True, scores=True, search=Search(timing=True, playout_actions=1))
    game.search_time = lambda state: search.TURN_DECISION
    clock = Clock()
    search.weigh(game, game.new(), 0, random.Random(1), budget=0.1, clock=clock)
    assert search.TURN_DECISION * 0.1 <= clock.now <= search.TURN_DECISION * 0.1 + 0.01
    game.search_time = lambda state: 1.0
    clock = Clock()
    search.weigh(game, game.new(), 0, random.Random(1), budget=0.1, clock=clock)
    assert 0.1 <= clock.now <= 0.11
