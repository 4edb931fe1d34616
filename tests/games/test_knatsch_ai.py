"""The Knatsch computer player: sensible single decisions, and it beats random play."""
from __future__ import annotations

import random

from games.core import Action
from games.knatsch import GAME
from games.knatsch.ai import beat_chance, suggest
from tests.games.test_knatsch_rules import engine, play, table


def test_it_keeps_the_dice_of_its_best_group_and_rolls_the_rest():
    game = engine(5, 6, 2, 5, 1, 3)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])  # blue 4-4-4+2
    state, _ = play(game, state, (0, "target C05"))
    assert state.roll.dice == [5, 6, 2, 5, 1, 3]
    assert suggest(game, state, 0, random.Random(1)) == Action("reroll", ("3,5,6",))


def test_it_stops_once_a_stack_card_is_beaten_and_rolls_on_when_not():
    game = engine(4, 4, 4, 4, 1, 2)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])
    state, _ = play(game, state, (0, "target C05"))
    assert suggest(game, state, 0, random.Random(1)) == Action("stop")
    game = engine(1, 2, 3, 4, 5, 1)
    state = table(3, [["C01"], ["C04"], ["C07"]], stack1=["C05"])
    state, _ = play(game, state, (0, "target C05"))
    assert suggest(game, state, 0, random.Random(1)).verb == "reroll"


def test_it_goes_for_the_card_it_can_most_likely_beat():
    assert beat_chance((3, 1, 2), 3) > beat_chance((3, 5, 4), 3) > beat_chance((4, 5, 1), 3)
    # Stack 1 shows the black castle 1-1-1+5, stack 2 the blue 5-5-5+2: same worth, easier first.
    state = table(3, [["C01"], ["C04"], ["C10"]], stack1=["C15"], stack2=["C06"])
    assert suggest(GAME, state, 0, random.Random(2)) == Action("target", ("C15",))


def test_it_wins_the_game_with_a_fourth_castle_when_it_can():
    state = table(3, [["C01", "C04", "C07"], ["C10"], ["C13"]], stack1=["S01"], stack2=["C14"], fresh=False)
    rng = random.Random(3)
    # The turn's free look goes under the special's stack, never the castle's: the castle stays on offer.
    assert suggest(GAME, state, 0, rng) == Action("under", ("1",))
    state, _ = play(GAME, state, (0, "under 1"))
    assert state.stacks[0][0] == "C02"  # the red castle: this seat holds red already
    assert suggest(GAME, state, 0, rng) == Action("target", ("C14",))


def test_it_takes_the_free_look_when_the_tops_are_poor_and_keeps_a_good_top():
    # Stack 1 shows a card this seat may not take (a second blue castle), stack 2 the hardest
    # castle there is; a look under stack 1 may turn up an easier castle, and the hard one stays.
    state = table(3, [["C04"], ["C01"], ["C13"]], stack1=["C05"], stack2=["C16"])
    assert suggest(GAME, state, 0, random.Random(4)) == Action("under", ("1",))
    # An easy castle on stack 2 is never put away for a look: the look goes under stack 1 or none.
    state = table(3, [["C04"], ["C01"], ["C13"]], stack1=["C05"], stack2=["C10"])
    for seed in range(5):
        assert suggest(GAME, state, 0, random.Random(seed)) in (Action("under", ("1",)), Action("target", ("C10",)))


def test_computer_only_games_bring_the_stacks_castles_out():
    """Four computer players used to trade castles among themselves for hundreds of turns while
    the castles in the stacks never came to the top (the look under a stack was never taken)."""
    from games.knatsch.cards import CARDS, CASTLE
    from_stacks = from_players = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_game(4, seed=seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = GAME.suggest(state, seat, rng)
            if action.verb == "target" and CARDS[action.args[0]].kind == CASTLE:
                if any(stack and stack[0] == action.args[0] for stack in state.stacks):
                    from_stacks += 1
                else:
                    from_players += 1
            state, _ = GAME.apply(state, seat, action)
    assert from_stacks * 4 > from_players  # one in three now; one in eight before


def test_the_computer_beats_random_players_clearly():
    wins = 0
    games = 40
    for seed in range(games):
        rng = random.Random(seed)
        me = seed % 3
        state = GAME.new_game(3, seed=seed)
        while GAME.outcome(state) is None:
            seat = min(GAME.to_act(state))
            action = GAME.suggest(state, seat, rng) if seat == me else rng.choice(GAME.legal_actions(state, seat))
            state, _ = GAME.apply(state, seat, action)
        wins += me in GAME.outcome(state).winners
    assert wins / games > 0.6  # random play wins about a third


def test_it_moves_the_castle_guard_onto_the_castles_easiest_to_beat_and_then_leaves_it():
    # Yellow 2-2-2+3 and green 2-2-2+4 are far easier to beat than black 5-5-5+4.
    state = table(3, [["C16", "C07", "C10", "S17"], ["C04"], ["C13"]], stack1=["S01"], stack2=["C05"],
                  castle_guard=[["C07", "C16"], [], []], fresh=False)
    move = suggest(GAME, state, 0, random.Random(4))
    assert move == Action("guard", ("S17", "C07,C10"))
    state, _ = GAME.apply(state, 0, move)
    assert state.castle_guard[0] == ["C07", "C10"]
    assert suggest(GAME, state, 0, random.Random(4)).verb != "guard"  # no moving back and forth


def test_it_moves_the_special_guard_onto_its_best_special():
    state = table(3, [["C16", "S19", "S12", "S04"], ["C04"], ["C10"]], stack1=["S01"], stack2=["C05"],
                  special_guard=["S12", None, None], fresh=False)
    assert suggest(GAME, state, 0, random.Random(5)) == Action("guard", ("S19", "S04"))


def test_it_does_not_organise_a_tournament_that_would_win_a_rival_the_game():
    # Bernd holds two castles and two tournaments: a third tournament wins him the game. After a
    # special from a stack, Anna may try again; the only card she may try for is that tournament.
    holdings = [["C07", "S01"], ["C01", "C04", "T2", "T3"]]
    state = table(2, holdings, stack1=["T1"], stack2=["C09"], bonus=True, fresh=False, unders_used=1)
    assert [a.verb for a in GAME.legal_actions(state, 0)].count("target") == 1
    assert suggest(GAME, state, 0, random.Random(6)) == Action("end")
    # Without the danger the further attempt is taken.
    holdings = [["C07", "S01"], ["C01", "C04", "T2"]]
    state = table(2, holdings, stack1=["T1"], stack2=["C09"], bonus=True, fresh=False, unders_used=1)
    assert suggest(GAME, state, 0, random.Random(6)) == Action("target", ("T1",))
