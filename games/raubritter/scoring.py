"""What the knights score, shared by the engine (which re-exports it) and its views: beneath
both, so that the views need not import the engine."""
from __future__ import annotations

from games.core import Msg, Outcome, SeatRef, msg
from games.raubritter.board import top_points
from games.raubritter.state import RaubRitterState


def score(state: RaubRitterState) -> list[int]:
    """Points per seat for the top knights now on the board."""
    points = [0] * state.seats
    for laid in state.board.values():
        if laid.stack:  # `top_points`, asked only of tiles with knights (every view scores the table)
            scored = top_points(laid)
            if scored is not None:
                points[scored[0]] += scored[1]
    return points


def result_msg(outcome: Outcome) -> Msg:
    """Who won with how many points: "Anna wins with 12 points." / a shared win."""
    players = [SeatRef(s) for s in outcome.winners]
    points = outcome.scores[outcome.winners[0]]
    if len(outcome.winners) > 1:
        return msg("raubritter.result.shared", players=players, points=points)
    return msg("raubritter.result.won", player=players[0], points=points)
