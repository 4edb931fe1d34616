"""Knatsch rules, scenario by scenario: the rule text's examples and every special rule.

Dice are scripted by giving the engine a dice source (the production engine draws from
`games.core.chance`); tables are built from JSON so they pass the engine's own validation.
"""
from __future__ import annotations

import json
import random

import pytest

from games.core import (
    Action,
    Automatic,
    GameOver,
    IllegalAction,
    InvalidState,
    NotYourTurn,
    automatic_decision,
    forced_decision,
)
from games.knatsch import GAME, KnatschGame
from games.knatsch.cards import CARDS, KING, likeness
from games.knatsch.dice import beats, evaluate, result_msg, result_text
from i18n import translate

# Seats in the rule book's example.
ANNA, BOB, CHRIS, DAVE = 0, 1, 2, 3
NAMES = ["Anna", "Bob", "Chris", "Dave", "Eve", "Fritz"]


def en(text) -> str:
    """Engine words (a Msg or its JSON) in English, strictly: an unknown id fails."""
    return translate(text, "en", NAMES, strict=True)


def de(text) -> str:
    return translate(text, "de", NAMES, strict=True)


class Dice:
    """Scripted dice: each roll takes the next values, one per die rolled."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)

    def __call__(self, count: int) -> list[int]:
        assert len(self.values) >= count, "the test ran out of scripted dice"
        taken, self.values = self.values[:count], self.values[count:]
        return taken


def engine(*dice: int) -> KnatschGame:
    return KnatschGame(dice_source=Dice(*dice))


def table(seats: int, holdings: list[list[str]], stack1=(), stack2=(), *, active: int = 0,
          castle_guard=None, special_guard=None, **fields):
    """A state with these holdings and these cards on top of the stacks; every other card goes
    below them (alternately), in id order."""
    data = GAME.to_dict(GAME.new_game(seats, seed=1))
    placed = {cid for held in holdings for cid in held} | set(stack1) | set(stack2)
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(
        holdings=[list(h) for h in holdings],
        stacks=[list(stack1) + rest[0::2], list(stack2) + rest[1::2]],
        castle_guard=castle_guard or [[] for _ in range(seats)],
        special_guard=special_guard or [None] * seats,
        active=active, **fields,
    )
    return GAME.from_dict(json.loads(json.dumps(data)))


def play(game, state, *moves):
    """Apply (seat, action text) pairs; returns the final state and all events' texts in English."""
    texts = []
    for seat, text in moves:
        state, events = game.apply(state, seat, Action.parse(text))
        texts += [en(e.text) for e in events]
    return state, texts


def legal(state, seat, game=GAME) -> list[str]:
    return [a.encode() for a in game.legal_actions(state, seat)]


def targets(state, seat) -> set[str]:
    return {a.args[0] for a in GAME.legal_actions(state, seat) if a.verb == "target"}


def snapshot(state) -> str:
    return json.dumps(GAME.to_dict(state), sort_keys=True)


# ----------------------------------------------------------------------------------------
# Comparing results (the rule text's examples)


def test_a_card_of_three_3s_and_a_yellow_2_is_beaten_by_these():
    card = CARDS["C04"].combination.key  # blue 3-3-3+2
    assert card == (3, 3, 2)
    assert beats(evaluate([4, 4, 4, 1, 2, 6]), card)  # three 4s
    assert beats(evaluate([3, 3, 3, 4, 6, 6]), card)  # three 3s with a 4
    assert beats(evaluate([1, 1, 1, 1, 6, 6]), card)  # four 1s


def test_more_of_a_kind_beats_a_higher_value():
    assert evaluate([1, 1, 1, 1, 1, 6]) > evaluate([5, 5, 5, 5, 4, 6]) > evaluate([5, 5, 5, 4, 4, 4])


def test_a_trio_of_5s_beats_a_trio_of_4s():
    assert beats(evaluate([5, 5, 5, 1, 6, 6]), CARDS["C05"].combination.key)  # blue 4-4-4+2


def test_a_tie_is_decided_by_the_extra_value_and_an_equal_extra_fails():
    card = (3, 3, 2)
    assert not beats(evaluate([3, 3, 3, 1, 6, 6]), card)  # lower extra
    assert not beats(evaluate([3, 3, 3, 2, 6, 6]), card)  # equal extra: a tie loses
    assert not beats(evaluate([3, 3, 3, 2, 1, 6]), card)  # the extra is the highest other die
    assert beats(evaluate([3, 3, 3, 1, 5, 6]), card)  # higher extra wins
    assert not beats(evaluate([3, 3, 3, 6, 6, 6]), card)  # no other die at all: extra 0


def test_die_card_makes_a_pair_a_trio_and_can_be_the_extra():
    assert evaluate([4, 4, 1, 2, 6, 6], die_cards=[4]) == (3, 4, 2)
    assert evaluate([3, 3, 3, 1, 6, 6], die_cards=[5]) == (3, 3, 5)
    assert beats(evaluate([3, 3, 3, 1, 6, 6], die_cards=[5]), (3, 3, 2))


def test_sixes_are_worthless():
    assert evaluate([6, 6, 6, 6, 6, 6]) == (0, 0, 0)
    assert evaluate([6, 6, 6, 6, 2, 1]) == (1, 2, 1)
    assert result_text((3, 5, 2)) == "three 5s + 2"
    assert result_text((0, 0, 0)) == "nothing"


