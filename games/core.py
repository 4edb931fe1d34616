"""The contract every game engine implements, and the small pieces they share.

An engine is a `Game` object (a definition, like boardgame.io's) whose methods are pure
functions over a JSON-serialisable state. Nothing here does I/O, imports Discord or storage,
or touches the module-level `random` functions: all chance comes from `chance(seed, step)`,
so `new_game(seed)` plus the action log always rebuilds the same state.
"""
from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol, cast, runtime_checkable

from i18n import translate
from i18n.messages import Msg as Msg  # the engines' words, defined with the catalogues
from i18n.messages import SeatRef as SeatRef
from i18n.messages import fill_seats
from i18n.messages import msg as msg

Seat = int
"""A seat is an index 0..n-1 in turn order. The bot maps seats to Discord users."""

JSON = Any
"""A value made only of dict, list, str, int, float, bool and None."""


# ----------------------------------------------------------------------------------------
# Errors a player can read. The bot turns each into a short ephemeral reply.


class GameError(Exception):
    """Base of the errors an engine raises for a refused action, in words for players: a `Msg`
    (message id and parameters, put into the player's language by the bot) or, for errors no
    player sees (a malformed stored state, a bad option the bot refused before), plain text.
    `str(error)` is the English text."""

    def __init__(self, message: Msg | str = "") -> None:
        self.msg = message if isinstance(message, Msg) else None
        if self.msg is not None:
            message = translate(self.msg, "en")
        super().__init__(message)


class NotYourTurn(GameError):
    pass


class IllegalAction(GameError):
    """The action is well-formed text but not allowed now, or the text cannot be parsed."""


class AmbiguousAction(IllegalAction):
    """The text names several legal actions (their labels read the same)."""


class GameOver(GameError):
    pass


class InvalidState(GameError):
    """A stored state failed validation on load."""


@dataclass(frozen=True)
class StoredState:
    """How a game's state module tells what is wrong with a stored state, naming the game
    (`title`): the faults its own checks find (`require`, `invalid`), and, while it reads one
    (`loading`), a state malformed past them (a key missing, a value of the wrong type) rather
    than the error it happened to cause."""

    title: str

    def invalid(self, message: str) -> NoReturn:
        raise InvalidState(f"Stored {self.title} state is invalid: {message}.")

    def require(self, condition: bool, message: str) -> None:
        if not condition:
            self.invalid(message)

    @contextmanager
    def loading(self) -> Iterator[None]:
        try:
            yield
        except InvalidState:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise InvalidState(f"Stored {self.title} state is malformed: {exc!r}") from None


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
    def parse(cls, text: str) -> Action:
        parts = str(text).split()
        if not parts:
            raise IllegalAction(msg("core.error.empty_move"))
        if len(" ".join(parts)) > 80:
            raise IllegalAction(msg("core.error.move_too_long"))
        return cls(parts[0].lower(), tuple(parts[1:]))

    def __str__(self) -> str:
        return self.encode()


@dataclass(frozen=True, eq=False)
class Checked:
    """An action already found legal for `seat` in `state` (`check_action`): an engine's `apply`
    given it for that very state and seat applies it without checking it again (as
    python-chess's `push` after `parse_san`). Given for any other state or seat, it is an
    action like any other, checked as usual."""

    action: Action
    state: Any
    seat: Seat


