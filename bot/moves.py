"""The one path for every change to a game: a player's move (a button, a menu, `/move`), the
computer's move for a seat, an undo, a new player in a seat, the start and the end.

    take the game's lock -> check the version -> apply the engine ->
    store the change, what it owes Discord (bot.turns) and what its listeners add (timers), in
    one transaction -> release the lock -> the delivery worker shows it (bot.delivery.worker)

Nothing here talks to Discord: a hanging request can never hold a game's lock, and a change is
stored whole or not at all. What follows a change (timers, records, the end of a game) is a
listener registered once at start-up (`listen`); a check that may refuse a seat before anything
is applied (a seat the computer plays since its player resigned) is a gate (`gate`).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol

import discord

from bot import presenter
from bot.choices import label_names
from bot.collector import QuietCollector
from bot.components import Choice
from bot.delivery.content import board_url
from bot.delivery.storage import owed_writes
from bot.delivery.worker import Deliveries
from bot.errors import Refusal, echo
from bot.locale import table_language
from bot.records import outcome_record
from bot.replay import Replays, decision_still_open
from bot.storage import GameRow, StaleVersion, Storage, Write
from bot.turns import Change, plan
from games.core import Action, Game, GameError, read_action
from i18n import translate

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's INTEGER: ids beyond it cannot exist
AUTOMATIC_LIMIT = 60  # moves made at once in a row at most (the longest seen: 15, a six-player tournament)


class Listener(Protocol):
    """Something that follows every change to a game (bot.days' timers, for one)."""

    async def prepare(self, change: Change) -> Sequence[Write]:
        """Statements to store with the change, in its transaction (reads only, no Discord)."""

    async def after(self, change: Change) -> None:
        """Once the change is stored (still under the game's lock; no Discord)."""


Gate = Callable[[GameRow, int], Awaitable[None]]
"""A check before a seat's move is applied: raises `Refusal` to refuse it."""

AutomaticMove = Callable[[GameRow, Game, Any], Awaitable["tuple[int, Action, str] | None"]]
"""(table, game, state) -> the move made at once for a seat, with the word that says so after its
account line (a publicly forced decision; none for a standing order), or None when the game
waits for people."""


@dataclass(frozen=True)
class Played:
    """What a move did: its label, the version it made, and whether it had been stored before
    (a retry of a typed move whose answer was lost: answered "already done", not applied)."""

    choice: Choice
    game_id: int
    version: int
    already_done: bool = False
    board_url: str | None = None

    @property
    def label(self) -> str:
        return self.choice.label

    @property
    def action(self) -> str:
        return self.choice.action


def check_id(value: int) -> int:
    """An id from a custom_id or a user, checked before it reaches SQLite or a shift."""
    if not 0 < value <= MAX_ID:
        raise Refusal.of("bot.errors.no_such_game")
    return value


class Moves:
    def __init__(self, storage: Storage, games: Mapping[str, Game], deliveries: Deliveries,
                 collector: QuietCollector | None = None, automatic: AutomaticMove | None = None) -> None:
        self.storage = storage
        self.games = games
        self.deliveries = deliveries
        self.collector = collector  # full garbage collections between moves (`python -m bot`)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._listeners: list[Listener] = []
        self._gates: list[Gate] = []
        self.automatic = automatic  # the moves nobody must be asked for (bot.days.orders)
        self._replays = Replays()  # games replayed to judge clicks on older messages
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.stopping = False

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def gate(self, check: Gate) -> None:
        self._gates.append(check)

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    @asynccontextmanager
    async def work(self) -> AsyncIterator[None]:
        """A request that may store something: refused once the bot is stopping, and waited for
        by `drain` so a clean stop never cuts a change in half."""
        if self.stopping:
            raise Refusal.of("bot.errors.shutting_down")
        self._in_flight += 1
        self._idle.clear()
        if self.collector is not None:
            self.collector.work_started()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()
                if self.collector is not None:
                    self.collector.work_done()

    async def drain(self, timeout: float) -> bool:
        """Stop taking new changes and wait (at most `timeout` s) for those under way."""
        self.stopping = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # ------------------------------------------------------------------------ lookups

    def engine(self, name: str) -> Game:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "-"
            raise Refusal.of("bot.errors.unknown_game", name=echo(name, 40), known=known) from None

    async def table(self, game_id: int) -> GameRow:
        table = await self.storage.get_game(check_id(game_id))
        if table is None:
            raise Refusal.of("bot.errors.game_gone")
        return table

    # ------------------------------------------------------------------------ changing

    async def change(self, game_id: int, make: Callable[[GameRow, Game], Awaitable[Change | None]], *,
                     interaction: discord.Interaction | None = None) -> Change | None:
        """Under the game's lock: `make` looks at the game and returns the change to make (or
        None, or raises `Refusal`); it is stored with what it owes and its listeners' statements,
        then the delivery worker is kicked, outside the lock. `interaction`: the person who made
        it hears if it cannot be shown at once, and again once it is."""
        async with self.work():
            async with self.lock(game_id):
                table = await self.table(game_id)
                change = await make(table, self.engine(table.game))
                if change is None:
                    return None
                await self._store(change)
                waiting = change.game.to_act(change.before) if change.kind == "move" and change.by_person else None
                await self._moves_made_at_once(game_id, change.game, waiting,
                                               made_by=change if change.kind == "move" else None)
            if interaction is not None:
                self.deliveries.watch(game_id, change.version, interaction)
            self.deliveries.kick(game_id)
            return change

    async def follow_up(self, game_id: int) -> None:
        """Make the moves the game makes at once now (a standing order just given, a timer after a
        restart), under the game's lock, and deliver them."""
        async with self.work():
            async with self.lock(game_id):
                table = await self.table(game_id)
                await self._moves_made_at_once(game_id, self.engine(table.game))
            self.deliveries.kick(game_id)

    async def _moves_made_at_once(self, game_id: int, game: Game, waiting: frozenset[Any] | None = None, *,
                                  made_by: Change | None = None) -> None:
        """The decisions nobody must be asked for (`self.automatic`), each a move of its own through
        the same steps as any move, until the game waits for a person. `waiting`: whom the game
        waited for before the person's move that led to them (they are not called anew).
        `made_by`: the move just stored: whether it leads to one made at once is asked of the state
        it left, without reading the game back (nearly always none is)."""
        known: tuple[int, Action, str] | None = None
        if made_by is not None and self.automatic is not None:
            if game.outcome(made_by.after) is not None:
                return  # the game is over
            # The row as the move left it, as far as the question needs (its id, seed, language
            # and new version; the state is the one given).
            moved = replace(made_by.table, version=made_by.version)
            known = await self.automatic(moved, game, made_by.after)
            if known is None:
                return
        automatic = self.automatic
        if automatic is None:
            return
        for _ in range(AUTOMATIC_LIMIT):
            table = await self.table(game_id)
            if table.status != "active":
                return
            state = game.from_dict(table.started_state)
            if known is not None and made_by is not None and table.version == made_by.version:
                made: tuple[int, Action, str] | None = known  # asked of this very state and version just now
            else:
                made = await automatic(table, game, state)
            known = None
            if made is None:
                return
            seat, action, note = made
            after, events = game.apply(state, seat, action)
            change = move_change(table, game, state, after, seat, action, events)
            change.note = note
            change.waiting_before = waiting
            await self._store(change)
            log.info("move game=%s channel=%s seat=%s action=%r version=%s made at once", table.id,
                     table.channel_id, seat, action.encode(), change.version)

    async def _store(self, change: Change) -> None:
        table = change.table
        change.version = table.version + (1 if change.kind in ("move", "undo", "replace") else 0)
        rows = await self.storage.dm_rows(table.id)
        writes = owed_writes(table, plan(change, rows), rows, version=change.version)
        for listener in self._listeners:
            writes += list(await listener.prepare(change))
        writes = [*change.writes, *writes]
        game = change.game
        if change.kind == "start":
            await self.storage.start_game(table.id, seat_order=change.record["seat_order"], seed=change.record["seed"],
                                          state=game.to_dict(change.after), writes=writes)
        elif change.kind == "seat":  # a seat's setting: no new version, no log row
            await self.storage.apply(writes)
        elif change.kind == "end":
            await self.storage.end_game(table.id, status=change.record["status"], result=change.record["result"],
                                        expected_status=change.record.get("expected_status"), writes=writes)
        else:
            if change.seat is None:
                raise ValueError(f"a {change.kind} change needs the seat it was made for")
            outcome = game.outcome(change.after) if change.kind == "move" else None
            await self.storage.record_change(
                table.id, expected_version=table.version, seat=change.seat, action=change.record["action"],
                state=game.to_dict(change.after), finished_result=outcome_record(outcome) if outcome else None,
                answered=change.record.get("answered", True), writes=writes)
        for listener in self._listeners:
            await listener.after(change)

    # ---------------------------------------------------------------------------- play

    async def play(self, user: discord.abc.User, *, game_id: int, action_text: str,
                   seen_version: int | None = None, typed: bool = False,
                   interaction: discord.Interaction | None = None) -> Played:
        """Apply one move for `user`, exactly once.

        `seen_version`: the state version a button or a /move suggestion was made for; a stale
        one is refused unless the user's decision is still the same. `typed`: a /move, whose
        player is answered by the command (the move is stored as unanswered until then): if it
        repeats the seat's last move that was stored but never answered (the bot stopped in
        between), it answers "already done" instead of applying it again.
        """
        started = time.monotonic()
        played: list[Played] = []

        async def make(table: GameRow, game: Game) -> Change | None:
            mover = table.seat_of(user.id)
            if typed and table.state is not None and mover is not None and (
                    done := await self._already_done(table, game, mover, action_text, seen_version)) is not None:
                # Also when that move ended the game: the retry still hears it counted.
                log.info("move game=%s channel=%s seat=%s action=%r already stored as version %s: not applied again",
                         table.id, table.channel_id, mover, action_text[:100], done.version)
                played.append(done)
                return None
            seat = seat_of(table, user)
            state = game.from_dict(table.started_state)
            if seen_version is not None and seen_version != table.version and \
                    not await self._decision_unchanged(table, game, seat, seen_version):
                if typed:
                    raise Refusal.of("bot.errors.stale_choice", seen=seen_version, version=table.version)
                raise presenter.stale_refusal(board_url(table))
            for gate in self._gates:
                await gate(table, seat)
            lang = table_language(table)
            try:
                action = read_action(game, state, seat, action_text,
                                     lambda text: translate(text, lang, label_names(table)))
                after, events = game.apply(state, seat, action)
            except GameError as error:
                raise Refusal.from_engine(error, table.names) from None
            label = translate(game.describe(state, seat, action), lang, label_names(table))
            change = move_change(table, game, state, after, seat, action, events, by_person=True, answered=not typed)
            played.append(Played(Choice(action.encode(), label), table.id, table.version + 1))
            return change

        try:
            change = await self.change(game_id, make, interaction=interaction)
        except StaleVersion:
            raise Refusal.of("bot.errors.same_moment") from None
        if change is not None and change.action is not None:  # a move always has its action
            log.info("move game=%s channel=%s seat=%s action=%r version=%s took=%.0fms", change.table.id,
                     change.table.channel_id, change.seat, change.action.encode(), change.version,
                     (time.monotonic() - started) * 1000)
        return played[0]

    async def computer_move(self, game_id: int, seat: int, choose: Callable[[GameRow, Game, Any], Awaitable[Action]],
                            *, notices: Sequence[dict[str, Any]] = ()) -> bool:
        """One move for `seat` by the computer (`choose` picks it), through the same steps as a
        player's move; `notices`: channel posts that go before it (bot.turns.notice). True if the
        same seat, alone, is to act again (its turn goes on)."""

        async def make(table: GameRow, game: Game) -> Change | None:
            if table.status != "active":
                return None
            state = game.from_dict(table.started_state)
            if seat not in game.to_act(state):
                return None
            action = await choose(table, game, state)
            after, events = game.apply(state, seat, action)
            change = move_change(table, game, state, after, seat, action, events)
            change.notices = list(notices)
            return change

        try:
            change = await self.change(game_id, make)
        except StaleVersion:
            return False
        if change is None:
            return False
        # Go on only while this seat alone is to act: the rest of a turn of several steps
        # (Knatsch re-rolls), never a new decision shared with others.
        return change.game.outcome(change.after) is None and change.game.to_act(change.after) == frozenset({seat})

    async def _already_done(self, table: GameRow, game: Game, seat: int, text: str,
                            seen_version: int | None) -> Played | None:
        last = await self.storage.last_action_of(table.id, seat)
        if last is None or last.answered:
            return None
        if seen_version is not None:
            # A suggestion names the version it was offered at: the move stored on that version
            # with its words is the one retried (judged against the newer position it may not even
            # parse); the same words offered at another version are a new move (a second re-roll).
            same_offer = last.version == seen_version + 1 and " ".join(text.split()).lower() == last.action.lower()
            if not same_offer:
                return None
        else:
            try:
                wanted = read_action(game, game.from_dict(table.started_state), seat, text).encode()
            except Exception:  # noqa: BLE001 - text that is no move cannot repeat one
                return None
            if wanted != last.action:
                return None
        return Played(Choice(last.action, last.action), table.id, last.version, already_done=True,
                      board_url=board_url(table))

    async def answered(self, played: Played) -> None:
        """The player has seen the answer to a typed move: a repeat is a new move from now on."""
        await self.storage.mark_answered(played.game_id, played.version)

    async def _decision_unchanged(self, table: GameRow, game: Game, seat: int, since: int) -> bool:
        actions = await self.storage.actions(table.id)
        try:
            states, _ = self._replays.replay(game, table, actions)
        except Exception:
            log.exception("Replay failed for game %s", table.id)
            return False
        return decision_still_open(game, states, actions, seat, since)

    async def decision_unchanged(self, table: GameRow, game: Game, seat: int, since: int) -> bool:
        """Whether the seat has faced the same decision since version `since` (a click on an
        older message still answers it)."""
        return await self._decision_unchanged(table, game, seat, since)


def move_change(table: GameRow, game: Game, before: Any, after: Any, seat: int, action: Action, events: list[Any],
                *, by_person: bool = False, answered: bool = True) -> Change:
    """The change a move makes, stored as one row of the action log."""
    return Change("move", table, game, before, after, seat=seat, action=action, events=events, by_person=by_person,
                  record={"action": action.encode(), "answered": answered})


def seat_of(table: GameRow, user: discord.abc.User) -> int:
    """The user's seat at an active table, or the refusal that says why they have none."""
    if table.status == "lobby":
        raise Refusal.of("bot.errors.not_started")
    if table.status != "active":
        raise Refusal.of("bot.errors.game_abandoned_no_moves" if table.status == "abandoned"
                         else "bot.errors.game_finished_no_moves")
    seat = table.seat_of(user.id)
    if seat is None:
        raise Refusal.of("bot.errors.not_playing")
    return seat
