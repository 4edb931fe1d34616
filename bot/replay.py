"""Rebuilding past states from seed + action log (the engine contract guarantees it is exact).

Used for `/game log` (each move's public events, exactly as the channel saw them) and to judge
clicks on older messages: a click made at version v still counts if the decision it answered
is the very one still open now.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import Action, Event, Game

from bot.storage import ActionRow, GameRow


@dataclass(frozen=True)
class ReplayedMove:
    row: ActionRow
    events: list[Event]


# Log rows written by the bot itself rather than by a move (bot.days): an undo takes the game
# back to the state before the last move; a substitute taking a seat changes no state.
UNDO = "~undo"
REPLACE = "~replace"


def replay(game: Game, table: GameRow, actions: list[ActionRow]) -> tuple[list[Any], list[ReplayedMove]]:
    """States by version (index 0 = the state at start) and each move's events."""
    state = game.new_game(len(table.players), seed=table.seed, options=table.options)
    states = [state]
    moves = []
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