def as_checked(state: Any, seat: Seat, action: Action | Checked) -> tuple[Action, bool]:
    """For an engine's `apply`: the plain action, and whether it is already known legal for
    this state and seat (then `check_turn` is skipped)."""
    if isinstance(action, Checked):
        return action.action, action.state is state and action.seat == seat
    return action, False


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
    description: Msg | str  # what it does, in words from the catalogues
    default: str
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Search:
    """How the strong computer player (`games.search`) weighs a game's moves, declared once on the
    engine with its other features (`Features.search`); the defaults suit a game that says
    nothing. Each flag names the optional method the engine then has:

    determinize: `determinize(state, seat, rng) -> state`, everything hidden from `seat` re-dealt
      at once (secrets that share one pool); else each other seat's secrets and then the hidden
      order of decks and bags are re-dealt in turn with `hidden_variant`.
    timing: `search_time(state) -> float`, a factor on the time budget for this decision (up to
      `games.search.TURN_DECISION` for the one big choice that sets a whole turn).
    order: `search_order(state, seat, actions) -> list[Action]`, the moves most worth weighing
      first; else a random sample of them is weighed.
    standing: `search_scores(state) -> list[float]`, what each seat's position is worth (a game
      whose points mostly come at the end); else the running `scores` (`Features.scores`).

    candidates: how many moves are weighed at most (the normal player's choice among them).
    playout_actions: how far each continuation is played on before it is judged.
    skips: verbs that are never weighed nor taken, such as stepping back within a turn: a player
      who keeps stepping back never finishes the game.
    """

    determinize: bool = False
    timing: bool = False
    order: bool = False
    standing: bool = False
    candidates: int = 8
    playout_actions: int = 40
    skips: tuple[str, ...] = ()


@dataclass(frozen=True)
class Features:
    """What a game offers beyond the contract, declared once on the engine (`Game.features`,
    as OpenSpiel's GameType does), so the bot and the tools ask this instead of probing for
    methods. Each flag names the optional methods the engine then has:

    computer: `suggest(state, seat, rng, *, strength="normal") -> Action`, a computer player
      that reads only what the seat may see, at each of `strengths`.
    hints: `hint(state, seat, rng) -> (Action, Msg | None)`: the computer's move and why.
    scores: `scores(state) -> list[int]`, each seat's running score (charts, alt text).
    undo: `exposure(state) -> tuple`, a value that changes whenever chance is drawn or something
      hidden comes to light: a move that leaves it unchanged may be taken back.
    toggles: `subset_choices(state, seat) -> list[SubsetChoice]` (see SubsetChoice).
    public_moves: `moves_are_public(state, seat) -> bool`: the seat's choices follow from public
      information alone, so they may go on the public board although the seat holds secrets.
    forced: `publicly_forced(state, seat) -> Action | None`: the one move `seat` must make now
      when everyone can already tell it has exactly one legal move (a roll that is the only
      thing to do, a defender with one card left); None otherwise, and for a seat outside
      `to_act`. Whether a decision is reported follows from public information only: one forced
      only by what the seat hides (three cards of one value) is never reported, so answering it
      at once tells nobody anything. The seat's own secret may still name the move (which card
      is the last one): its label stays the seat's secret like any of its moves. The bot makes a
      reported move at once, through the same path as any move (`automatic_decision`).
    reactions: the kinds of decisions a seat faces outside its own turn, each a message id with
      words in the game's catalogues (e.g. "knatsch.reaction.defence"), which a player may let
      the computer answer for their seat (a standing order); with `reaction_kind(state, seat) ->
      str | None` saying which of them the seat's current decision is (None for the seat's own
      turn, always the player's, and for a seat the game does not wait for), from public
      information only.
    search: how the strong player searches the game (`Search`), with the methods it names.
    """

    computer: bool = False
    strengths: tuple[str, ...] = ("normal",)
    hints: bool = False
    scores: bool = False
    undo: bool = False
    toggles: bool = False
    public_moves: bool = False
    forced: bool = False
    reactions: tuple[str, ...] = ()
    search: Search = Search()


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
    items: tuple[tuple[str, Msg | str], ...]
    prompt: Msg | str
    confirm: Msg | str
    size: int | None = None
    chosen: tuple[str, ...] = ()

    def action(self, values: Iterable[str]) -> Action:
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
      features: what the game offers beyond this contract (`Features`: a computer player,
        hints, running scores, undo, toggles, public moves) and so which optional methods it has.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    features: Features

    @property
    def rules_summary(self) -> Msg | str:
        """Read only, so that an engine may declare it as the `Msg` it is."""

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

    def apply(self, state: Any, seat: Seat, action: Action | Checked) -> tuple[Any, list[Event]]:
        """Apply and return (new state, events). Never mutates `state`.

        Raises GameOver, NotYourTurn or IllegalAction (messages readable by players), unless
        `action` is `Checked` for this state and seat (`check_action`): then it is known legal.
        """

    def describe(self, state: Any, seat: Seat, action: Action) -> Msg | str:
        """A short label for a legal action (buttons, autocomplete: <= 100 chars once
        translated), as a `Msg`."""

    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """What `seat` may know, as JSON; `None` is the public view. The only way hidden
        information leaves the engine.

        Always holds: "game" (the engine name), "seats" (player count), "viewer" (seat or None),
        "to_act" (sorted list of seats), "status" (one public line on what is going on: a
        `Msg.to_json()` dict, or a legacy string with `{s0}` placeholders), "over" (bool). A seat's
        view may hold "private" with a "summary": one line on that seat's secrets ("Your hand: ..."), shown in its DMs.
        Everything else is the game's own."""

    def outcome(self, state: Any) -> Outcome | None:
        """None while the game goes on."""

    def to_dict(self, state: Any) -> dict[str, Any]:
        """State as JSON (includes the seed and the chance counter)."""

    def from_dict(self, data: Mapping[str, JSON]) -> Any:
        """State from JSON, validated; raises InvalidState."""

    def hidden_variant(self, state: Any, owner: Seat | None, rng: random.Random) -> Any:
        """A state that differs from `state` only in what is hidden from everyone but `owner`
        (owner None: hidden from all, e.g. the order of a deck). Used by the leak tests:
        every other seat's view and the public view must not change."""



