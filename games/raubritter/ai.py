"""A simple computer player for Raub Ritter: greedy, from its own seat's view only.

Knights: every way to place them is weighed by the points it takes (a village or town it gets
on top of, more when that tile is closed to everyone else afterwards: then nobody can cover it),
by what it takes from a rival on top there (blocking), and by the knights it spends.

Laying: a castle is worth its best knights move. A village or town is laid where a castle from
its own hand can reach it this turn (then the castle follows), and kept away from the open
otherwise; a lake or mountain is worth laying beside the towns and villages it holds, where it
blocks the way in. It ends the turn when nothing left is worth laying.

It reads only the public table and its own hand; ties are broken by `rng`.
"""
from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from games.core import Action
from games.raubritter.board import (
    DIRECTIONS,
    Board,
    Bounds,
    Laid,
    Square,
    bounds,
    bounds_of,
    closed,
    extent,
    grown,
    knights_to_enter,
    neighbours,
    path,
)
from games.raubritter.state import RaubRitterState
from games.raubritter.tiles import (
    MAX_KNIGHTS_PER_TILE,
    MAX_KNIGHTS_PLACED,
    MAX_LAYS_PER_TURN,
    POINTS,
    TILES_BY_LETTER,
    building_of,
)

if TYPE_CHECKING:
    from games.raubritter.engine import RaubRitter

KEEP_ORDER = ("Pv", "P", "M")
KNIGHT_COST = 0.15
OPEN = 0.6  # a tile on top of which others may still come counts this much of its points


