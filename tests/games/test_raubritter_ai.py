"""The Raub Ritter computer player: towns, blocking, and it beats random play."""
from __future__ import annotations

import random

from games.core import Action
from games.raubritter import GAME
from games.raubritter.ai import suggest
from tests.games.test_raubritter_rules import act, build, stack


def test_its_knights_go_for_the_town_rather_than_stay_home():
    state = build(2, {"F6": (1, "P", []), "G6": (1, "Pt", [])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    choice = suggest(GAME, state, 0, random.Random(1))
    assert choice.verb == "knights" and choice.args[0] == "E"
    after, _ = act(state, 0, choice.encode())
    assert stack(after, "G6")[-1] == 0


def test_it_takes_a_town_from_a_rival_and_shuts_it():
    # Bob's knight tops the town; Anna can cover it, and with enough knights close it.
    state = build(2, {"F6": (1, "Pt", [1])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    choice = suggest(GAME, state, 0, random.Random(1))
    after, _ = act(state, 0, choice.encode())
    assert stack(after, "F6")[-1] == 0
    assert len(stack(after, "F6")) == 4  # closed: nobody can come onto it any more


def test_it_lays_its_castle_where_the_knights_reach_a_town():
    state = build(2, {"E6": (1, "P", []), "F6": (1, "Pt", []), "E7": (1, "P", []), "F7": (1, "M", [])},
                  hands={0: ["Pc", "L"]})
    choice = suggest(GAME, state, 0, random.Random(2))
    assert choice.verb == "lay" and choice.args[0] == "Pc"
    after, _ = act(state, 0, choice.encode())
    knights, _ = act(after, 0, suggest(GAME, after, 0, random.Random(2)).encode())
    assert stack(knights, "F6") and stack(knights, "F6")[-1] == 0


def test_the_computer_beats_random_players_clearly():
    wins = 0.0
    games = 24
    for seed in range(games):
        rng = random.Random(seed)
        me = seed % 3
        state = GAME.new_game(3, seed=seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = GAME.suggest(state, seat, rng) if seat == me else rng.choice(GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        winners = GAME.outcome(state).winners
        wins += (me in winners) / len(winners)
    assert wins / games > 0.6  # random play wins about a third