class Hooks(Protocol):
    """The optional methods of an engine: it has each one only where its `features` declare it
    (see `Features` and `Search`). A caller asks the declaration first, then calls the method
    through `hooks(game)`."""

    def suggest(self, state: Any, seat: Seat, rng: random.Random, *, strength: str = "normal") -> Action:
        """`features.computer`: the computer player's move for `seat`, from the seat's view only."""

    def hint(self, state: Any, seat: Seat, rng: random.Random) -> tuple[Action, Msg | None]:
        """`features.hints`: the computer's move for `seat` and why."""

    def scores(self, state: Any) -> list[int]:
        """`features.scores`: each seat's running score."""

    def exposure(self, state: Any) -> tuple[Any, ...]:
        """`features.undo`: changes whenever chance is drawn or something hidden comes to light."""

    def subset_choices(self, state: Any, seat: Seat) -> list[SubsetChoice]:
        """`features.toggles`: the families of actions shown as toggles."""

    def moves_are_public(self, state: Any, seat: Seat) -> bool:
        """`features.public_moves`: the seat's choices follow from public information alone."""

    def publicly_forced(self, state: Any, seat: Seat) -> Action | None:
        """`features.forced`: the one move everyone can tell `seat` must make now."""

    def reaction_kind(self, state: Any, seat: Seat) -> str | None:
        """`features.reactions`: which declared kind the seat's current decision is."""

    def determinize(self, state: Any, seat: Seat, rng: random.Random) -> Any:
        """`features.search.determinize`: everything hidden from `seat` re-dealt at once."""

    def search_time(self, state: Any) -> float:
        """`features.search.timing`: a factor on the strong player's time budget."""

    def search_order(self, state: Any, seat: Seat, actions: list[Action]) -> list[Action]:
        """`features.search.order`: the moves most worth weighing first."""

    def search_scores(self, state: Any) -> list[float]:
        """`features.search.standing`: what each seat's position is worth."""


def hooks(game: Game) -> Hooks:
    """`game` with its optional methods, to call one that `game.features` declares."""
    return cast(Hooks, game)


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
    if not game.features.forced or game.outcome(state) is not None:
        return None
    for seat in sorted(game.to_act(state)):
        action = hooks(game).publicly_forced(state, seat)
        if action is not None:
            return seat, action
    return None


def reaction_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of decisions outside one's own turn that `game` declares (message ids)."""
    return game.features.reactions