# ----------------------------------------------------------------------------------------
# The rule book's "example of several turns", one turn per test


def test_anna_puts_a_card_under_and_rolls_a_trio_of_5s_in_three_rolls():
    game = engine(5, 6, 2, 5, 6, 1,  # first roll: two sixes set aside, two 5s kept
                  6, 3,  # the other two dice again: another six
                  5)  # the last die, third and last roll
    state = table(4, [["C01"], ["C04"], ["C07"], ["C10"]], stack1=["T1", "C05"], stack2=["S01"])
    state, texts = play(game, state, (ANNA, "under 1"))
    assert state.stacks[0][0] == "C05" and state.stacks[0][-1] == "T1"
    assert "under 1" not in legal(state, ANNA)  # once per turn
    state, texts = play(game, state, (ANNA, "target C05"))
    assert state.roll.dice == [5, 6, 2, 5, 6, 1]
    rerolls = [a for a in legal(state, ANNA, game) if a.startswith("reroll")]
    assert len(rerolls) == 15 and not any("2" in a.split()[1].split(",") or "5" in a.split()[1].split(",")
                                          for a in rerolls)  # sixes at 2 and 5 are locked
    state, _ = play(game, state, (ANNA, "reroll 3,6"))
    assert state.roll.dice == [5, 6, 6, 5, 6, 3] and state.roll.rolls_used == 2
    state, texts = play(game, state, (ANNA, "reroll 6"))
    assert "C05" in state.holdings[ANNA]
    assert state.active == BOB and state.phase == "choose"
    assert any(": 5 6 6 5 6 5 → three 5s" in t for t in texts)


def test_bob_wins_a_stack_special_then_tries_annas_special_and_stops_early():
    game = engine(5, 5, 5, 5, 1, 2,  # beats the special at once
                  6, 6, 6, 6, 2, 3)  # four sixes: a trio is out of reach
    state = table(4, [["C01", "S12"], ["C04"], ["C07"], ["C10"]], stack1=["S09", "T1"],
                  stack2=["T2"], active=BOB)
    state, _ = play(game, state, (BOB, "target S09"))
    assert state.roll.rolls_used == 1 and "stop" in legal(state, BOB, game)
    state, texts = play(game, state, (BOB, "stop"))
    assert "S09" in state.holdings[BOB]
    assert state.active == BOB and state.bonus  # a further attempt
    assert "under 1" in legal(state, BOB) and "end" in legal(state, BOB)
    state, _ = play(game, state, (BOB, "under 1"))
    assert not any(a.startswith("under") for a in legal(state, BOB))
    assert "target S12" in legal(state, BOB)
    state, _ = play(game, state, (BOB, "target S12"))
    assert legal(state, BOB, game) == ["reroll 5", "reroll 6", "reroll 5,6", "stop"]
    state, texts = play(game, state, (BOB, "stop"))
    assert "S12" in state.holdings[ANNA]
    assert state.active == CHRIS


def test_chris_attacks_bobs_castle_and_bob_defends_it():
    game = engine(1, 2, 3, 4, 4, 5, 4, 6, 1, 2,  # Chris: three rolls, three 4s + 5 with her die card
                  2, 2, 1, 3, 4, 5, 2, 2, 6, 1)  # Bob defends in three rolls: four 2s + 1
    state = table(4, [["C01"], ["C04", "C10"], ["C07", "S02"], ["C13"]],
                  stack1=["S06"], stack2=["C08", "C09"], active=CHRIS)
    assert targets(state, CHRIS) == {"C04", "C10"}  # both tops are like Chris's cards; Anna has one castle
    state, _ = play(game, state, (CHRIS, "under 2"))
    assert targets(state, CHRIS) == {"C04", "C10"}
    state, _ = play(game, state, (CHRIS, "target C04"), (CHRIS, "reroll 1,2,3"),
                    (CHRIS, "reroll 3"))
    # [4, 6, 2, 4, 4, 5] and her die card 2: three 4s + 5 beats 3-3-3+2.
    assert state.roll.purpose == "defence" and GAME.to_act(state) == {BOB}
    assert state.roll.to_beat == [3, 4, 5]
    assert state.roll.rolls_allowed == 3
    state, texts = play(game, state, (BOB, "roll"), (BOB, "reroll 3,4,5"), (BOB, "reroll 6"))
    assert "C04" in state.holdings[BOB] and "C04" not in state.holdings[CHRIS]
    assert "Bob keeps the Blue castle." in texts
    assert state.active == DAVE


@pytest.mark.parametrize("defence, defended", [
    ((2, 5, 1, 5, 5, 5), False),  # four 5s + 2 in another order: the very same result, a tie
    ((3, 5, 1, 5, 5, 5), True),   # four 5s + 3: higher by the extra alone
])
def test_a_defence_must_roll_higher_than_the_attacker_and_a_tie_loses_the_castle(defence, defended):
    """"If he rolls higher than the attacker rolled, he defends his castle and keeps it.
    Otherwise, the attacker takes the castle." The same count, value and extra is not higher."""
    game = engine(5, 5, 5, 5, 1, 2,  # Anna: four 5s + 2 at once
                  *defence)
    state = table(3, [["C01"], ["C04", "C09"], ["C07"]])
    state, _ = play(game, state, (ANNA, "target C09"), (ANNA, "stop"))
    assert state.roll.purpose == "defence" and state.roll.to_beat == [4, 5, 2]
    state, texts = play(game, state, (BOB, "roll"), (BOB, "stop"))
    if defended:
        assert "C09" in state.holdings[BOB] and "C09" not in state.holdings[ANNA]
        assert texts == ["Bob: 3 5 1 5 5 5 → four 5s + 3", "Bob keeps the Green castle."]
    else:
        assert "C09" in state.holdings[ANNA] and "C09" not in state.holdings[BOB]
        assert texts == ["Bob: 2 5 1 5 5 5 → four 5s + 2", "Anna takes the Green castle."]
    assert state.active == BOB and state.phase == "choose"


