"""The Robbers (2013 wording) with one counting figure per player: every footnote that applies and
the rule text's four examples, turned into the same situations with one figure per player and
several players on one space. Seats: 0 RED, 1 BLUE, 2 GREEN, 3 YELLOW."""
from __future__ import annotations

from games.carcassonne import GAME
from games.carcassonne.engine import _score_round
from games.core import Action, SeatRef
from tests.games.carcassonne.support import ids, play, position

RED, BLUE, GREEN, YELLOW = range(4)


def round_of(scores, robbers, awards, *, turn=RED, seats=4):
    state = position([("D", 0, 0, "N")], seats=seats, scores=scores, robbers=robbers, turn=turn)
    events = []
    robbed = _score_round(state, [(seat, points, "road") for seat, points in awards], events)
    return state, robbed, events


# ------------------------------------------------------------------------------ the examples


def test_example_1_red_scores_road_and_city_the_robber_halves_the_first():
    # BLUE's robber beside RED's figure; RED scores a road (3) and a city (6) with one tile.
    # RED chooses the order; we choose for RED the order best for RED: the road first [13].
    state, robbed, _ = round_of([10, 20, 0, 0], [None, 10, None, None], [(RED, 6), (RED, 3)])
    assert state.scores[RED] == 19
    assert robbed == {BLUE: (RED, 3)} and state.scores[BLUE] == 20 + 2
    assert state.robbers[BLUE] is None  # the robber goes home


def test_example_2_robber_beside_two_scoring_figures_chooses():
    # BLUE's robber beside GREEN's and RED's figures; GREEN scores 3, RED 6: BLUE robs RED (3).
    state, robbed, _ = round_of([10, 0, 10, 0], [None, 10, None, None], [(GREEN, 3), (RED, 6)])
    assert robbed == {BLUE: (RED, 6)} and state.scores[BLUE] == 3
    assert state.scores[GREEN] == 13 and state.scores[RED] == 16


def test_example_3_with_the_track_wrapping():
    # GREEN on 60 and RED on 10 share space 10 (the track has 50 spaces); BLUE's robber is there.
    # GREEN scores 3 and 6, RED 2 and 8. Each scores the smaller first, so the robber sees
    # GREEN's 3 and RED's 2 and takes half of GREEN's 3.
    state, robbed, _ = round_of([10, 0, 60, 0], [None, 10, None, None],
                                [(GREEN, 3), (GREEN, 6), (RED, 2), (RED, 8)])
    assert robbed == {BLUE: (GREEN, 3)} and state.scores[BLUE] == 2
    assert state.scores[GREEN] == 69 and state.scores[RED] == 20


def test_example_4_two_robbers_beside_the_same_figures_both_score():
    state, robbed, _ = round_of([10, 0, 10, 30], [None, 10, None, 10],
                                [(GREEN, 3), (GREEN, 6), (RED, 2), (RED, 8)], turn=YELLOW)
    assert robbed == {BLUE: (GREEN, 3), YELLOW: (GREEN, 3)}
    assert state.scores[BLUE] == 2 and state.scores[YELLOW] == 32
    assert state.robbers == [None, None, None, None]


def test_the_order_that_leaves_the_least_to_a_robber_further_along():
    """"The player receiving the points chooses the order that points are awarded." RED on 6
    completes a road (3) and a city (6); BLUE's robber stands on 9 beside GREEN's figure.
    Smallest first RED would move 6 -> 9 -> 15 and BLUE would rob half the city's 6; city first
    RED moves 6 -> 12 -> 15, no move starts on 9, and BLUE robs nothing. RED chooses the city."""
    state, robbed, _ = round_of([6, 20, 9, 0], [None, 9, None, None], [(RED, 3), (RED, 6)])
    assert robbed == {}
    assert state.scores[RED] == 15 and state.scores[BLUE] == 20 and state.robbers[BLUE] == 9


def test_example_1_order_matters_the_city_first_would_have_given_three():
    # Footnote [13]: had RED scored the city first, BLUE would have got 3. A single score of 6 shows it.
    state, robbed, _ = round_of([10, 0, 0, 0], [None, 10, None, None], [(RED, 6)])
    assert state.scores[BLUE] == 3


