"""The contract every game engine implements, and the small pieces they share.

An engine is a `Game` object (a definition, like boardgame.io's) whose methods are pure
functions over a JSON-serialisable state. Nothing here does I/O, imports Discord or storage,
or touches the module-level `random` functions: all chance comes from `chance(seed, step)`,
so `new_game(seed)` plus the action log always rebuilds the same state.
"""
from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, runtime_checkable

Seat = int
"""A seat is an index 0..n-1 in turn order. The bot maps seats to Discord users."""

JSON = Any
"""A value made only of dict, list, str, int, float, bool and None."""


# ----------------------------------------------------------------------------------------
# Errors a player can read. The bot turns each into a short ephemeral reply.


class GameError(Exception):
    """Base of the errors an engine raises for a refused action; the message is for players."""


class NotYourTurn(GameError):
    pass


class IllegalAction(GameError):
    """The action is well-formed text but not allowed now, or the text cannot be parsed."""


class GameOver(GameError):
    pass


class InvalidState(GameError):
    """A stored state failed validation on load."""


# ----------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Action:
    """A move in one canonical text form: a verb and zero or more arguments.

    `encode()` gives e.g. ``"roll 1,3,5"`` or ``"lay 2 C4"``; `Action.parse` reads it back.
    The text is short (well under 80 characters) so it fits a Discord custom_id together with
    the game id and state version, and a log line. Arguments never contain spaces.
    """

    verb: str
    args: tuple[str, ...] = ()

    def encode(self) -> str:
        return " ".join((self.verb, *self.args))

    @classmethod
    def parse(cls, text: str) -> "Action":
        parts = str(text).split()
        if not parts:
            raise IllegalAction("That move is empty. Pick one of the moves offered.")
        if len(" ".join(parts)) > 80:
            raise IllegalAction("That move text is too long to be a move.")
        return cls(parts[0].lower(), tuple(parts[1:]))

    def __str__(self) -> str:
        return self.encode()


@dataclass(frozen=True)
class SeatRef:
    """A player named in a message; the bot or renderer puts in the seat's display name."""

    seat: Seat

    def to_json(self) -> dict:
        return {"seat": self.seat}