def test_dave_organises_a_tournament_and_chris_wins_it():
    game = engine(3, 3, 1, 2, 6, 4, 1, 2, 5, 3, 1, 2,  # Dave: 4 rolls, ends with three 3s + 5
                  1, 1, 2, 4, 5, 6,  # Anna: below Dave
                  4, 4, 4, 1, 2, 3,  # Bob: three 4s, takes the lead
                  5, 5, 5, 1, 2, 3)  # Chris: three 5s, wins
    state = table(4, [["C01"], ["C04"], ["C07"], ["C10"]], stack1=["S01", "T3"], active=DAVE)
    state, _ = play(game, state, (DAVE, "under 1"), (DAVE, "target T3"))  # organising rolls at once
    assert state.roll.rolls_allowed == 4 and state.roll.to_beat is None and state.roll.rolls_used == 1
    state, _ = play(game, state, (DAVE, "reroll 3,4,6"), (DAVE, "reroll 3,4"))
    assert GAME.to_act(state) == {DAVE} and state.roll.rolls_used == 3  # a fourth roll is left
    state, _ = play(game, state, (DAVE, "reroll 4"))
    assert state.tournament.results == [[3, 3, 5]] and state.tournament.leader == DAVE
    assert GAME.to_act(state) == {ANNA} and state.roll.rolls_allowed == 3
    state, texts = play(game, state, (ANNA, "roll"), (ANNA, "stop"))
    assert state.tournament.leader == DAVE and GAME.to_act(state) == {BOB}
    state, _ = play(game, state, (BOB, "roll"), (BOB, "stop"))
    assert state.tournament.leader == BOB and GAME.to_act(state) == {CHRIS}
    state, texts = play(game, state, (CHRIS, "roll"), (CHRIS, "stop"))
    assert "T3" in state.holdings[CHRIS]
    assert state.active == ANNA and state.tournament is None
    assert any("wins the tournament" in t for t in texts)


def test_anna_fails_a_stack_special_and_it_goes_under():
    game = engine(1, 2, 3, 4, 5, 1, 1, 2, 3, 1, 2, 3)
    state = table(4, [["C01"], ["C04"], ["C07"], ["C10"]], stack1=["S12", "T1"])
    state, _ = play(game, state, (ANNA, "target S12"), (ANNA, "reroll 1,2,3"),
                    (ANNA, "reroll 1,2,3"))
    assert state.stacks[0][0] == "T1" and state.stacks[0][-1] == "S12"
    assert "S12" not in state.holdings[ANNA] and state.active == BOB


def test_bob_fails_against_chris_castle_and_there_is_no_defence():
    game = engine(1, 1, 2, 3, 4, 5, 1, 2, 3, 4, 1, 2, 3, 4)
    state = table(4, [["C01"], ["C04"], ["C07", "C14"], ["C10"]], active=BOB)
    state, texts = play(game, state, (BOB, "target C14"), (BOB, "reroll 3,4,5,6"),
                        (BOB, "reroll 3,4,5,6"))
    assert "C14" in state.holdings[CHRIS] and state.active == CHRIS and state.phase == "choose"


# ----------------------------------------------------------------------------------------
# Who may be attacked, and for what


def test_a_player_with_one_castle_cannot_be_attacked():
    state = table(3, [["C01"], ["C04", "S09"], ["C07", "C10"]])
    assert "C04" not in targets(state, 0)
    assert {"C07", "C10", "S09"} <= targets(state, 0)


def test_two_player_game_needs_three_castles_to_attack():
    state = table(2, [["C01"], ["C04", "C07"]])
    assert not {"C04", "C07"} & targets(state, 0)
    state = table(2, [["C01"], ["C04", "C07", "C10"]])
    assert {"C04", "C07", "C10"} <= targets(state, 0)


def test_tournaments_of_others_are_never_targets_and_stack_ones_always_are():
    state = table(3, [["C01", "T1"], ["C04", "C07", "T2"], ["C10"]], stack1=["T3"])
    found = targets(state, 0)
    assert "T3" in found and "T2" not in found


def test_no_double_cards_castles_by_arms_die_cards_by_value():
    state = table(3, [["C01", "S02"], ["C04", "C02", "S06", "S07"], ["C10"]],
                  stack1=["C03"], stack2=["S09"])
    found = targets(state, 0)
    assert "C03" not in found and "C02" not in found  # red, like C01
    assert "S06" not in found  # die card 2, like S02
    assert {"S07", "S09", "C04"} <= found


def test_castle_guard_protects_two_castles_and_can_itself_be_captured():
    state = table(3, [["C01"], ["C04", "C07", "C10", "S16"], ["C13"]],
                  castle_guard=[[], ["C04", "C07"], []])
    found = targets(state, 0)
    assert "C04" not in found and "C07" not in found
    assert {"C10", "S16"} <= found


