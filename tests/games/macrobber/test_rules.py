"""Mac Robber rules: set-up, every action's limits, the bard, estates paid from the courtyard,
hand size following warriors, every raid outcome, the worked scoring examples of the rule text,
Biggest Following, both ways the game ends and the tie-breaker option."""
from __future__ import annotations

import random

import pytest

from games.core import Action, GameError, IllegalAction, NotYourTurn
from games.macrobber.data import CUBES, ESTATE_NUMBERS
from i18n import translate
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

# -- set-up -----------------------------------------------------------------------------

@pytest.mark.parametrize("players,score,aside", [(3, 2, [8, 4, 0, 0]), (4, 5, [4, 2, 0, 0]), (5, 8, [0, 0, 0, 0])])
def test_setup(players, score, aside):
    state = fresh(players)
    assert state.scores == [score] * players
    assert state.aside == aside
    assert all(yard == [4, 2, 0, 0] for yard in state.courtyards)
    assert all(estates == ["cattle", ""] for estates in state.estates)
    assert all(len(hand) == 4 for hand in state.hands)
    assert len(state.deck) == 67 - 4 * players
    assert sorted(state.supply) == sorted(ESTATE_NUMBERS) and len(state.supply) == 25
    assert sum(state.display) == 6 and state.phase == "act" and GAME.to_act(state) == {0}
    in_play = [CUBES[c] - aside[c] for c in range(4)]
    assert sum(state.bag) + 6 == sum(in_play) - players * 7
    check(state)


def test_options_are_checked():
    assert fresh(3, tiebreak="cubes").tiebreak
    with pytest.raises(GameError):
        fresh(3, tiebreak="dice")


# -- actions ----------------------------------------------------------------------------

def test_at_most_four_display_cubes_and_no_action_twice():
    state = fresh(4)
    set_display(state, g=6)
    assert "monastery" in labels(state, 0) and "monks 2" in labels(state, 0)
    state, _ = move(state, 0, "monastery")
    # 3 used: only one more green may be used, and never a second monastery
    assert labels(state, 0) == ["monks 1", "done"]
    state, _ = move(state, 0, "monks 1")
    assert state.phase == "raid" and state.courtyards[0][2] == 1 and state.estates[0] == ["cattle", "monastery"]
    assert state.display == [0, 0, 0, 0]  # the unused cubes went back to the bag
    check(state)


def test_same_action_not_twice():
    state = fresh(4)
    set_display(state, y=2, b=2, g=2)
    state, _ = move(state, 0, "warrior")
    assert "warrior" not in labels(state, 0) and "piper" in labels(state, 0)


def test_cattle_castle_monastery_need_a_free_estate():
    state = fresh(4)
    set_estates(state, 0, ["cattle", "castle"])
    set_display(state, b=2, g=3, r=1)
    assert not {"cattle", "castle", "monastery"} & set(labels(state, 0))


def test_bard_stands_alone_and_is_never_second():
    state = fresh(4)
    set_display(state, y=1, b=3, g=2)
    assert "bard 1" in labels(state, 0)
    after, _ = move(state, 0, "warrior")
    assert not any(a.startswith("bard") for a in labels(after, 0))
    after, _ = move(state, 0, "bard 1")
    assert after.phase == "bard"
    after, _ = move(after, 0, "take b -")
    assert after.phase == "raid"  # no second action after a bard


def test_last_player_of_the_round_has_one_action():
    state = fresh(3)
    state.turn = 2  # seat 2 is the last of the round
    set_display(state, y=2, b=2, g=2)
    state, _ = move(state, 2, "warrior")
    assert state.phase == "raid"


def test_no_more_than_six_estates_and_not_without_supply():
    state = fresh(4)
    set_estates(state, 0, ["cattle", "", "", "", "", ""])
    set_display(state, y=2, r=2, g=2)
    assert not any(a.startswith("estate") for a in labels(state, 0))
    state = fresh(4)
    set_display(state, y=2, r=2, g=2)
    state.removed_hidden += len(state.supply)
    state.supply = []
    assert not any(a.startswith("estate") for a in labels(state, 0))


