"""The delivery worker: sends what stored changes owe Discord, until it is shown.

A change stores what it owes (bot.delivery.storage) and kicks the worker for its game; the
worker sends it outside the game's lock, so a hanging request never holds a move. One task per
game at a time keeps a channel's posts in order; games never wait for each other. A pass over a
game sends, in this order: the channel posts owed (`notice`, lobby edits), the newest board (one
board for however many moves it is behind: newest wins), the older turn messages that become
history, then each seat's owed DM. Every request has a short timeout (bot.delivery.requests);
what fails is tried again, after Discord's `retry_after` or a growing pause, and posts carry a
nonce so a retry never doubles a message.

- A revoked permission: the host hears once what is missing; the game is tried again when the
  server's permissions change (bot.delivery.follow) and every few minutes.
- A deleted board: posted again (bot.delivery.follow hears of the deletion).
- An archived thread: reopened (unarchived), and the pass tried again. A deleted channel (or a
  thread the bot may not reopen): a feature that keeps the game going elsewhere takes it
  (`on_channel_lost`: a tournament's table gets a new thread); else the game is abandoned.
- Closed DMs: tried again at the player's next interaction with the bot, or after a while
  (`Durations.dm_retry`, bot.timing).
- The player whose move could not be shown hears so once, and again when it is shown.
- Owed at a restart: `start` kicks every game that owes something.

The same loop keeps the features' messages current (`KeptMessage`: a server's overview, a
tournament's standings), registered at wiring (`keep`): one task per message at a time, the same
backoff, Discord's `retry_after`, the same wake when Discord is back and the same stop. Such a
message's pause between two edits is its own (`look` answers it); a kick during a pause or a
backoff only asks for one more look after it, so a message that changes often is never edited
faster than it allows, nor retried sooner than Discord asked.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

import discord

import i18n
from bot import presenter
from bot.choices import KeptViews, stored_state
from bot.components import lobby_view
from bot.delivery.answers import Answers
from bot.delivery.content import (
    BoardFacts,
    Content,
    Images,
    StandingOrders,
    board_url,
    channel_url,
    status_line,
)
from bot.delivery.dms import PrivateDeliveries, sends_picture
from bot.delivery.requests import LATE_LANDING, Failure, attempt, nonce_for, release_global_wait, shows_sent
from bot.delivery.storage import (
    DmRow,
    close_write,
    delivered_write,
    deliveries_from,
    deliveries_read,
    dm_rows_from,
    dm_rows_read,
    last_moves_from,
    last_moves_read,
    late_closed_write,
    late_write,
)
from bot.errors import missing_permissions, permission_names
from bot.locale import table_language
from bot.storage import GameRow
from bot.storage.database import Write
from bot.storage.games import languages_read
from bot.store import Storage
from bot.tasks import cancel_all, start_or_again
from bot.timing import Durations
from bot.turns import Remembering, history_text, turn_text
from games.core import Game

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

BACKOFF = (1.0, 3.0, 10.0, 30.0, 60.0, 120.0, 300.0)  # seconds before each further try
WATCH_LIFE = 14 * 60     # an interaction can be answered for 15 minutes
SLOTS = 8                # games delivered at once: after a restart with many owed, drawing and
                         # sending go a few at a time (memory, Discord's global rate limit)
LOOKS_PER_SECOND = 10.0  # boards looked for after a time the bot heard nothing (a start, a new
                         # session): far below Discord's global limit, so moves go on meanwhile
WAKE_AFTER = 5.0         # a game backing off after Discord's trouble is woken by another request's
                         # success once its pause is longer than this (Discord is back)


Key = int | tuple[str, int]  # a game's id, or (kind, key) of a kept message

# The game whose pass runs in this task (its DMs' tasks inherit it): an edit that must wait for an
# earlier edit of its message to land kicks that game once it has.
_passing: ContextVar[int | None] = ContextVar("passing", default=None)


class KeptMessage(Protocol):
    """A message a feature keeps current beside the games' (bot.league.overview,
    bot.tournaments.message), run by the delivery worker's loop once registered (`keep`).

    `kind` names its messages (tasks and log lines); `attach(kick)` hands it the worker's kick for
    one of its messages (by the feature's key: a server, a tournament); `look(key)` is one pass at
    that message: None when it shows everything, a pause before the next look (0: at once), or
    the `Failure` that stopped it (tried again after Discord's `retry_after`, else the worker's
    backoff; "blocked", "refused" and "gone" after the longest pause)."""

    kind: str

    def attach(self, kick: Callable[[int], None]) -> None: ...

    async def look(self, key: int) -> float | Failure | None: ...


@dataclass(frozen=True)
class Pause:
    """What one pass asks of the loop: sleep `seconds` (None: done); `tried`: a try that failed
    (the backoff grows); `troubled`: Discord's own trouble, woken when Discord is back."""

    seconds: float | None
    tried: bool = False
    troubled: bool = False


@dataclass(frozen=True)
class PassRead:
    """What a pass reads at once (`Deliveries._read_pass`): the game (None: gone), its DMs' rows
    and its owed channel deliveries, and what its DMs ask of the store: the seats whose players
    resigned (`Content.seats_left`), its players' languages (rows of `languages_read`) and the
    version of each seat's newest move (`last_moves_read`: whether a DM's toggles may stay); and
    what its board's message asks of the store (`Content.board_read`: deadlines, the Hint); and
    the seats' standing orders its DMs show (`Content.orders_read`)."""

    table: GameRow | None
    rows: dict[int, DmRow]
    owed: list[tuple[int, str, dict[str, Any]]]
    left: frozenset[int] = frozenset()
    languages: list[Any] = field(default_factory=list)
    last_moves: dict[int, int | None] = field(default_factory=dict)
    board: BoardFacts | None = None
    orders: StandingOrders = field(default_factory=dict)


@dataclass
class Watch:
    """A mover waiting to hear whether their move is shown: `interaction` answers them."""

    version: int
    interaction: discord.Interaction
    since: float
    told: bool = False


class Deliveries:
    def __init__(self, client: discord.Client, storage: Storage, games: Mapping[str, Game], content: Content, *,
                 owns_guild: Callable[[int], bool] = lambda guild_id: True,
                 end_message: Callable[..., Any] | None = None, now: Callable[[], float] = time.time,
                 durations: Durations = Durations()) -> None:
        self.client = client
        self.storage = storage
        self.games = games
        self.content = content
        self.owns_guild = owns_guild
        self.end_message = end_message  # (table, game, state) -> (content, files): bot.records
        self.now = now  # the scheduler's clock (closed DMs are tried again by it)
        self.backoff = BACKOFF
        self._tasks: dict[Key, asyncio.Task[Any]] = {}
        self._slots = asyncio.Semaphore(SLOTS)
        self.answers = Answers(self._landed)
        self._kept: dict[str, KeptMessage] = {}
        self._channel_lost: list[Callable[[GameRow], Awaitable[bool]]] = []
        self._again: set[Key] = set()
        self._sleeping: set[Key] = set()
        # Games (and kept messages) pausing because Discord had trouble (5xx, hangs), with the
        # length of the pause: the next request that goes through wakes those with a long one.
        self._troubled: dict[Key, float] = {}
        self._woken: set[Key] = set()
        # Games with a message edit that got no answer in time (stored as `late` deliveries, so a
        # restart knows them too), and when such an edit can no longer land (loop time).
        self._late: dict[int, float] = {}
        self._late_here: set[int] = set()  # messages whose `late` rows this process stored
        self._late_held: set[int] = set()  # `late` rows of an earlier run held already (delivery ids)
        # message id -> the games whose edit of it waits for an earlier edit of it to land
        self._waiting_to_edit: dict[int, set[int]] = {}
        self._looking: asyncio.Task[Any] | None = None
        self._watches: dict[int, list[Watch]] = {}
        self._blocked: dict[int, int] = {}  # game id -> guild id, while its channel refuses the bot
        # game id -> the game with its board's fields as the board just shown left them (read in
        # the same hand-over as the board's delivery is stored), for the rest of the pass.
        self._board_fields: dict[int, GameRow] = {}
        self._host_told: set[int] = set()
        self.stopping = False
        self.requests = 0  # Discord requests made (the benches count them)
        self.dms = PrivateDeliveries(client, storage, content, self._request, self._edit, self._again.add, now,
                                     durations)

    # ---------------------------------------------------------------------- kicking

    def kick(self, game_id: int) -> None:
        """Something is owed for the game: send it now (or as soon as the pass under way ends)."""
        if self.stopping:
            return
        running = start_or_again(self._tasks, self._again, game_id, self._run, f"deliver-{game_id}")
        if running is not None and game_id in self._sleeping:
            running.cancel()  # wakes its pause; the task takes the cancel back

    def keep(self, *kept: KeptMessage) -> None:
        """At wiring: these features' messages are kept current by this worker's loop."""
        for message in kept:
            self._kept[message.kind] = message
            message.attach(partial(self.kick_kept, message.kind))

    def on_channel_lost(self, handler: Callable[[GameRow], Awaitable[bool]]) -> None:
        """At wiring: `handler(table)` is asked first when a game's channel is deleted (or is a
        thread the bot may not reopen); True when it takes the game elsewhere (and kicks it)."""
        self._channel_lost.append(handler)

    def kick_kept(self, kind: str, key: int) -> None:
        """A kept message owes something: looked at now, or once its pause under way is over."""
        if self.stopping:
            return
        start_or_again(self._tasks, self._again, (kind, key), self._run, f"keep-{kind}-{key}")

    def _wake_troubled(self) -> None:
        """A request went through: what pauses long after Discord's trouble tries again now."""
        for key, pause in list(self._troubled.items()):
            if pause > WAKE_AFTER and key in self._sleeping:
                del self._troubled[key]
                self._woken.add(key)
                self._tasks[key].cancel()

    def kick_guild(self, guild_id: int) -> None:
        """The server's permissions changed: try its blocked games again at once."""
        for game_id, guild in list(self._blocked.items()):
            if guild == guild_id:
                self.kick(game_id)

    async def start(self) -> int:
        """At start-up: every game that owes Discord something is delivered (ids only are read)."""
        for user_id in await self.storage.delivery.users_with_closed_dms():
            self.dms.refused_users.setdefault(user_id, 0.0)
        owed = [game_id for game_id, guild_id in await self.storage.delivery.owed_games()]
        for game_id in owed:
            self.kick(game_id)
        return len(owed)

    async def new_session(self) -> int:
        """A new gateway session (the bot started, or came back without RESUME): Discord replays
        nothing it said meanwhile, so what is owed is delivered and every board the store takes
        as shown is looked for; one deleted meanwhile is posted again. Returns the games owing."""
        owed = await self.start()
        if self._looking is None or self._looking.done():
            self._looking = asyncio.get_running_loop().create_task(self._look_for_boards(), name="look-for-boards")
        return owed

    async def _look_for_boards(self) -> None:
        """Each shown board of this process's games, looked for at `LOOKS_PER_SECOND`."""
        for game_id, guild_id, channel_id, message_id in await self.storage.delivery.boards_shown():
            if self.stopping:
                return
            if not self.owns_guild(guild_id):
                continue
            message = self.client.get_partial_messageable(channel_id, guild_id=guild_id).get_partial_message(message_id)
            result = await self._request(message.fetch)
            if isinstance(result, Failure) and result.kind == "gone":
                # Its message deleted, or its channel (a thread), while the bot heard nothing: the
                # turn is posted again, where the game goes on (`_channel_failed`).
                if await self.storage.delivery.board_gone(game_id, message_id):
                    log.info("board game=%s channel=%s: its %s was deleted while the bot heard nothing: posting "
                             "it again", game_id, channel_id, result.what)
                    self.kick(game_id)
            await asyncio.sleep(1.0 / LOOKS_PER_SECOND)

    def delivering(self) -> bool:
        """Whether a pass is under way: something owed being drawn or sent now (not pausing)."""
        return any(not task.done() and key not in self._sleeping for key, task in self._tasks.items())

    async def settled(self, key: Key) -> None:
        """Wait until the game (or kept message) owes nothing more that can be delivered now
        (benches time this)."""
        while (task := self._tasks.get(key)) is not None and not task.done():
            await asyncio.wait([task])

    async def drain(self, timeout: float) -> bool:
        """Wait (at most `timeout` s) for the games' deliveries under way; True if all finished.
        (A kept message only shows what the store holds: the next start shows it.)"""
        tasks = [task for key, task in self._tasks.items() if isinstance(key, int) and not task.done()]
        if not tasks:
            return True
        done, pending = await asyncio.wait(tasks, timeout=max(0.0, timeout))
        return not pending

    async def stop(self) -> None:
        self.stopping = True
        await cancel_all([*self._tasks.values(), self._looking])
        self.answers.stop()

    def watch(self, game_id: int, version: int, interaction: discord.Interaction) -> None:
        """Tell `interaction`'s user if their move (that made `version`) cannot be shown now, and
        again once it is."""
        watches = [w for w in self._watches.get(game_id, []) if time.monotonic() - w.since < WATCH_LIFE]
        watches.append(Watch(version, interaction, time.monotonic()))
        self._watches[game_id] = watches

    # ---------------------------------------------------------------------- running

    async def _run(self, key: Key) -> None:
        tries = 0
        while not self.stopping:
            self._again.discard(key)
            try:
                async with self._slots:
                    pause = await self._pass(key, tries)
            except asyncio.CancelledError:
                if self.stopping:
                    raise
                _uncancel()
                continue
            except Exception:
                log.exception("Delivering %s failed; trying again", _name(key))
                pause = Pause(self.backoff[-1], tried=True)
            if isinstance(key, int):
                await self.answers.release_game(key)  # clicks its messages did not answer
                if key in self._again:
                    tries = 0
                    continue
            elif key in self._again and (pause.seconds is None or pause.seconds == 0):
                continue
            if pause.seconds is None:
                break
            tries = tries + 1 if pause.tried else 0
            if pause.seconds == 0:
                continue
            if pause.troubled:  # Discord's trouble: the worker's own backoff, until Discord is back
                self._troubled[key] = pause.seconds
            self._sleeping.add(key)
            try:
                await asyncio.sleep(pause.seconds)
            except asyncio.CancelledError:
                if self.stopping:
                    raise
                _uncancel()  # kicked: something new is owed
                if key not in self._woken:  # (woken because Discord is back: the backoff goes on)
                    tries = 0
            finally:
                self._sleeping.discard(key)
                self._troubled.pop(key, None)
                self._woken.discard(key)
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]

    async def _pass(self, key: Key, tries: int) -> Pause:
        """One pass: a game's deliveries, or one look at a kept message; and what it asks of the loop."""
        backoff = self.backoff[min(tries, len(self.backoff) - 1)]
        if isinstance(key, int):
            wait = await self._deliver(key)
            if wait is None:
                return Pause(None)
            return Pause(wait or backoff, tried=True, troubled=wait == 0)
        kind, kept_key = key
        result = await self._kept[kind].look(kept_key)
        if not isinstance(result, Failure):
            return Pause(result)
        if result.kind in ("blocked", "refused", "gone"):
            # The bot may not post there, or the channel is gone: tried again now and then, and
            # whenever the message owes something new.
            return Pause(self.backoff[-1], tried=True)
        return Pause(result.after or backoff, tried=True, troubled=result.after == 0)

    async def _deliver(self, game_id: int) -> float | None:
        """One pass over a game: None when everything owed is shown, else the pause before the
        next try (0: the worker's own backoff)."""
        _passing.set(game_id)
        read = await self._read_pass(game_id)
        table, rows, owed = read.table, read.rows, read.owed
        if table is None:
            return None
        game = self.games.get(table.game)
        if game is None:
            log.warning("Game %s is of a game this bot does not know (%s): nothing delivered", game_id, table.game)
            return None
        state = stored_state(game, table) if table.has_state else None
        # The pass asks for the same views and moves of it again and again; its views are shared
        # with the move that made it (KeptViews).
        game = Remembering(KeptViews(game), (state,))
        game.known_fingerprint(state, table.state_digest)
        now = int(self.now())
        due = [seat for seat, row in rows.items() if row.owed is not None
               and (row.closed_until is None or row.closed_until <= now)]
        public = self.owns_guild(table.guild_id)
        drawn: Images = {}
        langs: dict[int, str] = {}
        left = read.left if state is not None and due else None  # read with the game, for all DMs
        if state is not None and due:
            readers = [seat for seat in due if not table.player_at(seat).computer and seat not in (left or ())]
            langs.update(self.content.private_languages_from(table, readers, read.languages))  # read with the game
            shown = {seat: kept.picture for seat in readers
                     if (kept := self.dms.shown(table.id, rows[seat])) is not None}
            # Pictures only for the DMs that may send one (a DM closed with its done text sends none).
            pictured = [seat for seat in readers if sends_picture(game, state, table, rows[seat])]
            drawn = await self.content.images_of(table, game, state, pictured, shown=shown, langs=langs,
                                                 board=public and table.board_owed and table.status == "active")
        waits = []
        if public:
            failure, board_read = await self._channel(table, game, state, drawn, owed, read.board)
            await self._answer_movers(game_id, failure, table, board_read=board_read)
            if failure is not None:
                waits.append(failure.after)
        # What the DMs' deliveries store, in one hand-over once they are all done: each only after
        # Discord confirmed it (a crash before leaves them owed: sent once more, edits as before).
        stored: list[Write] = []
        try:
            failures = await asyncio.gather(*(
                self.dms.deliver(table, game, state, rows[seat], drawn, langs.get(seat), left, stored,
                                 last_moves=read.last_moves, orders=read.orders) for seat in due))
        finally:
            if stored:
                await self.storage.apply(stored)
        for failure in failures:
            if failure is not None and failure.kind == "retry":
                waits.append(failure.after)
        if not waits and game_id in self._late:
            waits.append(max(0.5, self._late[game_id] - asyncio.get_running_loop().time()))
        return min(waits) if waits else None

    async def _read_pass(self, game_id: int) -> PassRead:
        """The game, its DMs' rows and its owed channel deliveries as of one moment (one read:
        the store lets no change in between), with what its DMs ask of the store (`PassRead`). A
        DM still ahead of the game (a change stored since, on a store that reads them apart) is
        left to the next pass (that change kicks one)."""
        for _ in range(3):
            table, (dm_rows, deliveries, left, languages, last_moves, orders, *board) = \
                await self.storage.games.get_game_with(game_id, [
                    dm_rows_read(game_id), deliveries_read(game_id), self.content.left_read(game_id),
                    languages_read(game_id), last_moves_read(game_id), self.content.orders_read(game_id),
                    *self.content.board_read(game_id)])
            if table is None:
                return PassRead(None, {}, [])
            rows = dm_rows_from(dm_rows)
            self.dms.channels.learn_rows(rows.values())
            ahead = {seat for seat, row in rows.items() if row.owed is not None and not _has_state_of(table, row.owed)}
            read = PassRead(table, rows, deliveries_from(deliveries), self.content.left_from(left), languages,
                            last_moves_from(last_moves), self.content.board_from(table, board),
                            self.content.orders_from(orders))
            if not ahead:
                return read
        return replace(read, rows={seat: row for seat, row in rows.items() if seat not in ahead})

    async def _landing_late(self, game_id: int, failure: Failure | None, message_id: int) -> None:
        """An edit of the game's message got no answer in time: Discord may still carry it out
        later, after newer edits. Stored, so that once it can no longer land the message is
        shown as meant last (`_late_edits`), also after a restart."""
        if (failure is not None and failure.late) or self.answers.took_late(message_id):
            self._late_here.add(message_id)
            await self.storage.apply([late_write(game_id, message_id)])
            self._late[game_id] = asyncio.get_running_loop().time() + LATE_LANDING

    async def _late_edits(self, table: GameRow, owed: list[tuple[int, str, dict[str, Any]]]) -> None:
        """Edits that got no answer in time could land after newer ones until `LATE_LANDING`
        after them (counted from now for those a restart or another process finds). Then the
        board is shown once more and a message made history meanwhile is made history again, so
        what was meant last wins whatever landed last."""
        late = [(delivery_id, payload) for delivery_id, kind, payload in owed if kind == "late"]
        if not late:
            return
        now = asyncio.get_running_loop().time()
        due = self._late.setdefault(table.id, now + LATE_LANDING)
        if now < due:
            return
        del self._late[table.id]
        writes = [close_write(table.id, {"message_id": payload["message_id"], "lines": payload["lines"]})
                  for _, payload in late if "lines" in payload and payload["message_id"] != table.board_message_id]
        await self.storage.apply([*writes, *(delivered_write(delivery_id) for delivery_id, _ in late)])
        await self.storage.delivery.board_again(table.id)
        self._again.add(table.id)

    def _hold_late_of_earlier_run(self, owed: list[tuple[int, str, dict[str, Any]]]) -> None:
        """Edits an earlier run (killed, or another process) made that got no answer in time may
        still land until `LATE_LANDING` after it stored them: their messages get no other edit
        until then (this process follows its own edits until they land: bot.delivery.answers)."""
        for delivery_id, kind, payload in owed:
            if kind != "late" or delivery_id in self._late_held or payload["message_id"] in self._late_here:
                continue
            self._late_held.add(delivery_id)
            stored_at = payload.get("at", time.time())
            self.answers.hold(payload["message_id"], stored_at + LATE_LANDING - time.time())

    # ----------------------------------------------------------------------- channel

    def _channel_of(self, table: GameRow) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _channel(self, table: GameRow, game: Game, state: Any, drawn: Images,
                       owed: list[tuple[int, str, dict[str, Any]]],
                       facts: BoardFacts | None = None) -> tuple[Failure | None, GameRow | None]:
        """The channel's side of a game: posts, the board, then older messages made history.
        `owed`, `facts`: its owed deliveries and what its board asks of the store, read with the
        game. Returns what failed, and the game with its board's fields as stored once a board
        was shown (None: no board shown)."""
        channel = self._channel_of(table)
        shown: GameRow | None = None
        self._hold_late_of_earlier_run(owed)
        for delivery_id, kind, payload in owed:
            if kind in ("close", "late"):
                continue
            if kind == "notice":
                mentions = discord.AllowedMentions(everyone=False, roles=False,
                                                   users=[discord.Object(user) for user in payload["mentions"]])
                nonce = nonce_for("notice", payload.get("key", delivery_id))
                result = await self._request(partial(channel.send, payload["content"], allowed_mentions=mentions,
                                                     nonce=nonce))
            else:  # the lobby message shows the table as it is now (read again: this edit may be a start's,
                # stored after the pass read the table)
                now = await self.storage.games.get_game(table.id) or table
                result = await self._request(partial(self._edit_lobby, channel, payload["message_id"], now))
            if isinstance(result, Failure) and not (kind == "lobby" and result.kind == "gone"):
                return await self._channel_failed(table, result, kind), None
            await self.storage.delivery.delivered(delivery_id)
        if table.board_owed:
            self._board_fields.pop(table.id, None)
            result = await self._board(table, game, state, drawn, facts)
            if isinstance(result, Failure):
                self._board_fields.pop(table.id, None)
                return await self._channel_failed(table, result, "board"), None
            shown = self._board_fields.pop(table.id, None) or await self.storage.delivery.board_now(table)
            table = shown or table
        for delivery_id, kind, payload in owed:
            if kind != "close" or payload["message_id"] == table.board_message_id:
                continue
            message = channel.get_partial_message(payload["message_id"])
            if payload["lines"] is None:  # it keeps what it says and loses its buttons
                result = await self._edit(message, view=None)
            else:
                result = await self._edit(message, content=history_text(payload["lines"]), view=None,
                                          allowed_mentions=discord.AllowedMentions.none())
            await self._landing_late(table.id, result if isinstance(result, Failure) else None, message.id)
            if isinstance(result, Failure) and result.kind != "gone":
                return await self._channel_failed(table, result, "close"), shown
            # An edit of this message that may still land: once it could no longer, the message
            # is made history again with these words.
            await self.storage.apply([late_closed_write(late_id, {**late, "lines": payload["lines"]})
                                      for late_id, kind, late in owed
                                      if kind == "late" and late["message_id"] == payload["message_id"]])
            await self.storage.delivery.delivered(delivery_id)
        if table.id in self._late or any(kind == "late" for _, kind, _ in owed):
            await self._late_edits(table, await self.storage.delivery.deliveries(table.id))
        self._blocked.pop(table.id, None)
        self._host_told.discard(table.id)
        return None, shown

    def _edit_lobby(self, channel: discord.PartialMessageable, message_id: int,
                    table: GameRow) -> Awaitable[discord.Message]:
        """The lobby message edited to show the table as it is now."""
        return channel.get_partial_message(message_id).edit(**self._lobby_parts(table),
                                                            allowed_mentions=discord.AllowedMentions.none())

    def _lobby_parts(self, table: GameRow) -> dict[str, Any]:
        game = self.games[table.game]
        return {"content": presenter.lobby_text(table, game),
                "view": lobby_view(table, game) if table.status == "lobby" else None}

    async def _board(self, table: GameRow, game: Game, state: Any, drawn: Images,
                     facts: BoardFacts | None = None) -> discord.Message | Failure:
        """The newest board: the turn message edited, or a new one (mentioning whom the turn
        calls) when the turn has none yet; the end message once the game is over. `facts`: what
        it asks of the store, if read with `table` (else read now)."""
        channel = self._channel_of(table)
        if table.status != "active":
            if self.end_message is None or state is None:
                text = presenter.clip("\n".join(str(line) for line in table.turn_lines) or "…")
                result = await self._request(lambda: channel.send(text, nonce=nonce_for("end", table.id)))
            else:
                content, files = await self.end_message(table, game, state)
                result = await self._request(lambda: channel.send(
                    content, files=files, allowed_mentions=discord.AllowedMentions.none(),
                    nonce=nonce_for("end", table.id, table.turn_number)))
        else:
            text, file, view, people = await self._turn_message(table, game, state, drawn, facts)
            if table.turn_posted:
                if table.board_message_id is None:
                    raise ValueError(f"game {table.id}'s turn is posted but names no message")
                message = channel.get_partial_message(table.board_message_id)
                result = await self._edit(message, content=text, attachments=[file] if file is not None else [],
                                          view=view, allowed_mentions=discord.AllowedMentions.none())
                await self._landing_late(table.id, result if isinstance(result, Failure) else None, message.id)
                if isinstance(result, Failure) and result.kind == "gone" and result.what == "message":
                    # Deleted by a moderator: the turn is posted again.
                    await self.storage.delivery.board_gone(table.id, table.board_message_id)
                    fresh = await self.storage.games.get_game(table.id)
                    return await self._board(fresh, game, state, drawn) if fresh is not None else result
            else:
                pings = people if table.turn_pings is None else [user for user in table.turn_pings if user in people]
                mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                                   users=[discord.Object(user) for user in pings])
                extra: dict[str, Any] = {"file": file} if file is not None else {}
                if view is not None:
                    extra["view"] = view
                posting = await self.storage.delivery.board_posting(table.id, table.turn_number)
                result = await self._request(lambda: channel.send(
                    text, allowed_mentions=mentions, nonce=nonce_for("board", table.id, posting), **extra))
                if not isinstance(result, Failure) and not shows_sent(result, text, view):
                    return await self._made_unseen(table, game, state, drawn, result, posting)
        if isinstance(result, Failure):
            return result
        await self._shown(table, result.id, table.version, table.turn_number)
        log.info("board game=%s channel=%s version=%s %s", table.id, table.channel_id, table.version,
                 "edited" if table.turn_posted and table.status == "active" else "posted")
        return result

    async def _turn_message(self, table: GameRow, game: Game, state: Any, drawn: Images, facts: BoardFacts | None
                            ) -> tuple[str, discord.File | None, discord.ui.View | None, list[int]]:
        """A turn's message: its text, picture and buttons, and whom it calls. `facts`: what it
        asks of the store, if read with `table` (else read now)."""
        lang = table_language(table)
        if facts is None:
            facts = BoardFacts(await self.content.deadline_line(table), await self.content.hint_offered(table))
        footer, people = self.content.footer(table, game, state, facts.deadline_line)
        text = turn_text(table.turn_lines, status_line(table, game, state), footer)
        board_view = game.view(state, None)
        if table.board_whole:  # `/game board`: the whole board where a game shows a part of it
            board_view = dict(board_view, landscape="whole")
        file = await self.content.image(board_view, table.names, "board.png", lang,
                                        self.content.alt_text(table, game, state, text),
                                        drawn=None if table.board_whole else drawn.get((None, lang)))
        view = self.content.components(table, game, state, hint=facts.hint)
        # bot.league: whom the turn calls read first what happened since their own last move,
        # in the phone lines the rest of the text leaves: the board stays high on a phone.
        room = max(0, presenter.PHONE_TEXT_LINES - presenter.phone_lines(text, presenter.mention_names(table)))
        if recap := await self.content.turn_recap(table, people, room):
            text = presenter.board_text([recap], "", text)
        return text, file, view, people

    async def _shown(self, table: GameRow, message_id: int, version: int | None, turn: int) -> None:
        turn_open, fields = await self.storage.delivery.board_shown(table, message_id=message_id, version=version,
                                                                    turn=turn)
        if fields is not None:
            self._board_fields[table.id] = fields
        if not turn_open:
            # A message of a turn that is over by now: it loses its buttons in another pass.
            log.info("board game=%s channel=%s message of turn %s shown after that turn ended: its buttons go",
                     table.id, table.channel_id, turn)
            self._again.add(table.id)

    async def _made_unseen(self, table: GameRow, game: Game, state: Any, drawn: Images, message: discord.Message,
                           posting: int) -> discord.Message | Failure:
        """Discord answered a new turn's post with a message it had made earlier under the same
        nonce, as it was then (its answer had been lost). Of the open turn: it is that turn's
        message, edited to the newest board. Of a turn that is over: it loses its buttons, and the
        open turn is posted."""
        log.info("board game=%s channel=%s post for turn %s had been made unseen (message %s)", table.id,
                 table.channel_id, posting, message.id)
        await self._shown(table, message.id, None, posting)
        fresh = await self.storage.games.get_game(table.id)
        if fresh is None or not fresh.board_owed:
            return message
        return await self._board(fresh, game, state, drawn)

    async def _channel_failed(self, table: GameRow, failure: Failure, what: str) -> Failure:
        log.warning("Could not deliver the %s of game %s in channel %s (version %s): %s; it stays owed",
                    what, table.id, table.channel_id, table.version, failure.reason)
        if failure.kind == "blocked":
            self._blocked[table.id] = table.guild_id
            await self._tell_host(table)
            return Failure("retry", failure.reason, after=self.backoff[-1], status=failure.status)
        if failure.kind == "archived":
            reopened = await self._request(lambda: self.client.http.edit_channel(
                table.channel_id, archived=False, reason=f"game {table.id} goes on here"))
            if not isinstance(reopened, Failure):
                log.info("The thread of game %s was archived: reopened", table.id)
                self._again.add(table.id)
                return failure
            if reopened.kind == "retry":
                return reopened
            log.warning("The thread of game %s is archived and the bot may not reopen it: %s", table.id,
                        reopened.reason)
            failure = Failure("gone", reopened.reason, what="channel", status=reopened.status)
        if failure.kind == "gone" and failure.what == "channel":
            for handler in self._channel_lost:
                if await handler(table):
                    log.info("The channel of game %s is lost: the game goes on elsewhere", table.id)
                    return Failure("retry", failure.reason, after=self.backoff[-1])
            log.warning("The channel of game %s is gone: the game is abandoned", table.id)
            await self.storage.delivery.channel_gone(table.id)
            return Failure("retry", failure.reason, after=0)
        if failure.kind == "refused":
            log.error("Discord refused the %s of game %s for good (%s): a bug; trying again later",
                      what, table.id, failure.reason)
            return Failure("retry", failure.reason, after=self.backoff[-1], status=failure.status)
        return failure

    async def _tell_host(self, table: GameRow) -> None:
        """Once per stretch of refusals: the host hears by DM what the bot may not do there."""
        if table.id in self._host_told:
            return
        self._host_told.add(table.id)
        channel = self.client.get_channel(table.channel_id)
        lang = await self.storage.games.language_of_user(table.host_id, table_language(table))
        missing: list[str] = []
        me = getattr(getattr(channel, "guild", None), "me", None)
        if isinstance(channel, (discord.abc.GuildChannel, discord.Thread)) and me is not None:
            missing = missing_permissions(channel.permissions_for(me), in_thread=isinstance(channel, discord.Thread))
        permissions = permission_names(missing, lang) if missing else i18n.t(lang, "bot.errors.perm.unknown")
        text = i18n.t(lang, "bot.errors.host_blocked", id=table.id, link=channel_url(table), permissions=permissions)
        dm = await self.dms.channels.open(table.host_id)
        if not isinstance(dm, Failure):
            await self._request(lambda: dm.send(text))

    async def _answer_movers(self, game_id: int, failure: Failure | None, known: GameRow | None = None, *,
                             board_read: GameRow | None = None) -> None:
        """Movers waiting to hear: told once when their move cannot be shown, and again once it is.
        `known`: the game as read at the pass's start (its board's fields are read anew);
        `board_read`: the game with its board's fields as the board shown in this pass left them."""
        watches = self._watches.get(game_id)
        if not watches:
            return
        table = board_read or (await self.storage.games.get_game(game_id) if known is None
                               else await self.storage.delivery.board_now(known))
        kept = []
        for watch in watches:
            if time.monotonic() - watch.since >= WATCH_LIFE:
                continue
            lang = i18n.language_of(getattr(watch.interaction, "locale", None))
            if failure is None and table is not None and not table.board_owed:
                if watch.told:
                    text = i18n.t(lang, "bot.errors.move_shown_now", version=watch.version,
                                  link=board_url(table) or channel_url(table))
                    self.requests += 1
                    await self.answers.tell(watch.interaction, text)
                continue
            if failure is not None and not watch.told:
                watch.told = True
                text = i18n.t(lang, "bot.errors.move_not_shown_yet", version=watch.version,
                              problem=failure.reason if failure.kind != "blocked"
                              else i18n.t(lang, "bot.errors.not_allowed_there"))
                self.requests += 1
                await self.answers.tell(watch.interaction, f"⚠️ {text}")
            kept.append(watch)
        if kept:
            self._watches[game_id] = kept
        else:
            self._watches.pop(game_id, None)

    # ----------------------------------------------------------------------- helpers

    async def _request(self, call: Callable[[], Awaitable[T]]) -> T | Failure:
        self.requests += 1
        return self._heard(await attempt(call))

    async def _edit(self, message: discord.PartialMessage, **fields: Any) -> Any:
        """Edit a message: as the answer to a click made on it, when one waits (bot.delivery.answers).
        Not while an earlier edit of it may still land (it could land after this one): then it
        is owed still, and its game is kicked once that edit is over."""
        waiting = await self.answers.settle(message.id)
        if waiting is not None:
            if (game_id := _passing.get()) is not None:
                self._waiting_to_edit.setdefault(message.id, set()).add(game_id)
            return Failure("retry", "an earlier edit of the message is still under way", after=max(waiting, 0.5))
        self.requests += 1
        return self._heard(await self.answers.edit(message, **fields))

    def _landed(self, message_id: int) -> None:
        """Every edit of the message under way is over: the games waiting to edit it go on."""
        for game_id in self._waiting_to_edit.pop(message_id, ()):
            self.kick(game_id)

    def _heard(self, result: R) -> R:
        if not isinstance(result, Failure) or not result.discord_trouble:
            self._wake_troubled()
        elif result.late:  # it may have been cancelled in discord.py's global wait
            release_global_wait(self.client)
        return result

    # A scheduler source (bot.scheduler): DMs refused earlier are tried again when due.
    async def next_due(self) -> float | None:
        return await self.storage.delivery.dms_next_retry()

    async def run_due(self, now: float) -> None:
        for game_id in await self.storage.delivery.dms_due(int(now)):
            self.kick(game_id)


def _name(key: Key) -> str:
    return f"game {key}" if isinstance(key, int) else f"the {key[0]} message {key[1]}"


def _uncancel() -> None:
    """The running task was cancelled by a kick, not by the stop: it goes on."""
    task = asyncio.current_task()
    if task is None:
        raise RuntimeError("a delivery runs in a task of its own")
    task.uncancel()


def _has_state_of(table: GameRow, version: int) -> bool:
    """Whether the game as read has the state a DM owed for `version` shows."""
    return table.has_state and version <= table.version