def test_special_card_guard_protects_one_special():
    state = table(3, [["C01"], ["C04", "S09", "S12", "S19"], ["C13"]],
                  special_guard=[None, "S09", None])
    found = targets(state, 0)
    assert "S09" not in found and {"S12", "S19"} <= found


def test_guards_are_placed_when_captured_and_moved_on_the_owners_turn():
    game = engine(4, 4, 4, 4, 1, 2)
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]], stack1=["S16"], fresh=False,
                  unders_used=1)
    state, _ = play(game, state, (0, "target S16"), (0, "stop"))
    assert state.castle_guard[0] == ["C01", "C04"]  # the castles held longest
    assert GAME.view(state, None)["players"][0]["castle_guard"] == {"card": "S16", "covers": ["C01", "C04"]}
    guard_moves = [a for a in legal(state, 0) if a.startswith("guard")]
    assert guard_moves == ["guard S16 C01,C07", "guard S16 C04,C07"]
    state, _ = play(game, state, (0, "guard s16 C07,C01"))  # any order, any case
    assert state.castle_guard[0] == ["C01", "C07"]
    # Not on someone else's turn, and not while rolling.
    state, _ = play(game, state, (0, "end"))
    assert state.active == 1 and legal(state, 0) == []


def test_catapult_gives_four_rolls_only_against_an_opponents_castle():
    state = table(3, [["C01", "S09"], ["C04", "C07", "S12"], ["C13"]], stack1=["C10"])
    attack, _ = GAME.apply(state, 0, Action("target", ("C04",)))
    assert attack.roll.rolls_allowed == 4
    from_stack, _ = GAME.apply(state, 0, Action("target", ("C10",)))
    assert from_stack.roll.rolls_allowed == 3
    special, _ = GAME.apply(state, 0, Action("target", ("S12",)))
    assert special.roll.rolls_allowed == 3


def test_catapult_attacker_rolls_four_times_and_defender_three():
    game = engine(1, 2, 3, 4, 1, 2, 2, 2, 2, 2, 3, 2)
    state = table(3, [["C01", "S09"], ["C04", "C07"], ["C13"]])
    state, _ = play(game, state, (0, "target C04"), (0, "reroll 1,2,3,4"), (0, "reroll 5"))
    assert state.roll.purpose == "capture" and state.roll.rolls_used == 3 and GAME.to_act(state) == {0}
    state, _ = play(game, state, (0, "reroll 5"))  # the fourth roll: six 2s
    assert state.roll.purpose == "defence" and state.roll.rolls_allowed == 3
    assert state.roll.to_beat == [6, 2, 0]


def test_champion_rolls_four_times_in_someone_elses_tournament():
    game = engine(*([1, 2, 3, 4, 5, 6] * 3))
    state = table(3, [["C01"], ["C04", "S12"], ["C07"]], stack1=["T1"])
    state, _ = play(game, state, (0, "target T1"), (0, "stop"))
    assert GAME.to_act(state) == {1} and state.roll.rolls_allowed == 4
    state, _ = play(game, state, (1, "roll"), (1, "stop"))
    assert GAME.to_act(state) == {2} and state.roll.rolls_allowed == 3


def test_tournament_ties_keep_the_earlier_leader():
    game = engine(*([3, 3, 3, 1, 2, 6] * 3))
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["T1"])
    state, _ = play(game, state, (0, "target T1"), (0, "stop"), (1, "roll"), (1, "stop"),
                    (2, "roll"), (2, "stop"))
    assert "T1" in state.holdings[0]


def test_betrayal_makes_stack_castles_2_2_2_plus_4_but_not_opponents_castles():
    state = table(3, [["C01", "S22"], ["C04", "C09"], ["C13"]], stack1=["C06"], stack2=["C15"])
    from_stack, texts = GAME.apply(state, 0, Action("target", ("C06",)))  # blue 5-5-5+2
    assert from_stack.roll.to_beat == [3, 2, 4]
    easy, _ = GAME.apply(state, 0, Action("target", ("C15",)))  # black 1-1-1+5 is easier already
    assert easy.roll.to_beat == [3, 1, 5]
    rival, _ = GAME.apply(state, 0, Action("target", ("C09",)))  # green 3-3-3+5
    assert rival.roll.to_beat == [3, 3, 5]


def test_failed_and_successful_capture_from_a_stack_with_betrayal():
    game = engine(2, 2, 2, 5, 1, 6)
    state = table(3, [["C01", "S22"], ["C04"], ["C13"]], stack1=["C06"])
    state, _ = play(game, state, (0, "target C06"), (0, "stop"))
    assert "C06" in state.holdings[0]


# ----------------------------------------------------------------------------------------
# Putting cards under a stack


def test_stack_card_allows_two_moves_under_a_stack():
    state = table(3, [["C01", "S13"], ["C04"], ["C07"]], stack1=["T1", "T2"], stack2=["T3", "T4"])
    state, _ = play(GAME, state, (0, "under 1"))
    assert "under 2" in legal(state, 0)
    state, _ = play(GAME, state, (0, "under 2"))
    assert not any(a.startswith("under") for a in legal(state, 0))
    assert [state.stacks[0][0], state.stacks[1][0]] == ["T2", "T4"]


def test_a_stack_card_captured_mid_turn_gives_its_second_move_at_once():
    game = engine(3, 3, 3, 3, 1, 2)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["T1", "S13"], stack2=["T3", "T4"])
    state, _ = play(game, state, (0, "under 1"), (0, "target S13"), (0, "stop"))
    assert state.bonus and "under 2" in legal(state, 0)


