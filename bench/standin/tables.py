"""Simulated players at tables: `/game new`, Join, Start, then whole games played by clicking
what the bot posts (any usable component of the newest board, of a player's DM, or of a
'My hand' reply; the bot refuses the bad ones). The bot's database is read (read-only) only
to know when a move was stored and when a game ended."""
from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.standin.botview import MOVE_ID, Control, controls, mentioned
from bench.standin.recorder import InteractionRecord
from bench.standin.server import Player, StandIn

UPDATE_MESSAGE = 7
TOGGLES_IN_ONE_STEP = 12  # a decision's toggles and its confirm clicked in one step, at most


class Store:
    """The bot's games as its database says, polled for the tables that wait on it."""

    def __init__(self, path: str | Path, every: float = 0.05) -> None:
        self.path = Path(path)
        self.every = every
        self._db: sqlite3.Connection | None = None
        self._waiters: list[tuple[int, Callable[[tuple], bool], asyncio.Future]] = []
        self._task: asyncio.Task | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        return self._db

    def rows(self, game_ids: list[int]) -> dict[int, tuple[int, str, int]]:
        """game id -> (version, status, board_owed)."""
        found = {}
        for start in range(0, len(game_ids), 500):
            part = game_ids[start:start + 500]
            marks = ",".join("?" * len(part))
            for game_id, version, status, owed in self._connection().execute(
                    f"SELECT id, version, status, board_owed FROM games WHERE id IN ({marks})", part):
                found[game_id] = (version, status, owed)
        return found

    def row(self, game_id: int) -> tuple[int, str, int] | None:
        return self.rows([game_id]).get(game_id)

    def latest_in(self, channel_id: int) -> int | None:
        found = self._connection().execute(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)).fetchone()
        return None if found is None else found[0]

    async def wait(self, game_id: int, holds: Callable[[tuple], bool], timeout: float) -> tuple | None:
        """The game's row once `holds(row)`, or None after `timeout` seconds."""
        future = asyncio.get_running_loop().create_future()
        self._waiters.append((game_id, holds, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._poll(), name="standin-store")
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            return None

    async def _poll(self) -> None:
        while self._waiters:
            self._waiters = [w for w in self._waiters if not w[2].done()]
            rows = self.rows(sorted({game_id for game_id, _, _ in self._waiters}))
            for game_id, holds, future in self._waiters:
                row = rows.get(game_id)
                if row is not None and holds(row) and not future.done():
                    future.set_result(row)
            await asyncio.sleep(self.every)

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


@dataclass
class Table:
    channel_id: int
    game: str
    players: list[Player]
    game_id: int | None = None
    moves: int = 0
    refused: int = 0
    toggles: int = 0
    unanswered: int = 0
    finished: bool = False
    stuck: str = ""
    records: list[InteractionRecord] = field(default_factory=list)
    _refused: set[tuple[int, str, str | None, int | None]] = field(default_factory=set)
    _actors: tuple[int, ...] = ()  # who the newest board names as acting
    _made_in_secret: set[tuple[int, str]] = field(default_factory=set)  # since _actors changed

    @property
    def host(self) -> Player:
        return self.players[0]


@dataclass(frozen=True)
class Candidate:
    player: Player
    message: dict
    control: Control
    secret: bool = False  # offered in a DM or a 'My hand' reply, not on the board

    @property
    def made_key(self) -> tuple[int, str]:
        """Who makes which kind of move (its action's verb: "ransom", "veto", ...)."""
        action = self.control.value if self.control.value is not None else MOVE_ID.sub("", self.control.custom_id)
        return self.player.id, action.split(" ", 1)[0]


class Tables:
    """Opens tables and plays them through a stand-in, reading the bot's database."""

    def __init__(self, standin: StandIn, database_path: str | Path, *, seed: int = 0,
                 answer_timeout: float = 30.0, move_timeout: float = 60.0) -> None:
        self.standin = standin
        self.world = standin.world
        self.store = Store(database_path)
        self.random = random.Random(seed)
        self.answer_timeout = answer_timeout
        self.move_timeout = move_timeout
        self._ephemeral: dict[int, list[dict]] = {}  # user id -> ephemeral messages they received

    # ------------------------------------------------------------------ opening

    async def open(self, channel_id: int, game: str, players: list[Player], **options: str) -> Table:
        """`/game new` by the first player, Join by the others, Start by the first: the table's
        first board is out when this returns."""
        table = Table(channel_id, game, players)
        new = await players[0].slash(channel_id, "game new", game=game, **options)
        table.records.append(new)
        await self._answered(new, table)
        lobby = await self._until(lambda: self._lobby_message(channel_id),
                                  lambda: f"the lobby message (the bot said {new.texts()})")
        table.game_id = next(c.game_id for c in controls(lobby) if c.is_lobby)
        for player in players[1:]:
            join = next(c for c in controls(lobby) if c.is_lobby and c.op == "join")
            record = await player.click(lobby, join)
            table.records.append(record)
            await self._answered(record, table)
            await self._until(lambda record=record: record.acked_at is not None and (
                record.ack_type != UPDATE_MESSAGE or record.original is not None), "Join")
        start = next(c for c in controls(lobby) if c.is_lobby and c.op == "start")
        record = await players[0].click(lobby, start, watch_channel=channel_id)
        table.records.append(record)
        await self._answered(record, table)
        row = await self.store.wait(table.game_id, lambda r: r[1] != "lobby" and r[2] == 0, self.move_timeout)
        if row is None or row[1] != "active":
            raise RuntimeError(f"the table in channel {channel_id} did not start: {row}; "
                               f"told {record.texts()}")
        # The lobby message loses its buttons once the first board is out.
        await self._until(lambda: not any(c.is_lobby for c in controls(lobby)), "the lobby closed")
        return table

    def _lobby_message(self, channel_id: int) -> dict | None:
        channel = self.world.channels[channel_id]
        for message in reversed(channel.messages.values()):
            if any(c.is_lobby and c.op == "join" for c in controls(message)):
                return message
        return None

    # ------------------------------------------------------------------ playing

    async def play(self, table: Table, moves: int | None = None, *, max_refusals: int = 60) -> Table:
        """Play until the game ends (or `moves` more moves are made)."""
        target = None if moves is None else table.moves + moves
        refusals_in_a_row = 0
        while not table.finished and (target is None or table.moves < target):
            outcome = await self.step(table)
            refusals_in_a_row = 0 if outcome == "moved" else refusals_in_a_row + 1
            if refusals_in_a_row >= max_refusals:
                table.stuck = f"no move after {max_refusals} tries (last: {outcome})"
                break
        return table

    async def step(self, table: Table) -> str:
        """One click by one player: "moved", "toggled", "refused", "nothing" or "unanswered".
        A toggle is a sub-step of that player's decision (which dice, which two cards): the same
        player then goes on clicking until the decision is made or refused, as a person would,
        so that a decision made only of toggles and a confirm (Die Glücksritter's secret two
        cards) is one step like any other game's move."""
        row = self.store.row(table.game_id)
        if row is None or row[1] != "active":
            table.finished = True
            return "finished"
        version = row[0]
        candidate = await self.choose(table, version)
        if candidate is None:
            await asyncio.sleep(0.1)  # the bot may be between two messages
            return "nothing"
        outcome = await self._click(table, candidate, version)
        for _ in range(TOGGLES_IN_ONE_STEP):
            if outcome != "toggled":
                break
            candidate = await self.choose(table, version, player=candidate.player)
            if candidate is None:
                break
            outcome = await self._click(table, candidate, version)
        return outcome

    async def _click(self, table: Table, candidate: Candidate, version: int) -> str:
        record = await candidate.player.click(candidate.message, candidate.control, watch_channel=table.channel_id)
        table.records.append(record)
        if not await self._answered(record, table):
            self.standin.recorder.stop_watching(record)
            return "unanswered"
        outcome = record.outcome = await self._outcome(table, record, version)
        if outcome != "moved":
            self.standin.recorder.stop_watching(record)
        if outcome == "refused":
            table.refused += 1
            table._refused.add((candidate.player.id, candidate.control.custom_id, candidate.control.value, version))
        elif outcome == "toggled":
            table.toggles += 1
        elif outcome == "moved" and candidate.secret:
            table._made_in_secret.add(candidate.made_key)
        return outcome

    async def _outcome(self, table: Table, record: InteractionRecord, version: int) -> str:
        """What came of a click: the move stored (the database's version went up), a refusal
        or a 'My hand' reply (an ephemeral message), or a toggle (the message updated)."""
        stored = asyncio.ensure_future(self.store.wait(
            table.game_id, lambda r: r[0] > version or r[1] != "active", self.move_timeout))
        try:
            while not stored.done():
                if record.ephemeral:
                    self._ephemeral.setdefault(record.user_id, []).extend(record.ephemeral)
                    return "refused" if not any(controls(m) for m in record.ephemeral) else "hand"
                if record.ack_type == UPDATE_MESSAGE:
                    # A move's click is answered with its message edited too (after the move is
                    # stored): it is a toggle only if the game did not change.
                    now = self.store.row(table.game_id)
                    if now is None or (now[0] == version and now[1] == "active"):
                        return "toggled"
                    break
                record.changed.clear()
                changed = asyncio.ensure_future(record.changed.wait())
                await asyncio.wait({stored, changed}, return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
            row = stored.result() if stored.done() else self.store.row(table.game_id)
        finally:
            stored.cancel()
        if row is None:
            return "unanswered"
        table.moves += 1
        # The channel's side is done once the board is no longer owed.
        row = await self.store.wait(table.game_id, lambda r: r[2] == 0, self.move_timeout) or row
        table.finished = row[1] != "active"
        await self._settle(table)
        return "moved"

    async def _settle(self, table: Table, quiet: float = 0.1, longest: float = 3.0) -> None:
        """After a stored move the bot still sends its DMs: wait until the table's channel and
        its players' DM channels have had no request for a moment (so the next click sees the
        newest messages)."""
        started = time.monotonic()
        channels = [table.channel_id, *(p.dm_channel_id() for p in table.players)]
        last_at = self.standin.recorder.last_request_at
        while (now := time.monotonic()) - started < longest:
            latest = max((last_at.get(channel, 0.0) for channel in channels if channel), default=0.0)
            if now - latest >= quiet:
                return
            await asyncio.sleep(quiet - (now - latest) + 0.005)

    async def choose(self, table: Table, version: int, player: Player | None = None) -> Candidate | None:
        """A candidate at random (of `player` only, if given)."""
        candidates = [c for c in self.candidates(table, version) if player is None or c.player is player]
        if not candidates:
            return None
        current = [c for c in candidates if c.control.version in (None, version)]
        pool = current or candidates
        weights = [1 if c.control.is_toggle else 6 for c in pool]  # toggles are sub-steps: confirm more often
        return self.random.choices(pool, weights)[0]

    def candidates(self, table: Table, version: int) -> list[Candidate]:
        """Every usable move component of the newest board and of each player's newest DM and
        'My hand' reply for this game ('My hand' itself when nothing else is offered)."""
        seated = {player.id: player for player in table.players}
        found: list[Candidate] = []
        hands: list[Candidate] = []
        board = self._newest_with(table.channel_id, table.game_id)
        if board is not None:
            actors = [seated[user_id] for user_id in mentioned(board) if user_id in seated] or table.players
        else:
            actors = table.players
        if (named := tuple(player.id for player in actors)) != table._actors:
            table._actors, table._made_in_secret = named, set()
        if board is not None:
            for control in controls(board):
                if control.game_id != table.game_id:
                    continue
                for player in actors:
                    if control.is_move:
                        found.append(Candidate(player, board, control))
                    elif control.custom_id.startswith("rk:hand:"):
                        hands.append(Candidate(player, board, control))
        for player in table.players:
            dm = player.dm_channel_id()
            message = self._newest_with(dm, table.game_id) if dm is not None else None
            for source in [message, *self._ephemeral.get(player.id, [])[-1:]]:
                for control in controls(source):
                    if control.game_id == table.game_id and control.is_move:
                        found.append(Candidate(player, source, control, secret=True))
        found = [c for c in found if (c.player.id, c.control.custom_id, c.control.value, version) not in table._refused]
        # A secret decision may offer flags a click turns on and off (Die Glücksritter's ransom,
        # documents to play): a player sets each once while the same seats are to act, not
        # again and again, so that the game goes on as people play it.
        found = [c for c in found if c.made_key not in table._made_in_secret] or found
        # Those the board names as acting move first: a seat done choosing may still take its
        # choice back (Die Glücksritter's "change"), which nobody keeps doing while others choose.
        acting = {player.id for player in actors}
        if found:
            return [c for c in found if c.player.id in acting] or found
        return [c for c in hands if (c.player.id, c.control.custom_id, None, version) not in table._refused]

    def _newest_with(self, channel_id: int, game_id: int | None) -> dict | None:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            return None
        for message in reversed(channel.messages.values()):
            if any(c.game_id == game_id for c in controls(message)):
                return message
        return None

    # ------------------------------------------------------------------ helpers

    async def _answered(self, record: InteractionRecord, table: Table) -> bool:
        try:
            await asyncio.wait_for(record.answered.wait(), self.answer_timeout)
            return True
        except TimeoutError:
            table.unanswered += 1
            return False

    async def _until(self, found: Callable[[], object], what: str | Callable[[], str], timeout: float = 30.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = found()
            if value:
                return value
            await asyncio.sleep(0.02)
        raise RuntimeError(f"waited {timeout:.0f} s for {what() if callable(what) else what}")

    def close(self) -> None:
        self.store.close()
