"""The Mac Robber game state, its JSON form and the validation on load."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.core import InvalidState, StoredState
from games.macrobber.data import (
    BUILDINGS,
    CUBES,
    ESTATE_NUMBERS,
    MAX_ESTATES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_WARRIORS,
    R,
    all_cards,
)

FORMAT_VERSION = 1
PHASES = ("redraw", "act", "bard", "raid", "exchange", "combat", "plunder", "over")
ESTATE_KINDS = ("", "cattle", "castle", "monastery")
LOG_LENGTH = 12


@dataclass
class MacRobberState:
    """One game. Cube counts are [yellow, blue, green, red] lists. `hands` and `exchange` are
    private to their seat, the attacker's face-down card (`raid["a_card"]`) to the attacker;
    the order of `deck`, `discard` and the estate `supply` (their numbers) is hidden from all."""

    seats: int
    seed: int
    chance_counter: int
    tiebreak: bool
    round: int
    start: int
    turn: int
    phase: str
    bag: list[int]
    aside: list[int]
    display: list[int]
    marked: list[int]
    redrawn: bool
    done: list[str]
    used: int
    courtyards: list[list[int]]
    estates: list[list[str]]
    scores: list[int]
    hands: list[list[int]]
    deck: list[int]
    discard: list[int]
    supply: list[int]
    revealed: list[int]
    removed_hidden: int
    follower: int | None
    owed: list[int]
    raid: dict[str, Any] | None = None
    exchange: list[int] = field(default_factory=list)
    bard: int | None = None
    last_scoring: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] | None = None
    end: str | None = None

    def clone(self) -> MacRobberState:
        return MacRobberState(**{key: _copied(getattr(self, key)) for key in KEYS})

    @property
    def raiding(self) -> dict[str, Any]:
        """The raid under way: there is one from the raid's first card to the refill after it."""
        if self.raid is None:
            raise InvalidState(f"Mac Robber state has no raid under way (phase {self.phase})")
        return self.raid

    @property
    def bard_victim(self) -> int:
        """The seat the bard takes from: there is one while the phase is bard."""
        if self.bard is None:
            raise InvalidState(f"Mac Robber state has no bard's victim (phase {self.phase})")
        return self.bard

    @property
    def active(self) -> int:
        return (self.start + self.turn) % self.seats

    def free_estates(self, seat: int) -> int:
        return self.estates[seat].count("")

    def cattle(self, seat: int) -> int:
        return self.estates[seat].count("cattle")

    def blue(self, seat: int) -> int:
        return self.courtyards[seat][1] + 2 * self.estates[seat].count("castle")

    def green(self, seat: int) -> int:
        return self.courtyards[seat][2] + 3 * self.estates[seat].count("monastery")

    def total_cubes(self, seat: int) -> int:
        return sum(self.courtyards[seat]) + sum(sum(BUILDINGS[e]) for e in self.estates[seat] if e)

    def add_log(self, text: dict[str, Any]) -> None:
        self.log = (self.log + [text])[-LOG_LENGTH:]


KEYS = tuple(f.name for f in fields(MacRobberState))


def to_dict(state: MacRobberState) -> dict[str, Any]:
    data = {"game": "macrobber", "version": FORMAT_VERSION}
    data.update({key: _copied(getattr(state, key)) for key in KEYS})
    return data


def from_dict(data: Mapping[str, Any]) -> MacRobberState:
    with STORED.loading():
        _require(isinstance(data, Mapping), "not a mapping")
        _require(data.get("game") == "macrobber", "not a Mac Robber state")
        _require(data.get("version") == FORMAT_VERSION, f"unknown format version {data.get('version')!r}")
        missing = [key for key in KEYS if key not in data]
        _require(not missing, f"missing {', '.join(missing)}")
        state = MacRobberState(**{key: _copied(data[key]) for key in KEYS})
        _validate(state)
    return state


