"""A simple computer player for Carcassonne: greedy on immediate points and follower use.

For the drawn tile it tries every square, rotation and follower spot (or none), and values the
features the tile touches before and after: points it scores now, what its followers there are
worth at the end, less a share of what the tile gives other players, less the cost of a
follower it ties up. Every sub-step (group, square, rotation, follower) follows the same best
plan, so the plan is carried out over several calls. It reads only public information.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from games.carcassonne.board import CITIES, KIND, NODE_STRIDE, OPEN, PENNANTS, TILES, Board, Square
from games.carcassonne.data import SIDE_NAMES
from games.carcassonne.rules import feature_points, final_scoring, first_group, follower_spots, squares_offered
from games.carcassonne.state import CarcassonneState
from games.core import Action

if TYPE_CHECKING:
    from games.carcassonne.engine import Carcassonne

Meeple = tuple[int, int, int]  # (seat, tile index, segment)
Plan = tuple[float, tuple[Square, int, None]]  # (value, (square, rotation, no follower))
Holders = dict[int, dict[int, int]]  # feature root -> seat -> followers there

OTHERS_WEIGHT = 0.6


def suggest(game: Carcassonne, state: CarcassonneState, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if phase in ("place", "rotate"):
        # The best plan that the steps taken so far this turn still allow: its own choices always
        # allow the best, and after someone else's (a hint followed, the strong player's search)
        # it finishes their square or group as well as it can instead of stepping back. The
        # group the turn starts with is nobody's choice: from it, another group is one step.
        groups = squares_offered(state).groups if phase == "place" else ()
        chosen = state.area is not None and state.area != first_group(state)
        for _, (square, rot, _) in _plans(state, seat):
            if phase == "rotate":
                if square == state.square:
                    return Action("turn", (SIDE_NAMES[rot],))
            elif groups and not chosen and (state.area is None or square not in groups[state.area]):
                return Action("group", (str(next(k for k, group in enumerate(groups) if square in group) + 1),))
            elif not groups or (state.area is not None and square in groups[state.area]):
                return Action("at", (f"{square[0]},{square[1]}",))
        return legal[0]
    if phase == "follower":
        spots = dict(follower_spots(state))
        index = len(state.board.tiles) - 1
        best: str | None = None
        best_value = 0.3
        for name, seg in spots.items():
            value = _follower_value(state, seat, index, seg)
            if value > best_value:
                best, best_value = name, value
        return Action("follower", (best,)) if best else Action("skip")
    if phase == "robber":
        robbers = [a for a in legal if a.verb == "robber"]
        if state.robbers[seat] is not None or not robbers:
            return Action("pass")
        # beside the opponent with most points: likely to score again soon, and big
        def weight(action: Action) -> int:
            space = int(action.args[0])
            return max(state.scores[s] for s in range(state.seats) if s != seat and state.space(s) == space)
        return max(robbers, key=weight)
    if phase == "crop":
        mine = sum(1 for m in state.meeples if m[0] == seat and _kind(state, m) == "road")
        others = sum(1 for m in state.meeples if m[0] != seat and _kind(state, m) == "road")
        return Action("crop", ("add",)) if mine and state.supply(seat) else \
            Action("crop", ("remove",)) if others > mine else Action("crop", ("add",))
    if phase == "crop_act":
        return legal[0]
    return rng.choice(legal)


def _kind(state: CarcassonneState, meeple: Meeple) -> str:
    return state.board.oriented(meeple[1]).kinds[meeple[2]]


def _plans(state: CarcassonneState, seat: int) -> list[Plan]:
    """Every (value, (square, rotation, None)) for the drawn tile, best first. Kept for the board,
    which the sub-steps of one turn share: the square, rotation and follower steps (and a search's
    playouts through them) then value the placements once per turn instead of once per step.
    The board itself is kept with them, so a reused id can never bring back another board's."""
    board = state.board
    key = (id(board), seat, state.drawn, len(state.pile), tuple(state.meeples))
    cached = _PLANS.get(key)
    if cached is not None and cached[0] is board:
        return cached[1]
    holders = _holders(state, board)
    plans: list[Plan] = []
    for square, rots in state.fits.items():
        before = _value(state, board, board.touched(square), seat, holders)
        for rot in rots:
            value = _placement_value(state, seat, square, rot, before)
            # a tiny tie-break that stays the same over the sub-steps of one turn
            value += ((square[0] * 7919 + square[1] * 104729 + rot * 31 + len(state.pile)) % 997) * 1e-5
            plans.append((value, (square, rot, None)))
    plans.sort(key=lambda plan: -plan[0])
    if len(_PLANS) >= PLANS_KEPT:
        # All at once: clear() is one step, safe while computer seats of other tables (threads)
        # use the same dict; a search's playouts refill what they need within a turn or two.
        _PLANS.clear()
    _PLANS[key] = (board, plans)
    return plans


PLANS_KEPT = 64
# (board id, seat, tile, pile size, followers) -> (board, plans)
_PLANS: dict[tuple[int, int, str | None, int, tuple[Meeple, ...]], tuple[Board, list[Plan]]] = {}


