"""A simple Mac Robber computer player: greedy on the round's scoring, raids with good cards.

It reads only what the seat's own view holds (its hand, public tiles) and takes all chance
from `rng`."""
from __future__ import annotations

import random

from games.core import Action

ACTION_VALUE = {"estate": 9, "cattle": 8, "castle": 6, "monastery": 5, "monks": 4, "warrior": 3, "piper": 3,
                "bard": 2}


def _action_score(game, state, seat, action: Action, rng: random.Random) -> float:
    verb, args = action.verb, action.args
    score = ACTION_VALUE.get(verb, 0) + rng.random()
    if verb == "monks":
        score += int(args[0])
    if verb == "estate":
        score -= len(args[1].replace("-", "")) * 1.5
        if state.free_estates(seat) > 1:
            score -= 6
    if verb == "castle":
        score += 1
    return score


def suggest(game, state, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    verbs = {a.verb for a in legal}
    hand = sorted(state.hands[seat])
    if "discard" in verbs:
        return min(legal, key=lambda a: int(a.args[0]))
    phase = state.phase
    if phase == "redraw":
        return Action("keep")
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
