"""The one path for every change to a game or a lobby: a player's move (a button, a menu,
`/move`), the computer's move for a seat, an undo, a new player in a seat, a seat's setting, the
start and the end; joining and leaving a lobby and its computer seats; `/game board`; a post in
the game's channel. Each is a frozen value of its own type (bot.changes).

    take the game's lock -> read the game once (a `Snapshot`) -> check the version -> apply the
    engine (an action checked once: the engine does not check it again) -> work out once what
    the change did (a `Done`: outcome, who waits before and after, what is made at once) ->
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
from typing import Any, Protocol, runtime_checkable

import discord

from bot import presenter
from bot.changes import (
    Change,
    Done,
    End,
    LobbyChange,
    Move,
    Note,
    Replace,
    Repost,
    SeatSetting,
    Snapshot,
    Start,
    Undo,
    states,
    version_after,
)
from bot.choices import KeptViews, label_names, stored_form, stored_state
from bot.collector import QuietCollector
from bot.components import Choice
from bot.delivery.content import board_url
from bot.delivery.storage import DmRow, dm_rows_from, dm_rows_read, lobby_write, owed_writes
from bot.delivery.worker import Deliveries
from bot.errors import Refusal, echo
from bot.locale import table_language
from bot.records import outcome_record
from bot.replay import REPLACE, UNDO, Replays, decision_still_open
from bot.storage import GameRow, StaleVersion, Write
from bot.store import Storage
from bot.turns import notice, plan
from games.core import Action, Automatic, Game, GameError, check_action, read_action
from i18n import translate

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's INTEGER: ids beyond it cannot exist
AUTOMATIC_LIMIT = 60  # moves made at once in a row at most (the longest seen: 15, a six-player tournament)


class Listener(Protocol):
    """Something that follows every change to a game (bot.days' timers, for one): a move, an
    undo, a new player, a seat's setting, the start and the end (`bot.changes.GameChange`; a
    lobby's changes, a repost and a post are not the game's and pass them by)."""

    async def prepare(self, done: Done) -> Sequence[Write]:
        """Statements to store with the change, in its transaction (reads only, no Discord)."""

    async def after(self, done: Done) -> None:
        """Once the change is stored (still under the game's lock; no Discord)."""


@runtime_checkable
class ReadingListener(Listener, Protocol):
    """A listener whose `prepare` reads the store: what it reads is read with the change's own
    reads (its seats' DM rows), in one hand-over to SQLite's thread, and handed to it first."""

    def reads(self, done: Done) -> Sequence[Write]:
        """The reads `prepare` makes for the change."""

    def read(self, done: Done, rows: Sequence[list[Any]]) -> None:
        """Their rows, read for `done` just before its `prepare`."""


Gate = Callable[[Snapshot, int], Awaitable[None]]
"""A check before a seat's move is applied, on the game as read for it: raises `Refusal` to
refuse it."""

AutomaticDecision = Callable[[GameRow, Game, Any, Mapping[int, frozenset[str]]], Awaitable[Automatic | None]]
"""(table, game, state, standing orders as read with the game: `Snapshot.orders`) -> the
decision the game makes at once in `state` (publicly forced, or a standing order's), or None
when the game waits for people."""

AutomaticMove = Callable[[GameRow, Game, Any, Automatic], Awaitable["tuple[int, Action, str]"]]
"""(table, game, state, decision) -> the move that makes the decision, with the word that says
so after its account line (a publicly forced decision; none for a standing order)."""


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
                 collector: QuietCollector | None = None, automatic: AutomaticDecision | None = None,
                 automatic_move: AutomaticMove | None = None) -> None:
        self.storage = storage
        self.games = games
        self.deliveries = deliveries
        self.collector = collector  # full garbage collections between moves (`python -m bot`)
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._listeners: list[Listener] = []
        # Those that read the store with a change (`ReadingListener`), told apart once: a
        # runtime-checkable protocol's isinstance looks through its members each time it is asked.
        self._reading: list[ReadingListener] = []
        self._gates: list[Gate] = []
        self.automatic = automatic  # the decisions nobody must be asked for (bot.days.orders)
        self.automatic_move = automatic_move  # and the moves that make them
        self._replays = Replays()  # games replayed to judge clicks on older messages
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.stopping = False

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)
        if isinstance(listener, ReadingListener):
            self._reading.append(listener)

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
        table = await self.storage.games.get_game(check_id(game_id))
        if table is None:
            raise Refusal.of("bot.errors.game_gone")
        return table

    async def snapshot(self, game_id: int) -> Snapshot:
        """The game as read once for a change (under its lock): its row and its seats' rows, read
        together (one hand-over to SQLite's thread)."""
        return (await self.snapshot_with(game_id, ()))[0]

    async def snapshot_with(self, game_id: int, more: Sequence[Write]) -> tuple[Snapshot, list[list[Any]]]:
        """`snapshot`, and the rows of the reads `more`, in the same hand-over. The standing
        orders are read with it (an empty look-up in most games) rather than by the decision
        made at once after each change, a hand-over of their own."""
        days = self.storage.days
        table, (seats, orders, *others) = await self.storage.games.get_game_with(
            check_id(game_id), [days.seats_read(game_id), days.orders_read(game_id), *more])
        if table is None:
            raise Refusal.of("bot.errors.game_gone")
        return Snapshot(table, days.seats_from(seats), days.orders_from(orders)), others

    # ------------------------------------------------------------------------ changing

    async def open_lobby(self, *, guild_id: int, channel_id: int, game: str, host_id: int, host_name: str,
                         options: Mapping[str, str], lang: str,
                         writes_for: Callable[[int], Sequence[Write]]) -> GameRow:
        """A new lobby with its host seated and what the features store for it (`writes_for(game
        id)`: the table's settings, a tournament's link to its table), in one transaction; raises
        ChannelBusy if the channel has an open game. Its other seats and its start are changes."""
        async with self.work():
            return await self.storage.games.create_lobby(
                guild_id=guild_id, channel_id=channel_id, game=game, host_id=host_id, host_name=host_name,
                options=dict(options), lang=lang, writes_for=writes_for)

    async def withdraw_lobby(self, game_id: int, reason: str) -> None:
        """A lobby whose message could not be sent: nobody saw it, so it ends with nothing owed
        and its channel is free for the next try."""
        async with self.work():
            async with self.lock(game_id):
                await self.storage.games.end_game(game_id, status="abandoned", result={"reason": reason})

    async def change(self, game_id: int, make: Callable[[GameRow, Game], Awaitable[Change | None]], *,
                     interaction: discord.Interaction | None = None) -> Done | None:
        """Under the game's lock: `make` looks at the game and returns the change to make (or
        None, or raises `Refusal`); it is stored with what it owes and its listeners' statements,
        then the delivery worker is kicked, outside the lock. Returns what the change did (None
        when `make` made none). `interaction`: the person who made it hears if it cannot be shown
        at once, and again once it is."""

        async def made(snapshot: Snapshot, game: Game) -> Change | None:
            return await make(snapshot.table, game)

        return await self._change(game_id, made, interaction=interaction)

    async def _change(self, game_id: int, make: Callable[[Snapshot, Game], Awaitable[Change | None]], *,
                      interaction: discord.Interaction | None = None) -> Done | None:
        async with self.work():
            async with self.lock(game_id):
                snapshot = await self.snapshot(game_id)
                # Views of the states kept are shared with the delivery and the next move (KeptViews).
                change = await make(snapshot, KeptViews(self.engine(snapshot.table.game)))
                if change is None:
                    return None
                done = await self._store(snapshot, change)
                waiting = done.waiting_before if isinstance(change, Move) and change.by_person else None
                await self._moves_made_at_once(game_id, done, waiting)
            if interaction is not None:
                self.deliveries.watch(game_id, done.version, interaction)
            self.deliveries.kick(game_id)
            return done

    async def follow_up(self, game_id: int) -> None:
        """Make the moves the game makes at once now (a standing order just given, a timer after a
        restart), under the game's lock, and deliver them."""
        async with self.work():
            async with self.lock(game_id):
                snapshot = await self.snapshot(game_id)
                table = snapshot.table
                if table.status == "active" and self.automatic is not None:
                    game = self.engine(table.game)
                    decision = await self.automatic(table, game, stored_state(game, table), snapshot.orders)
                    await self._made_at_once(snapshot, game, decision, None)
            self.deliveries.kick(game_id)

    async def notify(self, game_id: int, content: str, mentions: Sequence[int] = ()) -> None:
        """A post in the game's channel that belongs to no change of the game (someone is away,
        a seat's turn timed out): stored under the game's lock, then delivered like every other
        post."""

        async def make(table: GameRow, game: Game) -> Change:
            return Note(table=table, game=game, notices=(notice(content, mentions),))

        await self.change(game_id, make)

    async def _moves_made_at_once(self, game_id: int, done: Done, waiting: frozenset[Any] | None) -> None:
        """The decisions nobody must be asked for after the change just stored (`done.at_once`),
        each a move of its own through the same steps as any move, until the game waits for a
        person. `waiting`: whom the game waited for before the person's move that led to them
        (they are not called anew)."""
        if done.at_once is None:
            return  # nearly always: the game waits for people
        snapshot = await self.snapshot(game_id)  # as the change left it (what it owes Discord too)
        if snapshot.table.version == done.version:
            await self._made_at_once(snapshot, done.change.game, done.at_once, waiting)

    async def _made_at_once(self, snapshot: Snapshot, game: Game, decision: Automatic | None,
                            waiting: frozenset[Any] | None) -> None:
        make = self.automatic_move
        for _ in range(AUTOMATIC_LIMIT):
            table = snapshot.table
            if decision is None or make is None or table.status != "active":
                return
            state = stored_state(game, table)
            seat, action, note = await make(table, game, state, decision)
            after, events = game.apply(state, seat, action)
            change = Move(table=table, game=game, before=state, after=after, seat=seat, action=action,
                          events=tuple(events), note=note, waiting_before=waiting)
            done = await self._store(snapshot, change)
            log.info("move game=%s channel=%s seat=%s action=%r version=%s made at once", table.id,
                     table.channel_id, seat, action.encode(), done.version)
            decision = done.at_once
            if decision is not None:
                snapshot = await self.snapshot(table.id)  # the next move's own reading

    async def _done(self, snapshot: Snapshot, change: Change) -> Done:
        """What the change did, worked out once for the plan, the listeners and what follows."""
        before, after = states(change)
        game = change.game
        outcome = game.outcome(after) if after is not None and isinstance(
            change, (Move, Undo, Replace, Start, SeatSetting)) else None
        waiting_before = game.to_act(before) if before is not None else frozenset()
        waiting_after = waiting_before if after is before else (
            game.to_act(after) if after is not None else frozenset())
        version = version_after(change)
        at_once = None
        if self.automatic is not None and outcome is None and isinstance(change, (Move, Undo, Replace, Start,
                                                                                 SeatSetting)):
            # The row as the change leaves it, as far as the question needs (its id, seed,
            # language and new version; the state is the one given).
            at_once = await self.automatic(replace(change.table, version=version), game, after, snapshot.orders)
        return Done(change, version, outcome, waiting_before, waiting_after, at_once, snapshot.seats)

    async def _store(self, snapshot: Snapshot, change: Change) -> Done:
        done = await self._done(snapshot, change)
        table = change.table
        # The new state's stored text, made once: for the plan's questions about it and the row.
        stored = stored_form(change.game, states(change)[1]) if isinstance(change, (Move, Undo, Replace)) else ""
        game_change = not isinstance(change, (LobbyChange, Repost, Note))  # those owe no DM
        rows = await self._read_for(done, game_change)
        writes = owed_writes(table, plan(done, rows), rows, version=done.version)
        if game_change:
            for listener in self._listeners:
                writes += list(await listener.prepare(done))
        writes = [*change.writes, *writes]
        if isinstance(change, (LobbyChange, Start, End)) and table.lobby_message_id is not None \
                and table.board_message_id is None:
            writes.append(lobby_write(table.id, table.lobby_message_id))  # the lobby message shows it
        game = change.game
        match change:
            case Start(seat_order=order, seed=seed, state=state):
                await self.storage.games.start_game(table.id, seat_order=list(order), seed=seed,
                                              state=game.to_dict(state), writes=writes)
            case End(status=status, result=result, expected_status=expected):
                await self.storage.games.end_game(table.id, status=status, result=dict(result),
                                            expected_status=expected, writes=writes)
            case LobbyChange():
                await self._store_lobby(change, writes)
            case SeatSetting() | Repost() | Note():  # no new version, no log row
                await self.storage.apply(writes)
            case Move(seat=seat, action=action, answered=answered):
                await self.storage.games.record_change(
                    table.id, expected_version=table.version, seat=seat, action=action.encode(),
                    state=stored, finished_result=outcome_record(done.outcome) if done.outcome else None,
                    answered=answered, writes=writes)
            case Undo(seat=seat):
                await self.storage.games.record_change(table.id, expected_version=table.version, seat=seat, action=UNDO,
                                                 state=stored, writes=writes)
            case Replace(seat=seat):
                await self.storage.games.record_change(table.id, expected_version=table.version, seat=seat,
                                                 action=REPLACE, state=stored, writes=writes)
        if game_change:
            for listener in self._listeners:
                await listener.after(done)
        return done

    async def _read_for(self, done: Done, game_change: bool) -> dict[int, DmRow]:
        """What a change reads of the store once its game is read: its seats' DM rows (of a game
        being played) and what its listeners read (`ReadingListener`), handed to them; all in
        one hand-over to SQLite's thread (two before: the DM rows, then the timers' inputs)."""
        table = done.table
        wants_rows = game_change and table.status == "active"
        reading = self._reading if game_change else []
        asked = [list(listener.reads(done)) for listener in reading]
        statements = [*([dm_rows_read(table.id)] if wants_rows else []), *(read for reads in asked for read in reads)]
        if not statements:
            return {}
        answers = await self.storage.database.reads(statements)
        rows = dm_rows_from(answers.pop(0)) if wants_rows else {}
        for listener, reads in zip(reading, asked, strict=True):
            listener.read(done, answers[:len(reads)])
            del answers[:len(reads)]
        return rows

    async def _store_lobby(self, change: LobbyChange, writes: list[Write]) -> None:
        """A lobby's change: its seat and what it owes (the lobby message's edit), in one
        transaction."""
        table = change.table
        if change.closed:
            await self.storage.games.end_game(table.id, status="abandoned",
                                              result={"reason": "Everyone left the lobby."}, writes=writes)
            return
        await self.storage.games.change_lobby(table.id, joined=change.joined, left=change.left,
                                              new_host_id=change.new_host, writes=writes)

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

        async def make(snapshot: Snapshot, game: Game) -> Change | None:
            table = snapshot.table
            mover = table.seat_of(user.id)
            if typed and table.has_state and mover is not None and (
                    done := await self._already_done(table, game, mover, action_text, seen_version)) is not None:
                # Also when that move ended the game: the retry still hears it counted.
                log.info("move game=%s channel=%s seat=%s action=%r already stored as version %s: not applied again",
                         table.id, table.channel_id, mover, action_text[:100], done.version)
                played.append(done)
                return None
            seat = seat_of(table, user)
            state = stored_state(game, table)
            if seen_version is not None and seen_version != table.version and \
                    not await self._decision_unchanged(table, game, seat, seen_version):
                if typed:
                    raise Refusal.of("bot.errors.stale_choice", seen=seen_version, version=table.version)
                raise presenter.stale_refusal(board_url(table))
            for gate in self._gates:
                await gate(snapshot, seat)
            lang = table_language(table)
            try:
                # Checked once here: the engine applies it without checking it again.
                checked = check_action(game, state, seat, action_text,
                                       lambda text: translate(text, lang, label_names(table)))
                after, events = game.apply(state, seat, checked)
            except GameError as error:
                raise Refusal.from_engine(error, table.names) from None
            action = checked.action
            label = translate(game.describe(state, seat, action), lang, label_names(table))
            played.append(Played(Choice(action.encode(), label), table.id, table.version + 1))
            return Move(table=table, game=game, before=state, after=after, seat=seat, action=action,
                        events=tuple(events), by_person=True, answered=not typed)

        try:
            done = await self._change(game_id, make, interaction=interaction)
        except StaleVersion:
            raise Refusal.of("bot.errors.same_moment") from None
        if done is not None and isinstance(move := done.change, Move):
            log.info("move game=%s channel=%s seat=%s action=%r version=%s took=%.0fms", move.table.id,
                     move.table.channel_id, move.seat, move.action.encode(), done.version,
                     (time.monotonic() - started) * 1000)
        return played[0]

    async def computer_move(self, game_id: int, seat: int, choose: Callable[[GameRow, Game, Any], Awaitable[Action]],
                            *, notices: Sequence[Mapping[str, Any]] = ()) -> bool:
        """One move for `seat` by the computer (`choose` picks it), through the same steps as a
        player's move; `notices`: channel posts that go before it (bot.turns.notice). True if the
        same seat, alone, is to act again (its turn goes on)."""

        async def make(table: GameRow, game: Game) -> Change | None:
            if table.status != "active":
                return None
            state = stored_state(game, table)
            if seat not in game.to_act(state):
                return None
            action = await choose(table, game, state)
            after, events = game.apply(state, seat, action)
            return Move(table=table, game=game, before=state, after=after, seat=seat, action=action,
                        events=tuple(events), notices=tuple(notices))

        try:
            done = await self.change(game_id, make)
        except StaleVersion:
            return False
        if done is None:
            return False
        if isinstance(move := done.change, Move):  # a player's moves and those made at once are logged too
            log.info("move game=%s channel=%s seat=%s action=%r version=%s by the computer", move.table.id,
                     move.table.channel_id, seat, move.action.encode(), done.version)
        # Go on only while this seat alone is to act: the rest of a turn of several steps
        # (Knatsch re-rolls), never a new decision shared with others.
        return done.outcome is None and done.waiting_after == frozenset({seat})

    async def _already_done(self, table: GameRow, game: Game, seat: int, text: str,
                            seen_version: int | None) -> Played | None:
        last = await self.storage.games.last_action_of(table.id, seat)
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
        await self.storage.games.mark_answered(played.game_id, played.version)

    async def _decision_unchanged(self, table: GameRow, game: Game, seat: int, since: int) -> bool:
        actions = await self.storage.games.actions(table.id)
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


def seating(players: Sequence[tuple[int, str]]) -> Callable[[GameRow, Game], Awaitable[Change | None]]:
    """A maker for `Moves.change`: a table seated before it starts (a practice table's computers,
    a tournament table's players) takes those of `players` (user id, name) not seated yet, in one
    change; none once it started or when all sit there (a retry after a stop in between)."""

    async def make(table: GameRow, game: Game) -> Change | None:
        missing = tuple((user_id, name) for user_id, name in players if not table.has_player(user_id))
        if table.status != "lobby" or not missing:
            return None
        return LobbyChange(table=table, game=game, joined=missing)

    return make


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