def ranked(state: CarcassonneState, seat: int, legal: list[Action]) -> list[Action]:
    """The legal moves, the ones this player values most first: the strong player weighs these
    rather than a random sample of some forty squares."""
    if state.phase in ("place", "rotate") and state.fits:
        groups = squares_offered(state).groups if state.phase == "place" else ()
        order: dict[Action, int] = {}
        for rank, (_, (square, rot, _)) in enumerate(_plans(state, seat)):
            if state.phase == "rotate" and square != state.square:
                continue
            order.setdefault(Action("turn", (SIDE_NAMES[rot],)), rank)
            order.setdefault(Action("at", (f"{square[0]},{square[1]}",)), rank)
            for k, group in enumerate(groups):
                if square in group:
                    order.setdefault(Action("group", (str(k + 1),)), rank)
        return sorted(legal, key=lambda action: order.get(action, len(order)))
    if state.phase == "follower":
        spots = dict(follower_spots(state))
        index = len(state.board.tiles) - 1

        def worth(action: Action) -> float:
            if action.verb == "follower" and action.args and action.args[0] in spots:
                return -_follower_value(state, seat, index, spots[action.args[0]])
            return -0.3  # no follower: worth what the normal player asks of one
        return sorted(legal, key=worth)
    return list(legal)


def standing_scores(state: CarcassonneState) -> list[float]:
    """What each seat's position is worth in points, for the strong player's search: the track,
    the features its followers hold valued as this player values them (an open city worth more
    than it would score if the game ended now, the more so the more tiles are left to close it),
    and the followers still at home, which can score again while tiles remain."""
    board = state.board
    values = [float(track) + sum(kinds.values()) for track, kinds in zip(state.scores, final_scoring(state))]
    left = min(1.0, len(state.pile) / 24)
    holders = _holders(state, board)
    for seat in range(state.seats):
        held = [root for root, counts in holders.items() if _share(counts, seat) > 0]
        hoped = sum(_estimate(board, root) - feature_points(board, root, final=True) for root in held)
        values[seat] += left * (hoped + HOME_FOLLOWER * min(state.supply(seat), 4))
    return values


HOME_FOLLOWER = 2.0  # points a follower at home is worth while many tiles are left (at most four count)


def _estimate(board: Board, root: int) -> float:
    info = board.info[root]
    kind: str = info[KIND]
    tiles = len(info[TILES])
    pennants: int = info[PENNANTS]
    open_edges: int = info[OPEN]
    if kind == "city":
        if open_edges == 0:
            return 2 * tiles + 2 * pennants
        return 1.4 * tiles + 1.4 * pennants - 0.2 * open_edges
    if kind == "road":
        return tiles if open_edges == 0 else 0.8 * tiles
    if kind == "cloister":
        index = next(iter(info[TILES]))
        _, x, y, _ = board.tiles[index]
        n = board.neighbours((x, y))
        return 9 if n == 8 else 1 + n + 0.5 * (8 - n) * 0.6
    if kind == "field":
        cities = {board.find(c) for c in info[CITIES]}
        return sum(3 if board.info[c][OPEN] == 0 else 1.2 for c in cities)
    return 0.0


def _holders(state: CarcassonneState, board: Board, extra: Meeple | None = None) -> Holders:
    by_root: dict[int, dict[int, int]] = {}
    meeples = state.meeples if extra is None else [*state.meeples, extra]
    for s, index, seg in meeples:
        root = board.find(index * NODE_STRIDE + seg)
        counts = by_root.setdefault(root, {})
        counts[s] = counts.get(s, 0) + 1
    return by_root


def _share(counts: dict[int, int], seat: int) -> float:
    """+1 if the seat holds the feature, -OTHERS_WEIGHT per point it is another's, 0 if empty."""
    if not counts:
        return 0.0
    most = max(counts.values())
    if counts.get(seat, 0) == most:
        return 1.0
    return -OTHERS_WEIGHT


def _touched_after(board: Board, index: int) -> set[int]:
    x, y = board.tiles[index][1:3]
    roots = {board.find(n) for n in board.nodes_of(index)}
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            other = board.pos.get((x + dx, y + dy))
            if other is not None and board.oriented(other).kinds[0] == "cloister":
                roots.add(board.find(other * NODE_STRIDE))
    return roots


def _value(state: CarcassonneState, board: Board, roots: set[int], seat: int, holders: Holders) -> float:
    return sum(_share(holders.get(root, {}), seat) * _estimate(board, root) for root in roots)


def _placement_value(state: CarcassonneState, seat: int, square: Square, rot: int,
                     before: float | None = None) -> float:
    """The best this placement can do, with its best follower choice (or none). `before`: what
    the features the square touches are worth to the seat now, if already known."""
    before_board = state.board
    if before is None:
        before = _value(state, before_board, before_board.touched(square), seat, _holders(state, before_board))
    after_board = before_board.place(state.drawn_tile(), square, rot)
    index = len(after_board.tiles) - 1
    roots = _touched_after(after_board, index)
    holders = _holders(state, after_board)
    base = _value(state, after_board, roots, seat, holders) - before
    best = base
    if state.supply(seat) > 0:
        taken = set(holders)
        for seg in range(len(after_board.oriented(index).kinds)):
            root = after_board.find(index * NODE_STRIDE + seg)
            if root in taken:
                continue
            gain = _estimate(after_board, root) - _follower_cost(state, seat, after_board, root)
            if base + gain > best:
                best = base + gain
    return best


def _follower_cost(state: CarcassonneState, seat: int, board: Board, root: int) -> float:
    info = board.info[root]
    if info[KIND] in ("city", "road") and info[OPEN] == 0:
        return 0.0  # comes straight home
    if info[KIND] == "cloister":
        index = next(iter(info[TILES]))
        if board.neighbours(board.tiles[index][1:3]) == 8:
            return 0.0
    supply = state.supply(seat)
    cost = 1.5 if supply > 3 else 3.0 if supply > 1 else 5.0
    if info[KIND] == "field":
        cost += 2.0 if len(state.pile) > 30 else 0.5
    return cost


def _follower_value(state: CarcassonneState, seat: int, index: int, seg: int) -> float:
    board = state.board
    root = board.find(index * NODE_STRIDE + seg)
    return _estimate(board, root) - _follower_cost(state, seat, board, root)
