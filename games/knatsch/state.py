"""The Knatsch game state: small mutable dataclasses that the engine clones before changing,
plus their JSON form and its validation.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from games.core import InvalidState
from games.knatsch.cards import CARDS, CASTLE, SPECIAL, likeness

CHOOSE = "choose"  # the active player picks a target (or tops the king, moves cards under...)
ROLL = "roll"  # someone is rolling (attack, defence, tournament round, king)
REVENGE = "revenge"  # the active player picks the castle the king takes, and a stack for it
OVER = "over"
PHASES = (CHOOSE, ROLL, REVENGE, OVER)

CAPTURE = "capture"
DEFENCE = "defence"
TOURNAMENT_ROLL = "tournament"
KING_ROLL = "king"
PURPOSES = (CAPTURE, DEFENCE, TOURNAMENT_ROLL, KING_ROLL)
KING_TARGET = "KING"

FOUR_CASTLES = "four_castles"
KING_TOPPLED = "king"
CASTLES_AND_TOURNAMENTS = "tournaments"
STALEMATE = "stalemate"  # nobody can roll for any card any more
WIN_KINDS = (FOUR_CASTLES, KING_TOPPLED, CASTLES_AND_TOURNAMENTS, STALEMATE)

DICE = 6
FORMAT_VERSION = 1


@dataclass
class Roll:
    """One player's up-to-3 (or 4) rolls of the six dice."""

    purpose: str
    roller: int
    target: str  # a card id, or KING_TARGET
    from_stack: int | None  # 0 or 1 when the target lies on a stack
    owner: int | None  # the opponent who owns the target (attacks and defences)
    rolls_allowed: int
    to_beat: list[int] | None  # a result (count, value, extra); None: nothing to beat yet
    dice: list[int] = field(default_factory=lambda: [0] * DICE)  # 0 = not rolled yet
    rerolled: list[bool] = field(default_factory=lambda: [False] * DICE)  # in the latest roll
    rolls_used: int = 0

    @property
    def opponent(self) -> int:
        """The seat owning the target: set for every roll at a card in front of a player."""
        if self.owner is None:
            raise InvalidState(f"Knatsch roll for {self.target} has no owner")
        return self.owner

    def clone(self) -> Roll:
        return Roll(self.purpose, self.roller, self.target, self.from_stack, self.owner,
                    self.rolls_allowed, None if self.to_beat is None else list(self.to_beat),
                    list(self.dice), list(self.rerolled), self.rolls_used)


@dataclass
class Tournament:
    """A tournament in progress: every seat rolls once, the organiser first."""

    card: str
    stack: int
    order: list[int]  # organiser first, then clockwise
    results: list[list[int]] = field(default_factory=list)  # aligned with order, so far
    leader: int | None = None  # ties keep the earlier leader

    @property
    def leading(self) -> int:
        """The seat in the lead: there is one from the organiser's roll on (anything beats no target)."""
        if self.leader is None:
            raise InvalidState("Knatsch tournament has no leader before its first roll")
        return self.leader

    def clone(self) -> Tournament:
        return Tournament(self.card, self.stack, list(self.order),
                          [list(r) for r in self.results], self.leader)


@dataclass
class KnatschState:
    seats: int
    seed: int
    counter: int  # chance counter: the next chance(seed, counter) to draw
    stacks: list[list[str]]  # two stacks, index 0 is the face-up top card
    holdings: list[list[str]]  # per seat, in the order captured
    castle_guard: list[list[str]]  # per seat: castles their castle guard covers
    special_guard: list[str | None]  # per seat: the special their special-card guard covers
    active: int
    phase: str = CHOOSE
    unders_used: int = 0  # cards put under a stack this turn
    bonus: bool = False  # the current attempt is a further one (a special won from a stack)
    fresh: bool = True  # nothing done yet this turn: the king may be challenged
    passes: int = 0  # turns in a row that ended because nothing could be captured
    roll: Roll | None = None
    tournament: Tournament | None = None
    winners: list[int] = field(default_factory=list)
    win_kind: str | None = None
    log: list[dict[str, Any]] = field(default_factory=list)  # the last few public event lines, as Msg JSON

    def clone(self) -> KnatschState:
        return KnatschState(
            self.seats, self.seed, self.counter,
            [list(s) for s in self.stacks], [list(h) for h in self.holdings],
            [list(g) for g in self.castle_guard], list(self.special_guard),
            self.active, self.phase, self.unders_used, self.bonus, self.fresh, self.passes,
            None if self.roll is None else self.roll.clone(),
            None if self.tournament is None else self.tournament.clone(),
            list(self.winners), self.win_kind, list(self.log),
        )

    def cards_of(self, seat: int, kind: str) -> list[str]:
        return [cid for cid in self.holdings[seat] if CARDS[cid].kind == kind]

    @property
    def rolling(self) -> Roll:
        """The roll under way: there is one exactly while the phase is ROLL."""
        if self.roll is None:
            raise InvalidState(f"Knatsch state has no roll under way (phase {self.phase})")
        return self.roll

    @property
    def running_tournament(self) -> Tournament:
        """The tournament whose rolls go on: there is one only during a tournament roll."""
        if self.tournament is None:
            raise InvalidState("Knatsch state has no tournament under way")
        return self.tournament

    def owner_of(self, card_id: str) -> int | None:
        for seat, held in enumerate(self.holdings):
            if card_id in held:
                return seat
        return None

    def holder_of(self, card_id: str) -> int:
        """The seat holding a card that is known not to lie in a stack."""
        owner = self.owner_of(card_id)
        if owner is None:
            raise InvalidState(f"Knatsch card {card_id} is held by nobody")
        return owner