@dataclass(frozen=True)
class Msg:
    """Words an engine wants said, as a message id with parameters, never as finished text.

    The bot and the renderers put it into German or English from the catalogues (`i18n`).
    Parameter values are str, int, float, `SeatRef` (a player's name), another `Msg` (a term
    that is itself translated, e.g. a terrain) or a list of those (joined as a list).
    The id's first part names the catalogue: ``"carcassonne.event.scored"`` lives in
    ``i18n/locales/<lang>/carcassonne.po``.
    """

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict:
        return {"id": self.id, "params": {key: _param_json(value) for key, value in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Msg":
        return cls(str(data["id"]), {key: _param_from_json(value) for key, value in dict(data.get("params") or {}).items()})

    def __hash__(self) -> int:  # params is a dict; hash on the id and a stable rendering
        return hash((self.id, repr(sorted(self.to_json()["params"].items(), key=lambda kv: kv[0]))))


def msg(message_id: str, **params: Any) -> Msg:
    """Shorthand: ``msg("raubritter.terrain.forest")``, ``msg("x.scored", player=SeatRef(1), points=4)``."""
    return Msg(message_id, params)


def _param_json(value: Any) -> Any:
    if isinstance(value, (Msg, SeatRef)):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [_param_json(item) for item in value]
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"seat"}:
        return SeatRef(int(value["seat"]))
    if isinstance(value, dict) and "id" in value:
        return Msg.from_json(value)
    if isinstance(value, list):
        return [_param_from_json(item) for item in value]
    return value


Text = "str | Msg"
"""Engine text: a Msg (every game from now on), or a legacy English string with `{s0}` seat
placeholders (kept only until an engine is moved to messages)."""


@dataclass(frozen=True)
class Event:
    """Something that happened, as a line for the channel log.

    `text` is a `Msg` (or a legacy string). `seat` set means the line is private to that seat
    (sent by DM, never to the channel).
    """

    text: Any
    seat: Seat | None = None
    kind: str = "info"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended, as data."""

    winners: tuple[Seat, ...]
    scores: tuple[int, ...]
    reason: Any  # a Msg (or a legacy string with seat placeholders)
    details: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A table option a host may set in the lobby (a choice among a few values)."""

    name: str
    description: "Msg | str"  # what it does, in words from the catalogues
    default: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class SubsetChoice:
    """A family of legal actions `verb <values joined by ",">`, one per non-empty subset of
    `items`, such as "reroll 1,4,5" for any choice of dice.

    Listing every subset (up to 63 for six dice) makes a poor menu, so an engine may describe the
    family with this and the bot shows one toggle per item and a confirm button instead. Every
    action of the family must still be in `legal_actions`.

    items: (value, label) pairs in display order, e.g. ("3", "5") for the die at position 3
      showing a five.
    prompt: what the toggles mean, e.g. "Tap the dice to roll again".
    confirm: the confirm button's label, e.g. "Roll again".
    size: None, or the exact number of items a choice takes (two action cards): then the family
      is only the subsets of that size, and the bot enables the confirm button only for them.
    chosen: values shown as already toggled when the toggles first appear (a choice taken back
      to be changed starts from what it was).
    """

    verb: str
    items: tuple[tuple[str, str], ...]
    prompt: str
    confirm: str
    size: int | None = None
    chosen: tuple[str, ...] = ()

    def action(self, values) -> Action:
        chosen = [value for value, _ in self.items if value in set(values)]
        return Action(self.verb, (",".join(chosen),))

    def complete(self, count: int) -> bool:
        """Whether `count` items toggled make one of the family's actions."""
        return count == self.size if self.size is not None else count >= 1


# ----------------------------------------------------------------------------------------
# Chance


def chance(seed: int, step: int) -> random.Random:
    """The generator for the `step`-th chance event of a game with this seed.

    Engines keep a counter in their state and call `chance(state.seed, counter)`, then bump the
    counter; so any stored state can go on drawing without storing generator internals.
    """
    digest = hashlib.sha256(f"{int(seed)}:{int(step)}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


# ----------------------------------------------------------------------------------------
# The engine contract


@runtime_checkable
class Game(Protocol):
    """What every game defines. States are engine-specific objects; the bot never looks inside.

    Attributes:
      name: short id used in commands and storage, e.g. ``"knatsch"``.
      title: display name, e.g. ``"Knatsch (Knights)"``.
      min_players, max_players: seat limits.
      options: table options a host may choose in the lobby.
      rules_summary: a short summary of the rules in our own words (Markdown, < 1,800 chars once
        translated), as a `Msg` whose words are in the game's catalogues.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    rules_summary: "Msg | str"

    def new_game(self, seats: int, *, seed: int, options: Mapping[str, str] | None = None) -> Any:
        """A fresh game for `seats` players. Raises GameError for a bad seat count or option."""

    def to_act(self, state: Any) -> frozenset[Seat]:
        """Seats the game waits for now: several while simultaneous choices are open; empty when
        over. Deadlines, reminders, mentions and the computer player on timeouts go by it."""

    def legal_actions(self, state: Any, seat: Seat) -> list[Action]:
        """Every legal action for `seat`, in a stable order; empty when the seat may not act.

        A seat outside `to_act` usually has none. It may have a few optional moves, which the
        game does not wait for: a seat that confirmed a simultaneous secret choice may take it
        back (`change`) while others still choose. The bot accepts them like any move."""

    def apply(self, state: Any, seat: Seat, action: Action) -> tuple[Any, list[Event]]:
        """Apply and return (new state, events). Never mutates `state`.

        Raises GameOver, NotYourTurn or IllegalAction (messages readable by players).
        """

    def describe(self, state: Any, seat: Seat, action: Action) -> "Msg | str":
        """A short label for a legal action (buttons, autocomplete: <= 100 chars once
        translated), as a `Msg`."""

    def view(self, state: Any, seat: Seat | None) -> dict:
        """What `seat` may know, as JSON; `None` is the public view. The only way hidden
        information leaves the engine.

        Always holds: "game" (the engine name), "seats" (player count), "viewer" (seat or None),
        "to_act" (sorted list of seats), "status" (one public line on what is going on: a
        `Msg.to_json()` dict, or a legacy string with `{s0}` placeholders), "over" (bool). A seat's view may hold "private" with a
        "summary": one line on that seat's secrets ("Your hand: ..."), shown in its DMs.
        Everything else is the game's own."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while the game goes on."""

    def to_dict(self, state: Any) -> dict:
        """State as JSON (includes the seed and the chance counter)."""

    def from_dict(self, data: Mapping[str, JSON]) -> Any:
        """State from JSON, validated; raises InvalidState."""

    # Optional: `subset_choices(state, seat) -> list[SubsetChoice]` describes families of
    # legal actions the bot may show as toggles (see SubsetChoice). Engines without it offer
    # every action on its own.
    #
    # Optional: `suggest(state, seat, rng) -> Action`, a computer player: a legal action for
    # `seat`, chosen from that seat's view of the game only (it never reads another seat's
    # secrets), with all its chance from `rng`. Used by computer seats, timeouts and the runner.
    #
    # `exposure(state) -> tuple`: a value that changes whenever chance is drawn (dice, a draw
    # from a shuffled pile, bag or deck) or something hidden comes to light (a secret choice
    # revealed, a face-down card turned, a new top card). A move that leaves it unchanged drew
    # nothing and revealed nothing, so `/game undo` may take it back; an engine without it
    # never has a move taken back.
    #
    # Optional: `moves_are_public(state, seat) -> bool` says that the seat's legal actions and
    # their labels follow from public information alone (a Raub Ritter knights step, a trump
    # call), so the bot may show them on the public board. Without it, a seat whose view shows
    # more than the public view always chooses privately.
    #
    # Optional (every built-in game has it): `publicly_forced(state, seat) -> Action | None`, the
    # one move `seat` must make now when everyone can already tell that it has exactly one legal
    # move (a roll that is the only thing to do, a defender with one card left); None otherwise,
    # and None for a seat outside `to_act`. WHETHER a decision is reported follows from public
    # information only: a decision forced only by what the seat hides (three cards of one value)
    # is never reported, so answering it at once tells nobody anything, and any re-deal of any
    # secret leaves the answer reported or not reported alike. The seat's own secret may still
    # name the move (which card is the last one): such a move's label is the seat's secret like
    # any of its moves (`moves_are_public` says when a label may be shown in public); what the
    # move does in public is in the public events of `apply`. The bot makes a reported move at
    # once, through the same path as any move (`forced_decision` below finds the next one).
    #
    # Optional (every built-in game has it): `reaction_kinds: tuple[str, ...]`, the kinds of
    # decisions a seat faces outside its own turn, each a message id with words in the game's
    # catalogues (e.g. "knatsch.reaction.defence"): a player may let the computer answer a kind
    # for their seat (a standing order). `reaction_kind(state, seat) -> str | None` says which of
    # them the seat's current decision is; None for the seat's own turn (always the player's)
    # and for a seat the game does not wait for. It follows from public information only.
    # `automatic_decision` below says which decision the bot makes next without asking anyone.

    def hidden_variant(self, state: Any, owner: Seat | None, rng: random.Random) -> Any:
        """A state that differs from `state` only in what is hidden from everyone but `owner`
        (owner None: hidden from all, e.g. the order of a deck). Used by the leak tests:
        every other seat's view and the public view must not change."""


# ----------------------------------------------------------------------------------------
# Decisions the bot makes without asking: publicly forced ones, and standing orders


@dataclass(frozen=True)
class Automatic:
    """A decision made for `seat` at once, without asking anyone (see `automatic_decision`).

    action: the move when it is publicly forced; None when a standing order covers it, so the
      computer player chooses (`suggest`, with only that seat's view).
    kind: None for a publicly forced move; else the reaction kind the standing order names.
    """

    seat: Seat
    action: Action | None
    kind: str | None


def forced_decision(game: Game, state: Any) -> tuple[Seat, Action] | None:
    """The first publicly forced decision among the seats the game waits for (lowest seat
    first), as (seat, the only move); None when there is none or the engine reports none."""
    forced = getattr(game, "publicly_forced", None)
    if forced is None or game.outcome(state) is not None:
        return None
    for seat in sorted(game.to_act(state)):
        action = forced(state, seat)
        if action is not None:
            return seat, action
    return None


def reaction_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of decisions outside one's own turn that `game` declares (message ids)."""
    return tuple(getattr(game, "reaction_kinds", ()))


def reaction_kind(game: Game, state: Any, seat: Seat) -> str | None:
    """Which declared kind the seat's current decision is; None for its own turn."""
    kind_of = getattr(game, "reaction_kind", None)
    return None if kind_of is None else kind_of(state, seat)


def automatic_decision(game: Game, state: Any,
                       standing: Mapping[Seat, Any] | None = None) -> Automatic | None:
    """The next decision the bot makes at once: a publicly forced one first, else one a
    standing order covers (`standing` maps a seat to the reaction kinds it lets the computer
    answer). None when the game waits for people only. Lowest seat first in both."""
    forced = forced_decision(game, state)
    if forced is not None:
        return Automatic(forced[0], forced[1], None)
    if not standing or game.outcome(state) is not None:
        return None
    for seat in sorted(game.to_act(state)):
        kind = reaction_kind(game, state, seat)
        if kind is not None and kind in standing.get(seat, ()):
            return Automatic(seat, None, kind)
    return None


def parse_action(text: str) -> Action:
    """Parse the canonical text form of any game's action."""
    return Action.parse(text)


def check_turn(game: Game, state: Any, seat: Seat, action: Action) -> None:
    """The shared refusal path: game over, not your turn, or not a legal action."""
    if game.outcome(state) is not None:
        raise GameOver("This game is over; no more moves can be made.")
    legal = game.legal_actions(state, seat)
    if seat not in game.to_act(state) and action not in legal:  # an optional move is allowed
        raise NotYourTurn("It is not your turn to act.")
    if action not in legal:
        hint = ", ".join(a.encode() for a in legal[:5])
        more = f" (and {len(legal) - 5} more)" if len(legal) > 5 else ""
        raise IllegalAction(f"`{action.encode()}` is not a legal move now. You could play: {hint}{more}.")


def name_seats(text: str, names: list[str] | tuple[str, ...]) -> str:
    """Fill the seat placeholders `{s0}`, `{s1}`, ... that engines use in event and status text.

    Engines never know player names; the bot passes display names or mentions, the command-line
    runner passes "P1", "P2", ...
    """
    if not isinstance(text, str):  # a Msg (or its JSON): words from the catalogues, in English
        from i18n import translate  # late: i18n itself builds on this module

        return translate(text, "en", list(names))
    for index, name in enumerate(names):
        text = text.replace(f"{{s{index}}}", name)
    return text
