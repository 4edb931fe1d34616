"""The changes to a game or a lobby, one frozen value per kind, as the move pipeline (bot.moves)
stores them; and `Done`, what a stored change did, worked out once for its listeners.

A change is built once by whoever asks for it (a player's move, `/game undo`, the lobby's
buttons…) and never altered after: the pipeline, `bot.turns.plan` and the listeners (timers,
league, tournaments) tell the kinds apart by their type (a `match`), and read what each carries
from its own fields.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.storage import GameRow, Write
from games.core import Action, Automatic, Event, Game, Outcome

Notice = Mapping[str, Any]
"""A channel post a change owes besides the board: {"content", "mentions"} (bot.turns.notice)."""


@dataclass(frozen=True, kw_only=True)
class Changing:
    """What every change has: the table as it was before it (its turn, board message and
    players), the game's engine, the channel posts it owes besides the board, and statements of
    its own for its transaction."""

    table: GameRow
    game: Game
    notices: tuple[Notice, ...] = ()
    writes: tuple[Write, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Move(Changing):
    """A move: a player's (`by_person`), the computer's for a seat, or one made at once.

    answered: False for a typed /move until its player has seen the answer (a retry of it is
      answered "already done"). note: a word of the bot's own after the move's last line ("the
      only move: made at once"). waiting_before: for a move made at once after a person's move,
      whom the game waited for before that move: who must act after it is measured against
      them, so the person who just moved is not called again for what the game went on to."""

    before: Any
    after: Any
    seat: int
    action: Action
    events: tuple[Event, ...] = ()
    by_person: bool = False
    answered: bool = True
    note: str = ""
    waiting_before: frozenset[Any] | None = None


@dataclass(frozen=True, kw_only=True)
class Undo(Changing):
    """A player takes back their last move: `before` is the state that move left, `after` the
    one before it, restored. `text` says so in the channel."""

    before: Any
    after: Any
    seat: int
    text: str


@dataclass(frozen=True, kw_only=True)
class Replace(Changing):
    """A new player takes a seat (the state is unchanged): the seat's timeouts are forgiven and
    its wait starts anew."""

    state: Any
    seat: int


@dataclass(frozen=True, kw_only=True)
class Start(Changing):
    """The game starts: `table` is the row as started (seats in play order, seed, version 0)."""

    state: Any
    seat_order: tuple[int, ...]
    seed: int
    text: str


@dataclass(frozen=True, kw_only=True)
class End(Changing):
    """The game ends early (resigned, abandoned, out of time): `text` says how, with the board
    as it was left (`state`, None for a lobby that never started). `result` is stored as the
    game's result; `expected_status`: the status it ends from (None: lobby or active)."""

    state: Any | None
    text: str
    status: str
    result: Mapping[str, Any]
    expected_status: str | None = "active"


@dataclass(frozen=True, kw_only=True)
class SeatSetting(Changing):
    """Who plays a seat changed, not the game: `computer` says why the computer plays it now
    ("resigned", "timeout"), or None for its person back with a clean slate (no timeouts, a
    fresh wait). No new version, no row in the action log."""

    state: Any
    seat: int
    computer: str | None


@dataclass(frozen=True, kw_only=True)
class LobbyChange(Changing):
    """Someone joins or leaves a lobby, or its host adds or removes a computer seat, or a table
    is seated before it starts (a practice table's computers, a tournament table's players).
    `joined`: (user id, name) of each new seat; `left`: the user id of one that goes, with `new_host` when the
    host left; `closed`: nobody is left, the lobby is abandoned. (How strong the table's
    computer players are, set with a computer seat, is one of its `writes`.)"""

    joined: tuple[tuple[int, str], ...] = ()
    left: int | None = None
    new_host: int | None = None
    closed: bool = False


@dataclass(frozen=True, kw_only=True)
class Repost(Changing):
    """`/game board`: the board again as a new turn message (whole, pinging nobody); the open
    one loses its buttons."""


@dataclass(frozen=True, kw_only=True)
class Note(Changing):
    """A post in the game's channel that belongs to no change of the game (someone is away, a
    seat's turn timed out): the game itself is unchanged."""


Change = Move | Undo | Replace | Start | End | SeatSetting | LobbyChange | Repost | Note
GameChange = Move | Undo | Replace | Start | End | SeatSetting
"""The changes a game's listeners follow (a lobby's, a repost's and a note's they never see)."""
LOGGED = (Move, Undo, Replace)
"""The changes with a row of their own in the action log: each makes a new version."""


def states(change: Change) -> tuple[Any, Any]:
    """The game's state before and after the change (before is None at the start; both None for
    a lobby's changes; the same state when only a seat or the table's posts change)."""
    match change:
        case Move(before=before, after=after) | Undo(before=before, after=after):
            return before, after
        case Start(state=state):
            return None, state
        case Replace(state=state) | SeatSetting(state=state) | End(state=state):
            return state, state
        case _:
            return None, None


def version_after(change: Change) -> int:
    """The version the change makes: one more for a change with a row in the action log."""
    return change.table.version + (1 if isinstance(change, LOGGED) else 0)


@dataclass(frozen=True)
class Snapshot:
    """The game as read once under its lock for one change: its row, its seats' rows of days
    play (seat -> {since, computer, timeouts}) that gates and listeners judge by, and its
    seats' standing orders (seat -> the kinds of decision the computer answers for it,
    bot.days.orders) that the decisions made at once after the change judge by."""

    table: GameRow
    seats: Mapping[int, Mapping[str, Any]]
    orders: Mapping[int, frozenset[str]]


@dataclass(frozen=True)
class Done:
    """A change as stored, with what its gates' and listeners' questions need, worked out once
    by the pipeline: the version it made, the game's outcome after it (None: goes on), whom the
    game waited for before it and waits for after it, the decision the game makes at once after
    it (bot.days.orders; None: it waits for people), and the seats' rows as read with the table.
    """

    change: Change
    version: int
    outcome: Outcome | None
    waiting_before: frozenset[Any]
    waiting_after: frozenset[Any]
    at_once: Automatic | None
    seats: Mapping[int, Mapping[str, Any]]

    @property
    def table(self) -> GameRow:
        return self.change.table

    @property
    def ended(self) -> bool:
        """Whether the change ends the game (by its rules, resigned, abandoned, out of time)."""
        return isinstance(self.change, End) or (isinstance(self.change, Move) and self.outcome is not None)
