"""A simple Mac Robber computer player: greedy on the round's scoring, raids with good cards.

It reads only what the seat's own view holds (its hand, public tiles) and takes all chance
from `rng`."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.core import Action
from games.macrobber.state import MacRobberState

if TYPE_CHECKING:
    from games.macrobber.engine import MacRobber

ACTION_VALUE = {"estate": 9, "cattle": 8, "castle": 6, "monastery": 5, "monks": 4, "warrior": 3, "piper": 3,
                "bard": 2}


COLOUR_INDEX = {"y": 0, "b": 1, "g": 2, "r": 3}


def _redraw_choice(state: MacRobberState, legal: list[Action]) -> Action:
    """Biggest Following may throw back drawn cubes and draw as many again, once: worth it for
    the blue ones beyond the first (pipers and castles want few), and red, which is rare and
    only buys cattle with a free estate. It marks those, then redraws; otherwise it keeps."""
    display, marked = state.display, state.marked
    wanted = {"b": max(0, display[1] - 1), "r": display[3] if not state.free_estates(state.turn) else 0}
    for colour, count in wanted.items():
        if marked[COLOUR_INDEX[colour]] < count and Action("mark", (colour,)) in legal:
            return Action("mark", (colour,))
    if Action("redraw") in legal:
        return Action("redraw")
    return Action("keep")


def _bard_value(state: MacRobberState, seat: int, action: Action) -> float:
    """The Bard takes a cube from a rival's courtyard: worth most against a rival who leads this
    seat by a little in warriors or monks, where one cube swings the round's scoring."""
    rival = state.courtyards[int(action.args[0])]
    mine = state.courtyards[seat]
    swing = max((1 for colour in (0, 2) if 0 < rival[colour] - mine[colour] <= 2), default=0)
    return 7.0 if swing else 2.0


def _action_score(game: MacRobber, state: MacRobberState, seat: int, action: Action, rng: random.Random) -> float:
    verb, args = action.verb, action.args
    score = ACTION_VALUE.get(verb, 0) + rng.random()
    if verb == "bard":
        score = _bard_value(state, seat, action) + rng.random()
    if verb == "monastery":
        # A monastery scores the green cubes for the rest of the game: best built early.
        score += 3 if state.round <= 3 else 1
    if verb == "monks":
        score += int(args[0])
    if verb == "estate":
        score -= len(args[1].replace("-", "")) * 1.5
        if state.free_estates(seat) > 1:
            score -= 6
    if verb == "castle":
        score += 1
    return score


def suggest(game: MacRobber, state: MacRobberState, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    verbs = {a.verb for a in legal}
    hand = sorted(state.hands[seat])
    if "discard" in verbs:
        return min(legal, key=lambda a: int(a.args[0]))
    phase = state.phase
    if phase == "redraw":
        return _redraw_choice(state, legal)
    if phase == "act":
        options = [a for a in legal if a.verb != "done"]
        if not options:
            return Action("done")
        return max(options, key=lambda a: _action_score(game, state, seat, a, rng))
    if phase == "bard":
        order = {"y": 0, "g": 1, "b": 2, "-": 3}
        return min(legal, key=lambda a: (order[a.args[0]], order[a.args[1]]))
    if phase == "raid":
        raids = [a for a in legal if a.verb == "raid"]
        strength = sum(hand[-3:]) + min(2, state.courtyards[seat][1])
        if raids and strength >= 10:
            # the opponent with the most to lose and the fewest pipers
            return max(raids, key=lambda a: (sum(1 for e in state.estates[int(a.args[0])] if e)
                                              - state.courtyards[int(a.args[0])][1] + rng.random()))
        return Action("exchange")
    if phase == "exchange":
        if len(state.exchange) < 3 and hand and hand[0] <= 2:
            return Action("toss", (str(hand[0]),))
        return Action("draw")
    if phase == "combat":
        best = max(int(a.args[0]) for a in legal)
        piper = any(len(a.args) > 1 for a in legal)
        return Action("play", (str(best), "piper") if piper else (str(best),))
    if phase == "plunder":
        for kind in ("cattle", "castle", "monastery"):
            if Action("plunder", (kind,)) in legal:
                return Action("plunder", (kind,))
    return rng.choice(legal)
