"""What each seat may see of a Raub Ritter game, as JSON (the only way state leaves the engine).

Public: the whole table, each pile's count and the back (letter) of its top tile, the backs of
every hand. Private to a seat: its hand's faces and, during the keep phase, its choice.
Never shown: the order of any pile below its top back.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from games.core import Msg, Outcome, SeatRef, msg
from games.raubritter.board import Laid, Square, bounds, legal_squares, square_name
from games.raubritter.scoring import result_msg, score
from games.raubritter.tiles import COLOURS, MAX_LAYS_PER_TURN, building_of, face_msg, terrain_of, tile_msg

if TYPE_CHECKING:
    from games.raubritter.engine import RaubRitter
    from games.raubritter.state import RaubRitterState


def build_view(game: RaubRitter, state: RaubRitterState, seat: int | None) -> dict[str, Any]:
    geometry = state.geometry
    name = geometry.name
    to_act = sorted(game.to_act(state))
    outcome = game.outcome(state)
    points = score(state)
    allowed = bounds(state.board, geometry)
    view = {
        "game": game.name,
        "seats": state.seats,
        "viewer": seat,
        "to_act": to_act,
        "status": _status(state, to_act, outcome, result_msg).to_json(),
        "over": outcome is not None,
        "phase": state.phase,
        "turn": state.turn if state.phase in ("lay", "knights") else None,
        "lays_this_turn": state.lays_this_turn,
        "max_lays": MAX_LAYS_PER_TURN,
        "colours": list(COLOURS[:state.seats]),
        "grid": {"cols": geometry.cols, "rows": geometry.rows, "limit": geometry.limit,
                 "col_labels": geometry.col_labels(), "row_labels": geometry.row_labels()},
        "bounds": {"min_col": allowed.min_col, "max_col": allowed.max_col,
                   "min_row": allowed.min_row, "max_row": allowed.max_row,
                   "cols_fixed": allowed.cols_fixed, "rows_fixed": allowed.rows_fixed,
                   "text": msg("raubritter.bounds", first=name((allowed.min_col, 0))[0],
                               last=name((allowed.max_col, 0))[0], top=allowed.min_row + 1,
                               bottom=allowed.max_row + 1).to_json()},
        "tiles": [_tile_json(item) for item in sorted(state.board.items(), key=_row_major)],
        "open_squares": ([name(sq) for sq in legal_squares(state.board, geometry)]
                         if state.phase == "lay" else []),
        "pending_castle": name(state.pending_castle) if state.pending_castle else None,
        "this_turn": [name(sq) for sq in state.this_turn],
        "recent_turns": [{"seat": s, "squares": [name(sq) for sq in squares]} for s, squares in state.recent_turns],
        "players": [
            {"seat": s, "colour": COLOURS[s], "knights_left": state.knights_left[s],
             "pile": len(state.piles[s]), "next_back": state.piles[s][0][0] if state.piles[s] else None,
             "hand": len(state.hands[s]), "hand_backs": [tile[0] for tile in state.hands[s]],
             "chosen": (state.kept[s] is not None) if state.phase == "keep" else None,
             "points": points[s]}
            for s in range(state.seats)
        ],
        "events": list(state.log),
        "outcome": None,
    }
    if outcome is not None:
        view["outcome"] = {"winners": list(outcome.winners), "scores": list(outcome.scores),
                           "reason": outcome.reason.to_json(), **{k: v for k, v in outcome.details.items()}}
    if seat is not None and 0 <= seat < state.seats:
        view["private"] = {
            "hand": [{"code": tile[1:], "letter": tile[0], "terrain": terrain_of(tile[1:]),
                      "building": building_of(tile[1:]), "label": face_msg(tile[1:]).to_json()}
                     for tile in state.hands[seat]],
            "keep_choice": state.kept[seat] if state.phase == "keep" else None,
            "summary": _summary(state.hands[seat], state.kept[seat] if state.phase == "keep" else None).to_json(),
            # Whether the seat decides now (its keep choice, its tiles to lay, its knights): its DM
            # then shows the table around its hand, kept current while the decision is open.
            # Otherwise its DM shows the hand alone: a table in it would go stale.
            "deciding": seat in to_act,
        }
    return view


def _tile_json(item: tuple[Square, Laid]) -> dict[str, Any]:
    """A laid tile as the view shows it: a fresh dict with a fresh list of knights, copied from
    one made once for that tile on that square with that stack (a view lists every laid tile,
    and a move asks for five views or so of tables that differ by a tile or a stack; copying a
    dict costs a fraction of filling a new one)."""
    made = _tile_entries.get(item)
    if made is None:
        square, laid = item
        made = {"square": square_name(square), "col": square[0], "row": square[1], "terrain": laid.terrain,
                "building": laid.building, "owner": laid.owner, "colour": COLOURS[laid.owner], "knights": []}
        if len(_tile_entries) >= TILE_ENTRIES_KEPT:
            _tile_entries.clear()
        _tile_entries[item] = made
    entry = made.copy()
    entry["knights"] = list(item[1].stack)
    return entry


TILE_ENTRIES_KEPT = 1024
"""Tiles kept as `_tile_json` made them (some 250 a four-player game; about 0.4 MiB when full)."""
_tile_entries: dict[tuple[Square, Laid], dict[str, Any]] = {}


def _row_major(item: tuple[Square, Laid]) -> tuple[int, int]:
    """Tiles row by row, each row from the left."""
    return item[0][1], item[0][0]


def _commas(tiles: list[str]) -> Msg:
    joined = tile_msg(tiles[-1])
    for tile in reversed(tiles[:-1]):
        joined = msg("raubritter.comma", first=tile_msg(tile), rest=joined)
    return joined


def _summary(hand: list[str], kept: str | None = None) -> Msg:
    """"Your hand: plain (B), forest+village (C)." — the tiles joined by commas, as players
    read them in the DM. Once a seat has made its keep choice, the line names the two tiles it
    keeps and the two it gives to the starting area (the hand holds all four until everyone
    has chosen)."""
    if not hand:
        return msg("raubritter.summary.empty")
    if kept is not None:
        castle = next(t for t in hand if building_of(t[1:]) == "castle")
        rest = [t for t in hand if t != castle]
        chosen = next(t for t in rest if t[1:] == kept)
        rest.remove(chosen)
        return msg("raubritter.summary.kept", tiles=_commas([castle, chosen]), given=_commas(rest))
    return msg("raubritter.summary.hand", tiles=_commas(hand))


def _status(state: RaubRitterState, to_act: list[int], outcome: Outcome | None,
            result_msg: Callable[[Outcome], Msg]) -> Msg:
    if outcome is not None:
        return msg("raubritter.status.over", result=result_msg(outcome))
    player = SeatRef(state.turn)
    colour = msg(f"raubritter.colour.{COLOURS[state.turn]}")
    if state.phase == "keep":
        return msg("raubritter.status.keep", players=[SeatRef(s) for s in to_act])
    if state.phase == "knights":
        return msg("raubritter.status.knights", player=player, colour=colour,
                   square=state.geometry.name(state.castle_awaiting_knights))
    if state.lays_this_turn == 0:
        return msg("raubritter.status.lay", player=player, colour=colour)
    return msg("raubritter.status.lay_more", player=player, colour=colour, number=state.lays_this_turn + 1,
               most=MAX_LAYS_PER_TURN)
