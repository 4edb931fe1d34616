"""The Raub Ritter game state, its JSON form and the validation on load."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core import InvalidState, Msg, StoredState
from games.raubritter.board import Geometry, Laid, Square, extent, legal_squares, square_name
from games.raubritter.tiles import (
    AREA_CHOICES,
    AREA_LIMIT,
    KNIGHTS_PER_PLAYER,
    LEGACY_AREA_LIMIT,
    LETTERS,
    MAX_KNIGHTS_PER_TILE,
    MAX_LAYS_PER_TURN,
    TILES_BY_LETTER,
    building_of,
    player_tiles,
)

FORMAT_VERSION = 1
PHASES = ("keep", "lay", "knights", "over")
END_REASONS = ("all_laid", "area_full")
LOG_LENGTH = 8


@dataclass
class RaubRitterState:
    """Everything about one game. Hands and piles hold letter+face tile strings ("BFv");
    a pile's index 0 is its top. During the keep phase each hand holds the player's four A
    tiles and `kept` records the secret choice until every seat has made it."""

    seats: int
    seed: int
    chance_counter: int
    phase: str
    turn: int
    lays_this_turn: int
    kept: list[str | None]
    hands: list[list[str]]
    piles: list[list[str]]
    knights_left: list[int]
    board: dict[Square, Laid]
    pending_castle: Square | None = None
    this_turn: list[Square] = field(default_factory=list)
    recent_turns: list[tuple[int, tuple[Square, ...]]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)  # the last public event lines, as Msg JSON
    end_reason: str | None = None
    limit: int | None = None  # the area limit (tiles per row and column); None: the default for the seats

    def __post_init__(self) -> None:
        if self.limit is None:
            self.limit = AREA_LIMIT[self.seats]

    @property
    def geometry(self) -> Geometry:
        return Geometry.for_seats(self.seats, self.limit)

    def clone(self) -> RaubRitterState:
        # Laid tiles are immutable tuples, so a shallow copy of the board dict is enough.
        return RaubRitterState(
            seats=self.seats, seed=self.seed, chance_counter=self.chance_counter, phase=self.phase,
            turn=self.turn, lays_this_turn=self.lays_this_turn, kept=list(self.kept),
            hands=[list(h) for h in self.hands], piles=[list(p) for p in self.piles],
            knights_left=list(self.knights_left), board=dict(self.board),
            pending_castle=self.pending_castle, this_turn=list(self.this_turn),
            recent_turns=list(self.recent_turns), log=list(self.log), end_reason=self.end_reason,
            limit=self.limit,
        )

    @property
    def castle_awaiting_knights(self) -> Square:
        """The castle just laid: there is one while the phase is knights."""
        if self.pending_castle is None:
            raise InvalidState(f"Raub Ritter state has no castle awaiting knights (phase {self.phase})")
        return self.pending_castle

    def add_log(self, line: Msg | dict[str, Any]) -> None:
        self.log = (self.log + [line.to_json() if isinstance(line, Msg) else line])[-LOG_LENGTH:]


# ----------------------------------------------------------------------------------------
# JSON


def to_dict(state: RaubRitterState) -> dict[str, Any]:
    name = square_name
    return {
        "game": "raubritter",
        "version": FORMAT_VERSION,
        "seats": state.seats,
        "area": state.limit,
        "seed": state.seed,
        "chance_counter": state.chance_counter,
        "phase": state.phase,
        "turn": state.turn,
        "lays_this_turn": state.lays_this_turn,
        "kept": list(state.kept),
        "hands": [list(h) for h in state.hands],
        "piles": [list(p) for p in state.piles],
        "knights_left": list(state.knights_left),
        "board": [{"square": name(sq), "tile": laid.tile, "owner": laid.owner, "stack": list(laid.stack)}
                  for sq, laid in sorted(state.board.items(), key=lambda item: (item[0][1], item[0][0]))],
        "pending_castle": name(state.pending_castle) if state.pending_castle else None,
        "this_turn": [name(sq) for sq in state.this_turn],
        "recent_turns": [{"seat": seat, "squares": [name(sq) for sq in squares]}
                         for seat, squares in state.recent_turns],
        "log": list(state.log),
        "end_reason": state.end_reason,
    }


def from_dict(data: Mapping[str, Any]) -> RaubRitterState:
    with STORED.loading():
        state = _load(data)
        _validate(state)
    return state


STORED = StoredState("Raub Ritter")
_require = STORED.require
_invalid = STORED.invalid


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _invalid(f"{what} must be an integer")
    return value


def _tiles(values: Any, what: str) -> list[str]:
    _require(isinstance(values, list), f"{what} must be a list")
    for tile in values:
        _require(isinstance(tile, str) and len(tile) >= 2 and tile[0] in TILES_BY_LETTER
                 and tile[1:] in TILES_BY_LETTER[tile[0]], f"{what} holds an unknown tile {tile!r}")
    return list(values)


def _load(data: Mapping[str, Any]) -> RaubRitterState:
    _require(isinstance(data, Mapping), "not a mapping")
    _require(data.get("game") == "raubritter", "not a Raub Ritter state")
    _require(data.get("version") == FORMAT_VERSION, f"unknown format version {data.get('version')!r}")
    seats = _int(data["seats"], "seats")
    _require(2 <= seats <= 4, "seats must be 2 to 4")
    limit = _int(data["area"], "area") if "area" in data else LEGACY_AREA_LIMIT[seats]
    _require(limit in AREA_CHOICES[seats], f"no {limit} x {limit} area for {seats} players")
    geometry = Geometry.for_seats(seats, limit)

    def square(text: Any) -> Square:
        parsed = geometry.parse(text) if isinstance(text, str) else None
        if parsed is None:
            _invalid(f"{text!r} is no square of the grid")
        return parsed

    def per_seat(values: Any, what: str) -> list[Any]:
        if not isinstance(values, list) or len(values) != seats:
            _invalid(f"{what} needs one entry per seat")
        return values

    board: dict[Square, Laid] = {}
    for entry in data["board"]:
        where = square(entry["square"])
        _require(where not in board, f"two tiles on {entry['square']}")
        tile = _tiles([entry["tile"]], "board")[0]
        owner = _int(entry["owner"], "owner")
        stack = tuple(_int(s, "knight") for s in entry["stack"])
        board[where] = Laid(tile, owner, stack)
    pending = data["pending_castle"]
    recent = [(_int(t["seat"], "seat"), tuple(square(s) for s in t["squares"])) for t in data["recent_turns"]]
    kept = per_seat(data["kept"], "kept")
    for choice in kept:
        _require(choice is None or isinstance(choice, str), "kept must be tile faces or null")
    log = data["log"]
    # Lines are Msg JSON; plain strings are lines stored before the engine spoke in messages.
    _require(isinstance(log, list) and all(
        isinstance(line, str) or (isinstance(line, dict) and str(line.get("id", "")).startswith("raubritter."))
        for line in log), "log must be messages")
    return RaubRitterState(
        seats=seats, seed=_int(data["seed"], "seed"), chance_counter=_int(data["chance_counter"], "chance_counter"),
        phase=data["phase"], turn=_int(data["turn"], "turn"), lays_this_turn=_int(data["lays_this_turn"], "lays"),
        kept=list(kept),
        hands=[_tiles(h, "hand") for h in per_seat(data["hands"], "hands")],
        piles=[_tiles(p, "pile") for p in per_seat(data["piles"], "piles")],
        knights_left=[_int(k, "knights_left") for k in per_seat(data["knights_left"], "knights_left")],
        board=board, pending_castle=square(pending) if pending is not None else None,
        this_turn=[square(s) for s in data["this_turn"]], recent_turns=recent, log=list(log)[-LOG_LENGTH:],
        end_reason=data["end_reason"], limit=limit,
    )


def _validate(state: RaubRitterState) -> None:
    seats = state.seats
    _require(state.phase in PHASES, f"unknown phase {state.phase!r}")
    _require(0 <= state.turn < seats, "turn is no seat")
    _require(0 <= state.lays_this_turn <= MAX_LAYS_PER_TURN, "lays this turn out of range")
    _require(state.chance_counter >= 0, "chance counter is negative")

    # Every seat's 24 tiles are each somewhere exactly once.
    placed: list[Counter[Any]] = [Counter() for _ in range(seats)]
    for laid in state.board.values():
        _require(0 <= laid.owner < seats, "a tile's owner is no seat")
        placed[laid.owner][laid.tile] += 1
    full_set = Counter(player_tiles())
    for seat in range(seats):
        held = placed[seat] + Counter(state.hands[seat]) + Counter(state.piles[seat])
        _require(held == full_set, f"seat {seat}'s tiles do not add up to one full set")
        letters = [tile[0] for tile in state.piles[seat]]
        _require(letters == sorted(letters, key=LETTERS.index), f"seat {seat}'s pile is out of letter order")

    # Knights: every seat's thirty are either unused or on the board, at most four a tile.
    on_board = Counter(k for laid in state.board.values() for k in laid.stack)
    for laid in state.board.values():
        _require(len(laid.stack) <= MAX_KNIGHTS_PER_TILE, "more than four knights on a tile")
        _require(all(0 <= k < seats for k in laid.stack), "a knight belongs to no seat")
    for seat in range(seats):
        _require(0 <= state.knights_left[seat], "negative knights")
        _require(state.knights_left[seat] + on_board[seat] == KNIGHTS_PER_PLAYER,
                 f"seat {seat}'s knights do not add up to {KNIGHTS_PER_PLAYER}")

    span = extent(state.board)
    if span is not None:
        limit = state.geometry.limit
        _require(span[1] - span[0] < limit and span[3] - span[2] < limit, "the display exceeds the area limit")

    if state.phase == "keep":
        _require(not state.board and all(len(h) == 4 for h in state.hands), "keep phase with tiles laid")
        for seat, choice in enumerate(state.kept):
            _require(choice is None or (building_of(choice) != "castle"
                                        and any(t[1:] == choice for t in state.hands[seat])),
                     "kept tile is not a non-castle tile of the hand")
    else:
        _require(all(choice is None for choice in state.kept), "keep choices outside the keep phase")
        _require(all(len(h) <= 2 for h in state.hands), "a hand holds more than two tiles")
    if state.phase == "knights":
        castle = state.board.get(state.pending_castle) if state.pending_castle else None
        _require(castle is not None and building_of(castle.face) == "castle" and not castle.stack
                 and castle.owner == state.turn, "knights phase without a fresh castle")
    else:
        _require(state.pending_castle is None, "a castle awaits knights outside the knights phase")
    if state.phase == "lay":
        _require(bool(state.hands[state.turn]), "the player to lay has no tile")
    _require(all(sq in state.board for sq in state.this_turn), "a square of this turn is empty")
    _require(all(0 <= seat < seats for seat, _ in state.recent_turns), "a recent turn belongs to no seat")
    _require((state.end_reason in END_REASONS) == (state.phase == "over"), "end reason and phase disagree")

    # The turn's bookkeeping agrees with the table.
    _require(state.lays_this_turn == len(state.this_turn), "the lay count disagrees with the tiles laid this turn")
    _require(len(set(state.this_turn)) == len(state.this_turn), "a square laid twice this turn")
    _require(all(state.board[sq].owner == state.turn for sq in state.this_turn),
             "a tile laid this turn belongs to another seat")
    if state.phase in ("keep", "over"):
        _require(not state.this_turn, "tiles laid in a turn that is not going on")
    if state.phase == "knights":
        _require(bool(state.this_turn) and state.this_turn[-1] == state.pending_castle,
                 "the castle awaiting knights is not the last tile laid")
    # Every seat draws after each lay: a hand is short only when its pile is empty (or, for the
    # player placing knights, by the one tile not yet drawn).
    if state.phase in ("lay", "knights"):
        for seat in range(seats):
            short = 1 if (state.phase == "knights" and seat == state.turn) else 0
            if state.piles[seat]:
                _require(len(state.hands[seat]) == 2 - short, f"seat {seat} holds too few tiles with a pile left")
    if state.phase == "over":
        if state.end_reason == "all_laid":
            _require(not any(state.hands) and not any(state.piles),
                     "a game that ended with every tile laid still has tiles in hands or piles")
        else:
            _require(not legal_squares(state.board, state.geometry),
                     "a game that ended with a full area still has room to lay")