def test_estate_from_the_display():
    state = fresh(4)
    set_display(state, y=1, r=1, b=4)
    bag = sum(state.bag)
    assert "estate red -" in labels(state, 0)
    assert "estate green -" not in labels(state, 0)
    state, _ = move(state, 0, "estate red -")
    assert state.estates[0] == ["cattle", "", ""] and len(state.supply) == 24
    assert state.used == 2
    check(state)
    state, _ = move(state, 0, "done")
    assert sum(state.bag) == bag + 6  # the price and the unused cubes all go to the bag


def test_estate_paid_partly_from_the_courtyard_and_hand_follows_warriors():
    state = fresh(4)
    set_yard(state, 0, y=5, b=2, g=2)
    set_display(state, b=4, g=1, r=1)
    options = labels(state, 0)
    # yellow must come from the courtyard (none in the display); green partly or wholly too
    assert "estate red y" in options and "estate green yg" in options and "estate green ygg" in options
    assert "estate red -" not in options and "estate green y" not in options
    state, _ = move(state, 0, "estate green ygg")
    assert state.courtyards[0] == [4, 2, 0, 0] and state.used == 0
    assert state.owed[0] == 1 and GAME.to_act(state) == {0}  # 5 cards, 4 warriors: discard one
    assert all(a.verb == "discard" for a in GAME.legal_actions(state, 0))
    card = state.hands[0][0]
    state, events = move(state, 0, f"discard {card}")
    assert len(state.hands[0]) == 4 and state.owed[0] == 0
    assert any(e.seat == 0 for e in events) and any(e.seat is None for e in events)
    check(state)


def test_estate_never_leaves_fewer_than_three_warriors():
    state = fresh(4)
    set_yard(state, 0, y=3, b=2, g=2)
    set_display(state, b=4, g=1, r=1)
    assert not any(a.startswith("estate") for a in labels(state, 0))


def test_warrior_draws_a_card_at_once():
    state = fresh(4)
    set_display(state, y=1, b=5)
    state, events = move(state, 0, "warrior")
    assert len(state.hands[0]) == 5
    assert [e for e in events if e.seat == 0]  # the drawn card is told only to the player


# -- the bard ---------------------------------------------------------------------------

def test_bard_limits():
    state = fresh(4)
    set_display(state, b=1, y=5)
    set_yard(state, 1, y=3, b=1, g=1)
    state, _ = move(state, 0, "bard 1")
    takes = labels(state, 0)
    # never a warrior below 3; always two different colours
    assert not any(" y" in a for a in takes)
    assert sorted(takes) == sorted(["take b g", "take b -", "take g b", "take g -"])
    state, _ = move(state, 0, "take g b")
    assert state.courtyards[1] == [3, 0, 0, 0] and state.courtyards[0] == [4, 2, 1, 0]
    check(state)


def test_bard_taking_a_warrior_changes_both_hands():
    state = fresh(4)
    set_display(state, b=1, y=5)
    set_yard(state, 2, y=5, b=0, g=0)
    state, _ = move(state, 0, "bard 2")
    assert labels(state, 0) == ["take y -"]
    state, _ = move(state, 0, "take y -")
    assert len(state.hands[0]) == 5 and state.courtyards[2][0] == 4
    assert state.owed[2] == 1 and GAME.to_act(state) == {2}
    state, _ = move(state, 2, f"discard {state.hands[2][0]}")
    assert GAME.to_act(state) == {0} and state.phase == "raid"


def test_no_bard_at_a_courtyard_with_nothing_to_take():
    state = fresh(4)
    set_display(state, b=1, y=5)
    set_yard(state, 3, y=3, b=0, g=0)
    assert "bard 3" not in labels(state, 0) and "bard 1" in labels(state, 0)


# -- raids ------------------------------------------------------------------------------

