"""What a seat may see of a Carcassonne game, as JSON (the only way state leaves the engine).

Everything is public except the order of the pile: every view is the same apart from "viewer".
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.carcassonne.closeup import Layout
from games.carcassonne.data import ORIENTED, TILES, TRACK_SPACES
from games.carcassonne.grid import square_name
from games.carcassonne.rules import follower_spots, spot_names, squares_offered
from games.core import Msg, Outcome, SeatRef, msg

if TYPE_CHECKING:
    from games.carcassonne.engine import Carcassonne
    from games.carcassonne.state import CarcassonneState


def build_view(game: Carcassonne, state: CarcassonneState, seat: int | None) -> dict[str, Any]:
    board = state.board
    to_act = sorted(game.to_act(state))
    outcome = game.outcome(state)
    xs = [t[1] for t in board.tiles]
    ys = [t[2] for t in board.tiles]
    plan = squares_offered(state) if state.phase == "place" else None
    squares = list(plan.order) if plan else []
    groups = list(plan.groups) if plan else []
    closeup = None
    if plan is not None and plan.layout is not None:  # one picture shows every square (no groups)
        closeup = layout_json(plan.layout)
    elif plan is not None and state.area is not None:
        closeup = layout_json(plan.boxes[state.area])
    view: dict[str, Any] = {
        "game": game.name,
        "seats": state.seats,
        "viewer": seat,
        "to_act": to_act,
        "status": _status(state, outcome).to_json(),
        "over": outcome is not None,
        "phase": state.phase,
        "turn": state.turn,
        "asked": state.asked,
        "tiles": [{"code": code, "x": x, "y": y, "rot": rot, "robber": TILES[code].robber,
                   "crop_circle": TILES[code].crop_circle}
                  for code, x, y, rot in board.tiles],
        "bounds": {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)},
        "meeples": [
            {"seat": s, "x": board.tiles[i][1], "y": board.tiles[i][2], "kind": board.oriented(i).kinds[g],
             "sx": board.oriented(i).spots[g][0], "sy": board.oriented(i).spots[g][1]}
            for s, i, g in state.meeples
        ],
        "drawn": state.drawn,
        "drawn_robber": bool(state.drawn and TILES[state.drawn].robber),
        "drawn_crop_circle": bool(state.drawn and TILES[state.drawn].crop_circle),
        "squares": [{"n": n + 1, "x": sq[0], "y": sq[1]} for n, sq in enumerate(squares)],
        "area": state.area,
        "areas": [len(g) for g in groups],
        # what the picture shows close up: the boxes of the landscape (x0, y0, columns, rows) the
        # squares offered lie in, beside or above each other; null while a group is to be picked
        "closeup": closeup,
        "square": ({"x": state.square[0], "y": state.square[1],
                    "rots": list(state.fits.get(state.square, ()))} if state.square else None),
        "spots": [],
        "pile": len(state.pile) + (1 if state.drawn else 0),
        "set_aside": list(state.set_aside),
        "crop_mode": state.crop_mode,
        "track_spaces": TRACK_SPACES,
        "players": [
            {"seat": s, "score": state.scores[s], "space": state.space(s), "followers": state.supply(s),
             "robber": state.robbers[s]}
            for s in range(state.seats)
        ],
        "events": list(state.log),
        "outcome": None,
    }
    if state.phase == "follower" and board.tiles:
        index = len(board.tiles) - 1
        o = board.oriented(index)
        names = spot_names(o)
        free = {name for name, _ in follower_spots(state)}
        _, x, y, _ = board.tiles[index]
        view["spots"] = [{"name": names[g], "kind": o.kinds[g], "x": x, "y": y, "sx": o.spots[g][0],
                          "sy": o.spots[g][1], "n": k + 1}
                         for k, g in enumerate(g for g in range(len(names)) if names[g] in free)]
    if outcome is not None:
        view["outcome"] = {"winners": list(outcome.winners), "scores": list(outcome.scores),
                           "reason": outcome.reason.to_json(), "breakdown": state.breakdown or []}
    return view


def layout_json(layout: Layout) -> dict[str, Any]:
    """A close-up's layout (games.carcassonne.closeup) as JSON: {"box": [x0, y0, columns, rows]},
    or {"side": [...]} / {"stack": [...]} of such parts."""
    if isinstance(layout[0], str):
        return {layout[0]: [layout_json(part) for part in layout[1]]}
    return {"box": list(layout)}


def _status(state: CarcassonneState, outcome: Outcome | None) -> Msg:
    if outcome is not None:
        reason: Msg = outcome.reason  # Carcassonne's outcomes always give a Msg (Carcassonne.outcome)
        return reason
    player = SeatRef(state.turn)
    if state.phase == "place":
        return msg("carcassonne.status.place", player=player, count=len(state.pile) + 1)
    if state.phase == "rotate":
        return msg("carcassonne.status.rotate", player=player, square=square_name(*state.chosen_square()))
    if state.phase == "robber":
        return msg("carcassonne.status.robber", player=SeatRef(state.asked_seat()))
    if state.phase == "follower":
        return msg("carcassonne.status.follower", player=player)
    if state.phase == "crop":
        return msg("carcassonne.status.crop", player=player)
    if state.crop_mode == "add":
        return msg("carcassonne.status.crop_add", player=SeatRef(state.asked_seat()))
    return msg("carcassonne.status.crop_remove", player=SeatRef(state.asked_seat()))


__all__ = ["build_view", "layout_json", "ORIENTED"]
