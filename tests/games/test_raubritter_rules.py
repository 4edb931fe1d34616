"""Raub Ritter rules: the rule text's worked examples and translator's notes, one test each,
plus setup, turns, errors, serialisation, hidden information and random play to the end."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.core import Action, GameError, GameOver, IllegalAction, InvalidState, NotYourTurn
from games.raubritter import GAME, RaubRitterState
from games.raubritter.board import Geometry, Laid
from games.raubritter.tiles import AREA_LIMIT, KNIGHTS_PER_PLAYER, TILES_BY_LETTER, player_tiles
from i18n import translate

NAMES = ["Anna", "Bob", "Chris", "Dave"]


def en(text) -> str:
    """Engine words (a Msg or its JSON) in English, strictly: an unknown id fails."""
    return translate(text, "en", NAMES, strict=True)


def de(text) -> str:
    return translate(text, "de", NAMES, strict=True)


# ----------------------------------------------------------------------------------------
# Helpers


def act(state, seat, text):
    return GAME.apply(state, seat, Action.parse(text))


def legal(state, seat):
    return [a.encode() for a in GAME.legal_actions(state, seat)]


def started(seats, seed=1, keeps=None, options=None):
    """A game right after the keep choice (everyone keeps the mountain unless told otherwise)."""
    state = GAME.new_game(seats, seed=seed, options=options)
    for seat in range(seats):
        state, _ = act(state, seat, f"keep {(keeps or {}).get(seat, 'M')}")
    return state


def build(seats, tiles, *, turn=0, hands=None, phase="lay", lays=0, end_reason=None):
    """A consistent mid-game state: `tiles` maps square -> (owner, face, knights bottom->top),
    `hands` maps seat -> faces in hand (default: the next two tiles of the pile). The other
    tiles of each seat form its pile in letter order, so the state passes validation."""
    geometry = Geometry.for_seats(seats)
    remaining = [player_tiles() for _ in range(seats)]

    def take(seat, face):
        tile = next(t for t in remaining[seat] if t[1:] == face)
        remaining[seat].remove(tile)
        return tile

    board = {}
    for name, (owner, face, stack) in tiles.items():
        board[geometry.parse(name)] = Laid(take(owner, face), owner, tuple(stack))
    hand_tiles = [[take(s, f) for f in (hands or {}).get(s, [])] for s in range(seats)]
    for s in range(seats):
        if s not in (hands or {}):
            hand_tiles[s] = [remaining[s].pop(0), remaining[s].pop(0)]
    on_board = Counter(k for laid in board.values() for k in laid.stack)
    state = RaubRitterState(
        seats=seats, seed=7, chance_counter=2, phase=phase, turn=turn, lays_this_turn=lays,
        kept=[None] * seats, hands=hand_tiles, piles=remaining,
        knights_left=[KNIGHTS_PER_PLAYER - on_board[s] for s in range(seats)], board=board,
        end_reason=end_reason,
    )
    if phase == "over":
        # A scoring scenario: a few tiles stand for a finished table whose other tiles do not
        # matter. Such a state is no reachable end (tiles are left in the piles), and loading
        # it is refused as corrupt; the scoring tests use it as it is.
        return state
    return GAME.from_dict(GAME.to_dict(state))  # validates the scenario itself


def stack(state, name):
    return list(state.board[state.geometry.parse(name)].stack)


def snapshot(state):
    return json.dumps(GAME.to_dict(state), sort_keys=True)


# ----------------------------------------------------------------------------------------
# Setup


def test_draw_pile_is_b_to_e_each_letter_shuffled_on_its_own():
    orders = set()
    for seed in range(6):
        state = GAME.new_game(4, seed=seed)
        for pile in state.piles:
            assert "".join(t[0] for t in pile) == "BBBBBCCCCCDDDDDEEEEE"
            for letter in "BCDE":
                assert Counter(t[1:] for t in pile if t[0] == letter) == Counter(TILES_BY_LETTER[letter])
            orders.add(tuple(pile))
    assert len(orders) > 1  # the shuffles differ between seeds and seats


def test_keep_choice_is_simultaneous_and_builds_the_starting_area():
    state = GAME.new_game(3, seed=4)
    assert GAME.to_act(state) == {0, 1, 2}
    assert legal(state, 1) == ["keep P", "keep Pv", "keep M"]
    before_public = GAME.view(state, None)
    state, events = act(state, 2, "keep Pv")  # any seat may choose first
    assert GAME.to_act(state) == {0, 1}
    assert legal(state, 2) == []
    public = GAME.view(state, None)
    assert "Pv" not in json.dumps(public["players"]) and public["players"][2]["chosen"] is True
    assert GAME.view(state, 0)["private"]["keep_choice"] is None
    assert GAME.view(state, 2)["private"]["keep_choice"] == "Pv"
    assert public["tiles"] == before_public["tiles"] == []
    assert any(e.seat == 2 for e in events) and any(e.seat is None for e in events)
    state, _ = act(state, 0, "keep M")
    state, _ = act(state, 1, "keep P")
    assert state.phase == "lay" and GAME.to_act(state) == {0}
    assert [[t for t in hand] for hand in state.hands] == [["APc", "AM"], ["APc", "AP"], ["APc", "APv"]]
    assert all(pile[0][0] == "B" and len(pile) == 20 for pile in state.piles)
    geometry = state.geometry
    assert sorted(state.board) == sorted(geometry.start_squares()) and len(state.board) == 6
    donated = Counter((laid.owner, laid.face) for laid in state.board.values())
    assert donated == Counter({(0, "P"): 1, (0, "Pv"): 1, (1, "Pv"): 1, (1, "M"): 1, (2, "P"): 1, (2, "M"): 1})


@pytest.mark.parametrize("seats,cols,rows", [(2, 2, 2), (3, 3, 2), (4, 4, 2)])
def test_starting_area_size_and_fixed_grid(seats, cols, rows):
    state = started(seats)
    columns = {c for c, _ in state.board}
    lines = {r for _, r in state.board}
    assert (len(columns), len(lines)) == (cols, rows)
    limit = AREA_LIMIT[seats]
    view = GAME.view(state, None)
    assert (view["grid"]["cols"], view["grid"]["rows"]) == (2 * limit - cols, 2 * limit - rows)
    # Every extension to the limit in any direction stays on the grid.
    assert min(columns) - (limit - cols) == 0 and max(columns) + (limit - cols) == view["grid"]["cols"] - 1


# ----------------------------------------------------------------------------------------
# Laying tiles


def test_lay_one_to_three_tiles_drawing_after_each():
    state = started(2)
    assert "end" not in legal(state, 0)  # the first lay is compulsory
    pile_before = len(state.piles[0])
    for lay in range(1, 4):
        assert len(state.hands[0]) == 2
        action = next(a for a in legal(state, 0) if a.startswith("lay") and "Pc" not in a)
        state, events = act(state, 0, action)
        assert len(state.piles[0]) == pile_before - lay
        assert any(e.kind == "draw" and e.seat == 0 for e in events)
        if lay < 3:
            assert state.turn == 0 and "end" in legal(state, 0) and state.lays_this_turn == lay
    # The third lay ends the turn by itself: nothing but "end" would be left.
    assert state.turn == 1 and state.lays_this_turn == 0
    assert len(state.hands[0]) == 2


def test_end_after_one_lay_passes_the_turn():
    state = started(2)
    lay = next(a for a in legal(state, 0) if a.startswith("lay M"))
    state, _ = act(state, 0, lay)
    assert GAME.view(state, None)["this_turn"] == [lay.split()[2]]
    state, _ = act(state, 0, "end")
    assert state.turn == 1 and GAME.to_act(state) == {1}
    view = GAME.view(state, None)
    assert view["this_turn"] == [] and view["recent_turns"] == [{"seat": 0, "squares": [lay.split()[2]]}]


def test_corner_only_placement_is_refused():
    state = build(2, {"F6": (0, "P", []), "G6": (1, "Pv", [])}, hands={0: ["M", "Pt"]})
    assert "lay M E6" in legal(state, 0) and "lay M F5" in legal(state, 0)
    assert "lay M E5" not in legal(state, 0)  # touches F6 at a corner only
    with pytest.raises(IllegalAction):
        act(state, 0, "lay M E5")
    with pytest.raises(IllegalAction):
        act(state, 0, "lay M H7")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_area_limit_fixes_the_edges_once_the_display_spans_it(seats):
    limit = AREA_LIMIT[seats]
    geometry = Geometry.for_seats(seats)
    row = geometry.start_row + 1
    first = 1
    faces = ["P", "Pv", "Pt", "M", "Fv", "Fc", "Ft", "L", "P"]
    tiles = {geometry.name((first + i, row)): (i % seats, faces[i], []) for i in range(limit - 1)}
    state = build(seats, tiles, hands={0: ["M", "P"]})
    left, right = geometry.name((first - 1, row)), geometry.name((first + limit - 1, row))
    beyond = geometry.name((first + limit, row))
    assert f"lay M {left}" in legal(state, 0) and f"lay M {right}" in legal(state, 0)
    bounds = GAME.view(state, None)["bounds"]
    assert not bounds["cols_fixed"] and (bounds["min_col"], bounds["max_col"]) == (first - 1, first + limit - 1)
    state, _ = act(state, 0, f"lay M {right}")
    bounds = GAME.view(state, None)["bounds"]
    assert bounds["cols_fixed"] and not bounds["rows_fixed"]
    assert (bounds["min_col"], bounds["max_col"]) == (first, first + limit - 1)
    assert f"lay P {left}" not in legal(state, 0) and f"lay P {beyond}" not in legal(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, f"lay P {left}")
    # Inside the fixed columns the display may still grow up and down.
    assert f"lay P {geometry.name((first, row - 1))}" in legal(state, 0)


def test_three_players_end_when_the_eight_by_eight_area_is_full():
    # The table option for the printed translation's 8 x 8: 72 tiles cannot fit 64 squares, so
    # the game ends when no square is left.
    rng = random.Random(3)
    state = started(3, options={"area": "8x8"})
    assert GAME.view(state, None)["grid"]["limit"] == 8
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, rng.choice(legal(state, seat)))
    assert len(state.board) == 64 and state.end_reason == "area_full"
    assert GAME.outcome(state).reason.params["ended"].id == "raubritter.ended.area_full"
    assert "full" in en(GAME.outcome(state).reason) and "voll" in de(GAME.outcome(state).reason)


@pytest.mark.parametrize("seed", range(4))
def test_three_players_lay_all_72_tiles_in_the_default_nine_by_nine(seed):
    rng = random.Random(seed)
    state = started(3, seed=seed)
    assert state.geometry.limit == 9 and GAME.view(state, None)["grid"]["limit"] == 9
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, rng.choice(legal(state, seat)))
    assert len(state.board) == 72 and state.end_reason == "all_laid"
    extent = GAME.view(state, None)["bounds"]
    assert extent["max_col"] - extent["min_col"] <= 8 and extent["max_row"] - extent["min_row"] <= 8


def test_the_area_option_is_checked_and_only_changes_three_player_games():
    assert [o.name for o in GAME.options] == ["area"] and GAME.options[0].default == "9x9"
    assert GAME.new_game(2, seed=1, options={"area": "8x8"}).geometry.limit == 7
    assert GAME.new_game(4, seed=1, options={"area": "9x9"}).geometry.limit == 10
    assert GAME.new_game(3, seed=1, options={"area": "9x9"}).geometry.limit == 9
    for bad in ({"area": "12x12"}, {"size": "8x8"}):
        with pytest.raises(GameError):
            GAME.new_game(3, seed=1, options=bad)
    for lang in ("en", "de"):
        assert "9x9" in translate(GAME.rules_summary, lang) and "8x8" in translate(GAME.rules_summary, lang)


def test_states_stored_before_the_area_option_keep_their_eight_by_eight():
    data = GAME.to_dict(started(3, options={"area": "8x8"}))
    del data["area"]
    assert GAME.from_dict(data).geometry.limit == 8
    data["area"] = 10
    with pytest.raises(InvalidState):
        GAME.from_dict(data)


def test_a_player_without_tiles_is_skipped_and_players_finish_in_different_rounds():
    state = started(4, seed=9)
    finished_while_others_play = False
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        options = legal(state, seat)
        if state.phase == "lay":
            assert state.hands[seat], "a seat with an empty hand must never be asked to lay"
        if state.phase == "knights":
            state, _ = act(state, seat, "knights - 0")
        elif seat != 0 and "end" in options:  # seat 0 lays three a turn, the others one
            state, _ = act(state, seat, "end")
        else:
            state, _ = act(state, seat, options[0])
        if not state.hands[0] and state.phase == "lay" and GAME.outcome(state) is None:
            finished_while_others_play = True
            assert 0 not in GAME.to_act(state)
    assert finished_while_others_play
    assert GAME.outcome(state).details["end"] == "all_laid" and len(state.board) == 96


# ----------------------------------------------------------------------------------------
# Knights: the rule text's examples and the translator's notes


def test_reds_example_one_two_one_across_plain_forest_plain():
    # Red (seat 3) lays a castle on a plain, puts 4 knights on it and moves right (east):
    # 1 stays on the castle, 2 on the forest village, 1 on the plain town.
    state = build(4, {"F9": (1, "Fv", []), "G9": (2, "Pt", [])}, turn=3, hands={3: ["Pc", "M"]})
    state, _ = act(state, 3, "lay Pc E9")
    assert state.phase == "knights" and GAME.to_act(state) == {3}
    assert "knights E 1,2,1" in legal(state, 3)
    state, events = act(state, 3, "knights E 1,2,1")
    assert [stack(state, sq) for sq in ("E9", "F9", "G9")] == [[3], [3, 3], [3]]
    assert state.knights_left[3] == KNIGHTS_PER_PLAYER - 4
    assert any(en(e.text) == "Dave places 4 knights at E9 and moves east: 1 on E9, 2 on F9 and 1 on G9."
               for e in events)
    assert any(de(e.text) == "Dave setzt 4 Ritter auf E9 und zieht nach Osten: 1 auf E9, 2 auf F9 und 1 auf G9."
               for e in events)
    assert state.phase == "lay" and len(state.hands[3]) == 2  # the draw follows the knights


def test_knights_must_leave_the_minimum_on_every_tile_including_the_castle():
    state = build(2, {"F6": (0, "Fv", []), "G6": (1, "M", []), "H6": (1, "Pt", [])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    options = legal(state, 0)
    assert "knights E 1,2" in options           # castle 1, forest 2
    assert "knights E 1,1" not in options       # a forest needs 2
    assert "knights E 1,2,3" not in options     # 6 knights: more than five may not be placed
    assert "knights E 0,2" not in options       # the castle keeps at least one
    state_m = build(2, {"F6": (0, "M", []), "G6": (1, "Pt", [])}, hands={0: ["Pc", "P"]})
    state_m, _ = act(state_m, 0, "lay Pc E6")
    assert "knights E 1,3,1" in legal(state_m, 0) and "knights E 2,2,1" not in legal(state_m, 0)
    assert "knights E 1,3" in legal(state_m, 0) and "knights E 2,3" in legal(state_m, 0)
    assert "knights E 1,2" not in legal(state_m, 0) and "knights E 2,2,1" not in legal(state_m, 0)


def test_a_forest_holding_two_knights_can_still_be_entered_and_passed_up_to_four():
    board = {"F6": (1, "Fv", [1, 1]), "G6": (1, "Pt", [])}
    state = build(2, board, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    options = legal(state, 0)
    assert "knights E 1,2" in options       # 2 more stay: 4 in the forest
    assert "knights E 1,2,1" in options     # and the stack may pass on beyond it
    assert "knights E 1,3" not in options   # 5 would stay: too many
    state, _ = act(state, 0, "knights E 1,2,1")
    assert stack(state, "F6") == [1, 1, 0, 0] and stack(state, "G6") == [0]


def test_three_knights_in_a_forest_close_it():
    board = {"F6": (1, "Fv", [1, 1, 1]), "G6": (1, "Pt", [])}
    state = build(2, board, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    assert not any(a.startswith("knights E") for a in legal(state, 0))
    with pytest.raises(IllegalAction):
        act(state, 0, "knights E 1,2,1")


def test_four_knights_pass_a_forest_holding_two_so_six_are_there_for_a_moment():
    # Yellow (1) holds a forest village with 2. Red (3) places 5 on a castle, leaves 1 there,
    # and 4 move on into the forest (6 there for a moment), leave 2 and go on 1 and 1.
    board = {"F9": (1, "Fv", [1, 1]), "G9": (0, "Pv", []), "H9": (2, "Pt", [])}
    state = build(4, board, turn=3, hands={3: ["Pc", "P"]})
    state, _ = act(state, 3, "lay Pc E9")
    state, _ = act(state, 3, "knights E 1,2,1,1")
    assert [stack(state, sq) for sq in ("E9", "F9", "G9", "H9")] == [[3], [1, 1, 3, 3], [3], [3]]
    points = GAME.view(state, None)["players"][3]["points"]
    assert points == 1 + 2 + 2 + 3  # red controls these four tiles for now
    # The village has reached four knights and can no longer be entered.
    later = build(4, {"F9": (1, "Fv", [1, 1, 3, 3]), "G9": (0, "Pv", [])}, hands={0: ["Pc", "P"]})
    later, _ = act(later, 0, "lay Pc E9")
    assert not any(a.startswith("knights E") for a in legal(later, 0))


def test_lakes_and_gaps_stop_knights_and_arriving_knights_go_on_top():
    board = {"F6": (1, "P", [1]), "G6": (1, "L", []), "E7": (1, "Pv", []), "E8": (1, "Pt", [])}
    state = build(2, board, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    options = legal(state, 0)
    assert "knights E 1,1" in options and "knights E 1,1,1" not in options  # the lake stops them
    assert not any(a.startswith("knights W") or a.startswith("knights N") for a in options)  # no tiles there
    assert "knights S 1,1,1" in options and "knights S 1,1,1,1" not in options  # a gap after E8
    state, _ = act(state, 0, "knights E 1,1")
    assert stack(state, "F6") == [1, 0]


def test_all_knights_may_stay_on_the_castle_but_never_more_than_four():
    state = build(2, {"F6": (1, "P", [])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    options = legal(state, 0)
    assert options[0] == "knights - 0"
    assert {"knights - 1", "knights - 2", "knights - 3", "knights - 4"} <= set(options)
    assert "knights - 5" not in options and "knights E 4,1" in options and "knights E 1,4" in options
    assert len(options) == len(set(options))
    assert en(GAME.describe(state, 0, Action.parse("knights - 3"))) == "3 knights stay"
    assert en(GAME.describe(state, 0, Action.parse("knights E 1,2"))) == "3 knights east: E6:1 F6:2"
    assert de(GAME.describe(state, 0, Action.parse("knights E 1,2"))) == "3 Ritter nach Osten: E6:1 F6:2"
    assert de(GAME.describe(state, 0, Action.parse("lay Pc F5"))) == "Ebene+Burg legen: F5"
    assert en(GAME.describe(state, 0, Action.parse("knights - 1"))) == "1 knight stays"
    # A single count is the same as staying, however it is typed.
    after, _ = act(state, 0, "knights e 3")
    assert stack(after, "E6") == [0, 0, 0]


def test_running_out_of_knights_while_still_laying_castles():
    def board_with_seat0_knights(on_e8):
        # Seven full stacks of seat 0 (28 knights) in row 7, plus `on_e8` more below.
        faces = ["P", "Pv", "Pt", "Pc", "P", "Pv", "Pt"]
        row = {f"{col}7": (1, face, [0, 0, 0, 0]) for col, face in zip("EFGHIJK", faces)}
        return {**row, "E8": (1, "Pc", [0] * on_e8)}

    state = build(2, board_with_seat0_knights(2), hands={0: ["Pc", "Fc"]})
    assert state.knights_left[0] == 0
    state, _ = act(state, 0, "lay Pc E6")
    assert legal(state, 0) == ["knights - 0"]
    state, events = act(state, 0, "knights - 0")
    assert stack(state, "E6") == [] and events[0].text.id == "raubritter.event.no_knights"
    assert en(events[0].text) == "Anna places no knights on the castle at E6."
    assert en(GAME.describe(state, 0, Action.parse("end"))) == "End the turn"
    assert de(GAME.describe(state, 0, Action.parse("end"))) == "Zug beenden"
    # One knight left cannot hold a forest castle (it needs two), so none goes there.
    one_left = build(2, board_with_seat0_knights(1), hands={0: ["Fc", "P"]})
    one_left, _ = act(one_left, 0, "lay Fc E6")
    assert legal(one_left, 0) == ["knights - 0"]
    # Two knights left: at most two are placed (the full stacks below close the way south).
    two_left = build(2, board_with_seat0_knights(0), hands={0: ["Pc", "P"]})
    two_left, _ = act(two_left, 0, "lay Pc E6")
    assert legal(two_left, 0) == ["knights - 0", "knights - 1", "knights - 2"]
    two_left, _ = act(two_left, 0, "knights - 2")
    assert two_left.knights_left[0] == 0
    GAME.from_dict(GAME.to_dict(two_left))  # the knights still add up to thirty


# ----------------------------------------------------------------------------------------
# Scoring


def test_top_knight_scores_castle_village_town():
    board = {"E6": (0, "Pc", [0]), "F6": (0, "Pv", [1, 0]), "G6": (1, "Pt", [0, 1]),
             "H6": (1, "P", [0]), "E7": (1, "M", [1, 1, 1]), "F7": (1, "Fv", [])}
    state = build(2, board, phase="over", end_reason="all_laid", hands={0: [], 1: []})
    outcome = GAME.outcome(state)
    assert outcome.scores == (1 + 2, 3)


def test_tie_on_points_goes_to_the_most_unused_knights():
    # Both score 3; seat 1 put more knights on the board, so seat 0 has more unused.
    board = {"E6": (0, "Pt", [0]), "F6": (1, "Pv", [1, 1]), "G6": (1, "Pc", [1])}
    state = build(2, board, phase="over", end_reason="all_laid", hands={0: [], 1: []})
    outcome = GAME.outcome(state)
    assert outcome.scores == (3, 3) and outcome.winners == (0,)
    assert outcome.details["unused_knights"] == [29, 27]
    assert outcome.reason.id == "raubritter.reason.knights" and outcome.reason.params["knights"] == 29
    assert en(outcome.reason) == "All tiles are laid; tied on 3 points, most unused knights (29) wins."
    assert de(outcome.reason) == ("Alle Plättchen liegen; Gleichstand bei 3 Punkten, "
                                  "die meisten übrigen Ritter (29) gewinnen.")
    assert en(GAME.view(state, None)["status"]) == "Game over: Anna wins with 3 points."
    assert de(GAME.view(state, None)["status"]) == "Spiel vorbei: Anna gewinnt mit 3 Punkten."


def test_tie_on_points_and_unused_knights_is_a_shared_win():
    board = {"E6": (0, "Pt", [0, 0]), "F6": (1, "Pv", [1]), "G6": (1, "Pc", [1]), "H6": (2, "Pv", [2])}
    state = build(3, board, phase="over", end_reason="all_laid", hands={0: [], 1: [], 2: []})
    outcome = GAME.outcome(state)
    assert outcome.scores == (3, 3, 2) and outcome.winners == (0, 1)
    assert outcome.reason.id == "raubritter.reason.shared"
    view = GAME.view(state, None)
    assert view["over"] and view["outcome"]["winners"] == [0, 1] and view["outcome"]["points"] == [3, 3, 2]
    assert en(view["status"]) == "Game over: Shared win for Anna and Bob with 3 points each."
    assert de(view["status"]) == "Spiel vorbei: Geteilter Sieg für Anna und Bob mit je 3 Punkten."


# ----------------------------------------------------------------------------------------
# Errors never change the state


def test_errors_leave_the_state_unchanged():
    state = started(2)
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        act(state, 1, legal(state, 0)[0])
    with pytest.raises(IllegalAction):
        act(state, 0, "lay Pc Z99")
    with pytest.raises(IllegalAction):
        act(state, 0, "lay Xx A1")
    with pytest.raises(IllegalAction):
        act(state, 0, "knights E 1,2")
    with pytest.raises(IllegalAction):
        act(state, 0, "end")  # nothing laid yet
    with pytest.raises(IllegalAction):
        act(state, 0, "fly away")
    assert snapshot(state) == before
    keep = GAME.new_game(2, seed=1)
    keep, _ = act(keep, 0, "keep M")
    with pytest.raises(NotYourTurn):
        act(keep, 0, "keep P")  # a choice once made is final
    with pytest.raises(IllegalAction):
        act(keep, 1, "keep Pc")  # the castle is always kept
    over = build(2, {"E6": (0, "Pt", [0])}, phase="over", end_reason="all_laid", hands={0: [], 1: []})
    frozen = snapshot(over)
    with pytest.raises(GameOver):
        act(over, 0, "end")
    assert snapshot(over) == frozen and GAME.to_act(over) == frozenset() and legal(over, 0) == []


def test_typed_actions_are_read_case_insensitively():
    state = build(2, {"F6": (1, "P", [])}, hands={0: ["Fv", "P"]})
    state, _ = act(state, 0, "LAY fv e6")
    assert state.board[state.geometry.parse("E6")].face == "Fv"


def test_apply_never_mutates_its_input():
    state = started(2)
    before = snapshot(state)
    act(state, 0, legal(state, 0)[0])
    assert snapshot(state) == before


# ----------------------------------------------------------------------------------------
# Serialisation and hidden information


def test_round_trip_and_validation():
    state = started(3)
    data = GAME.to_dict(state)
    assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(data)))) == data
    broken = [
        {**data, "seats": 5},
        {**data, "phase": "dance"},
        {**data, "knights_left": [30, 30, 29]},
        {**data, "piles": [data["piles"][0][::-1], *data["piles"][1:]]},
        {**data, "hands": [["APc"], *data["hands"][1:]]},
        {**data, "board": data["board"] + [{"square": "A1", "tile": "BL", "owner": 0, "stack": []}]},
        {**data, "board": [{**data["board"][0], "stack": [0, 0, 0, 0, 0]}] + data["board"][1:]},
        {**data, "pending_castle": "B2"},
        {**data, "version": 99},
        {key: value for key, value in data.items() if key != "turn"},
        "not a dict",
    ]
    for bad in broken:
        with pytest.raises(InvalidState):
            GAME.from_dict(bad)


def test_inconsistent_states_are_refused_as_corrupt():
    state = started(2)
    assert [t[1:] for t in state.hands[0]] == ["Pc", "M"]
    state, _ = act(state, 0, "lay M " + GAME.view(state, None)["open_squares"][0])
    assert state.phase == "lay" and state.lays_this_turn == 1
    data = json.loads(json.dumps(GAME.to_dict(state)))
    GAME.from_dict(data)
    corrupt = [
        {**data, "lays_this_turn": 2},                      # says two lays, one tile laid
        {**data, "this_turn": []},                          # a lay counted, no tile of the turn
        {**data, "phase": "over", "end_reason": "all_laid", "this_turn": [], "lays_this_turn": 0},
        {**data, "hands": [data["hands"][0][:1], data["hands"][1]]},  # a short hand, pile left
    ]
    finished = json.loads(json.dumps(GAME.to_dict(build(2, {"E6": (0, "Pt", [0])}, phase="over",
                                                            end_reason="all_laid", hands={0: [], 1: []}))))
    assert finished["piles"][0], "the scenario keeps tiles in the piles"
    corrupt.append(finished)  # finished, though the piles still hold tiles
    for bad in corrupt:
        with pytest.raises(InvalidState):
            GAME.from_dict(bad)


def test_views_show_hand_faces_only_to_their_owner():
    state = started(3)
    public = GAME.view(state, None)
    for key in ("game", "seats", "viewer", "to_act", "status", "over"):
        assert key in public
    assert "private" not in public and public["players"][0]["hand_backs"] == ["A", "A"]
    assert public["players"][0]["next_back"] == "B" and public["players"][0]["pile"] == 20
    mine = GAME.view(state, 0)
    assert [t["code"] for t in mine["private"]["hand"]] == ["Pc", "M"]
    assert "private" not in json.dumps({k: v for k, v in GAME.view(state, 1).items() if k != "private"})


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hidden_variants_change_nothing_that_others_see(seats):
    rng = random.Random(seats)
    state = GAME.new_game(seats, seed=seats)
    state, _ = act(state, 0, "keep Pv")
    for step in range(60):
        for owner in [None, *range(seats)]:
            variant = GAME.hidden_variant(state, owner, random.Random(step))
            for viewer in [None, *range(seats)]:
                if viewer != owner or owner is None:
                    assert GAME.view(variant, viewer) == GAME.view(state, viewer)
            GAME.from_dict(GAME.to_dict(variant))  # still a consistent state
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = act(state, seat, rng.choice(legal(state, seat)))


def test_hidden_variant_really_varies_the_owners_hand():
    state = started(2, seed=5)
    state, _ = act(state, 0, next(a for a in legal(state, 0) if a.startswith("lay M")))
    hands = {tuple(GAME.hidden_variant(state, 0, random.Random(i)).hands[0]) for i in range(30)}
    assert len(hands) > 1 and all(tile[0] == "B" for hand in hands for tile in hand[1:])


# ----------------------------------------------------------------------------------------
# Random play to the end


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(31))
def test_random_legal_play_reaches_the_end(seats, seed):
    rng = random.Random(seed * 10 + seats)
    state = GAME.new_game(seats, seed=seed)
    steps = 0
    while GAME.outcome(state) is None:
        acting = sorted(GAME.to_act(state))
        assert acting
        seat = rng.choice(acting)
        actions = GAME.legal_actions(state, seat)
        assert actions and len(set(actions)) == len(actions)
        action = rng.choice(actions)
        assert len(action.encode()) <= 80 and Action.parse(action.encode()) == action
        for lang in ("en", "de"):
            assert 0 < len(translate(GAME.describe(state, seat, action), lang, ["X" * 32] * seats, strict=True)) <= 100
        state, _ = GAME.apply(state, seat, action)
        if steps % 7 == 0:
            data = GAME.to_dict(state)
            assert GAME.to_dict(GAME.from_dict(json.loads(json.dumps(data)))) == data
        steps += 1
        assert steps < 2000
    outcome = GAME.outcome(state)
    assert len(outcome.scores) == seats and outcome.winners
    total_tiles = 24 * seats
    assert len(state.board) == total_tiles and outcome.details["end"] == "all_laid"
    assert GAME.view(state, None)["over"]


def test_same_seed_and_moves_rebuild_the_same_game():
    def play(seed):
        rng = random.Random(0)
        state, log = GAME.new_game(2, seed=seed), []
        while GAME.outcome(state) is None and len(log) < 40:
            seat = min(GAME.to_act(state))
            action = rng.choice(GAME.legal_actions(state, seat))
            log.append(action.encode())
            state, _ = GAME.apply(state, seat, action)
        return snapshot(state), log

    assert play(11) == play(11)


def test_game_metadata():
    assert GAME.name == "raubritter" and GAME.title == "Raub Ritter (Robber Knights)"
    assert (GAME.min_players, GAME.max_players) == (2, 4)
    assert len(translate(GAME.rules_summary, "de")) < 1800
    with pytest.raises(GameError):
        GAME.new_game(5, seed=1)


def test_hand_summary_and_private_lines_read_in_both_languages():
    state = GAME.new_game(2, seed=4)
    summary = GAME.view(state, 0)["private"]["summary"]
    faces = ", ".join(en({"id": "raubritter.tile", "params": {
        "face": GAME.view(state, 0)["private"]["hand"][i]["label"], "letter": "A"}}) for i in range(4))
    assert en(summary) == f"Your hand: {faces}."
    assert de(summary).startswith("Deine Hand: ") and "Ebene+Burg (A)" in de(summary)
    state, events = act(state, 0, "keep M")
    private = [e for e in events if e.seat == 0]
    public = [e for e in events if e.seat is None]
    assert en(private[0].text) == "You keep your castle and the mountain tile."
    assert de(private[0].text) == "Du behältst deine Burg und das Plättchen Gebirge."
    assert en(public[0].text) == "Anna has chosen which A tiles to keep."
    state, events = act(state, 1, "keep Pv")
    assert en(events[-1].text) == "Everyone has chosen; the starting area is turned face up. Anna begins."
    assert GAME.view(state, None)["events"][-1] == events[-1].text.to_json()
    assert en(GAME.view(state, None)["status"]) == "Anna's turn (blue): lay a tile."
    assert de(GAME.view(state, None)["status"]) == "Anna ist am Zug (blau)."


def test_states_stored_before_messages_still_load():
    data = GAME.to_dict(started(2))
    data["log"] = ["It is {s0}'s turn."]
    assert GAME.from_dict(data).log == ["It is {s0}'s turn."]
    data["log"] = [{"id": "knatsch.event.start", "params": {}}]
    with pytest.raises(InvalidState):
        GAME.from_dict(data)


def test_after_the_keep_choice_the_hand_summary_names_the_two_kept_tiles():
    state = GAME.new_game(2, seed=4)
    state, _ = act(state, 0, "keep M")
    summary = GAME.view(state, 0)["private"]["summary"]
    assert en(summary) == ("Your hand: plain+castle (A), mountain (A); "
                           "plain (A), plain+village (A) go to the starting area.")
    assert de(summary) == ("Deine Hand: Ebene+Burg (A), Gebirge (A); Ebene (A), Ebene+Dorf (A) "
                           "kommen in die Startauslage.")
    assert en(GAME.view(state, 1)["private"]["summary"]).count("(A)") == 4  # Bob has not chosen yet


def test_every_label_fits_a_button_in_both_languages():
    for seed, seats in ((1, 2), (2, 4)):
        rng = random.Random(seed)
        state = GAME.new_game(seats, seed=seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            for action in GAME.legal_actions(state, seat)[:80]:
                for lang in ("en", "de"):
                    label = translate(GAME.describe(state, seat, action), lang, ["W" * 32] * seats, strict=True)
                    assert 0 < len(label) <= 80, label
            state, _ = act(state, seat, rng.choice(legal(state, seat)))


# ----------------------------------------------------------------------------------------
# What the engine keeps between calls (the bot asks for it several times a move): kept by
# what it depends on, so a table that differs, even the same state object changed, gets its own


def test_the_knights_options_follow_the_tiles_in_reach_and_the_knights_left():
    state = build(2, {"F6": (1, "P", []), "G6": (1, "Pt", [])}, hands={0: ["Pc", "P"]})
    state, _ = act(state, 0, "lay Pc E6")
    assert "knights E 1,1,1" in legal(state, 0) and "knights - 4" in legal(state, 0)
    full = build(2, {"F6": (1, "P", [1, 1, 1, 1]), "G6": (1, "Pt", [])}, hands={0: ["Pc", "P"]})
    full, _ = act(full, 0, "lay Pc E6")
    assert not any(a.startswith("knights E") for a in legal(full, 0))  # the full plain closes the way
    # The first state changed in place: a full stack now in reach, then two knights left.
    f6 = state.geometry.parse("F6")
    state.board[f6] = state.board[f6]._replace(stack=(1, 1, 1, 1))
    assert legal(state, 0) == legal(full, 0)
    state.knights_left[0] = 2
    assert legal(state, 0) == ["knights - 0", "knights - 1", "knights - 2"]


def test_the_open_squares_follow_the_tiles_laid_in_the_same_board():
    state = build(2, {"E6": (0, "P", []), "F6": (1, "P", [])}, hands={0: ["Pc", "P"]})
    before = [a for a in legal(state, 0) if a.startswith("lay P ")]
    assert "lay P G6" in before and "lay P H6" not in before
    state.board[state.geometry.parse("G6")] = Laid(state.piles[1].pop(0), 1)
    after = [a for a in legal(state, 0) if a.startswith("lay P ")]
    assert "lay P G6" not in after and "lay P H6" in after
    assert GAME.view(state, None)["open_squares"] == [a.split()[-1] for a in after]


def test_a_knights_label_names_the_squares_from_its_own_castle():
    state = build(2, {"F6": (1, "P", []), "G6": (1, "Pt", []), "F7": (1, "P", [])}, hands={0: ["Pc", "Pc"]})
    at_e6, _ = act(state, 0, "lay Pc E6")
    at_e7, _ = act(state, 0, "lay Pc E7")
    move = Action.parse("knights E 1,1")
    assert en(GAME.describe(at_e6, 0, move)) == "2 knights east: E6:1 F6:1"
    assert en(GAME.describe(at_e7, 0, move)) == "2 knights east: E7:1 F7:1"
    assert en(GAME.describe(at_e6, 0, move)) == "2 knights east: E6:1 F6:1"


def test_views_share_no_tile_or_stack_that_a_reader_could_change():
    state = build(2, {"E6": (0, "Pc", [0, 1]), "F6": (1, "Fv", [])}, hands={0: ["Pc", "P"]})
    first = GAME.view(state, None)
    tile = next(t for t in first["tiles"] if t["square"] == "E6")
    tile["knights"].append(1)
    tile["owner"] = 1
    again = next(t for t in GAME.view(state, 0)["tiles"] if t["square"] == "E6")
    assert again["knights"] == [0, 1] and again["owner"] == 0