def raid_position(attacker_cards, defender_cards, defender_estates=("cattle", ""), attacker_estates=("cattle", "")):
    state = fresh(4)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    set_yard(state, 0, y=3, b=2)
    set_yard(state, 1, y=3, b=2)
    set_hand(state, 0, attacker_cards)
    set_hand(state, 1, defender_cards)
    set_estates(state, 1, list(defender_estates))
    set_estates(state, 0, list(attacker_estates))
    state.scores = [10, 10, 10, 10]
    check(state)
    return move(state, 0, "raid 1")[0]


def fight(state, rounds):
    for a, d in rounds:
        state, events = move(state, 0, a)
        assert "a_card" in state.raid and GAME.to_act(state) == {1}
        state, events = move(state, 1, d)
    return state


def test_raid_attacker_wins_and_steals_cattle_onto_a_free_estate():
    state = raid_position([4, 4, 1], [1, 2, 4])
    state = fight(state, [("play 4", "play 1"), ("play 4", "play 2"), ("play 1", "play 4")])
    assert state.phase == "plunder"
    assert labels(state, 0) == ["plunder cattle", "plunder none"]
    state, _ = move(state, 0, "plunder cattle")
    assert state.scores[0] == 11 and state.estates[0] == ["cattle", "cattle"] and state.estates[1] == ["", ""]
    # both drew 5 and must discard 2
    assert state.owed[0] == 2 and state.owed[1] == 2 and GAME.to_act(state) == {0, 1}
    for seat in (0, 1):
        for _ in range(2):
            state, _ = move(state, seat, f"discard {state.hands[seat][0]}")
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 3
    check(state)


def test_stolen_cattle_goes_to_the_bag_without_a_free_estate_and_castles_come_down():
    state = raid_position([4, 4, 4], [1, 1, 1], defender_estates=("cattle", "castle"),
                          attacker_estates=("cattle", "castle"))
    state = fight(state, [("play 4", "play 1")] * 3)
    after, _ = move(state, 0, "plunder cattle")
    # the cattle left the defender's estate and, with no free estate, went to the bag
    assert after.estates[0] == ["cattle", "castle"] and after.estates[1] == ["", "castle"]
    assert sum(e.count("cattle") for e in after.estates) == sum(e.count("cattle") for e in state.estates) - 1
    after, _ = move(state, 0, "plunder castle")
    assert after.estates[1] == ["cattle", ""] and after.scores[0] == 11
    check(after)


def test_raid_on_a_clan_with_nothing_to_take_gives_two_points():
    state = raid_position([4, 4, 4], [1, 1, 1], defender_estates=("", ""))
    state = fight(state, [("play 4", "play 1")] * 3)
    assert state.scores[0] == 12 and state.scores[1] == 10 and state.phase != "plunder"


def test_defender_wins_two_and_attacker_loses_one():
    state = raid_position([1, 1, 4], [4, 4, 1])
    state = fight(state, [("play 1", "play 4"), ("play 1", "play 4"), ("play 4", "play 1")])
    assert state.scores[:2] == [9, 12]


def test_pipers_count_one_and_go_to_the_bag_and_a_tie_gives_the_attacker_one():
    state = raid_position([3, 2, 2], [4, 2, 2])
    blue = state.bag[1]
    state = fight(state, [("play 3 piper", "play 4"), ("play 2", "play 2"), ("play 2 piper", "play 2 piper")])
    assert [r for r in state.raid["rounds"]] == [[3, True, 4, False], [2, False, 2, False], [2, True, 2, True]]
    assert state.courtyards[0][1] == 0 and state.courtyards[1][1] == 1 and state.bag[1] == blue + 3
    assert state.scores[:2] == [11, 10]


