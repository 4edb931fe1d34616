"""Hand-built Carcassonne positions for the rule tests."""
from __future__ import annotations

from games.carcassonne import GAME
from games.carcassonne.board import build
from games.carcassonne.engine import spot_names
from games.carcassonne.state import CarcassonneState
from games.core import Action

ROT = {"N": 0, "E": 1, "S": 2, "W": 3}


def position(tiles, *, seats=2, meeples=(), scores=None, robbers=None, drawn=None, pile=None, turn=0,
             option="next") -> CarcassonneState:
    """tiles: (code, x, y, rot letter); meeples: (seat, (x, y), spot name such as "city1")."""
    board = build([(code, x, y, ROT[rot]) for code, x, y, rot in tiles])
    placed = []
    for seat, square, spot in meeples:
        index = board.pos[square]
        placed.append((seat, index, spot_names(board.oriented(index)).index(spot)))
    state = CarcassonneState(
        seats=seats, seed=1, chance_counter=1, robbers_option=option, board=board,
        pile=list(pile if pile is not None else ["B"] * 5), phase="place", turn=turn,
        meeples=placed, scores=list(scores or [0] * seats), robbers=list(robbers or [None] * seats),
    )
    if drawn:
        state.drawn = drawn
        state.fits = board.fits(drawn)
    return state


def play(state, *moves, seat=None):
    """Apply move texts in order, each by whoever is to act (or `seat`); returns (state, events)."""
    events = []
    for text in moves:
        actor = seat if seat is not None else min(GAME.to_act(state))
        state, new = GAME.apply(state, actor, Action.parse(text))
        events.extend(new)
    return state, events


def ids(events):
    return [e.text.id for e in events]