# ------------------------------------------------------------------------------ footnotes and rules


def test_twelve_and_sixty_two_share_a_space():
    state = position([("D", 0, 0, "N")], seats=3, scores=[62, 12, 0])
    assert state.space(0) == state.space(1) == 12
    # Seat 2 may put its robber on space 12 once (beside both), and on space 0? No one else is there.
    state.drawn = None
    state.phase, state.asked, state.robber_queue = "robber", 2, []
    state.turn = 2
    assert [a.encode() for a in GAME.legal_actions(state, 2)] == ["robber 12", "pass"]
    label = GAME.describe(state, 2, Action("robber", ("12",)))
    assert label.id == "carcassonne.label.robber_many" and label.params["count"] == 2
    state.scores[1] = 13
    state.__dict__.pop("_legal", None)
    label = GAME.describe(state, 2, Action("robber", ("13",)))
    assert label.params["players"] == [SeatRef(1)]


def test_a_robber_beside_a_figure_at_62_robs_a_move_from_12():
    state, robbed, _ = round_of([62, 0, 12, 0], [None, 12, None, None], [(RED, 4)])
    assert robbed == {BLUE: (RED, 4)} and state.scores[BLUE] == 2


def test_one_cannot_rob_oneself():
    # BLUE's robber stands beside RED, but BLUE's own figure is on that space too and scores.
    state, robbed, _ = round_of([10, 10, 0, 0], [None, 10, None, None], [(BLUE, 8)])
    assert robbed == {} and state.scores[BLUE] == 18 and state.robbers[BLUE] == 10


def test_footnote_7_the_robber_takes_the_first_points_even_if_small():
    state, robbed, _ = round_of([10, 0, 0, 0], [None, 10, None, None], [(RED, 1)])
    assert robbed == {BLUE: (RED, 1)} and state.scores[BLUE] == 1  # half of 1 rounded up
    assert state.robbers[BLUE] is None


def test_rounding_up():
    state, _, _ = round_of([10, 0, 0, 0], [None, 10, None, None], [(RED, 5)])
    assert state.scores[BLUE] == 3


def test_a_robber_only_robs_a_move_starting_on_its_space():
    state, robbed, _ = round_of([11, 0, 0, 0], [None, 10, None, None], [(RED, 5)])
    assert robbed == {} and state.robbers[BLUE] == 10


def test_rogue_points_are_not_robbed_the_robber_moves_along_footnote_10():
    # RED's robber beside YELLOW (space 30); BLUE's robber beside RED and GREEN (space 10).
    # YELLOW scores 4: RED robs 2 rogue points and moves 10 -> 12. GREEN scores nothing.
    # BLUE's robber gets nothing and must move along with RED, leaving GREEN.
    state, robbed, events = round_of([10, 0, 10, 30], [30, 10, None, None], [(YELLOW, 4)])
    assert robbed == {RED: (YELLOW, 4)}
    assert state.scores == [12, 0, 10, 34]
    assert state.robbers == [None, 12, None, None]
    assert "carcassonne.event.robber_along" in ids(events)


def test_rogue_points_are_not_robbed_at_the_wrapping_space():
    state, robbed, _ = round_of([49, 0, 0, 30], [30, 49, None, None], [(YELLOW, 4)])
    assert state.scores[RED] == 51 and state.robbers[BLUE] == 1


def test_footnote_1_robber_step_comes_right_after_the_robber_tile_before_the_follower():
    state = position([("D", 0, 0, "N")], seats=3, scores=[0, 5, 9], drawn="Er")
    state, events = play(state, "at 0,-1", "turn S")
    assert state.phase == "robber" and GAME.to_act(state) == {RED}
    assert [a.encode() for a in GAME.legal_actions(state, RED)] == ["robber 5", "robber 9", "pass"]
    state, _ = play(state, "robber 9")
    # The next player whose robber is at home may place theirs the same way.
    assert state.phase == "robber" and GAME.to_act(state) == {BLUE}
    assert [a.encode() for a in GAME.legal_actions(state, BLUE)] == ["robber 0", "robber 9", "pass"]
    state, _ = play(state, "robber 0")
    # Only that one player (2013 rules): now RED places a follower.
    assert state.phase == "follower" and GAME.to_act(state) == {RED}
    assert state.robbers == [9, 0, None]