def test_special_case_keep_putting_cards_under_until_one_can_be_targeted():
    # Both tops are red castles like Anna's, the others hold one castle each, the move is used.
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C02", "C10"], stack2=["C03", "S01"],
                  unders_used=1, fresh=False)
    assert legal(state, 0) == ["under 1", "under 2"]
    state, texts = play(GAME, state, (0, "under 1"))
    assert texts[0] == "Anna: Red castle must go under."
    assert legal(state, 0) == ["target C10"]  # allowance used and a target exists


def test_turn_passes_when_nothing_can_ever_be_targeted():
    # Anna owns one card of every special kind and red, blue and green castles; every other
    # castle sits with an opponent who has one castle or two guarded ones; the tournaments
    # are all held. Nothing anywhere can be captured by her.
    anna = ["C01", "C04", "C07", "S01", "S02", "S03", "S04", "S05", "S09", "S12", "S13", "S16",
            "S19", "S22", "S23"]
    others = [["C10", "C13", "S17", "T1", "T2"], ["C11", "C14", "S18", "T3", "T4"],
              ["C12", "T5", "T6"], ["C15", "T7", "T8"], ["C16", "T9"]]
    state = table(6, [anna, *others], stack1=["C02", "S06"], stack2=["C03", "S07"],
                  castle_guard=[["C01", "C04"], ["C10", "C13"], ["C11", "C14"], [], [], []],
                  special_guard=["S01", None, None, None, None, None],
                  unders_used=1, fresh=False)
    assert legal(state, 0)[:1] == ["under 1"]  # the Stack card's second move is still open
    state, texts = play(GAME, state, (0, "under 1"))
    assert any("cannot roll for any card" in t for t in texts)
    assert state.active == 1


# ----------------------------------------------------------------------------------------
# The king, and winning


def test_king_can_be_challenged_only_at_the_start_of_a_turn_with_three_castles():
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]], stack1=["T1", "T2"])
    assert legal(state, 0)[0] == "topple"
    state_after_under, _ = play(GAME, state, (0, "under 1"))
    assert "topple" not in legal(state_after_under, 0)
    two = table(3, [["C01", "C04"], ["C10"], ["C13"]])
    assert "topple" not in legal(two, 0)


def test_toppling_the_king_wins():
    game = engine(5, 5, 5, 5, 2, 1)  # four 5s + 2 beats four 5s + 1
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]])
    state, texts = play(game, state, (0, "topple"))
    assert state.roll.to_beat == list(KING.key)
    state, texts = play(game, state, (0, "stop"))
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.details["kind"] == "king"
    assert outcome.scores == (3, 1, 1)
    assert outcome.reason.id == "knatsch.reason.king" and outcome.reason.params["player"].seat == 0
    assert en(outcome.reason) == "Anna toppled the king while holding three castles."
    assert de(outcome.reason) == "Anna hat mit drei Burgen den König gestürzt."


def test_the_kings_revenge_costs_a_castle_of_your_choice_under_a_stack_of_your_choice():
    game = engine(5, 5, 5, 5, 1, 6)  # four 5s + 1: a tie with the king fails
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]])
    state, texts = play(game, state, (0, "topple"), (0, "stop"))
    assert state.phase == "revenge" and GAME.to_act(state) == {0}
    assert legal(state, 0) == ["lose C01 1", "lose C01 2", "lose C04 1", "lose C04 2",
                               "lose C07 1", "lose C07 2"]
    state, texts = play(game, state, (0, "lose C04 2"))
    assert "C04" not in state.holdings[0] and state.stacks[1][-1] == "C04"
    assert state.active == 1


def test_protection_spares_the_kings_revenge():
    game = engine(1, 2, 3, 4, 5, 6)
    state = table(3, [["C01", "C04", "C07", "S23"], ["C10"], ["C13"]])
    state, texts = play(game, state, (0, "topple"), (0, "stop"))
    assert len(state.cards_of(0, "castle")) == 3 and state.active == 1
    assert any("Protection" in t for t in texts)


def test_four_different_castles_win():
    game = engine(5, 5, 5, 5, 1, 2)
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]], stack1=["C14"], fresh=False)
    state, texts = play(game, state, (0, "target C14"), (0, "stop"))
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.details["kind"] == "four_castles"
    assert GAME.to_act(state) == frozenset() and GAME.legal_actions(state, 0) == []


def test_two_castles_and_three_tournaments_win_even_on_someone_elses_tournament():
    game = engine(1, 2, 3, 4, 5, 6, 5, 5, 5, 1, 2, 3, 1, 2, 3, 4, 5, 6)
    state = table(3, [["C01"], ["C04", "C07", "T1", "T2"], ["C13"]], stack1=["T3"])
    state, _ = play(game, state, (0, "target T3"), (0, "stop"), (1, "roll"), (1, "stop"))
    # The last player still rolls, then the winner is known.
    assert GAME.outcome(state) is None
    state, _ = play(game, state, (2, "roll"), (2, "stop"))
    outcome = GAME.outcome(state)
    assert outcome.winners == (1,) and outcome.details["kind"] == "tournaments"


def test_the_attacker_who_takes_a_fourth_castle_wins():
    game = engine(5, 5, 5, 5, 1, 2, 1, 2, 3, 4, 6, 6)
    state = table(3, [["C01", "C04", "C07"], ["C10", "C13"], ["C16"]], fresh=False)
    state, _ = play(game, state, (0, "target C13"), (0, "stop"), (1, "roll"), (1, "stop"))
    assert GAME.outcome(state).winners == (0,)


