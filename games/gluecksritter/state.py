"""The Die Glücksritter game state, its JSON form and the validation on load."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from games.core import InvalidState, StoredState
from games.gluecksritter.data import (
    CASTLE_TOWERS,
    CASTLE_WALLS,
    DOCUMENTS,
    DUCAT_CARDS,
    FIELDS,
    GOLD_COINS,
    KNIGHT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RED_DOCUMENTS,
    SILVER_COINS,
    TOWERS_IN_GAME,
    WALLS_IN_GAME,
    YELLOW_DOCUMENTS,
    all_documents,
)

FORMAT_VERSION = 1
PHASES = ("choose", "favour", "field1", "field2", "field3", "haggle", "knight", "steal", "over")
LOG_LENGTH = 10


def empty_choice() -> dict[str, Any]:
    return {"cards": [], "docs": [], "ransom": False, "ready": False}


def empty_armed() -> dict[str, Any]:
    return {"gift": False, "alibi": False, "veto": None}


@dataclass
class GluecksritterState:
    """One game. Coin pairs are [silver, gold]. `hands`, `armed`, `choices` (until the reveal)
    and `favour` are private to their seat; `pile`, `ducat_deck` order is hidden from all."""

    seats: int
    seed: int
    chance_counter: int
    round: int
    phase: str
    sack: list[int]
    field5: list[int]
    field6: list[int]
    money: list[list[int]]
    walls: list[int]
    towers: list[int]
    hands: list[list[str]]
    armed: list[dict[str, Any]]
    dungeon: list[bool]
    pile: list[str]
    discard: list[str]
    ducat_deck: list[int]
    ducat_card: int | None
    choices: list[dict[str, Any]]
    revealed: bool = False
    played_docs: list[list[str]] = field(default_factory=list)
    effective: list[list[str]] = field(default_factory=list)
    used: list[list[str]] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    favour: list[list[str]] = field(default_factory=list)
    haggle: dict[str, Any] | None = None
    knight: int | None = None
    raid: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    winners: list[int] | None = None
    previous: dict[str, Any] | None = None  # the last round as revealed: cards, documents, raid (public)
    # How often the rules have asked whether a secretly armed document fires (a Veto, an Alibi,
    # a Gift): the answer shows in public either way, so each time something hidden came to light.
    consulted: int = 0

    def clone(self) -> GluecksritterState:
        return GluecksritterState(
            seats=self.seats, seed=self.seed, chance_counter=self.chance_counter, round=self.round,
            phase=self.phase, sack=list(self.sack), field5=list(self.field5), field6=list(self.field6),
            money=[list(m) for m in self.money], walls=list(self.walls), towers=list(self.towers),
            hands=[list(h) for h in self.hands], armed=[dict(a) for a in self.armed],
            dungeon=list(self.dungeon), pile=list(self.pile), discard=list(self.discard),
            ducat_deck=list(self.ducat_deck), ducat_card=self.ducat_card,
            choices=[{"cards": list(c["cards"]), "docs": list(c["docs"]), "ransom": c["ransom"],
                      "ready": c["ready"]} for c in self.choices],
            revealed=self.revealed, played_docs=[list(d) for d in self.played_docs],
            effective=[list(d) for d in self.effective], used=[list(d) for d in self.used],
            pending=list(self.pending), favour=[list(f) for f in self.favour],
            haggle=_copy_haggle(self.haggle), knight=self.knight,
            raid=dict(self.raid) if self.raid is not None else None, log=list(self.log),
            winners=list(self.winners) if self.winners is not None else None,
            previous=_copy_previous(self.previous), consulted=self.consulted,
        )

    @property
    def haggling(self) -> dict[str, Any]:
        """The haggle between two Black Knights: there is one while the phase is haggle."""
        if self.haggle is None:
            raise InvalidState(f"Die Glücksritter state has no haggle under way (phase {self.phase})")
        return self.haggle

    @property
    def black_knight(self) -> int:
        """The seat playing the Black Knight: there is one in the knight and steal phases."""
        if self.knight is None:
            raise InvalidState(f"Die Glücksritter state has no Black Knight (phase {self.phase})")
        return self.knight

    @property
    def raiding(self) -> dict[str, Any]:
        """The Black Knight's raid of this round: there is one from the raid to the round's end."""
        if self.raid is None:
            raise InvalidState(f"Die Glücksritter state has no raid (phase {self.phase})")
        return self.raid

    def ducats(self, seat: int) -> int:
        silver, gold = self.money[seat]
        return silver + 2 * gold

    def pieces(self, seat: int) -> int:
        return self.walls[seat] + self.towers[seat]

    def add_log(self, text: dict[str, Any]) -> None:
        self.log = (self.log + [text])[-LOG_LENGTH:]


def _copy_previous(previous: dict[str, Any] | None) -> dict[str, Any] | None:
    if previous is None:
        return None
    return {"round": previous["round"], "cards": [list(c) for c in previous["cards"]],
            "docs": [list(d) for d in previous["docs"]],
            "raid": dict(previous["raid"]) if previous["raid"] is not None else None}


def _copy_haggle(haggle: dict[str, Any] | None) -> dict[str, Any] | None:
    if haggle is None:
        return None
    copy = dict(haggle)
    copy["knights"] = list(haggle["knights"])
    copy["passed"] = list(haggle["passed"])
    copy["offers"] = [list(o) for o in haggle["offers"]]
    copy["offer"] = list(haggle["offer"]) if haggle["offer"] is not None else None
    return copy


# ----------------------------------------------------------------------------------------
# JSON

KEYS = ("seats", "seed", "chance_counter", "round", "phase", "sack", "field5", "field6", "money", "walls",
        "towers", "hands", "armed", "dungeon", "pile", "discard", "ducat_deck", "ducat_card", "choices",
        "revealed", "played_docs", "effective", "used", "pending", "favour", "haggle", "knight", "raid", "log",
        "winners", "previous")


def to_dict(state: GluecksritterState) -> dict[str, Any]:
    copy = state.clone()
    data = {"game": "gluecksritter", "version": FORMAT_VERSION}
    for key in KEYS:
        data[key] = getattr(copy, key)
    data["consulted"] = copy.consulted
    return data


def from_dict(data: Mapping[str, Any]) -> GluecksritterState:
    with STORED.loading():
        _require(isinstance(data, Mapping), "not a mapping")
        _require(data.get("game") == "gluecksritter", "not a Die Glücksritter state")
        _require(data.get("version") == FORMAT_VERSION, f"unknown format version {data.get('version')!r}")
        missing = [key for key in KEYS if key not in data]
        _require(not missing, f"missing {', '.join(missing)}")
        state = GluecksritterState(**{key: data[key] for key in KEYS},
                                   consulted=int(data.get("consulted", 0))).clone()  # older states lack it
        _validate(state)
    return state


STORED = StoredState("Die Glücksritter")
_require = STORED.require
_invalid = STORED.invalid


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _pair(value: Any, what: str) -> None:
    _require(isinstance(value, list) and len(value) == 2 and all(_is_int(v) and v >= 0 for v in value),
             f"{what} must be a [silver, gold] pair")


def _per_seat(state: GluecksritterState, value: Any, what: str) -> None:
    _require(isinstance(value, list) and len(value) == state.seats, f"{what} needs one entry per seat")


def _validate(state: GluecksritterState) -> None:
    for key in ("seats", "seed", "chance_counter", "round"):
        _require(_is_int(getattr(state, key)), f"{key} must be an integer")
    seats = state.seats
    _require(MIN_PLAYERS <= seats <= MAX_PLAYERS, "seats must be 3 to 6")
    _require(state.chance_counter >= 0 and state.round >= 1, "counters out of range")
    _require(state.phase in PHASES, f"unknown phase {state.phase!r}")
    for what in ("money", "walls", "towers", "hands", "armed", "dungeon", "choices", "played_docs",
                 "effective", "used", "favour"):
        _per_seat(state, getattr(state, what), what)
    # Every coin is somewhere exactly once.
    for what in ("sack", "field5", "field6"):
        _pair(getattr(state, what), what)
    for purse in state.money:
        _pair(purse, "a purse")
    silver = state.sack[0] + state.field5[0] + state.field6[0] + sum(m[0] for m in state.money)
    gold = state.sack[1] + state.field5[1] + state.field6[1] + sum(m[1] for m in state.money)
    _require((silver, gold) == (SILVER_COINS, GOLD_COINS), "the coins do not add up to 60 silver and 40 gold")
    # Castle pieces.
    for count in (*state.walls, *state.towers):
        _require(_is_int(count), "castle pieces must be integers")
    _require(all(0 <= w <= CASTLE_WALLS for w in state.walls), "a building site holds 0 to 4 walls")
    _require(all(0 <= t <= CASTLE_TOWERS for t in state.towers), "a building site holds 0 to 4 towers")
    _require(sum(state.walls) <= WALLS_IN_GAME and sum(state.towers) <= TOWERS_IN_GAME, "too many pieces")
    # Every document is somewhere exactly once.
    for hand in state.hands:
        _require(isinstance(hand, list), "a hand must be a list")
    places = [*state.hands, state.pile, state.discard, *state.favour]
    held: Counter[str] = Counter()
    for place in places:
        _require(isinstance(place, list) and all(code in DOCUMENTS for code in place), "unknown document")
        held.update(place)
    _require(held == Counter(all_documents()), "the documents do not add up to the 25 cards")
    # Ducat cards.
    _require(isinstance(state.ducat_deck, list) and all(_is_int(i) and 0 <= i < len(DUCAT_CARDS)
                                                         for i in state.ducat_deck), "bad Ducat deck")
    _require(len(set(state.ducat_deck)) == len(state.ducat_deck), "a Ducat card twice in the deck")
    _require(state.ducat_card is None or (_is_int(state.ducat_card) and 0 <= state.ducat_card < len(DUCAT_CARDS)),
             "bad Ducat card")
    for flag in state.dungeon:
        _require(isinstance(flag, bool), "dungeon flags must be true or false")
    for armed in state.armed:
        _require(isinstance(armed, dict) and set(armed) == {"gift", "alibi", "veto"}, "bad armed documents")
    for seat, armed in enumerate(state.armed):
        _require(not armed["gift"] or "gift" in state.hands[seat], "an armed Gift nobody holds")
        _require(not armed["alibi"] or "alibi" in state.hands[seat], "an armed Alibi nobody holds")
        veto = armed["veto"]
        _require(veto is None or ("veto" in state.hands[seat] and _veto_target_ok(veto, seats)), "bad armed Veto")
    for seat, choice in enumerate(state.choices):
        _require(isinstance(choice, dict) and set(choice) == {"cards", "docs", "ransom", "ready"}, "bad choice")
        cards = choice["cards"]
        _require(isinstance(cards, list) and len(cards) <= 2 and len(set(cards)) == len(cards)
                 and all(c in FIELDS for c in cards), "bad chosen cards")
        _require(not choice["ready"] or len(cards) == 2, "a confirmed choice needs two cards")
        docs = choice["docs"]
        _require(isinstance(docs, list) and len(set(docs)) == len(docs) and all(d in RED_DOCUMENTS for d in docs),
                 "bad chosen documents")
        if state.phase == "choose":
            _require(all(d in state.hands[seat] for d in docs), "a chosen document is not in the hand")
            _require(not (state.dungeon[seat] and KNIGHT in cards), "a knight in the dungeon was chosen")
    for docs in (*state.played_docs, *state.effective, *state.used):
        _require(isinstance(docs, list) and all(d in DOCUMENTS for d in docs), "bad documents of the round")
    _require(isinstance(state.pending, list) and all(_is_int(s) and 0 <= s < seats for s in state.pending),
             "bad pending seats")
    _require(all(d in YELLOW_DOCUMENTS or d in RED_DOCUMENTS for hand in state.hands for d in hand), "bad hand")
    if state.phase == "choose":
        _require(any(not c["ready"] for c in state.choices), "everyone has chosen but nothing was revealed")
    if state.phase == "favour":
        _require(any(state.favour), "a favour phase with nothing to keep")
    if state.phase in ("field1", "field2", "field3"):
        _require(bool(state.pending), "a field waits on nobody")
    if state.phase == "haggle":
        h = state.haggle
        if not isinstance(h, dict) or len(h.get("knights", [])) != 2:
            _invalid("a haggle without two knights")
        _require(all(_is_int(k) and 0 <= k < seats for k in h["knights"]), "bad haggling knights")
    if state.phase in ("knight", "steal"):
        _require(_is_int(state.knight) and 0 <= state.knight < seats, "no Black Knight")
    if state.phase == "steal":
        _require(isinstance(state.raid, dict) and _is_int(state.raid.get("victim")), "a theft without a victim")
    _require((state.phase == "over") == (state.winners is not None), "winners and phase disagree")
    if state.previous is not None:
        prev = state.previous
        _require(isinstance(prev, dict) and set(prev) == {"round", "cards", "docs", "raid"}, "bad previous round")
        _require(len(prev["cards"]) == seats and all(len(c) == 2 and all(x in FIELDS for x in c)
                                                     for c in prev["cards"]), "bad previous cards")
        _require(len(prev["docs"]) == seats and all(d in DOCUMENTS for docs in prev["docs"] for d in docs),
                 "bad previous documents")
    _require(isinstance(state.log, list) and all(isinstance(line, dict) for line in state.log), "bad log")


def _veto_target_ok(target: Any, seats: int) -> bool:
    if isinstance(target, str) and target in RED_DOCUMENTS:
        return True
    return isinstance(target, str) and target.isdigit() and 0 <= int(target) < seats