def suggest(game: RaubRitter, state: RaubRitterState, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state.phase == "keep":
        return min(legal, key=lambda a: KEEP_ORDER.index(a.args[0]) if a.args[0] in KEEP_ORDER else 9)
    if state.phase == "knights":
        return max(legal, key=lambda a: (_knights_worth(state, seat, a), rng.random()))
    return _lay_choice(game, state, seat, legal, rng)


def ranked(game: RaubRitter, state: RaubRitterState, seat: int, legal: list[Action]) -> list[Action]:
    """The legal moves, the ones this player values most first (the strong player weighs the
    first few rather than a random sample of some forty lays)."""
    if state.phase == "keep":
        return sorted(legal, key=lambda a: KEEP_ORDER.index(a.args[0]) if a.args[0] in KEEP_ORDER else 9)
    if state.phase == "knights":
        return sorted(legal, key=lambda a: -_knights_worth(state, seat, a))
    values = _lay_values(state, seat, legal)
    return sorted(legal, key=lambda action: -values[action])


def standing_scores(state: RaubRitterState) -> list[float]:
    """What each seat's position is worth in points, for the strong player's search.

    - Each tile's points go to the seat on top: in full where nobody can come onto it any more;
      where no castle laid in line could bring enough knights onto it today, UNREACHED of them;
      where one could, THREATENED of them. Both come up to full as the tiles run out.
    - Every knight still at hand counts KNIGHT_AT_HAND points: it takes points later (or keeps
      them), and it breaks a tie.

    Measured on positions of games between normal players (`bench/raubritter_standing.py`), this
    names the later winner of a three-player game in 69 % of positions; counting each top as
    OPEN and a knight at 0.15 points named it in 48 %.
    """
    values = [KNIGHT_AT_HAND * left for left in state.knights_left]
    allowed = bounds(state.board, state.geometry)
    tiles_left = sum(len(pile) for pile in state.piles) + sum(len(hand) for hand in state.hands)
    # The share of the game's laying still to come (the last fifth counts as none).
    to_come = min(1.0, tiles_left / (0.8 * TILES_PER_PLAYER * state.seats))
    for square, laid in state.board.items():
        if laid.building is None or not laid.stack:
            continue
        if closed(laid):
            security = 1.0
        else:
            share = THREATENED if can_be_covered(state.board, square, laid, allowed) else UNREACHED
            security = 1.0 - (1.0 - share) * to_come
        values[laid.stack[-1]] += POINTS[laid.building] * security
    return values


KNIGHT_AT_HAND = 1.0
THREATENED = 0.3
UNREACHED = 0.9
TILES_PER_PLAYER = sum(len(tiles) for tiles in TILES_BY_LETTER.values())


def can_be_covered(board: Board, square: Square, laid: Laid, allowed: Bounds) -> bool:
    """Whether a castle laid today on an empty square in line with this tile (inside the area
    `allowed`) could bring knights onto it: at most five knights, leaving the least each tile
    on the way needs, through no lake and no full tile."""
    needed = knights_to_enter(laid)
    if needed is None or closed(laid):
        return False
    for dc, dr in DIRECTIONS.values():
        knights = needed
        step = 1
        while knights + 1 <= MAX_KNIGHTS_PLACED:  # a castle keeps at least one
            spot = (square[0] + dc * step, square[1] + dr * step)
            between = board.get(spot)
            if between is None:
                if allowed.contains(spot):
                    return True
                break
            between_needed = knights_to_enter(between)
            if between_needed is None or closed(between):
                break
            knights += between_needed
            step += 1
    return False


# ----------------------------------------------------------------------------------------
# Knights


def _knights_worth(state: RaubRitterState, seat: int, action: Action) -> float:
    """A knights action ("knights <direction> <counts>") valued by knights_value."""
    return knights_value(state.board, state.castle_awaiting_knights, action.args[0],
                         [int(n) for n in action.args[1].split(",")], seat, state.seats)


def _security(laid: Laid, height: int) -> float:
    """1 when nobody can come onto the tile any more, else OPEN."""
    return 1.0 if closed(laid, height) else OPEN


def knights_value(board: Board, castle: Square, direction: str, counts: list[int], seat: int, seats: int) -> float:
    total = sum(counts)
    if total == 0:
        return 0.0
    taking = _taking(seats)
    # Summed in this order (not through _tile_gain) so that equal moves stay exactly equal and
    # the random tie-break decides between them as it always did.
    value = -KNIGHT_COST * total
    for square, count in zip(path(castle, direction, len(counts)), counts):
        laid = board[square]
        if laid.building is None:
            continue
        points = POINTS[laid.building]
        top = laid.stack[-1] if laid.stack else None
        after = _security(laid, len(laid.stack) + count)
        if top == seat:
            value += points * (after - _security(laid, len(laid.stack)))
        else:
            value += points * after
            if top is not None:
                value += points * taking * _security(laid, len(laid.stack))
    return value


def _taking(seats: int) -> float:
    """How much a rival's loss counts: less with more rivals."""
    return 1.0 if seats == 2 else 0.7


def best_knights(board: Board, castle: Square, seat: int, seats: int, knights_left: int) -> float:
    """The best knights move from a castle at `castle`. It depends only on the tiles in line
    with the castle as far as a stack can go, so it is remembered by those: weighing many lays
    (and a search playing on) asks again and again about castles whose lines did not change."""
    knights_left = min(MAX_KNIGHTS_PLACED, knights_left)
    lines = []
    for dc, dr in DIRECTIONS.values():
        for step in range(1, MAX_KNIGHTS_PLACED):
            laid = board.get((castle[0] + dc * step, castle[1] + dr * step))
            if laid is None:
                break
            lines.append((step, dc, dr, laid.tile[1:], laid.stack))
    start = board[castle]
    key = (seat, seats, knights_left, start.tile[1:], start.stack, tuple(lines))
    known = _BEST_KNIGHTS.get(key)
    if known is None:
        if len(_BEST_KNIGHTS) >= BEST_KNIGHTS_KEPT:
            _BEST_KNIGHTS.clear()
        known = _BEST_KNIGHTS[key] = _best_knights(board, castle, seat, seats, knights_left)
    return known


BEST_KNIGHTS_KEPT = 4_000  # about 2 MB at most; cleared at once when full (one step, safe across threads)
_BEST_KNIGHTS: dict[tuple[Any, ...], float] = {}


def _best_knights(board: Board, castle: Square, seat: int, seats: int, knights_left: int) -> float:
    """The best `knights_value` over every legal knights move (`board.knight_moves`) of 1 to
    `knights_left` knights, or 0. A move's value is a sum over the tiles it covers, so the best
    way to spread the knights that go on from a tile is worked out once per tile and count,
    instead of weighing every way in full."""
    start = board[castle]
    need = knights_to_enter(start)
    if need is None or closed(start):
        return 0.0
    taking = _taking(seats)
    room = MAX_KNIGHTS_PER_TILE - len(start.stack)
    lines = []
    for dc, dr in DIRECTIONS.values():
        line = []
        for step in range(1, MAX_KNIGHTS_PLACED):
            laid = board.get((castle[0] + dc * step, castle[1] + dr * step))
            if laid is None:
                break
            line.append(laid)
        lines.append(line)
    at_castle = [_tile_gain(start, count, seat, taking) for count in range(MAX_KNIGHTS_PLACED + 1)]
    best = 0.0
    for knights in range(max(1, need), knights_left + 1):
        options = [at_castle[knights]] if knights <= room else []
        for line in lines:
            for stay in range(need, min(knights - 1, room) + 1):
                options.append(at_castle[stay] + _onward(line, 0, knights - stay, seat, taking))
        if options:
            best = max(best, max(options) - KNIGHT_COST * knights)
    return best


def _onward(line: list[Laid], index: int, moving: int, seat: int, taking: float) -> float:
    """The best value of leaving all `moving` knights on `line[index]` and the tiles after it."""
    if index >= len(line):
        return -math.inf
    laid = line[index]
    need = knights_to_enter(laid)
    space = MAX_KNIGHTS_PER_TILE - len(laid.stack)
    if need is None or moving < need or space < need:
        return -math.inf
    best = -math.inf
    for stay in range(need, min(moving, space) + 1):
        rest = 0.0 if stay == moving else _onward(line, index + 1, moving - stay, seat, taking)
        best = max(best, _tile_gain(laid, stay, seat, taking) + rest)
    return best


def _tile_gain(laid: Laid, count: int, seat: int, taking: float) -> float:
    """What leaving `count` knights of `seat` on a tile is worth (its part of `knights_value`)."""
    building = laid.building
    if building is None or count == 0:
        return 0.0
    points = POINTS[building]
    top = laid.stack[-1] if laid.stack else None
    after = _security(laid, len(laid.stack) + count)
    if top == seat:
        return points * (after - _security(laid, len(laid.stack)))
    gain = points * after
    if top is not None:
        gain += points * taking * _security(laid, len(laid.stack))
    return gain


# ----------------------------------------------------------------------------------------
# Laying


def _lay_choice(game: RaubRitter, state: RaubRitterState, seat: int, legal: list[Action], rng: random.Random) -> Action:
    values = _lay_values(state, seat, legal)
    best: tuple[float, float, Action] | None = None
    for action in legal:
        candidate = (values[action], rng.random(), action)
        if best is None or candidate[:2] > best[:2]:
            best = candidate
    if best is None:
        raise ValueError("Raub Ritter computer player asked to choose among no moves")
    return best[2]


def _lay_values(state: RaubRitterState, seat: int, legal: list[Action]) -> dict[Action, float]:
    geometry = state.geometry
    hand = [tile[1:] for tile in state.hands[seat]]
    lays_left = MAX_LAYS_PER_TURN - state.lays_this_turn
    knights = state.knights_left[seat]
    span = extent(state.board)
    values: dict[Action, float] = {}
    for action in legal:
        if action.verb != "lay":
            values[action] = 0.1 if state.lays_this_turn else -99.0  # end: when nothing is worth laying
        else:
            face, square_name = action.args
            values[action] = _lay_value(state, seat, face, geometry.square_named(square_name), hand, lays_left,
                                        knights, span)
    return values


def _lay_value(state: RaubRitterState, seat: int, face: str, square: Square, hand: list[str], lays_left: int,
               knights: int, span: tuple[int, int, int, int] | None) -> float:
    building = building_of(face)
    if building == "castle":
        return best_knights(_with_tile(state, seat, face, square), square, seat, state.seats, knights)
    if building is not None:
        points = POINTS[building]
        rest = list(hand)
        rest.remove(face)
        castles = [f for f in rest if building_of(f) == "castle"]
        if castles and lays_left >= 2 and knights:
            board = _with_tile(state, seat, face, square)
            # Lay it, then the castle beside it in line: worth the castle's best move.
            follow = 0.0
            allowed = bounds_of(grown(span, square), state.geometry)  # where a tile may go once this one lies
            for dc, dr in DIRECTIONS.values():
                for step in (1, 2):
                    spot = (square[0] - dc * step, square[1] - dr * step)
                    if spot not in board and allowed.contains(spot) and any(near in board for near in neighbours(spot)):
                        with_castle = dict(board)
                        with_castle[spot] = Laid("A" + castles[0], seat)
                        follow = max(follow, best_knights(with_castle, spot, seat, state.seats, knights))
            return 0.9 * follow - 0.2 * points
        return -0.3 * points - 0.1 * _open_sides(state.board, square)  # a gift to whoever gets there first
    # No building: plain, mountain or lake. Mountains and lakes block the way to what it holds.
    blocking = 0.0
    if face in ("M", "L"):
        for near in neighbours(square):
            laid = state.board.get(near)
            if laid is not None and laid.building and laid.stack and laid.stack[-1] == seat:
                blocking += 0.15 * POINTS[laid.building]
            elif laid is not None and laid.building and not laid.stack:
                blocking += 0.05
    return blocking - 0.05


def _with_tile(state: RaubRitterState, seat: int, face: str, square: Square) -> dict[Square, Laid]:
    """The board once this seat lays `face` on `square` (only the lays that need it copy it)."""
    board = dict(state.board)
    board[square] = Laid(next(t for t in state.hands[seat] if t[1:] == face), seat)
    return board


def _open_sides(board: Board, square: Square) -> int:
    return sum(1 for near in neighbours(square) if near not in board)