# ----------------------------------------------------------------------------------------
# Errors, storage, hidden information


def test_errors_leave_the_state_unchanged():
    state = GAME.new_game(3, seed=4)
    before = snapshot(state)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, Action("roll"))
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, 0, Action("roll"))
    assert "not a legal move" in str(refused.value)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Action("target", ("C99",)))
    with pytest.raises(IllegalAction):
        GAME.apply(state, 0, Action("reroll", ("x,y",)))
    assert snapshot(state) == before

    game = engine(5, 5, 5, 5, 1, 2)
    won = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]], stack1=["C14"], fresh=False)
    won, _ = play(game, won, (0, "target C14"), (0, "stop"))
    before = snapshot(won)
    with pytest.raises(GameOver):
        GAME.apply(won, 0, Action("topple"))
    assert snapshot(won) == before


def test_reroll_positions_may_be_given_in_any_order():
    game = engine(1, 2, 3, 4, 5, 1, 4, 4)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["T1"])
    state, _ = play(game, state, (0, "target T1"), (0, "reroll 5,1"))
    assert state.roll.dice == [4, 2, 3, 4, 4, 1]
    spaced, _ = play(engine(1, 2, 3, 4, 5, 1, 4, 4), table(3, [["C01"], ["C04"], ["C07"]], stack1=["T1"]),
                     (0, "target T1"), (0, "reroll 5 1"))
    assert spaced.roll.dice == [4, 2, 3, 4, 4, 1]


def test_round_trip_and_corrupt_states():
    state = GAME.new_game(5, seed=11)
    rng = random.Random(3)
    for _ in range(200):
        if GAME.outcome(state):
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        data = json.loads(json.dumps(GAME.to_dict(state)))
        assert GAME.to_dict(GAME.from_dict(data)) == data
    data = GAME.to_dict(state)
    broken_cases = [
        {**data, "stacks": [data["stacks"][0], data["stacks"][1][1:]]},  # a card went missing
        {**data, "active": 9},
        {**data, "phase": "dancing"},
        {**data, "holdings": data["holdings"][:-1]},
        {**data, "castle_guard": [["C99"]] + data["castle_guard"][1:]},
        {**data, "format": 99},
        [],
    ]
    for broken in broken_cases:
        with pytest.raises(InvalidState):
            GAME.from_dict(broken)


def test_new_game_deals_one_castle_of_distinct_arms_and_two_even_stacks():
    for seats in range(2, 7):
        state = GAME.new_game(seats, seed=seats)
        arms = [CARDS[h[0]].arms for h in state.holdings]
        assert all(len(h) == 1 and CARDS[h[0]].kind == "castle" for h in state.holdings)
        assert len(set(arms)) == seats
        sizes = [len(s) for s in state.stacks]
        assert sum(sizes) == 48 - seats and abs(sizes[0] - sizes[1]) <= 1
    assert snapshot(GAME.new_game(4, seed=9)) == snapshot(GAME.new_game(4, seed=9))
    assert snapshot(GAME.new_game(4, seed=9)) != snapshot(GAME.new_game(4, seed=10))


def test_views_show_only_stack_tops_and_hidden_variant_changes_only_the_order_below():
    state = GAME.new_game(4, seed=2)
    variant = GAME.hidden_variant(state, None, random.Random(1))
    assert variant.stacks != state.stacks
    assert [s[0] for s in variant.stacks] == [s[0] for s in state.stacks]
    assert sorted(map(sorted, variant.stacks)) == sorted(map(sorted, state.stacks))
    for viewer in (None, 0, 1, 2, 3):
        assert GAME.view(variant, viewer) == GAME.view(state, viewer)
    assert snapshot(GAME.hidden_variant(state, 2, random.Random(1))) == snapshot(state)
    view = GAME.view(state, None)
    assert set(view["stacks"][0]) == {"number", "size", "top"}
    hidden = state.stacks[0][1:] + state.stacks[1][1:]
    text = json.dumps(view)
    assert not any(f'"{cid}"' in text for cid in hidden)


def test_view_has_the_contract_keys_and_the_roll():
    game = engine(5, 6, 2, 5, 6, 1, 6, 3)
    state = table(4, [["C01"], ["C04"], ["C07"], ["C10"]], stack1=["C05"])
    state, _ = play(game, state, (0, "target C05"), (0, "reroll 3,6"))
    view = GAME.view(state, 2)
    assert {"game", "seats", "viewer", "to_act", "status", "over"} <= set(view)
    roll = view["roll"]
    assert [d["value"] for d in roll["dice"]] == [5, 6, 6, 5, 6, 3]
    assert [d["locked"] for d in roll["dice"]] == [False, True, True, False, True, False]
    assert [d["kept"] for d in roll["dice"]] == [True, False, False, True, False, False]
    assert roll["rolls_used"] == 2 and roll["rolls_allowed"] == 3
    assert en(roll["best"]["text"]) == "two 5s + 3" and en(roll["to_beat"]["text"]) == "three 4s + 2"
    assert de(roll["best"]["text"]) == "zwei 5er + 3"
    assert roll["target"]["id"] == "C05" and roll["from_stack"] == 1
    assert view["status"]["id"] == "knatsch.status.capture" and view["status"]["params"]["player"] == {"seat": 0}
    assert en(view["status"]) == "Anna rolls for the Blue castle (4-4-4+2), roll 2 of 3: must beat three 4s + 2."
    assert de(view["status"]) == ("Anna würfelt um die Blaue Burg (4-4-4+2), Wurf 2 von 3: "
                                  "muss drei 4er + 2 übertreffen.")


