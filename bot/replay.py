"""Rebuilding past states from seed + action log (the engine contract guarantees it is exact).

Used for `/game log` (each move's public events, exactly as the channel saw them) and to judge
clicks on older messages: a click made at version v still counts if the decision it answered
is the very one still open now.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from bot.storage import ActionRow, GameRow
from games.core import Action, Event, Game


@dataclass(frozen=True)
class ReplayedMove:
    row: ActionRow
    events: list[Event]


# Log rows written by the bot itself rather than by a move (bot.days): an undo takes the game
# back to the state before the last move; a substitute taking a seat changes no state.
UNDO = "~undo"
REPLACE = "~replace"


def replay(game: Game, table: GameRow, actions: list[ActionRow], *,
           done: tuple[list[Any], list[ReplayedMove]] | None = None) -> tuple[list[Any], list[ReplayedMove]]:
    """States by version (index 0 = the state at start) and each move's events. `done`: the
    states and moves of a replay of the first rows of `actions`, to carry on from."""
    if done is None:
        states = [game.new_game(len(table.players), seed=table.started_seed, options=table.options)]
        moves: list[ReplayedMove] = []
    else:
        states, moves = list(done[0]), list(done[1])
        actions = actions[len(moves):]
    state = states[-1]
    for action in actions:
        if action.action in (UNDO, REPLACE):
            state = states[-2] if action.action == UNDO else state
            states.append(state)
            said = "{s%d} took back their last move." if action.action == UNDO else "{s%d} has a new player."
            moves.append(ReplayedMove(action, [Event(said % action.seat)]))
            continue
        state, events = game.apply(state, action.seat, Action.parse(action.action))
        states.append(state)
        moves.append(ReplayedMove(action, events))
    return states, moves


def decision_still_open(game: Game, states: list[Any], actions: list[ActionRow], seat: int, since: int) -> bool:
    """True if `seat` has been facing the same decision from version `since` until now.

    That is: it was to act (or had optional moves, such as taking back a confirmed choice) at
    every version in between, did not act itself, and its legal actions are unchanged. Typical
    case: simultaneous choices, where others' moves bump the version without touching this
    seat's pending choice.
    """
    now = len(states) - 1
    if not 0 <= since <= now:
        return False
    if any(action.seat == seat for action in actions if action.version > since):
        return False
    if any(seat not in game.to_act(state) and not game.legal_actions(state, seat) for state in states[since:]):
        return False
    return game.legal_actions(states[since], seat) == game.legal_actions(states[now], seat)


class Replays:
    """The last few games replayed, carried on from where they stopped: a click on an older DM
    of a long game (a secret choice while others confirm) is judged by replaying only the moves
    made since, not the whole game again (some 70 ms late in a six-player game)."""

    def __init__(self, kept: int = 8) -> None:
        self._kept = kept
        # by game id and seed: a game's log replayed before, and what it gave
        self._done: OrderedDict[tuple[int, int | None], tuple[tuple, tuple[list[Any], list[ReplayedMove]]]] = \
            OrderedDict()

    def __len__(self) -> int:
        return len(self._done)

    def replay(self, game: Game, table: GameRow, actions: list[ActionRow]) -> tuple[list[Any], list[ReplayedMove]]:
        key = (table.id, table.seed)
        rows = tuple((row.version, row.seat, row.action) for row in actions)
        known = self._done.pop(key, None)
        # Only a log that goes on from the one replayed carries on; anything else starts afresh.
        done = known[1] if known is not None and rows[:len(known[0])] == known[0] else None
        result = replay(game, table, actions, done=done)
        self._done[key] = (rows, result)
        while len(self._done) > self._kept:
            self._done.popitem(last=False)
        return result