# ----------------------------------------------------------------------------------------
# JSON


def to_dict(state: KnatschState) -> dict[str, Any]:
    roll = state.roll
    tournament = state.tournament
    return {
        "format": FORMAT_VERSION,
        "seats": state.seats,
        "seed": state.seed,
        "counter": state.counter,
        "stacks": [list(s) for s in state.stacks],
        "holdings": [list(h) for h in state.holdings],
        "castle_guard": [list(g) for g in state.castle_guard],
        "special_guard": list(state.special_guard),
        "active": state.active,
        "phase": state.phase,
        "unders_used": state.unders_used,
        "bonus": state.bonus,
        "fresh": state.fresh,
        "passes": state.passes,
        "roll": None if roll is None else {
            "purpose": roll.purpose, "roller": roll.roller, "target": roll.target,
            "from_stack": roll.from_stack, "owner": roll.owner,
            "rolls_allowed": roll.rolls_allowed,
            "to_beat": None if roll.to_beat is None else list(roll.to_beat),
            "dice": list(roll.dice), "rerolled": list(roll.rerolled),
            "rolls_used": roll.rolls_used,
        },
        "tournament": None if tournament is None else {
            "card": tournament.card, "stack": tournament.stack, "order": list(tournament.order),
            "results": [list(r) for r in tournament.results], "leader": tournament.leader,
        },
        "winners": list(state.winners),
        "win_kind": state.win_kind,
        "log": list(state.log),
    }


def _fail(message: str) -> NoReturn:
    raise InvalidState(f"Stored Knatsch state is invalid: {message}")


def _list_of(value: Any, length: int, message: str) -> None:
    """A stored list of exactly `length` entries, or a refusal saying `message`."""
    if not isinstance(value, list) or len(value) != length:
        _fail(message)


