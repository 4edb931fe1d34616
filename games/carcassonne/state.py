"""The Carcassonne game state, its JSON form and the validation on load.

The landscape is stored as the list of placements in order; loading replays them into a fresh
union-find board, which checks on the way that every tile fits where it lies.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.carcassonne.board import NODE_STRIDE, Board, Square
from games.carcassonne.closeup import square_plan
from games.carcassonne.data import (
    DISTINCT_ROTATIONS,
    FOLLOWERS_PER_PLAYER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ORIENTED,
    TILES,
    TRACK_SPACES,
    all_tiles,
)
from games.core import InvalidState

FORMAT_VERSION = 1
PHASES = ("place", "rotate", "robber", "follower", "crop", "crop_act", "over")
ROBBER_OPTIONS = ("next", "all")
LOG_LENGTH = 12


@dataclass
class CarcassonneState:
    seats: int
    seed: int
    chance_counter: int
    robbers_option: str
    board: Board
    pile: list[str]
    phase: str
    turn: int
    drawn: str | None = None
    # derived: square -> rotations for the drawn tile
    fits: dict[Square, tuple[int, ...]] = field(default_factory=dict)
    area: int | None = None
    square: tuple[int, int] | None = None
    asked: int | None = None
    robber_queue: list[int] = field(default_factory=list)
    crop_mode: str | None = None
    crop_queue: list[int] = field(default_factory=list)
    meeples: list[tuple[int, int, int]] = field(default_factory=list)  # (seat, tile index, segment)
    scores: list[int] = field(default_factory=list)
    robbers: list[int | None] = field(default_factory=list)  # track space or None (in supply)
    set_aside: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    breakdown: list[dict[str, Any]] | None = None

    def clone(self) -> CarcassonneState:
        # The board is copied on write (Board.place), the fits dict is never changed in place.
        return CarcassonneState(
            seats=self.seats, seed=self.seed, chance_counter=self.chance_counter,
            robbers_option=self.robbers_option, board=self.board, pile=list(self.pile), phase=self.phase,
            turn=self.turn, drawn=self.drawn, fits=self.fits, area=self.area, square=self.square,
            asked=self.asked, robber_queue=list(self.robber_queue), crop_mode=self.crop_mode,
            crop_queue=list(self.crop_queue), meeples=list(self.meeples), scores=list(self.scores),
            robbers=list(self.robbers), set_aside=list(self.set_aside), log=list(self.log),
            breakdown=self.breakdown,
        )

    def add_log(self, text: dict[str, Any]) -> None:
        self.log.append(text)
        if len(self.log) > LOG_LENGTH:
            del self.log[:-LOG_LENGTH]

    def drawn_tile(self) -> str:
        """The tile the player is placing (phases "place" and "rotate")."""
        if self.drawn is None:
            raise InvalidState(f"No tile is drawn in phase {self.phase!r}.")
        return self.drawn

    def chosen_square(self) -> Square:
        """The square the drawn tile goes on (phase "rotate")."""
        if self.square is None:
            raise InvalidState(f"No square is chosen in phase {self.phase!r}.")
        return self.square

    def asked_seat(self) -> int:
        """The seat asked to answer (phases "robber" and "crop_act")."""
        if self.asked is None:
            raise InvalidState(f"Nobody is asked in phase {self.phase!r}.")
        return self.asked

    def supply(self, seat: int) -> int:
        return FOLLOWERS_PER_PLAYER - sum(1 for m in self.meeples if m[0] == seat)

    def space(self, seat: int) -> int:
        return self.scores[seat] % TRACK_SPACES


# ----------------------------------------------------------------------------------------
# JSON


def to_dict(state: CarcassonneState) -> dict[str, Any]:
    return {
        "game": "carcassonne",
        "version": FORMAT_VERSION,
        "seats": state.seats,
        "seed": state.seed,
        "chance_counter": state.chance_counter,
        "robbers_option": state.robbers_option,
        "tiles": [list(t) for t in state.board.tiles],
        "pile": list(state.pile),
        "phase": state.phase,
        "turn": state.turn,
        "drawn": state.drawn,
        "area": state.area,
        "square": list(state.square) if state.square else None,
        "asked": state.asked,
        "robber_queue": list(state.robber_queue),
        "crop_mode": state.crop_mode,
        "crop_queue": list(state.crop_queue),
        "meeples": [list(m) for m in state.meeples],
        "scores": list(state.scores),
        "robbers": list(state.robbers),
        "set_aside": list(state.set_aside),
        "log": list(state.log),
        "breakdown": state.breakdown,
    }


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidState(f"{what} must be a whole number, not {value!r}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise InvalidState(f"{what} is out of range: {value}.")
    return value


def from_dict(data: Mapping[str, Any]) -> CarcassonneState:
    try:
        return _from_dict(data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise InvalidState(f"This Carcassonne game could not be read: {exc!r}.") from None


def _from_dict(data: Mapping[str, Any]) -> CarcassonneState:
    if not isinstance(data, Mapping) or data.get("game") != "carcassonne":
        raise InvalidState("This is not a Carcassonne game.")
    if data.get("version") != FORMAT_VERSION:
        raise InvalidState(f"Unknown Carcassonne save version {data.get('version')!r}.")
    seats = _int(data["seats"], "seats", MIN_PLAYERS, MAX_PLAYERS)
    seed = _int(data["seed"], "seed")
    counter = _int(data["chance_counter"], "chance counter", 0)
    option = data["robbers_option"]
    if option not in ROBBER_OPTIONS:
        raise InvalidState(f"Unknown robbers option {option!r}.")
    phase = data["phase"]
    if phase not in PHASES:
        raise InvalidState(f"Unknown phase {phase!r}.")
    turn = _int(data["turn"], "turn", 0, seats - 1)

    raw_meeples = [tuple(_int(v, "follower") for v in m) for m in data["meeples"]]
    if any(len(m) != 3 for m in raw_meeples):
        raise InvalidState("A follower is malformed.")
    board = Board()
    for i, entry in enumerate(data["tiles"]):
        code, x, y, rot = entry
        if code not in TILES:
            raise InvalidState(f"Unknown tile {code!r}.")
        x, y, rot = _int(x, "x"), _int(y, "y"), _int(rot, "rotation", 0, 3)
        if (x, y) in board.pos:
            raise InvalidState(f"Two tiles on square {x},{y}.")
        if i > 0:
            if (x, y) not in board.frontier:
                raise InvalidState(f"Tile {i} at {x},{y} touches no other tile.")
            need = board.needs((x, y))
            if any(n is not None and n != e for n, e in zip(need, ORIENTED[(code, rot)].edges)):
                raise InvalidState(f"Tile {i} at {x},{y} does not fit.")
        board._place(code, (x, y), rot)
        _check_followers_placed_on(board, i, raw_meeples)
    pile = [str(c) for c in data["pile"]]
    set_aside = [str(c) for c in data["set_aside"]]
    drawn = data["drawn"]
    everything = [t[0] for t in board.tiles] + pile + set_aside + ([drawn] if drawn else [])
    if Counter(everything) != Counter(all_tiles()):
        raise InvalidState("The tiles on the board, in the pile and set aside are not the box's tiles.")
    if not board.tiles:
        raise InvalidState("The start tile is missing.")

    meeples = []
    for m in data["meeples"]:
        seat, index, seg = (_int(v, "follower") for v in m)
        if not (0 <= seat < seats and 0 <= index < len(board.tiles)
                and 0 <= seg < len(board.oriented(index).kinds)):
            raise InvalidState(f"A follower stands nowhere: {m!r}.")
        meeples.append((seat, index, seg))
    scores = [_int(v, "score", 0) for v in data["scores"]]
    robbers = [None if v is None else _int(v, "robber space", 0, TRACK_SPACES - 1) for v in data["robbers"]]
    if len(scores) != seats or len(robbers) != seats:
        raise InvalidState("Scores and robbers must have one entry per player.")
    square = data["square"]
    square = (_int(square[0], "x"), _int(square[1], "y")) if square is not None else None
    asked = data["asked"]
    asked = None if asked is None else _int(asked, "asked", 0, seats - 1)
    area = data["area"]
    area = None if area is None else _int(area, "area", 0)
    state = CarcassonneState(
        seats=seats, seed=seed, chance_counter=counter, robbers_option=option, board=board, pile=pile,
        phase=phase, turn=turn, drawn=drawn, area=area, square=square, asked=asked,
        robber_queue=[_int(s, "seat", 0, seats - 1) for s in data["robber_queue"]],
        crop_mode=data["crop_mode"], crop_queue=[_int(s, "seat", 0, seats - 1) for s in data["crop_queue"]],
        meeples=meeples, scores=scores, robbers=robbers, set_aside=set_aside,
        log=[dict(x) for x in data["log"]], breakdown=data.get("breakdown"),
    )
    for seat in range(seats):
        if state.supply(seat) < 0:
            raise InvalidState("A player has more than 7 followers out.")
        # A robber is only ever placed beside another player's figure, and robs (and goes home)
        # as soon as a figure moves away from its space.
        if robbers[seat] is not None and not any(other != seat and state.space(other) == robbers[seat]
                                                 for other in range(seats)):
            raise InvalidState(f"A robber stands on space {robbers[seat]} beside no other player's figure.")
    if phase in ("place", "rotate"):
        if drawn not in TILES:
            raise InvalidState("No tile is drawn.")
        state.fits = board.fits(drawn)
        if not state.fits:
            raise InvalidState("The drawn tile fits nowhere.")
        if phase == "rotate" and square not in state.fits:
            raise InvalidState("The chosen square does not fit the drawn tile.")
        if area is not None and area >= len(square_plan(state.fits, seats, board.pos).groups):
            state.area = None  # saved under other groups of squares: the choice starts again
    if phase in ("robber", "crop_act") and asked is None:
        raise InvalidState("Nobody is asked.")
    if state.crop_mode not in (None, "add", "remove"):
        raise InvalidState("Unknown crop-circle choice.")
    return state


def _check_followers_placed_on(board: Board, index: int, meeples: list[tuple[int, ...]]) -> None:
    """Followers are placed only on the tile just laid and only on a feature nobody occupies
    then. With tiles 0..index on the board, a follower on tile `index` must share its feature
    with no follower placed before it; features joined later may hold several. A crop circle
    adds a follower beside one already there (the same spot), which is no new placement."""
    for position, (seat, tile, seg) in enumerate(meeples):
        if tile != index:
            continue
        if not (0 <= seg < len(board.oriented(index).kinds)):
            raise InvalidState(f"A follower stands nowhere: {(seat, tile, seg)!r}.")
        if (seat, tile, seg) in meeples[:position]:
            continue  # a crop circle's added follower
        root = board.find(index * NODE_STRIDE + seg)
        for earlier in meeples[:position]:
            if earlier[1] <= index and board.find(earlier[1] * NODE_STRIDE + earlier[2]) == root:
                raise InvalidState(f"Two followers were placed on one feature (tile {index}).")


__all__ = ["CarcassonneState", "to_dict", "from_dict", "DISTINCT_ROTATIONS"]