def _copied(value: Any) -> Any:
    """A state's data (lists, dicts, numbers and words, as JSON holds them) copied all the way
    down: what `copy.deepcopy` gives it, in a third of the time (a move copies states a dozen
    times). Like a JSON round trip, and unlike deepcopy, it keeps no list shared by two places:
    a state never shares one (stored states are JSON)."""
    kind = type(value)
    if kind is list:  # the scalars taken as they are, without a call each (a deck is some 60 numbers)
        return [item if type(item) in _SCALARS else _copied(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _SCALARS else _copied(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(_copied(item) for item in value)
    return value


_SCALARS = frozenset((int, str, bool, float, type(None)))
"""What `_copied` gives back as it is (as it does any value that is no list, dict or tuple)."""


STORED = StoredState("Mac Robber")
_require = STORED.require


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cubes(value: Any, what: str) -> None:
    _require(isinstance(value, list) and len(value) == 4 and all(_is_int(v) and v >= 0 for v in value),
             f"{what} must be four cube counts")


def _validate(state: MacRobberState) -> None:
    for key in ("seats", "seed", "chance_counter", "round", "start", "turn", "used", "removed_hidden"):
        _require(_is_int(getattr(state, key)), f"{key} must be an integer")
    n = state.seats
    _require(MIN_PLAYERS <= n <= MAX_PLAYERS, "seats must be 3 to 5")
    _require(isinstance(state.tiebreak, bool) and isinstance(state.redrawn, bool), "flags must be booleans")
    _require(state.phase in PHASES, f"unknown phase {state.phase!r}")
    _require(0 <= state.start < n and 0 <= state.turn <= n and state.round >= 1, "turn out of range")
    _require(0 <= state.used <= 4 and state.removed_hidden >= 0 and state.chance_counter >= 0, "counters out of range")
    for what in ("bag", "aside", "display", "marked"):
        _cubes(getattr(state, what), what)
    _require(all(m <= d for m, d in zip(state.marked, state.display)), "more cubes marked than shown")
    for what in ("courtyards", "estates", "scores", "hands", "owed"):
        entries = getattr(state, what)
        _require(isinstance(entries, list) and len(entries) == n, f"{what} needs one entry per seat")
    total = [state.bag[c] + state.aside[c] + state.display[c] for c in range(4)]
    for yard in state.courtyards:
        _cubes(yard, "a courtyard")
        _require(yard[R] == 0, "no cattle in a courtyard")
        _require(yard[0] >= MIN_WARRIORS, "fewer than 3 warriors")
        total = [t + v for t, v in zip(total, yard)]
    for estates in state.estates:
        _require(isinstance(estates, list) and 2 <= len(estates) <= MAX_ESTATES
                 and all(e in ESTATE_KINDS for e in estates), "bad estates")
        for e in estates:
            if e:
                total = [t + v for t, v in zip(total, BUILDINGS[e])]
    _require(tuple(total) == CUBES, "the cubes do not add up to 29 yellow, 27 blue, 20 green and 10 red")
    _require(all(_is_int(s) for s in state.scores), "scores must be integers")
    _require(all(_is_int(o) and o >= 0 for o in state.owed), "bad discards owed")
    cards = Counter(state.deck) + Counter(state.discard) + Counter(state.exchange)
    for hand in state.hands:
        _require(isinstance(hand, list) and all(_is_int(c) for c in hand), "bad hand")
        cards += Counter(hand)
    if state.raid is not None:
        raid = state.raid
        _require(isinstance(raid, dict) and {"attacker", "defender", "rounds", "a_card", "a_piper"} <= set(raid),
                 "bad raid")
        _require(raid["attacker"] != raid["defender"] and all(0 <= raid[k] < n for k in ("attacker", "defender")),
                 "bad raid seats")
        if raid["a_card"] is not None:
            cards[raid["a_card"]] += 1
    _require(cards == Counter(all_cards()), "the raid cards do not add up to 67")
    placed = sum(len(e) - 2 for e in state.estates)
    _require(all(_is_int(x) for x in state.supply + state.revealed), "bad estate numbers")
    _require(len(state.supply) + len(state.revealed) + state.removed_hidden + placed == len(ESTATE_NUMBERS),
             "the estates do not add up to 25")
    _require(not (Counter(state.supply) + Counter(state.revealed)) - Counter(ESTATE_NUMBERS), "unknown estate numbers")
    _require(state.follower is None or (_is_int(state.follower) and 0 <= state.follower < n), "bad follower")
    _require(state.bard is None or (_is_int(state.bard) and 0 <= state.bard < n), "bad bard target")
    _require(state.phase != "combat" or state.raid is not None, "a combat without a raid")
    _require(state.phase != "bard" or state.bard is not None, "a bard without a target")
    _require((state.phase == "over") == (state.winners is not None), "winners and phase disagree")
    _require(isinstance(state.log, list) and all(isinstance(x, dict) for x in state.log), "bad log")
    _require(isinstance(state.done, list) and all(isinstance(x, str) for x in state.done), "bad actions done")