def _int(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        _fail(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        _fail(f"{name} must be true or false")
    return value


def _optional_seat(value: Any, name: str, seats: int) -> int | None:
    return None if value is None else _int(value, name, 0, seats - 1)


def _result(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or len(value) != 3:
        _fail(f"{name} must be a result [count, value, extra]")
    return [_int(v, name, 0, 11) for v in value]


def _id_list(value: Any, name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and c in CARDS for c in value):
        _fail(f"{name} must be a list of card ids")
    return list(value)


def from_dict(data: Mapping[str, Any]) -> KnatschState:
    if not isinstance(data, Mapping):
        _fail("not an object")
    try:
        return _from_dict(data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        _fail(f"missing or malformed field ({exc!r})")


def _from_dict(data: Mapping[str, Any]) -> KnatschState:
    if data.get("format") != FORMAT_VERSION:
        _fail(f"unknown format {data.get('format')!r}")
    seats = _int(data["seats"], "seats", 2, 6)
    seed = data["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        _fail("seed must be a whole number")
    counter = _int(data["counter"], "counter", 0, 10**12)
    stacks = data["stacks"]
    if not isinstance(stacks, list) or len(stacks) != 2:
        _fail("there must be two stacks")
    stacks = [_id_list(s, "a stack") for s in stacks]
    holdings = data["holdings"]
    if not isinstance(holdings, list) or len(holdings) != seats:
        _fail("there must be one holding per seat")
    holdings = [_id_list(h, "a holding") for h in holdings]
    every_card = [cid for pile in stacks + holdings for cid in pile]
    if sorted(every_card) != sorted(CARDS):
        _fail("every card must be in exactly one stack or holding")

    for held in holdings:
        alike = [likeness(CARDS[cid]) for cid in held if likeness(CARDS[cid]) is not None]
        if len(alike) != len(set(alike)):
            _fail("a player holds two alike cards")

    castle_guard = data["castle_guard"]
    special_guard = data["special_guard"]
    _list_of(castle_guard, seats, "castle_guard needs one entry per seat")
    _list_of(special_guard, seats, "special_guard needs one entry per seat")
    castle_guard = [_id_list(g, "castle_guard") for g in castle_guard]
    for seat in range(seats):
        guarded = castle_guard[seat]
        if len(guarded) > 2 or len(set(guarded)) != len(guarded) or any(
                cid not in holdings[seat] or CARDS[cid].kind != CASTLE for cid in guarded):
            _fail("a castle guard covers up to two of its owner's own castles")
        covered = special_guard[seat]
        if covered is not None and (covered not in holdings[seat] or CARDS[covered].kind != SPECIAL):
            _fail("a special-card guard covers one of its owner's own specials")

    phase = data["phase"]
    if phase not in PHASES:
        _fail(f"unknown phase {phase!r}")
    state = KnatschState(
        seats=seats, seed=seed, counter=counter, stacks=stacks, holdings=holdings,
        castle_guard=castle_guard, special_guard=list(special_guard),
        active=_int(data["active"], "active", 0, seats - 1), phase=phase,
        unders_used=_int(data["unders_used"], "unders_used", 0, 10**6),
        bonus=_bool(data["bonus"], "bonus"), fresh=_bool(data["fresh"], "fresh"),
        passes=_int(data["passes"], "passes", 0, seats),
    )

    roll = data["roll"]
    if (roll is None) != (phase != ROLL):
        _fail("a roll is stored exactly while someone is rolling")
    if roll is not None:
        if roll["purpose"] not in PURPOSES:
            _fail("unknown roll purpose")
        target = roll["target"]
        if target != KING_TARGET and target not in CARDS:
            _fail("unknown roll target")
        dice = roll["dice"]
        rerolled = roll["rerolled"]
        _list_of(dice, DICE, "a roll has six dice")
        _list_of(rerolled, DICE, "a roll has six reroll flags")
        rolls_allowed = _int(roll["rolls_allowed"], "rolls_allowed", 1, 4)
        state.roll = Roll(
            purpose=roll["purpose"], roller=_int(roll["roller"], "roller", 0, seats - 1),
            target=target,
            from_stack=_optional_seat(roll["from_stack"], "from_stack", 2),
            owner=_optional_seat(roll["owner"], "owner", seats),
            rolls_allowed=rolls_allowed,
            to_beat=None if roll["to_beat"] is None else _result(roll["to_beat"], "to_beat"),
            dice=[_int(d, "a die", 0, 6) for d in dice],
            rerolled=[_bool(r, "a reroll flag") for r in rerolled],
            rolls_used=_int(roll["rolls_used"], "rolls_used", 0, rolls_allowed - 1),
        )
        if (state.roll.rolls_used == 0) != all(d == 0 for d in state.roll.dice):
            _fail("dice are blank exactly before the first roll")

    tournament = data["tournament"]
    if tournament is not None:
        order = tournament["order"]
        if not isinstance(order, list) or sorted(order) != list(range(seats)):
            _fail("a tournament's order holds every seat once")
        results = tournament["results"]
        if not isinstance(results, list) or len(results) >= seats:
            _fail("a tournament's results are fewer than the seats")
        state.tournament = Tournament(
            card=tournament["card"], stack=_int(tournament["stack"], "stack", 0, 1),
            order=list(order), results=[_result(r, "a tournament result") for r in results],
            leader=_optional_seat(tournament["leader"], "leader", seats),
        )
        if state.tournament.card not in state.stacks[state.tournament.stack][:1]:
            _fail("a tournament's card lies on top of its stack")
        if state.roll is None or state.roll.purpose != TOURNAMENT_ROLL:
            _fail("a tournament is stored only while its rolls go on")

    winners = _id_free_seats(data["winners"], seats)
    if (phase == OVER) != (data["win_kind"] is not None):
        _fail("a finished game records how it ended")
    if data["win_kind"] is not None and data["win_kind"] not in WIN_KINDS:
        _fail(f"unknown way to end {data['win_kind']!r}")
    state.winners = winners
    state.win_kind = data["win_kind"]
    log = data["log"]
    # Lines are Msg JSON; plain strings are lines stored before the engine spoke in messages.
    if not isinstance(log, list) or not all(
            isinstance(line, str) or (isinstance(line, dict) and isinstance(line.get("id"), str)
                                      and line["id"].startswith("knatsch.")) for line in log):
        _fail("log must be a list of messages")
    state.log = list(log)
    return state


def _id_free_seats(value: Any, seats: int) -> list[int]:
    if not isinstance(value, list):
        _fail("winners must be a list of seats")
    return [_int(v, "a winner", 0, seats - 1) for v in value]