def test_the_face_down_card_is_secret_until_the_defender_plays():
    import json

    state = raid_position([4, 3, 1], [1, 2, 4])
    state, events = move(state, 0, "play 4 piper")
    for viewer in (None, 1, 2, 3):
        view = GAME.view(state, viewer)
        assert view["raid"]["played"] and "face_down" not in json.dumps(view)
        assert view["raid"]["rounds"] == []
    assert GAME.view(state, 0)["private"]["face_down"] == 4
    public = [translate(e.text, "en", ["A", "B", "C", "D"]) for e in events if e.seat is None]
    assert public == ["A plays a card face down with a piper."]


def test_exchange_up_to_three_cards():
    state = fresh(4)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    set_hand(state, 0, [1, 1, 1, 2, 3])
    state, _ = move(state, 0, "exchange")
    for _ in range(3):
        state, _ = move(state, 0, "toss 1")
    assert labels(state, 0) == ["draw"]
    state, _ = move(state, 0, "draw")
    assert len(state.hands[0]) == 5 and state.turn == 1 and GAME.to_act(state) == {1}


# -- scoring (the worked examples of the rule text) -------------------------------------

def scoring_position(players=4):
    state = fresh(players)
    for seat in range(players):
        set_estates(state, seat, ["", ""])
        set_yard(state, seat, y=4, b=0, g=0)
    return state


def test_ralf_and_peters_blue_cubes():
    state = scoring_position()
    ralf, peter, uwe = 0, 1, 2
    set_yard(state, ralf, b=3)
    set_estates(state, ralf, ["castle", "castle"])
    set_estates(state, peter, ["cattle", "cattle", "cattle"])
    set_yard(state, peter, b=3)
    set_estates(state, uwe, ["cattle", "cattle"])
    rows, _ = GAME.round_scores(state)
    assert rows[ralf]["blue"] == 4   # 7 blue - Peter's 3 cattle
    assert rows[peter]["blue"] == 1  # 3 blue - Uwe's 2 cattle (not his own)
    check(state)


def test_green_sole_first_and_second():
    state = scoring_position()
    set_yard(state, 0, g=3)
    set_estates(state, 1, ["monastery", ""])  # a monastery counts 3 green
    set_yard(state, 1, g=1)
    set_yard(state, 2, g=1)
    rows, _ = GAME.round_scores(state)
    assert [r["green"] for r in rows] == [2, 3, 0, 0]


def test_green_tie_for_most_gives_one_each_and_no_second():
    state = scoring_position()
    set_yard(state, 0, g=2)
    set_yard(state, 1, g=2)
    set_yard(state, 2, g=1)
    rows, _ = GAME.round_scores(state)
    assert [r["green"] for r in rows] == [1, 1, 0, 0]


def test_green_tie_for_second_gives_one_each():
    state = scoring_position()
    set_yard(state, 0, g=3)
    set_yard(state, 1, g=1)
    set_yard(state, 2, g=1)
    rows, _ = GAME.round_scores(state)
    assert [r["green"] for r in rows] == [3, 1, 1, 0]


def test_red_one_each_and_two_for_the_sole_most():
    state = scoring_position()
    set_estates(state, 0, ["cattle", "cattle"])
    set_estates(state, 1, ["cattle", ""])
    rows, _ = GAME.round_scores(state)
    assert [r["red"] for r in rows] == [4, 1, 0, 0]
    set_estates(state, 1, ["cattle", "cattle"])
    rows, _ = GAME.round_scores(state)
    assert [r["red"] for r in rows] == [2, 2, 0, 0]


def test_biggest_following():
    state = scoring_position()
    set_yard(state, 2, y=6, b=0)
    assert GAME.round_scores(state)[1] == 2
    # tie on warriors: most courtyard cubes decides
    set_yard(state, 1, y=6, b=1)
    assert GAME.round_scores(state)[1] == 1
    # still tied: the holder keeps it, even if not one of the tied players
    set_yard(state, 2, y=6, b=1)
    state.follower = 3
    assert GAME.round_scores(state)[1] == 3