def test_describe_labels_are_short():
    state = table(3, [["C01", "C07", "C10", "S09", "S16"], ["C13", "C15"], ["C16"]], stack1=["C05"],
                  castle_guard=[["C01", "C07"], [], []])
    labels = {a.encode(): GAME.describe(state, 0, a) for a in GAME.legal_actions(state, 0)}
    assert labels["target C13"].params["owner"].seat == 1
    assert en(labels["target C05"]) == "Roll for the Blue castle (4-4-4+2)"
    assert en(labels["target C13"]) == "Catapult: Bob's Purple castle (2-2-2+5)"
    assert de(labels["target C13"]) == "Katapult: Bobs Lila Burg (2-2-2+5)"
    # a button that puts a stack's top card under it says so, with the card it moves
    assert en(labels["under 1"]) == "Put the Blue castle under stack 1"
    assert de(labels["under 1"]) == "Blaue Burg unter Stapel 1 legen"
    lose = GAME.describe(state, 0, Action("lose", ("C01", "2")))
    assert en(lose) == "Give up the Red castle, under stack 2" and de(lose) == "Rote Burg opfern, unter Stapel 2"
    assert en(labels["topple"]).startswith("Topple the king")
    assert de(labels["topple"]).startswith("König stürzen")
    for lang in ("en", "de"):
        assert all(0 < len(translate(label, lang, ["X" * 32] * 3, strict=True)) <= 80 for label in labels.values())


def test_results_read_in_both_languages():
    assert result_text((3, 5, 2)) == en(result_msg((3, 5, 2))) == "three 5s + 2"
    assert de(result_msg((3, 5, 2))) == "drei 5er + 2"
    assert en(result_msg((1, 3, 1))) == "one 3 + 1" and de(result_msg((1, 3, 1))) == "ein 3er + 1"
    assert en(result_msg((0, 0, 0))) == "nothing" and de(result_msg((0, 0, 0))) == "nichts"
    assert en(result_msg((7, 4, 0))) == "seven 4s" and de(result_msg((7, 4, 0))) == "sieben 4er"


def test_every_event_of_a_game_is_a_message_in_both_languages():
    """No engine line is finished English any more: every event, status and log line is a Msg
    whose German differs from its English."""
    from games.core import Msg

    rng = random.Random(3)
    state = GAME.new_game(4, seed=3)
    seen = set()
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, events = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in events:
            assert isinstance(event.text, Msg)
            seen.add(event.text.id)
            assert en(event.text) != de(event.text)
        log = GAME.view(state, None)["log"]
        assert all(isinstance(line, dict) and line["id"].startswith("knatsch.") for line in log)
    assert {"knatsch.event.rolled", "knatsch.event.fail_stack"} <= seen
    assert isinstance(GAME.outcome(state).reason, Msg)


@pytest.mark.parametrize("players", range(2, 7))
def test_random_play_ends_for_seeds_0_to_30(players):
    cap, longest = 20_000, 0
    for seed in range(31):
        rng = random.Random(seed * 7 + players)
        state = GAME.new_game(players, seed=seed)
        steps = 0
        while GAME.outcome(state) is None:
            steps += 1
            assert steps < cap, f"seed {seed}: random play did not end"
            seat = rng.choice(sorted(GAME.to_act(state)))
            actions = GAME.legal_actions(state, seat)
            assert actions
            state, events = GAME.apply(state, seat, rng.choice(actions))
            assert all(e.text for e in events)
        longest = max(longest, steps)
        outcome = GAME.outcome(state)
        assert len(outcome.scores) == players and outcome.reason
        for seat in outcome.winners:
            castles, tournaments = outcome.scores[seat], outcome.details["tournaments"][seat]
            assert {"four_castles": castles >= 4, "king": castles == 3,
                    "tournaments": castles >= 2 and tournaments >= 3}[outcome.details["kind"]]
    assert longest < cap // 2  # games end well before the cap


def test_likeness_of_die_cards_is_their_value():
    assert likeness(CARDS["S02"]) == likeness(CARDS["S06"])
    assert likeness(CARDS["S02"]) != likeness(CARDS["S03"])
    assert likeness(CARDS["T1"]) is None


def test_announcing_a_card_rolls_all_six_dice_in_the_same_tap():
    game = engine(5, 6, 2, 5, 6, 1)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])
    state, texts = play(game, state, (ANNA, "target C05"))
    assert state.roll.rolls_used == 1 and state.roll.dice == [5, 6, 2, 5, 6, 1]
    assert texts == ["Anna picks the Blue castle.",
                     "Anna: 5 6 2 5 6 1 → two 5s + 2"]
    assert "roll" not in legal(state, ANNA, game)
    assert GAME.publicly_forced(state, ANNA) is None  # rerolls and stop: a real decision


