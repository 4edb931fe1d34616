"""The rules the engine, its views and its computer player share (the engine re-exports them):
how the squares where the drawn tile fits are offered, the spots a follower may take, and what a
feature scores. Beneath all three, so that none imports another to use them."""
from __future__ import annotations

from games.carcassonne.board import CITIES, KIND, NODE_STRIDE, OPEN, PENNANTS, TILES, Board
from games.carcassonne.closeup import SquarePlan, featured_group, square_plan
from games.carcassonne.data import (
    CITY_PER_PENNANT,
    CITY_PER_TILE,
    CLOISTER_COMPLETE,
    END_CITY_PER_PENNANT,
    END_CITY_PER_TILE,
    FIELD_PER_CITY,
    ROAD_PER_TILE,
    Oriented,
)
from games.carcassonne.state import CarcassonneState


def squares_offered(state: CarcassonneState) -> SquarePlan:
    """How the squares where the drawn tile fits are offered: all at once, shown close up in one
    picture, or in groups lying together (games.carcassonne.closeup); and how they are numbered."""
    return square_plan(state.fits, state.seats, state.board.pos)


def first_group(state: CarcassonneState) -> int | None:
    """The group of squares shown close up when the turn starts (None when one picture shows
    every square): the one where the tile would join what the player's followers hold, or
    around them (closeup.featured_group)."""
    plan = squares_offered(state)
    if not plan.groups:
        return None
    board = state.board
    mine = [(index, segment) for seat, index, segment in state.meeples if seat == state.turn]
    followers = [(board.tiles[index][1], board.tiles[index][2]) for index, _ in mine]
    held = {board.find(index * NODE_STRIDE + segment) for index, segment in mine}
    joining = [square for square in state.fits if board.touched(square) & held]
    return featured_group(plan.groups, followers, joining)


def spot_names(o: Oriented) -> list[str]:
    """Names of a tile's spots in segment order: city1, road1, road2, field1, cloister."""
    counts: dict[str, int] = {}
    names = []
    for kind in o.kinds:
        counts[kind] = counts.get(kind, 0) + 1
        names.append(kind if kind == "cloister" else f"{kind}{counts[kind]}")
    return names


def follower_spots(state: CarcassonneState) -> list[tuple[str, int]]:
    """Free spots of the tile just placed, as (name, segment): only if the player has a
    follower at home and no follower stands anywhere in the joined feature."""
    if state.supply(state.turn) <= 0:
        return []
    board = state.board
    index = len(board.tiles) - 1
    o = board.oriented(index)
    taken = {board.find(t * NODE_STRIDE + s) for _, t, s in state.meeples}
    base = index * NODE_STRIDE
    return [(name, seg) for seg, name in enumerate(spot_names(o)) if board.find(base + seg) not in taken]


def feature_points(board: Board, root: int, *, final: bool) -> int:
    info = board.info[root]
    kind = info[KIND]
    if kind == "road":
        return len(info[TILES]) * ROAD_PER_TILE
    if kind == "city":
        pennants: int = info[PENNANTS]
        if final:
            return len(info[TILES]) * END_CITY_PER_TILE + pennants * END_CITY_PER_PENNANT
        return len(info[TILES]) * CITY_PER_TILE + pennants * CITY_PER_PENNANT
    if kind == "cloister":
        index = next(iter(info[TILES]))
        _, x, y = board.tiles[index][:3]
        neighbours = board.neighbours((x, y))
        return CLOISTER_COMPLETE if neighbours == 8 and not final else 1 + neighbours
    if kind == "field":
        cities = {board.find(c) for c in info[CITIES]}
        return FIELD_PER_CITY * sum(1 for c in cities if board.info[c][OPEN] == 0)
    return 0


def majority(seats_on_feature: list[int]) -> list[int]:
    """The seats with the most followers in a feature (all of them when tied), in seat order."""
    counts: dict[int, int] = {}
    for s in seats_on_feature:
        counts[s] = counts.get(s, 0) + 1
    if not counts:
        return []
    most = max(counts.values())
    return sorted(s for s, n in counts.items() if n == most)


def final_scoring(state: CarcassonneState) -> list[dict[str, int]]:
    """End-of-game points per seat, by kind, for the followers still on the board."""
    board = state.board
    result = [{"road": 0, "city": 0, "cloister": 0, "field": 0} for _ in range(state.seats)]
    by_root: dict[int, list[int]] = {}
    for seat, index, seg in state.meeples:
        by_root.setdefault(board.find(index * NODE_STRIDE + seg), []).append(seat)
    for root, seats in by_root.items():
        kind = board.info[root][KIND]
        points = feature_points(board, root, final=True)
        for seat in majority(seats):
            result[seat][kind] += points
    return result