def test_biggest_following_may_redraw_once():
    state = fresh(4)
    state.follower = 1  # seat 1 holds Biggest Following; seat 0 finishes its turn first
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    state, _ = move(state, 0, "exchange")
    state, _ = move(state, 0, "draw")
    assert state.phase == "redraw" and GAME.to_act(state) == {1}
    set_display(state, y=5, r=1)
    assert labels(state, 1) == ["mark y", "mark r", "keep"]
    state, _ = move(state, 1, "mark r")
    assert "mark r" not in labels(state, 1)  # no more marks than cubes of that colour
    state, _ = move(state, 1, "mark y")
    assert "redraw" in labels(state, 1) and "keep" in labels(state, 1) and "unmark" in labels(state, 1)
    assert GAME.describe(state, 1, Action("redraw")).params["count"] == 2
    before = sum(state.bag)
    state, events = move(state, 1, "redraw")
    assert state.phase == "act" and sum(state.display) == 6 and sum(state.bag) == before
    assert state.redrawn and not any(a.startswith(("mark", "redraw")) for a in labels(state, 1))
    check(state)


def test_a_round_is_scored_and_told_per_player():
    state = fresh(3)
    for seat in range(3):
        state.turn = seat
        set_display(state, y=1, b=5)
        state, _ = move(state, seat, "warrior")
        if state.phase == "act":
            state, _ = move(state, seat, "done")
        state, _ = move(state, seat, "exchange")
        state, events = move(state, seat, "draw")
    lines = [translate(e.text, "en", ["A", "B", "C"]) for e in events if e.seat is None]
    assert "A: green 0, red 1, blue 1 = +2 (now 4)." in lines
    assert state.round == 2 and state.start == 1 and state.last_scoring["round"] == 1


# -- the end ----------------------------------------------------------------------------

def test_one_round_won_and_two_undecided_wins_the_raid():
    """"The player who wins the most rounds of combat wins the raid": one round won and two
    undecided (ties) is the attacker's win, not a tied raid."""
    state = raid_position([4, 2, 2], [1, 2, 2], defender_estates=("cattle", ""))
    state = fight(state, [("play 4", "play 1"), ("play 2", "play 2"), ("play 2", "play 2")])
    assert state.phase == "plunder"  # the attacker won: a point and something to take
    state, _ = move(state, 0, "plunder cattle")
    assert state.scores[:2] == [11, 10]
    state = raid_position([2, 2, 1], [2, 2, 4], defender_estates=("cattle", ""))
    state = fight(state, [("play 2", "play 2"), ("play 2", "play 2"), ("play 1", "play 4")])
    assert state.scores[:2] == [9, 12]  # the defender's one round wins the raid for them


def end_of_round_position(leader_score, number):
    state = fresh(3)
    state.turn = 2
    state.scores = [leader_score - 10, leader_score - 20, leader_score - 8]
    state.supply.remove(number)
    state.supply.insert(0, number)
    set_display(state, y=1, b=5)
    state, _ = move(state, 2, "warrior")
    state, _ = move(state, 2, "exchange")
    rows, _ = GAME.round_scores(state)
    # after this round's scoring: seat 2 leads with exactly leader_score
    state.scores = [leader_score - 10 - rows[0]["total"], leader_score - 20 - rows[1]["total"],
                    leader_score - rows[2]["total"]]
    return state


def test_game_ends_when_the_estate_number_equals_the_leaders_score():
    state = end_of_round_position(35, 35)
    state, events = move(state, 2, "draw")
    assert state.scores[2] == 35 and state.phase == "over" and state.end == "estate"
    lines = [translate(e.text, "en", ["A", "B", "C"]) for e in events if e.seat is None]
    assert "The estate removed shows 35, not above the leader's 35: the game ends." in lines


def test_revealed_number_not_above_the_leader_ends_the_game():
    state = end_of_round_position(40, 30)
    state, events = move(state, 2, "draw")
    assert state.phase == "over" and state.end == "estate" and state.revealed == [30]
    outcome = GAME.outcome(state)
    assert outcome.winners == (2,)
    assert translate(outcome.reason, "de", ["A", "B", "C"]).startswith("C gewinnt")