def test_a_defenders_and_a_tournament_rollers_first_roll_is_publicly_forced():
    """Rolling all six dice is their only move: the engine reports it, so the bot makes it at
    once and the person's first tap is a real decision (roll again or stop). Both are decisions
    outside the roller's own turn, of the kinds a standing order may cover."""
    game = engine(5, 5, 5, 5, 1, 2, 1, 2, 3, 4, 5, 1)
    state = table(3, [["C01"], ["C04", "C09"], ["C07"]])
    state, _ = play(game, state, (ANNA, "target C09"), (ANNA, "stop"))
    assert state.roll.purpose == "defence" and legal(state, BOB, game) == ["roll"]
    assert game.publicly_forced(state, BOB) == Action("roll")
    assert game.reaction_kind(state, BOB) == "knatsch.reaction.defence"
    assert forced_decision(game, state) == (BOB, Action("roll"))
    state, _ = play(game, state, (BOB, "roll"))
    assert game.publicly_forced(state, BOB) is None and "stop" in legal(state, BOB, game)
    assert game.reaction_kind(state, BOB) == "knatsch.reaction.defence"
    assert game.reaction_kind(state, ANNA) is None

    game = engine(*([1, 2, 3, 4, 5, 6] * 3))
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["T1"])
    state, _ = play(game, state, (ANNA, "target T1"))
    assert game.publicly_forced(state, ANNA) is None  # the organiser's own turn, rolled already
    assert game.reaction_kind(state, ANNA) is None
    state, _ = play(game, state, (ANNA, "stop"))
    assert game.publicly_forced(state, BOB) == Action("roll")
    assert game.reaction_kind(state, BOB) == "knatsch.reaction.tournament"
    assert automatic_decision(game, state) == Automatic(BOB, Action("roll"), None)
    state, _ = play(game, state, (BOB, "roll"))
    assert automatic_decision(game, state) is None  # roll again or stop: asked
    ordered = {BOB: {"knatsch.reaction.tournament"}}
    assert automatic_decision(game, state, ordered) == Automatic(BOB, None, "knatsch.reaction.tournament")
    assert automatic_decision(game, state, {BOB: {"knatsch.reaction.defence"}}) is None
    assert automatic_decision(game, state, {CHRIS: {"knatsch.reaction.tournament"}}) is None


def test_the_stop_label_says_whether_stopping_wins():
    game = engine(5, 5, 2, 1, 3, 4)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])  # blue 4-4-4+2
    state, _ = play(game, state, (ANNA, "target C05"))
    label = game.describe(state, ANNA, Action("stop"))
    assert en(label) == "Stop with two 5s + 4: not enough, fails"
    assert de(label) == "Aufhören mit zwei 5er + 4: reicht nicht"
    game = engine(4, 4, 4, 4, 1, 2)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])
    state, _ = play(game, state, (ANNA, "target C05"))
    assert en(game.describe(state, ANNA, Action("stop"))) == "Stop with four 4s + 2: beats the card"
    assert de(game.describe(state, ANNA, Action("stop"))) == "Aufhören mit vier 4er + 2: erobert"


def test_every_label_fits_a_button_in_both_languages_with_long_names():
    names = ["W" * 32] * 6
    for seed, players in ((1, 2), (2, 6), (3, 4)):
        rng = random.Random(seed)
        state = GAME.new_game(players, seed=seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            for action in GAME.legal_actions(state, seat)[:64]:
                for lang in ("en", "de"):
                    label = translate(GAME.describe(state, seat, action), lang, names, strict=True)
                    assert 0 < len(label) <= 80, label
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))


def test_a_card_failed_for_goes_under_its_stack_said_in_both_languages():
    """The account line names the stack the card went under (the card itself was named when it
    was picked, and the roll above says the result), in one line of a phone."""
    game = engine(1, 2, 3, 4, 6, 6, 1, 2, 3, 4, 1, 2, 3, 4)
    state = table(3, [["C01"], ["C07"], ["C10"]], stack1=["C05"])
    events = []
    for text in ("target C05", "reroll 1,2,3,4", "reroll 1,2,3,4"):
        state, happened = game.apply(state, 0, Action.parse(text))
        events += happened
    failed = next(e for e in events if e.text.id == "knatsch.event.fail_stack")
    assert en(failed.text) == "Anna fails; card goes under stack 1.", en(failed.text)
    assert de(failed.text) == "Anna scheitert; Karte unter Stapel 1.", de(failed.text)


def test_a_rerolls_label_follows_the_dice_and_the_rolls_of_its_own_state():
    """Reroll labels are kept by the dice and the rolls used and allowed (a roll has up to 63
    of them, asked for several times a move): each state, even one changed in place, has its own."""
    game = engine(5, 6, 2, 5, 6, 1, 6, 3, 5)
    state = table(4, [["C01"], ["C04"], ["C07"], ["C10"]], stack1=["C05"], stack2=["S01"])
    state, _ = play(game, state, (ANNA, "target C05"))

    def label(state, text):
        return en(game.describe(state, ANNA, Action.parse(text)))

    assert label(state, "reroll 3,6") == "Reroll dice 3, 6 (showing 2 1); keep 5 6 5 6 (roll 2 of 3)"
    after, _ = play(game, state, (ANNA, "reroll 3,6"))
    assert label(after, "reroll 6") == "Reroll die 6 (showing 3); keep 5 6 6 5 6 (roll 3 of 3)"
    state.roll.dice[2] = 4  # the first state changed in place: its label says so
    assert label(state, "reroll 3,6") == "Reroll dice 3, 6 (showing 4 1); keep 5 6 5 6 (roll 2 of 3)"
    state.roll.rolls_used = 2
    assert label(state, "reroll 6,3") == "Reroll dice 3, 6 (showing 4 1); keep 5 6 5 6 (roll 3 of 3)"
