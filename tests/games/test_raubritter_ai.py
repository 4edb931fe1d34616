"""The Raub Ritter computer player: towns, blocking, and it beats random play."""
from __future__ import annotations

import random

import pytest

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


def test_remembered_knights_moves_are_the_ones_worked_out_afresh():
    """best_knights remembers its answers by the tiles in line with the castle: over whole games,
    every castle on the board in every seat's eyes gets the answer worked out from scratch."""
    from games.raubritter import ai
    from games.raubritter.board import building_of

    checked = 0
    for seed in (1, 2):
        state = GAME.new_game(3, seed=seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
            for square, laid in state.board.items():
                if building_of(laid.face) == "castle":
                    for me in range(state.seats):
                        for knights in (1, 3, 30):
                            assert ai.best_knights(state.board, square, me, state.seats, knights) == \
                                ai._best_knights(state.board, square, me, state.seats, min(5, knights))
                            checked += 1
    assert checked > 500


def test_the_best_knights_move_is_the_best_of_every_legal_one():
    """The best knights move is worked out tile by tile (the value is a sum over the tiles): it is
    the best of every legal knights move (board.knight_moves) valued in full, or 0 when none
    gains, for every castle of whole games, every seat's eyes and every number of knights."""
    import math

    from games.raubritter import ai
    from games.raubritter.board import building_of, knight_moves

    checked = 0
    for seed, seats in ((3, 2), (4, 3), (5, 4)):
        state = GAME.new_game(seats, seed=seed)
        rng = random.Random(seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
            for square, laid in state.board.items():
                if building_of(laid.face) != "castle":
                    continue
                for me in range(seats):
                    for knights in range(1, 6):
                        every = [ai.knights_value(state.board, square, direction, list(counts), me, seats)
                                 for number in range(1, knights + 1)
                                 for direction, counts in knight_moves(state.board, square, number)]
                        assert math.isclose(ai._best_knights(state.board, square, me, seats, knights),
                                            max([0.0] + every), abs_tol=1e-9)
                        checked += 1
    assert checked > 2000


def test_the_strong_player_weighs_the_moves_the_normal_player_values_most():
    state = GAME.new_game(3, seed=4)
    rng = random.Random(4)
    while state.phase != "lay" or state.lays_this_turn:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    seat = min(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    order = GAME.search_order(state, seat, legal)
    assert sorted(order, key=repr) == sorted(legal, key=repr)
    from games.raubritter.ai import _lay_values

    values = _lay_values(state, seat, legal)
    assert [values[action] for action in order] == sorted(values.values(), reverse=True)
    assert GAME.suggest(state, seat, random.Random(1)) in order[:sum(v == values[order[0]] for v in values.values())]


def test_the_strong_player_takes_longer_only_over_the_first_lay_of_a_turn():
    from games.search import TURN_DECISION

    state = GAME.new_game(3, seed=5)
    rng = random.Random(5)
    seen = {}
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        seen.setdefault((state.phase, state.phase == "lay" and state.lays_this_turn == 0), set()).add(
            GAME.search_time(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    assert seen[("lay", True)] == {TURN_DECISION}
    assert all(times == {1.0} for key, times in seen.items() if key != ("lay", True))
    assert len(seen) >= 3


def test_a_top_counts_in_full_only_where_no_castle_in_line_can_bring_knights_onto_it():
    from games.raubritter.ai import can_be_covered
    from games.raubritter.board import Bounds, Laid

    everywhere = Bounds(0, 11, 0, 11, False, False)
    town = Laid("APt", 0, (0,))
    lake = Laid("BL", 1)
    mountain = Laid("AM", 1)

    def covered(board, square=(5, 5), allowed=everywhere):
        return can_be_covered(board, square, board[square], allowed)

    assert covered({(5, 5): town})  # a castle beside it brings two knights
    walled = {(5, 5): town, (4, 5): lake, (6, 5): lake, (5, 4): lake, (5, 6): lake}
    assert not covered(walled)  # no stack crosses a lake
    # Behind one mountain there is still room: 1 for the castle, 3 for the mountain, 1 for the town.
    assert covered({**walled, (6, 5): mountain})
    # Behind two, six knights would be needed: more than a castle brings.
    assert not covered({**walled, (6, 5): mountain, (7, 5): mountain})
    # An empty square outside the area the display may still grow into holds no castle.
    assert not covered({**walled, (6, 5): mountain}, allowed=Bounds(0, 6, 0, 11, False, False))
    assert not covered({(5, 5): town._replace(stack=(0, 0, 0, 0))})  # closed: four on a plain


def test_the_strong_players_standing_counts_closed_tops_in_full_and_knights_at_hand():
    from games.raubritter.ai import KNIGHT_AT_HAND, THREATENED, standing_scores

    closed = build(2, {"F6": (0, "Pt", [0, 0, 0, 0]), "G6": (1, "P", [])})
    values = standing_scores(closed)
    assert values[0] - values[1] == 3 + KNIGHT_AT_HAND * (closed.knights_left[0] - closed.knights_left[1])
    # The same town with one knight, open to a castle laid beside it early in the game.
    open_town = build(2, {"F6": (0, "Pt", [0]), "G6": (1, "P", [])})
    values = standing_scores(open_town)
    assert values[0] - values[1] == pytest.approx(
        3 * THREATENED + KNIGHT_AT_HAND * (open_town.knights_left[0] - open_town.knights_left[1]))