def test_number_above_the_leader_plays_on_and_below_the_red_zone_stays_hidden():
    state = end_of_round_position(32, 42)
    state, _ = move(state, 2, "draw")
    assert state.phase != "over" and state.revealed == [42]
    state = end_of_round_position(29, 30)
    state, _ = move(state, 2, "draw")
    assert state.phase != "over" and state.revealed == [] and state.removed_hidden == 1
    assert GAME.view(state, None)["revealed"] == []


def test_game_ends_when_the_bag_cannot_give_six_cubes():
    state = fresh(3)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    state, _ = move(state, 0, "exchange")
    # all but 5 cubes leave the bag (set aside) before the next draw
    for c in range(4):
        state.aside[c] += state.bag[c]
        state.bag[c] = 0
    state.aside[0] -= 5
    state.bag[0] = 5
    state, events = move(state, 0, "draw")
    assert state.phase == "over" and state.end == "bag"
    assert GAME.outcome(state) is not None and GAME.to_act(state) == frozenset()


def test_leader_at_exactly_thirty_and_an_estate_of_thirty_ends_the_game():
    """"If the number is equal to or less than the victory point total of the leading player,
    the game ends immediately": 30 against a leader on exactly 30 ends it (30 is the red area's
    first space, so the number is revealed)."""
    state = end_of_round_position(30, 30)
    state, _ = move(state, 2, "draw")
    assert state.scores[2] == 30 and state.revealed == [30]
    assert state.phase == "over" and state.end == "estate"


@pytest.mark.parametrize("left,ends", [(6, False), (5, True)])
def test_a_bag_of_exactly_six_cubes_plays_on_and_five_ends(left, ends):
    """"If ... there are not enough cubes left in the bag for a player to draw 6, the game ends
    immediately": six cubes are enough for one more draw, five are not."""
    state = fresh(3)
    set_display(state, y=1, b=5)
    state, _ = move(state, 0, "warrior")
    state, _ = move(state, 0, "done")
    state, _ = move(state, 0, "exchange")
    for c in range(4):
        state.aside[c] += state.bag[c]
        state.bag[c] = 0
    state.aside[0] -= left
    state.bag[0] = left
    state, _ = move(state, 0, "draw")
    assert (state.phase == "over" and state.end == "bag") is ends
    assert (GAME.outcome(state) is not None) is ends
    if not ends:
        assert sum(state.display) + sum(state.bag) >= 6 or state.phase != "over"


def test_tie_is_shared_by_default_and_broken_by_the_option():
    for option, expected in ((None, (0, 1)), ("cubes", (1,))):
        state = fresh(3, tiebreak=option) if option else fresh(3)
        set_yard(state, 1, y=5)
        state.scores = [30, 30, 10]
        state.phase, state.winners = "over", GAME.winners(state)
        assert GAME.outcome(state).winners == expected


def test_refusals_are_typed():
    state = fresh(3)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Action("done"))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Action("castle", ("9",)))


# -- copies of a state --------------------------------------------------------------------

def test_a_copy_of_a_state_shares_nothing_it_could_change():
    """A clone (what a move changes) and a stored and reloaded state equal the state, and no
    list or dict of theirs is the state's own: changing one leaves the other as it was."""

    def containers(value, found):
        if isinstance(value, (list, dict)):
            found.append(value)
            for item in value.values() if isinstance(value, dict) else value:
                containers(item, found)
        return found

    state, rng = fresh(4), random.Random(3)
    for _ in range(120):
        if GAME.outcome(state) is not None:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for copy in (state.clone(), GAME.from_dict(GAME.to_dict(state))):
            assert copy == state
            own = {id(c) for key in vars(state) for c in containers(getattr(state, key), [])}
            assert not own & {id(c) for key in vars(copy) for c in containers(getattr(copy, key), [])}
