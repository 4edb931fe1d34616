"""What the store hands out: a game's row with its seats, an action log row, an ended game's
result; and the errors a refused write raises."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, overload

# What `bot.storage` hands on to the features (the rest is the repositories' own).
__all__ = ["OPEN_STATUSES", "ActionRow", "ChannelBusy", "GameRow", "ResultRow", "SeatRow", "StaleVersion",
           "StorageError", "stored_digest"]

OPEN_STATUSES = ("lobby", "active")


_UNLOCKED_HASHING = 2048
"""From this many bytes on, hashlib lets go of Python's lock while it hashes (and must take it
back after, waiting for whichever thread holds it then: a drawing, SQLite's)."""


def stored_digest(text: str) -> bytes:
    """A digest of a state's stored form, the JSON text of the engine's `to_dict`. Fed to BLAKE2b
    in pieces shorter than `_UNLOCKED_HASHING`, so that it keeps Python's lock (a few us for a
    state of some KB) instead of handing it over and queueing for it again: the same digest."""
    data = text.encode()
    digest = hashlib.blake2b(digest_size=16)
    for start in range(0, len(data), _UNLOCKED_HASHING - 1):
        digest.update(data[start:start + _UNLOCKED_HASHING - 1])
    return digest.digest()


class DecodedOnRead:
    """A `GameRow` field given the stored JSON text (or the value itself): the text is decoded
    the first time the field is read, and kept. A game read from the store is read several times
    a move (the click, the move, its delivery, each toggle tapped) while its state is decoded
    once and kept by its digest (`bot.choices.stored_state`): decoding each row's state as it is
    read cost some 50 us a read of a 3 KB state, for nothing most of the time."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}_stored"

    @overload
    def __get__(self, row: None, owner: type | None = None) -> DecodedOnRead: ...
    @overload
    def __get__(self, row: object, owner: type | None = None) -> dict | None: ...
    def __get__(self, row: object | None, owner: type | None = None) -> dict | None | DecodedOnRead:
        if row is None:
            # Asked of the class (dataclass looks for a default there): there is none.
            raise AttributeError(self.slot)
        value = row.__dict__[self.slot]
        if isinstance(value, str):
            value = row.__dict__[self.slot] = json.loads(value)
        return value

    def __set__(self, row: object, value: dict | str | None) -> None:
        row.__dict__[self.slot] = value


class StorageError(Exception):
    """A write was refused because the stored game is not in the expected state."""


class StaleVersion(StorageError):
    """Compare-and-swap failed: someone else changed the game first."""


class ChannelBusy(StorageError):
    """The channel already has an open game."""


def is_computer_user(user_id: int) -> bool:
    """Whether a seat's user id is a computer player's: the lobby seats one under a negative id
    (-1, -2, ...), a person sits under their Discord id (always positive). The only place that
    tells them apart."""
    return user_id < 0


@dataclass(frozen=True)
class SeatRow:
    user_id: int
    name: str
    seat: int | None
    dm_ok: bool | None

    @property
    def seated(self) -> int:
        """The seat of a player in a started game (a lobby's players have none yet)."""
        if self.seat is None:
            raise StorageError(f"player {self.user_id} has no seat: the game has not started")
        return self.seat

    @property
    def computer(self) -> bool:
        """Whether a computer player was seated here in the lobby (not a person's seat that the
        computer keeps for them: see `bot.days.computer.is_computer`)."""
        return is_computer_user(self.user_id)


@dataclass(frozen=True)
class ActionRow:
    version: int
    seat: int
    action: str
    at: int
    answered: bool = True


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    host_id: int
    options: dict[str, str]
    seed: int | None
    version: int
    result: dict | None
    lobby_message_id: int | None
    board_message_id: int | None
    created_at: int
    updated_at: int
    players: tuple[SeatRow, ...]  # join order in the lobby, seat order once started
    # The engine's `to_dict` (None in the lobby): given as it is or as its stored JSON text, which
    # is decoded when first read. Required (`DecodedOnRead` gives no default).
    state: DecodedOnRead = DecodedOnRead()
    lang: str = "en"  # the table's language: channel posts and boards
    board_owed: bool = False  # the channel's board does not show this version yet (bot.delivery)
    board_version: int | None = None  # the version the board message shows
    board_turn: int = 0  # the turn the board message belongs to
    turn_number: int = 0  # the newest turn: a wait that began when someone new had to act
    turn_lines: tuple[str, ...] = ()  # the open turn's running account, as its message shows it
    turn_pings: tuple[int, ...] | None = ()  # whom the turn's new message mentions (None: all it waits for)
    board_whole: bool = False  # `/game board` asked for the whole board (a game that shows a part of it)
    # `stored_digest` of the state's stored text (None: not read as text): what is worked out of
    # the state for its messages is kept by it (bot.choices).
    state_digest: bytes | None = field(default=None, compare=False, repr=False)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def started_seed(self) -> int:
        """The engine's seed of a started game (a table still in the lobby has none)."""
        if self.seed is None:
            raise StorageError(f"game {self.id} has not started: it has no seed")
        return self.seed

    @property
    def has_state(self) -> bool:
        """Whether the game has an engine state (it has started), told without decoding it."""
        return self.__dict__[_STATE_SLOT] is not None

    @property
    def started_state(self) -> dict[str, Any]:
        """The engine's stored state of a started game (a table still in the lobby has none)."""
        if self.state is None:
            raise StorageError(f"game {self.id} has not started: it has no state")
        return self.state

    def seat_of(self, user_id: int) -> int | None:
        for player in self.players:
            if player.user_id == user_id:
                return player.seat
        return None

    def has_player(self, user_id: int) -> bool:
        return any(player.user_id == user_id for player in self.players)

    def player_at(self, seat: int) -> SeatRow:
        for player in self.players:
            if player.seat == seat:
                return player
        raise KeyError(seat)

    @property
    def names(self) -> list[str]:
        return [player.name for player in self.players]

    @property
    def turn_posted(self) -> bool:
        """Whether the open turn has its message in the channel (else a new one is owed)."""
        return self.board_message_id is not None and self.board_turn == self.turn_number


@dataclass(frozen=True)
class ResultRow:
    """An ended game as the records count it."""

    id: int
    game: str
    status: str  # 'finished' or 'abandoned'
    result: dict | None
    ended_at: int
    players: list[SeatRow]  # seat order


_STATE_SLOT = vars(GameRow)["state"].slot  # where a row keeps its state as given, decoded or not
