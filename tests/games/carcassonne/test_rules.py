"""Carcassonne base rules: components, placing, followers, scoring during play and at the end."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from games.carcassonne import GAME
from games.carcassonne.data import ORIENTED, TILES, TOTAL_TILES, all_tiles
from games.carcassonne.engine import final_scoring
from games.carcassonne.grid import square_name
from games.core import Action, IllegalAction, InvalidState, NotYourTurn
from tests.games.carcassonne.support import ids, play, position

# ------------------------------------------------------------------------------ components


def test_the_box_holds_72_base_tiles_8_robber_tiles_and_one_crop_circle():
    counts = Counter(all_tiles())
    assert TOTAL_TILES == 81
    assert sum(n for code, n in counts.items() if len(code) == 1 and code != "Z") == 72
    assert sum(n for code, n in counts.items() if code.endswith("r")) == 8
    assert counts["Z"] == 1
    assert {code[0] for code in counts if code.endswith("r")} == {"V", "U", "D", "K", "W", "E", "P"}
    assert counts["Vr"] == 2


@pytest.mark.parametrize("code", sorted(TILES))
def test_every_tile_covers_each_edge_once(code):
    o = ORIENTED[(code, 0)]
    for side, edge in enumerate(o.edges):
        if edge in "CR":
            assert o.side_seg[side] >= 0 and o.kinds[o.side_seg[side]] == {"C": "city", "R": "road"}[edge]
        else:
            assert o.side_seg[side] == -1
        halves = (o.half_seg[2 * side], o.half_seg[2 * side + 1])
        assert (edge == "C") == (halves == (-1, -1)), (code, side)


def test_a_new_game_starts_with_the_start_tile_and_a_public_drawn_tile():
    state = GAME.new_game(3, seed=4)
    assert state.board.tiles == [("D", 0, 0, 0)]
    assert state.drawn in TILES and len(state.pile) == 79
    view = GAME.view(state, None)
    assert view["drawn"] == state.drawn and view["pile"] == 80
    assert "pile_order" not in json.dumps(view)


# ------------------------------------------------------------------------------ placing


def test_a_tile_must_match_every_edge_it_touches():
    state = GAME.new_game(2, seed=1)
    # The start tile D: city north, road west-east, field south.
    fits = state.board.fits("E")  # a city cap, fields elsewhere
    assert fits[(0, -1)] == (2,)  # above: only with its city facing south
    assert (1, 0) not in fits and (-1, 0) not in fits  # no road to meet the start tile's road
    assert fits[(0, 1)] == (1, 2, 3)  # below: any way but with its city against the field
    assert state.board.fits("U")[(1, 0)] == (0,)  # a straight road: one look that fits east


def test_rotations_offered_are_only_those_that_fit_and_back_returns():
    state = position([("D", 0, 0, "N")], drawn="U")
    legal = [a.encode() for a in GAME.legal_actions(state, 0)]
    assert "at 1,0" in legal and "at 0,-1" not in legal  # U has no city
    state, _ = play(state, "at 1,0")
    assert [a.encode() for a in GAME.legal_actions(state, 0)] == ["turn N", "turn E", "back"] or \
        [a.encode() for a in GAME.legal_actions(state, 0)] == ["turn N", "back"]
    turns = [a for a in GAME.legal_actions(state, 0) if a.verb == "turn"]
    assert turns == [Action("turn", ("N",))]  # road west-east must meet the road; U turned twice looks the same
    state, _ = play(state, "back")
    assert state.phase == "place" and state.square is None


def test_the_state_names_the_drawn_tile_chosen_square_and_asked_seat_or_says_none_is_there():
    state = position([("D", 0, 0, "N")], drawn="U")
    assert state.drawn_tile() == "U"
    with pytest.raises(InvalidState, match="No square is chosen"):
        state.chosen_square()
    with pytest.raises(InvalidState, match="Nobody is asked"):
        state.asked_seat()
    state, _ = play(state, "at 1,0")
    assert state.chosen_square() == (1, 0)
    state, _ = play(state, "turn N")  # the tile lies on the board: none is drawn until the next turn
    with pytest.raises(InvalidState, match="No tile is drawn"):
        state.drawn_tile()


ROW_OF_ROADS = [("U", x, 0, "N") for x in range(-8, 9)]  # squares north and south, 19 columns wide


def test_squares_too_far_apart_for_one_picture_are_offered_in_groups():
    state = position(ROW_OF_ROADS, drawn="B")
    legal = GAME.legal_actions(state, 0)
    assert all(a.verb == "group" for a in legal) and 2 <= len(legal) <= 24
    state, events = play(state, "group 2")
    assert ids(events) == ["carcassonne.event.area"] and state.area == 1
    legal = GAME.legal_actions(state, 0)
    assert 1 < len(legal) <= 25 and legal[-1] == Action("back")
    state, _ = play(state, "back")
    assert state.area is None and GAME.legal_actions(state, 0)[0].verb == "group"
    every = []
    for k in range(1, len(GAME.legal_actions(position(ROW_OF_ROADS, drawn="B"), 0)) + 1):
        s, _ = play(position(ROW_OF_ROADS, drawn="B"), f"group {k}")
        every += [a.args[0] for a in GAME.legal_actions(s, 0) if a.verb == "at"]
    assert len(every) == len(set(every)) == len(position(ROW_OF_ROADS, drawn="B").fits)  # none cut, none twice


def test_the_group_shown_first_is_the_one_beside_the_players_followers():
    """A square where the tile would join a feature the player holds, then most beside (or
    diagonally beside) a tile with one of the player's followers, then the largest group, then
    the nearest to a follower, then the first."""
    from games.carcassonne.closeup import featured_group

    west, middle, east = [(0, 0), (1, 0)], [(5, 0), (6, 0), (7, 0)], [(10, 0), (11, 1)]
    groups = [west, middle, east]
    assert featured_group(groups, []) == 1  # no followers: the largest
    assert featured_group(groups, [(12, 1)]) == 2  # beside one of the player's followers
    assert featured_group(groups, [(11, 0), (-1, 1)]) == 2  # two squares beside, against one
    assert featured_group(groups, [(2, 5)]) == 1  # beside none: the largest
    assert featured_group([west, [(5, 0), (6, 0)]], [(7, 3)]) == 1  # as large: the nearest
    assert featured_group([west, [(5, 0), (6, 0)]], []) == 0  # as large, none near: the first
    assert featured_group(groups, [(12, 1)], joining=[(0, 0)]) == 0  # joins what they hold
    assert featured_group(groups, [(12, 1)], joining=[(0, 0), (1, 0), (6, 0)]) == 1  # joins too, and larger


def test_a_turn_with_groups_starts_with_one_shown_and_the_others_one_tap_away():
    """Where the squares come in groups, the turn starts with the group around the player's
    followers shown close up: the menu offers its squares, every other group and the whole
    landscape (`back`: every group framed and numbered); a group picked offers the same way."""
    import random

    from games.carcassonne.closeup import featured_group
    from games.carcassonne.engine import squares_offered
    from games.carcassonne.views import layout_json

    rng, state = random.Random(3), GAME.new_game(3, seed=3)
    starts = 0
    while GAME.outcome(state) is None and starts < 5:
        seat = min(GAME.to_act(state))
        plan = squares_offered(state) if state.phase == "place" else None
        if plan is not None and plan.groups and state.log[-1]["id"] not in (
                "carcassonne.event.area", "carcassonne.event.area_one", "carcassonne.event.back",
                "carcassonne.event.square"):
            starts += 1
            board = state.board
            mine = [(board.tiles[i][1], board.tiles[i][2]) for s, i, _ in state.meeples if s == seat]
            held = {board.find(i * 8 + segment) for s, i, segment in state.meeples if s == seat}
            joining = [square for square in state.fits if board.touched(square) & held]
            assert state.area == featured_group(plan.groups, mine, joining)
            assert GAME.view(state, None)["closeup"] == layout_json(plan.boxes[state.area])
            others = [Action("group", (str(k + 1),)) for k in range(len(plan.groups)) if k != state.area]
            assert GAME.legal_actions(state, seat) == (
                [Action("at", (f"{x},{y}",)) for x, y in plan.groups[state.area]] + others + [Action("back")])
            assert GAME.describe(state, seat, Action("back")).id == "carcassonne.label.map"
            whole, _ = GAME.apply(state, seat, Action("back"))
            assert whole.area is None and GAME.view(whole, None)["closeup"] is None
            assert GAME.legal_actions(whole, seat) == [Action("group", (str(k + 1),)) for k in range(len(plan.groups))]
            other, _ = GAME.apply(state, seat, others[-1])
            k = int(others[-1].args[0]) - 1
            assert other.area == k and GAME.legal_actions(other, seat)[:len(plan.groups[k])] == [
                Action("at", (f"{x},{y}",)) for x, y in plan.groups[k]]
            assert Action("group", (str(state.area + 1),)) in GAME.legal_actions(other, seat)
            again, _ = GAME.apply(state, seat, Action("group", (str(state.area + 1),)))  # not offered, taken
            assert again.area == state.area
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    assert starts == 5


def test_any_square_that_fits_is_taken_whether_a_group_was_picked_or_not():
    """A group only narrows what the menu offers: `at x,y` for any square where the tile fits
    is taken before a group is picked and in another group (a record, `/move`); one where it
    does not fit is refused."""
    state = position(ROW_OF_ROADS, drawn="B")
    east = (8, 1)
    assert east in state.fits
    for steps in ([], ["group 1"], ["group 2"]):
        s, _ = play(state, *steps)
        s, events = play(s, "at 8,1")
        assert s.phase == "rotate" and s.square == east and ids(events) == ["carcassonne.event.square"]
    in_group = play(state, "group 1")[0]
    assert Action("at", ("8,1",)) not in GAME.legal_actions(in_group, 0)  # not offered there
    with pytest.raises(IllegalAction):
        play(state, "at 0,0")  # the start tile's square
    with pytest.raises(IllegalAction):
        play(state, "at 0,5")  # touches nothing
    with pytest.raises(IllegalAction):
        play(state, "at 8")
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Action("at", ("8,1",)))


def test_the_squares_are_numbered_as_the_picture_shows_them_over_whole_games():
    """At every placement of whole games: either one picture shows every square close up (one
    to three panels, each within its place in an arrangement the picture holds) or the squares
    come in groups, each within one panel, at most 24, each square in one; the set of squares
    decides, not their order; the view, the labels and the groups number the squares alike."""
    import random
    from itertools import permutations

    from games.carcassonne.closeup import COLUMNS, arrangements, boxes_of, rows_shown, square_plan
    from games.carcassonne.engine import first_group

    def sizes(shape):
        return [size for part in shape[1] for size in sizes(part)] if isinstance(shape[0], str) else [shape]

    def inside(square, box):
        return box[0] <= square[0] < box[0] + box[2] and box[1] <= square[1] < box[1] + box[3]

    shown = grouped = 0
    for seats, seed in ((3, 5), (5, 6)):
        rng = random.Random(seed)
        state = GAME.new_game(seats, seed=seed)
        shapes = [sorted(sizes(shape)) for shape in arrangements(rows_shown(seats))]
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            if state.phase == "place" and state.area == first_group(state):  # as the turn starts
                squares = list(state.fits)
                plan = square_plan(squares, seats, state.board.pos)
                assert plan == square_plan(list(reversed(squares)), seats, state.board.pos)
                assert sorted(plan.order) == sorted(squares)
                view = GAME.view(state, None)
                assert [(sq["x"], sq["y"]) for sq in view["squares"]] == list(plan.order)
                legal = GAME.legal_actions(state, seat)
                if plan.layout is not None:
                    shown += 1
                    boxes = boxes_of(plan.layout)
                    assert any(len(shape) == len(boxes) and any(
                        all(b[2] <= c and b[3] <= r for b, (c, r) in zip(boxes, order, strict=True))
                        for order in permutations(shape)) for shape in shapes), boxes
                    assert all(any(inside(sq, box) for box in boxes) for sq in squares)
                    assert [a.args[0] for a in legal] == [f"{x},{y}" for x, y in plan.order]
                else:
                    grouped += 1
                    shown_first = plan.groups[state.area]
                    assert 2 <= len(plan.groups) <= 24
                    assert legal == ([Action("at", (f"{x},{y}",)) for x, y in shown_first]
                                     + [Action("group", (str(k + 1),)) for k in range(len(plan.groups))
                                        if k != state.area] + [Action("back")])
                    assert sorted(sq for group in plan.groups for sq in group) == sorted(squares)
                    for group, box in zip(plan.groups, plan.boxes, strict=True):
                        assert len(group) <= 24 and (box[2], box[3]) == (COLUMNS, rows_shown(seats))
                        assert all(inside(sq, box) for sq in group)
                    for k, group in enumerate(plan.groups):
                        first = sum(len(g) for g in plan.groups[:k]) + 1
                        label = GAME.describe(state, seat, Action("group", (str(k + 1),)))
                        squares = label.params["label"].params
                        assert label.params["n"] == k + 1  # as the board numbers the groups
                        xs, ys = [x for x, _ in group], [y for _, y in group]
                        if len(group) == 1:
                            assert squares == {"number": first, "square": square_name(*group[0])}
                        else:
                            assert squares == {"first": first, "last": first + len(group) - 1,
                                               "corner": square_name(min(xs), min(ys)),
                                               "other": square_name(max(xs), max(ys))}
                for n, (x, y) in enumerate(plan.order, 1):
                    assert GAME.describe(state, seat, Action("at", (f"{x},{y}",))).params["number"] == n
            state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    assert shown >= 10 and grouped >= 40


def test_a_group_of_squares_recorded_before_close_ups_is_still_taken():
    """Games recorded before close-ups picked `area k` (runs of at most 20 squares, north to
    south, when more than 24 fit): taken, told as then, but never offered; the choice of a
    square goes on as now, and `back` with no group picked changes nothing."""
    state = position(ROW_OF_ROADS, drawn="B")
    squares = list(state.fits)
    assert len(squares) > 24 and Action("area", ("1",)) not in GAME.legal_actions(state, 0)
    after, events = play(state, "area 2")
    assert ids(events) == ["carcassonne.event.area"] and after.area is None and after.phase == "place"
    size = -(-len(squares) // 2)
    assert (events[0].text.params["first"], events[0].text.params["last"]) == (size + 1, len(squares))
    after, events = play(after, "back")
    assert ids(events) == ["carcassonne.event.back"] and after.area is None and after.phase == "place"
    with pytest.raises(IllegalAction):
        play(state, "area 3")
    with pytest.raises(IllegalAction):
        play(position([("D", 0, 0, "N")], drawn="U"), "area 1")  # few squares: there were no groups


def test_a_game_saved_with_a_group_that_no_longer_exists_starts_the_choice_again():
    """A game saved mid-turn keeps its group; one saved under other groups of squares (before
    close-ups: a group number beyond today's groups, or groups where none are now) starts the
    choice of a square again."""
    import random

    from games.carcassonne.engine import squares_offered

    rng, state = random.Random(4), GAME.new_game(3, seed=4)
    few = grouped = None
    while few is None or grouped is None:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        groups = squares_offered(state).groups if state.phase == "place" else ()
        if state.phase == "place" and not groups and len(legal) > 1:
            few = few or GAME.to_dict(state)
        if groups and grouped is None:
            count = len(groups)
            grouped = GAME.to_dict(GAME.apply(state, seat, Action("group", (str(count),)))[0])
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    assert GAME.from_dict(grouped).area == count - 1
    assert GAME.from_dict({**grouped, "area": count}).area is None
    assert GAME.from_dict({**few, "area": 0}).area is None


def test_a_tile_that_fits_nowhere_is_set_aside_and_replaced():
    # A single C (city all round) next to which a road-only tile has nowhere to go.
    state = position([("C", 0, 0, "N")], drawn="E", pile=["X", "E"])
    state, events = play(state, "at 0,-1", "turn S", "skip")
    assert "carcassonne.event.set_aside" in ids(events)
    assert state.set_aside == ["X"] and state.drawn == "E"


def test_game_ends_when_the_pile_is_empty():
    state = position([("D", 0, 0, "N")], drawn="E", pile=[])
    state, events = play(state, "at 0,-1", "turn S", "skip")
    assert GAME.outcome(state) is not None and state.phase == "over"


# ------------------------------------------------------------------------------ followers


def test_followers_only_on_free_features_of_the_new_tile():
    # Seat 1 has a thief on the start tile's road; a tile extending that road offers no thief.
    state = position([("D", 0, 0, "N")], meeples=[(1, (0, 0), "road1")], drawn="U")
    state, _ = play(state, "at 1,0", "turn N")
    spots = [a.args[0] for a in GAME.legal_actions(state, 0) if a.verb == "follower"]
    assert "road1" not in spots and spots == ["field1", "field2"]
    assert GAME.legal_actions(state, 0)[-1] == Action("skip")


def test_features_merge_so_two_followers_can_share_one():
    # Knights on two separate city caps; a tile joins them: both are in one city now.
    tiles = [("E", 0, 0, "E"), ("E", 2, 0, "W")]
    state = position(tiles, meeples=[(0, (0, 0), "city1"), (1, (2, 0), "city1")], drawn="G")
    state, _ = play(state, "at 1,0", "turn N", "skip")
    # A city closed by tiles of two players, tied: both score it in full.
    assert state.scores == [6, 6]
    assert state.meeples == []


def test_no_follower_when_none_is_at_home():
    meeples = [(0, (0, 0), "field2")] * 7
    state = position([("D", 0, 0, "N")], meeples=meeples, drawn="E")
    state, _ = play(state, "at 0,-1", "turn S")
    assert state.phase == "place"  # the follower step was skipped by itself
    assert state.turn == 1


def test_majority_wins_a_shared_feature():
    tiles = [("E", 0, 0, "E"), ("E", 2, 0, "W"), ("E", 1, -1, "S")]
    meeples = [(0, (0, 0), "city1"), (1, (2, 0), "city1"), (1, (1, -1), "city1")]
    state = position(tiles, meeples=meeples, drawn="R")  # city N+E+W; south field
    state, _ = play(state, "at 1,0", "turn N", "skip")
    assert state.scores == [0, 8]  # 4 tiles x 2
    assert state.meeples == []


# ------------------------------------------------------------------------------ scoring in play


def test_a_two_tile_city_scores_four():
    state = position([("D", 0, 0, "N")], drawn="E")
    state, events = play(state, "at 0,-1", "turn S", "follower city1")
    assert state.scores == [4, 0] and state.meeples == []
    assert "carcassonne.event.completed" in ids(events)


def test_a_city_with_a_pennant_scores_two_more():
    tiles = [("D", 0, 0, "N"), ("M", 0, -1, "S")]
    state = position(tiles, meeples=[(1, (0, -1), "city1")], drawn="E")
    state, _ = play(state, "at 1,-1", "turn W", "skip")
    assert state.scores == [0, 3 * 2 + 2]


def test_a_road_scores_one_a_tile():
    tiles = [("A", -1, 0, "W"), ("D", 0, 0, "N")]
    state = position(tiles, meeples=[(0, (0, 0), "road1")], drawn="L")
    state, _ = play(state, "at 1,0", "turn N", "skip")
    assert state.scores == [3, 0]


def test_a_completed_cloister_scores_nine():
    tiles = [("B", x, y, "N") for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (1, 1)]
    state = position(tiles, meeples=[(1, (0, 0), "cloister")], drawn="B")
    state, _ = play(state, "at 1,1", "turn N", "skip")
    assert state.scores == [0, 9]


def test_a_tile_completing_a_road_and_a_city_scores_both():
    tiles = [("A", -1, 0, "W"), ("D", 0, 0, "N"), ("E", 1, -1, "S")]
    meeples = [(0, (0, 0), "road1"), (0, (1, -1), "city1")]
    state = position(tiles, meeples=meeples, drawn="L")
    state, events = play(state, "at 1,0", "turn N", "skip")
    assert state.scores == [3 + 4, 0]
    assert ids(events).count("carcassonne.event.completed") == 2
    assert state.meeples == []


def test_completed_features_without_followers_score_nothing():
    state = position([("D", 0, 0, "N")], drawn="E")
    state, _ = play(state, "at 0,-1", "turn S", "skip")
    assert state.scores == [0, 0]


# ------------------------------------------------------------------------------ final scoring


def test_final_incomplete_road_city_and_cloister():
    tiles = [("U", 0, 0, "N"), ("U", 1, 0, "N"), ("U", 2, 0, "N"),
             ("M", 0, -2, "N"), ("E", 0, -3, "S"),
             ("B", 5, 5, "N"), ("B", 6, 5, "N"), ("B", 4, 5, "N"), ("B", 5, 6, "N"), ("B", 6, 6, "N"), ("B", 4, 6, "N")]
    meeples = [(0, (1, 0), "road1"), (1, (0, -2), "city1"), (1, (5, 5), "cloister")]
    state = position(tiles, meeples=meeples)
    result = final_scoring(state)
    assert result[0]["road"] == 3
    assert result[1]["city"] == 2 + 1  # two tiles and a pennant
    assert result[1]["cloister"] == 1 + 5  # five neighbours


def test_a_field_scores_three_for_each_completed_city_it_touches():
    tiles = [("H", 0, 0, "N"), ("E", 0, -1, "S"), ("E", 0, 1, "N")]
    state = position(tiles, meeples=[(0, (0, 0), "field1")])
    assert final_scoring(state)[0]["field"] == 6


def test_an_incomplete_city_gives_its_field_nothing():
    tiles = [("H", 0, 0, "N"), ("E", 0, -1, "S")]
    state = position(tiles, meeples=[(0, (0, 0), "field1")])
    assert final_scoring(state)[0]["field"] == 3


def test_a_field_split_by_a_road():
    tiles = [("D", 0, 0, "N"), ("E", 0, -1, "S")]
    state = position(tiles, meeples=[(0, (0, 0), "field1"), (1, (0, 0), "field2")])
    result = final_scoring(state)
    assert result[0]["field"] == 3 and result[1]["field"] == 0


def test_a_city_touching_two_fields_scores_for_each():
    tiles = [("F", 0, 0, "N"), ("E", -1, 0, "E"), ("E", 1, 0, "W")]
    state = position(tiles, meeples=[(0, (0, 0), "field1"), (1, (0, 0), "field2")])
    result = final_scoring(state)
    assert result[0]["field"] == 3 and result[1]["field"] == 3


def test_a_field_majority_and_a_field_joined_over_tiles():
    # Two fields joined by a tile: seat 1 has two farmers, seat 0 one: only seat 1 scores.
    tiles = [("D", 0, 0, "N"), ("E", 0, -1, "S"), ("U", 1, 0, "N"), ("U", 2, 0, "N")]
    meeples = [(0, (0, 0), "field1"), (1, (1, 0), "field1"), (1, (2, 0), "field1")]
    state = position(tiles, meeples=meeples)
    result = final_scoring(state)
    assert result[1]["field"] == 3 and result[0]["field"] == 0


def test_a_whole_game_ends_with_an_outcome_and_final_scores():
    import random

    state = GAME.new_game(2, seed=11)
    rng = random.Random(3)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    outcome = GAME.outcome(state)
    assert len(state.board.tiles) + len(state.set_aside) == 81
    assert outcome.scores == tuple(state.scores)
    assert set(outcome.details["breakdown"][0]) == {"road", "city", "cloister", "field"}


# ------------------------------------------------------------------------------ refusals and storage


def test_refusals_are_typed():
    state = position([("D", 0, 0, "N")], drawn="E")
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Action("at", ("5,5",)))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Action("turn", ("N",)))


def test_a_stored_game_with_a_tile_that_does_not_fit_is_refused():
    state = GAME.new_game(2, seed=2)
    data = GAME.to_dict(state)
    data = json.loads(json.dumps(data))
    data["tiles"].append(["C", 0, 1, 0])  # a city edge against the start tile's field
    data["pile"].remove("C")
    with pytest.raises(InvalidState):
        GAME.from_dict(data)
    data = GAME.to_dict(state)
    data["pile"].append("C")  # one tile too many
    with pytest.raises(InvalidState):
        GAME.from_dict(data)


def test_moves_typed_in_any_case_are_understood():
    state = position([("D", 0, 0, "N")], drawn="E")
    state, _ = play(state, "at 0,-1", "turn s", "FOLLOWER City1")
    assert state.scores[0] == 4


def test_every_label_fits_a_button_with_long_names_in_both_languages():
    import random

    from i18n import translate

    names = ["M" * 32, "W" * 32, "Ü" * 32, "X" * 32, "Q" * 32]
    rng = random.Random(8)
    state = GAME.new_game(5, seed=8)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        assert len(legal) <= 25
        for action in legal:
            for lang in ("en", "de"):
                label = translate(GAME.describe(state, seat, action), lang, names, strict=True)
                assert len(label) <= 80, label
        state, _ = GAME.apply(state, seat, rng.choice(legal))


def test_every_seat_sees_the_public_view_and_never_the_pile_order():
    state = GAME.new_game(3, seed=21)
    public = GAME.view(state, None)
    for seat in range(3):
        assert {**GAME.view(state, seat), "viewer": None} == public
    assert public["pile"] == 80  # a count only
    import random

    shuffled = GAME.hidden_variant(state, None, random.Random(1))
    assert shuffled.pile != state.pile and GAME.view(shuffled, None) == public
    assert GAME.moves_are_public(state, 0)


# ------------------------------------------------------------------------------ loops, fields, loading


def test_a_road_that_closes_into_a_loop_is_complete():
    """A road is complete when both ends are closed "or the road forms a closed loop"."""
    tiles = [("V", 0, 0, "W"), ("V", 1, 0, "N"), ("V", 0, 1, "S")]
    state = position(tiles, meeples=[(0, (0, 0), "road1")], drawn="V")
    state, events = play(state, "at 1,1", "turn E", "skip")
    assert "carcassonne.event.completed" in ids(events)
    assert state.scores == [4, 0] and state.meeples == []


def test_a_city_that_closes_into_a_ring_is_complete():
    tiles = [("N", 0, 0, "S"), ("N", 1, 0, "W"), ("N", 0, 1, "E")]
    state = position(tiles, meeples=[(1, (0, 0), "city1")], drawn="N")
    state, events = play(state, "at 1,1", "turn N", "skip")
    assert "carcassonne.event.completed" in ids(events)
    assert state.scores == [0, 4 * 2] and state.meeples == []


def test_a_field_touching_one_completed_city_along_several_tiles_counts_it_once():
    """Farmers score 3 "for each completed city" their field touches, however long the border."""
    tiles = [("E", 0, 0, "N"), ("E", 1, 0, "N"), ("R", 0, -1, "S"), ("R", 1, -1, "S"),
             ("E", -1, -1, "E"), ("E", 2, -1, "W")]
    state = position(tiles, meeples=[(0, (0, 0), "field1")])
    assert final_scoring(state)[0]["field"] == 3


def stored(state) -> dict:
    """The position as a stored game would hold it: every other tile of the box in the pile."""
    from collections import Counter

    from games.carcassonne.data import all_tiles

    data = json.loads(json.dumps(GAME.to_dict(state)))
    rest = Counter(all_tiles()) - Counter(tile[0] for tile in data["tiles"])
    data["pile"], data["drawn"], data["phase"], data["set_aside"] = sorted(rest.elements()), None, "follower", []
    return data


def test_a_stored_game_with_two_followers_placed_on_one_feature_is_refused():
    tiles = [("D", 0, 0, "N"), ("U", 1, 0, "N")]
    state = position(tiles, meeples=[(0, (0, 0), "road1"), (1, (1, 0), "road1")])
    with pytest.raises(InvalidState, match="Two followers"):
        GAME.from_dict(stored(state))
    # Joined later is fine: each was alone on its road when placed.
    tiles = [("D", 0, 0, "N"), ("U", 0, 1, "N"), ("V", 1, 0, "N"), ("V", 1, 1, "E")]
    state = position(tiles, meeples=[(0, (0, 0), "road1"), (1, (0, 1), "road1")])
    assert state.board.find(state.meeples[0][1] * 8 + state.meeples[0][2]) == \
        state.board.find(state.meeples[1][1] * 8 + state.meeples[1][2])  # one road now
    GAME.from_dict(stored(state))


def test_a_stored_game_with_a_robber_beside_no_figure_is_refused():
    state = position([("D", 0, 0, "N")], scores=[5, 10], robbers=[10, None])
    GAME.from_dict(stored(state))  # beside seat 1's figure
    state = position([("D", 0, 0, "N")], scores=[5, 10], robbers=[7, None])
    with pytest.raises(InvalidState, match="robber"):
        GAME.from_dict(stored(state))