def reaction_kind(game: Game, state: Any, seat: Seat) -> str | None:
    """Which declared kind the seat's current decision is; None for its own turn."""
    return hooks(game).reaction_kind(state, seat) if game.features.reactions else None


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
    """The shared refusal path, in words for the player: the game is over, it is not the seat's
    turn (naming whom the game waits for), a choice of an exact number of items with another
    number chosen, or not a legal action. A seat the game does not wait for may still make its
    optional moves (taking back a confirmed choice while others choose)."""
    if game.outcome(state) is not None:
        raise GameOver(msg("core.error.game_over"))
    legal = game.legal_actions(state, seat)
    if action in legal:
        return
    to_act = game.to_act(state)
    if seat not in to_act:
        raise NotYourTurn(msg("core.error.not_your_turn", players=[SeatRef(other) for other in sorted(to_act)]))
    if game.features.toggles:
        picked = [value for value in ",".join(action.args).split(",") if value]
        for family in hooks(game).subset_choices(state, seat):
            if family.verb == action.verb and family.size is not None and len(picked) != family.size:
                raise IllegalAction(msg("core.error.toggle_count", prompt=family.prompt, picked=len(picked),
                                        size=family.size))
    raise IllegalAction(msg("core.error.not_legal", move=action.encode()))


def lowered(action: Action) -> Action:
    """An action with its verb and arguments in lower case (how players may type them)."""
    return Action(action.verb.lower(), tuple(argument.lower() for argument in action.args))


def admitted(game: Game, state: Any, seat: Seat, action: Action | Checked,
             canonical: Callable[[Action], Action] = lambda action: action) -> Action:
    """For an engine's `apply`: the action in its canonical form, checked by the rules
    (`check_turn`) unless it comes checked already for this very state and seat."""
    plain, known = as_checked(state, seat, action)
    plain = canonical(plain)
    if not known:
        check_turn(game, state, seat, plain)
    return plain


def check_action(game: Game, state: Any, seat: Seat, text: str, label: Callable[[Any], str] = str) -> Checked:
    """The action a player's text means (`read_action`), checked once: legal, it comes back
    `Checked`, for `apply` to take without checking it again; otherwise the refusal in words
    (`check_turn`)."""
    legal = game.legal_actions(state, seat)
    action = _read_action(game, state, seat, text, label, legal)
    if game.outcome(state) is not None or action not in legal:
        check_turn(game, state, seat, action)  # raises: the words say why
    return Checked(action, state, seat)


def read_action(game: Game, state: Any, seat: Seat, text: str, label: Callable[[Any], str] = str) -> Action:
    """The action a player's text means: its canonical form ("lay Fv D5"), or the label of one of
    the seat's legal actions as `label` words it ("Lay plain at D5"), compared without case.
    Refuses text that names several legal actions (`AmbiguousAction`); any other text comes back
    as parsed, for `check_turn` (or `apply`) to refuse in words."""
    return _read_action(game, state, seat, text, label, game.legal_actions(state, seat))


def _read_action(game: Game, state: Any, seat: Seat, text: str, label: Callable[[Any], str],
                 legal: list[Action]) -> Action:
    action = Action.parse(text)
    if action in legal:
        return action
    wanted = " ".join(str(text).split()).lower()
    named = [candidate for candidate in legal
             if " ".join(label(game.describe(state, seat, candidate)).split()).lower() == wanted]
    if len(named) > 1:
        raise AmbiguousAction(msg("core.error.ambiguous", move=" ".join(str(text).split())[:80], count=len(named)))
    return named[0] if named else action


def name_seats(text: str | Msg | Mapping[str, Any], names: list[str] | tuple[str, ...]) -> str:
    """Fill the seat placeholders `{s0}`, `{s1}`, ... that engines use in event and status text.

    Engines never know player names; the bot passes display names or mentions, the command-line
    runner passes "P1", "P2", ...
    """
    if not isinstance(text, str):  # a Msg (or its JSON): words from the catalogues, in English
        return translate(text, "en", list(names))
    return fill_seats(text, names)
