"""The computer players' Carcassonne knowledge: the normal player's plans, the order in which the
strong player weighs moves, and the worth it gives a position."""
from __future__ import annotations

import random

from games.carcassonne import GAME, ai
from games.core import Action
from tests.games.carcassonne.support import position


def _play(seed: int, *, forget_plans: bool) -> list[Action]:
    state = GAME.new_game(2, seed=seed)
    rng = random.Random(seed)
    chosen = []
    while GAME.outcome(state) is None and len(chosen) < 120:
        if forget_plans:
            ai._PLANS.clear()
        seat = min(GAME.to_act(state))
        action = GAME.suggest(state, seat, rng)
        chosen.append(action)
        state, _ = GAME.apply(state, seat, action)
    return chosen


def test_kept_plans_change_no_choice_of_the_normal_player():
    """Plans are kept between the sub-steps of a turn only to save time: every choice is the
    one the player makes when it works everything out again."""
    for seed in (2, 5):
        assert _play(seed, forget_plans=False) == _play(seed, forget_plans=True)


def test_a_plan_is_never_taken_for_another_board():
    state = GAME.new_game(2, seed=4)
    first = ai._plans(state, 0)
    seat = min(GAME.to_act(state))
    for _ in range(3):  # square, rotation, follower: the tile is on a new board
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(1)))
        seat = min(GAME.to_act(state))
    while state.phase != "place":
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(1)))
        seat = min(GAME.to_act(state))
    assert ai._plans(state, seat) is not first
    assert {plan[1][0] for plan in ai._plans(state, seat)} <= set(state.fits)


def test_the_strong_player_weighs_the_squares_the_normal_player_values_most():
    state = GAME.new_game(2, seed=6)
    seat = min(GAME.to_act(state))
    for _ in range(12):  # a few turns in, the tile fits many squares
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(2)))
        seat = min(GAME.to_act(state))
    while state.phase != "place":
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(2)))
        seat = min(GAME.to_act(state))
    legal = GAME.legal_actions(state, seat)
    order = GAME.search_order(state, seat, legal)
    assert sorted(order, key=repr) == sorted(legal, key=repr)
    normal = GAME.suggest(state, seat, random.Random(3))
    assert order[0] == normal
    # Each square in the order its best rotation is valued.
    best = {}
    for value, (square, _, _) in ai._plans(state, seat):
        best.setdefault(f"{square[0]},{square[1]}", value)
    values = [best[action.args[0]] for action in order if action.verb == "at"]
    assert values == sorted(values, reverse=True)


def test_in_the_follower_step_a_knight_in_the_city_the_tile_closes_comes_first():
    # A second city-and-road tile laid north of the first, turned south: its city closes the
    # start tile's, so a knight there scores 4 at once and comes straight home.
    state = position([("D", 0, 0, "N")], drawn="D", pile=["B"] * 40)
    state, _ = GAME.apply(state, 0, Action("at", ("0,-1",)))
    if state.phase == "rotate":
        state, _ = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0])
    assert state.phase == "follower"
    order = GAME.search_order(state, 0, GAME.legal_actions(state, 0))
    assert sorted(order, key=repr) == sorted(GAME.legal_actions(state, 0), key=repr)
    assert order[0] == Action("follower", ("city1",))
    assert order.index(Action("skip")) < order.index(Action("follower", ("field1",)))


def test_a_position_is_worth_more_than_its_final_score_while_tiles_remain():
    # Seat 0 holds an open city; seat 1 has nothing on the board.
    tiles = [("D", 0, 0, "N")]
    early = position(tiles, meeples=[(0, (0, 0), "city1")], pile=["B"] * 40)
    late = position(tiles, meeples=[(0, (0, 0), "city1")], pile=[])
    early_worth, late_worth = ai.standing_scores(early), ai.standing_scores(late)
    assert early_worth[0] > late_worth[0]  # the city may still close, the follower come home
    assert late_worth == [float(sum(kinds.values())) for kinds in GAME_final(late)]
    # Followers at home count while tiles remain: seat 1 has all seven, seat 0 six.
    assert early_worth[1] > 0


def GAME_final(state):
    from games.carcassonne.engine import final_scoring

    return final_scoring(state)


def test_the_strong_player_keeps_to_legal_moves_over_a_game_on_a_fake_clock():
    from tests.games.test_conformance import SteppingClock

    state = GAME.new_game(2, seed=8)
    rng = random.Random(8)
    for _ in range(40):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        action = GAME.suggest(state, seat, rng, strength="strong", clock=SteppingClock(step=0.01))
        assert action in GAME.legal_actions(state, seat)
        assert action.verb != "back"
        state, _ = GAME.apply(state, seat, action)


def test_on_a_square_it_would_not_have_chosen_the_normal_player_turns_the_tile_there():
    """After a hint followed or the strong player's search chose another square, the normal
    player finishes that square as well as it can: stepping back would undo the choice (and a
    search whose playouts stepped back would judge every square by the same one)."""
    state = GAME.new_game(2, seed=6)
    seat = min(GAME.to_act(state))
    while state.phase != "place" or sum(len(rots) > 1 for rots in state.fits.values()) < 2:
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(2)))
        seat = min(GAME.to_act(state))
    plans = ai._plans(state, seat)
    best_square = plans[0][1][0]
    other = next(square for _, (square, _, _) in plans if square != best_square and len(state.fits[square]) > 1)
    while state.phase == "place":
        legal = GAME.legal_actions(state, seat)
        step = next(action for action in legal
                    if action == Action("at", (f"{other[0]},{other[1]}",)) or action.verb == "group"
                    and other in _group(state, action))
        state, _ = GAME.apply(state, seat, step)
    assert state.phase == "rotate"
    action = GAME.suggest(state, seat, random.Random(1))
    assert action.verb == "turn"
    best_there = max((value, rot) for value, (square, rot, _) in plans if square == other)[1]
    assert action == Action("turn", ("NESW"[best_there],))


def _group(state, action):
    from games.carcassonne.engine import squares_offered

    return squares_offered(state).groups[int(action.args[0]) - 1]


def test_the_strong_player_takes_longer_over_where_the_tile_goes_and_leaves_the_follower_to_the_normal_player():
    from games.search import TURN_DECISION
    from tests.games.test_conformance import SteppingClock

    state = GAME.new_game(2, seed=9)
    seen = {}
    for _ in range(30):
        seat = min(GAME.to_act(state))
        seen.setdefault(state.phase, set()).add(GAME.search_time(state))
        if state.phase == "follower":
            clock = SteppingClock(step=0.01)
            strong = GAME.suggest(state, seat, random.Random(1), strength="strong", clock=clock)
            assert strong == GAME.suggest(state, seat, random.Random(1))
            assert clock.readings == 0  # not one playout
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, random.Random(1)))
    assert seen["place"] == seen["rotate"] == {TURN_DECISION}
    assert seen["follower"] == {0.0}
    assert all(times == {1.0} for phase, times in seen.items() if phase not in ("place", "rotate", "follower"))