def test_the_next_player_is_the_first_whose_robber_is_at_home():
    state = position([("D", 0, 0, "N")], seats=3, scores=[0, 5, 9], robbers=[None, 0, None], drawn="Er")
    state, _ = play(state, "at 0,-1", "turn S", "pass")
    assert GAME.to_act(state) == {GREEN} and state.phase == "robber"
    state, _ = play(state, "pass")
    assert state.phase == "follower"


def test_footnote_3_table_option_every_other_player_in_turn_order():
    state = position([("D", 0, 0, "N")], seats=4, scores=[0, 5, 9, 2], drawn="Er", option="all")
    state, _ = play(state, "at 0,-1", "turn S", "pass")
    assert GAME.to_act(state) == {BLUE}
    state, _ = play(state, "robber 9")
    assert GAME.to_act(state) == {GREEN}
    state, _ = play(state, "pass")
    assert GAME.to_act(state) == {YELLOW}
    state, _ = play(state, "robber 5")
    assert state.phase == "follower" and state.robbers == [None, 9, None, 5]


def test_the_active_player_may_move_a_robber_already_on_the_track():
    state = position([("D", 0, 0, "N")], seats=2, scores=[0, 7], robbers=[0, None], drawn="Er")
    state, _ = play(state, "at 0,-1", "turn S")
    # RED's robber stands on 0 (RED's own space now, BLUE moved away): it may move to 7.
    assert [a.encode() for a in GAME.legal_actions(state, RED)] == ["robber 7", "pass"]
    state, events = play(state, "robber 7")
    assert "carcassonne.event.robber_moved" in ids(events)


def test_robbing_in_play_through_a_tile_that_completes_two_features():
    # Example 1 on a real board: RED's tile completes a road (3) and a city (4); BLUE's robber
    # beside RED halves the road.
    tiles = [("A", -1, 0, "W"), ("D", 0, 0, "N"), ("E", 1, -1, "S")]
    meeples = [(RED, (0, 0), "road1"), (RED, (1, -1), "city1")]
    state = position(tiles, meeples=meeples, scores=[10, 20], robbers=[None, 10], drawn="L")
    state, events = play(state, "at 1,0", "turn N", "skip")
    assert state.scores == [17, 22] and state.robbers == [None, None]
    assert "carcassonne.event.robbed" in ids(events)


def test_footnote_6_and_12_last_tile_scores_then_robbers_score_three_then_final():
    tiles = [("D", 0, 0, "N")]
    state = position(tiles, meeples=[(BLUE, (0, 0), "road1")], scores=[10, 20], robbers=[20, 10],
                     drawn="E", pile=[])
    state, events = play(state, "at 0,-1", "turn S", "follower city1")
    # The last tile's city scores first (RED 4, robbed by BLUE: 2), then robbers still out score
    # 3 (RED's), then the final scoring (BLUE's road 1).
    assert state.phase == "over"
    order = ids(events)
    assert order.index("carcassonne.event.robbed") < order.index("carcassonne.event.robber_end") \
        < order.index("carcassonne.event.final")
    assert state.scores == [10 + 4 + 3, 20 + 2 + 1]
    assert state.robbers == [None, None]


def test_a_crowded_space_is_labelled_by_count_to_keep_buttons_short():
    state = position([("D", 0, 0, "N")], seats=4, drawn="Er")
    state, _ = play(state, "at 0,-1", "turn S")
    label = GAME.describe(state, RED, Action("robber", ("0",)))
    assert label.id == "carcassonne.label.robber_many" and label.params["count"] == 3
    from i18n import translate

    assert translate(label, "de") == "Räuber auf Feld 0 (3 Spieler)"
