"""How an ended game counts for its tournament table (bot.tournaments.listener.table_result):
places in the table's seat order, ties shared, whoever resigned or ran out of time last, an
abandoned game by its scores as they stand."""
from __future__ import annotations

from bot.changes import Done, End, Move
from bot.storage import GameRow, SeatRow
from bot.tournaments.listener import table_result
from games.core import Action
from tests.bot import fakegame

GAME = fakegame.GAME
USERS = (101, 102, 103)


def table(state: dict) -> GameRow:
    players = tuple(SeatRow(user, f"P{user}", seat, None) for seat, user in enumerate(USERS))
    return GameRow(id=1, guild_id=1, channel_id=2, game="pips", status="active", host_id=USERS[0], options={},
                   seed=1, state=state, version=3, result=None, lobby_message_id=None, board_message_id=None,
                   created_at=0, updated_at=0, players=players)


def done(change: Move | End) -> Done:
    """The change as the pipeline hands it on: its outcome worked out once."""
    outcome = GAME.outcome(change.after) if isinstance(change, Move) else None
    return Done(change, change.table.version, outcome, frozenset(), frozenset(), None, {})


def finished_state(scores: list[int]) -> dict:
    state = GAME.new_game(3, seed=1, options={"rounds": "1"})
    state["phase"], state["scores"] = "over", scores
    return state


def test_a_game_finished_by_its_rules_counts_its_outcome_with_ties_shared():
    before = GAME.new_game(3, seed=1, options={"rounds": "1"})
    after = finished_state([1, 0, 1])
    change = done(Move(table=table(before), game=GAME, before=before, after=after, seat=0,
                       action=Action("play", ("1",))))
    result = table_result(change, USERS)
    assert result == {"places": [1, 3, 1], "scores": [1.0, 0.0, 1.0], "how": "finished"}
    # In another seat order (the tournament's players), the same places follow their players.
    assert table_result(change, (103, 101, 102))["places"] == [1, 1, 3]


def test_whoever_resigned_or_ran_out_of_time_comes_last():
    state = GAME.new_game(3, seed=1, options={"rounds": "2"})
    state["scores"] = [2, 0, 0]
    change = done(End(table=table(state), game=GAME, state=state, text="…", status="abandoned",
                      result={"winners": [], "timed_out": 0}))
    result = table_result(change, USERS)
    assert result["places"] == [3, 1, 1] and result["how"] == "abandoned"


def test_an_abandoned_game_counts_by_its_scores_as_they_stand():
    state = GAME.new_game(3, seed=1, options={"rounds": "2"})
    state["scores"] = [0, 2, 1]
    change = done(End(table=table(state), game=GAME, state=state, text="…", status="abandoned",
                      result={"reason": "Abandoned."}))
    assert table_result(change, USERS)["places"] == [3, 1, 2]


def test_a_table_scored_when_its_time_ran_out_says_so():
    state = GAME.new_game(3, seed=1, options={"rounds": "2"})
    change = done(End(table=table(state), game=GAME, state=state, text="…", status="finished",
                      result={"winners": [0, 1], "scores": [1, 1, 0], "how": "scored"}))
    assert table_result(change, USERS) == {"places": [1, 1, 3], "scores": [1.0, 1.0, 0.0], "how": "scored"}
