"""The bot object: start-up wiring shared by `python -m bot`, the tests and the benchmarks."""
from __future__ import annotations

import asyncio
import logging
import random
import signal
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.days import DaysCog
from bot.cogs.endings import EndingsCog
from bot.cogs.info import InfoCog
from bot.cogs.league import LeagueCog
from bot.cogs.lobby import LobbyCog
from bot.cogs.play import PlayCog
from bot.cogs.records import RecordsCog
from bot.collector import QuietCollector
from bot.components import ALL_DYNAMIC_ITEMS
from bot.days.absence import Absence
from bot.days.hints import Hints
from bot.days.orders import Orders
from bot.days.reminders import Reminders
from bot.days.seats import ComputerSeats
from bot.days.timers import Timers
from bot.days.undo import TakingBack
from bot.delivery.content import Content, Renderer
from bot.delivery.follow import DiscordChanges
from bot.delivery.worker import Deliveries
from bot.errors import quiet_autocomplete_trouble, report_error
from bot.info import Info
from bot.league.league import League
from bot.moves import Moves
from bot.postgres import open_storage
from bot.records import EndMessages
from bot.scheduler import Clock, Scheduler
from bot.storage.archive import Archive
from bot.store import Storage
from bot.tables import Tables
from bot.timing import Durations
from bot.tournaments.commands import TournamentCog
from bot.tournaments.runner import Tournaments
from bot.translator import CatalogueTranslator
from games import REGISTRY
from games.core import Game
from renderers import BoardRenderer

log = logging.getLogger(__name__)

STOP_TIMEOUT = 10.0   # a clean stop (SIGTERM) ends within this many seconds
DRAIN_SHARE = 0.6     # of which waiting for moves under way may take this share
BACKUP_KEEP = 7
BACKUP_PATTERN = "bot-*.sqlite3"

FEATURE_COGS = (LobbyCog, PlayCog, InfoCog, EndingsCog, RecordsCog, DaysCog, LeagueCog, TournamentCog)

Part = TypeVar("Part")


def wired(part: Part | None, name: str) -> Part:
    """A part of the bot that `GameBot.setup_hook` wires once the storage is open: asked for
    earlier, a clear error instead of a None that fails further on."""
    if part is None:
        raise RuntimeError(f"The bot's {name} is wired in setup_hook, which has not run yet")
    return part


class GameTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class GameBot(commands.Bot):
    # With several processes (shards) on one database, how often (seconds) a process looks for
    # boards owed in its servers for moves another process applied (a DM click reaches any).
    owed_board_every = 2.0

    def __init__(
        self,
        *,
        database_path: str | Path,
        games: Mapping[str, Game],
        seed_source: random.Random,
        render: Renderer,
        dev_guild_id: int | None = None,
        clock: Clock | None = None,
        durations: Durations | None = None,
        backup_dir: str | Path | None = None,
        backup_every: float | None = None,
        backup_keep: int = BACKUP_KEEP,
        handle_signals: bool = False,
        collect_when_quiet: bool = False,
        archive_days: float = 0.0,
        **shards: Any,
    ) -> None:
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,  # slash commands only; no message content needed
            intents=bot_intents(),
            # No member lists: interactions carry the member who acts; the bot's own member is
            # cached whatever this says (for its permissions in a channel).
            member_cache_flags=discord.MemberCacheFlags.none(),
            chunk_guilds_at_startup=False,
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            # Everything the bot needs is in the database and in each interaction's payload;
            # a cache of recent messages would only cost memory on a small VPS.
            max_messages=None,
            # A rate limit longer than this is not slept out inside a request: the delivery
            # worker tries again after Discord's retry_after, and the game's other work goes on.
            max_ratelimit_timeout=30.0,
        )
        quiet_autocomplete_trouble()
        self.database_path = database_path
        self.games = dict(games)
        self.seed_source = seed_source
        self.render = render
        self.dev_guild_id = dev_guild_id
        # Not guild_only: `/game mine` answers in DMs too; the others refuse there (require_guild).
        self.game_group = app_commands.Group(name="game", description="Board games in this channel")
        self._storage: Storage | None = None
        self.scheduler = Scheduler(clock)  # the one scheduler for every timer, on the one clock
        self.durations = durations or Durations()  # every wait of game time (bot.timing)
        self.collector = QuietCollector() if collect_when_quiet else None
        # The bot's parts, wired in setup_hook: commands and components reach them through the
        # properties below (`wired`), which refuse to answer before then.
        self._moves: Moves | None = None
        self._deliveries: Deliveries | None = None
        self._tables: Tables | None = None
        self._info: Info | None = None
        self._seats: ComputerSeats | None = None
        self._hints: Hints | None = None
        self._absence: Absence | None = None
        self._taking_back: TakingBack | None = None
        self._orders: Orders | None = None
        self._league: League | None = None
        self._tournaments: Tournaments | None = None
        self.backup_dir = None if backup_dir is None else Path(backup_dir)
        self.backup_every = backup_every  # seconds; None: no automatic back-ups
        self.backup_keep = backup_keep
        self.handle_signals = handle_signals
        self.collect_when_quiet = collect_when_quiet
        self.archive_days = archive_days  # finished games older than this are archived (0: never)
        self._backup_task: asyncio.Task | None = None
        self._stopping = False
        self._owed_check_at = 0.0

    @property
    def storage(self) -> Storage:
        return wired(self._storage, "storage")

    @property
    def moves(self) -> Moves:
        return wired(self._moves, "move pipeline")

    @property
    def deliveries(self) -> Deliveries:
        return wired(self._deliveries, "delivery worker")

    @property
    def tables(self) -> Tables:
        return wired(self._tables, "tables")

    @property
    def info(self) -> Info:
        return wired(self._info, "info")

    @property
    def seats(self) -> ComputerSeats:
        return wired(self._seats, "computer seats")

    @property
    def hints(self) -> Hints:
        return wired(self._hints, "hints")

    @property
    def absence(self) -> Absence:
        return wired(self._absence, "absence")

    @property
    def taking_back(self) -> TakingBack:
        return wired(self._taking_back, "taking back")

    @property
    def orders(self) -> Orders:
        return wired(self._orders, "standing orders")

    @property
    def league(self) -> League:
        return wired(self._league, "league")

    @property
    def tournaments(self) -> Tournaments:
        return wired(self._tournaments, "tournaments")

    async def setup_hook(self) -> None:
        self._storage = storage = await open_storage(str(self.database_path))
        self.wire(storage)
        # Persistent components: any custom_id matching a template is routed, even after a restart.
        self.add_dynamic_items(*ALL_DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogueTranslator())  # command names in German and English
        self.tree.add_command(self.game_group)
        for cog in FEATURE_COGS:
            await self.add_cog(cog(self))
        await self.sync_commands()
        await self.add_cog(DiscordChanges(storage, self.deliveries))
        counts = await storage.games.count_open()
        log.info("Start-up: %d games being played, %d lobbies open (database %s)",
                 counts["active"], counts["lobby"], self.database_path)
        # What was owed to Discord when the bot stopped (a crash, Discord refusing) goes out now.
        owed = await self.deliveries.start()
        if owed:
            log.info("Start-up: delivering what %d game(s) owe since the last stop", owed)
        if self.backup_every is not None and self.backup_dir is not None:
            self._backup_task = asyncio.create_task(self._backup_loop(self.backup_every), name="daily-backup")
        if self.handle_signals:
            self.install_signal_handlers()
        if getattr(self, "shard_ids", None) is not None:  # other processes serve the other shards
            self.scheduler.add_source(self._next_owed_check, self._check_owed_boards)
        self.scheduler.start()  # handles at once whatever fell due while the bot was down
        if self.collector is not None:
            self.collector.freeze_start_up()

    def wire(self, storage: Storage) -> None:
        """The bot's parts and who follows whom: the move pipeline (bot.moves) with its
        listeners, the delivery worker (bot.delivery), and the features around them."""
        content = Content(self, storage, self.render)
        end_messages = EndMessages(content, storage)
        self._deliveries = deliveries = Deliveries(self, storage, self.games, content, owns_guild=self.owns_guild,
                                                   end_message=end_messages, now=self.scheduler.clock.now,
                                                   durations=self.durations)
        self._moves = moves = Moves(storage, self.games, deliveries, self.collector)
        timers = Timers(storage, self.scheduler, self.durations)
        moves.listen(timers)
        self._seats = seats = ComputerSeats(storage, moves, deliveries)
        reminders = Reminders(self, storage, moves, deliveries, timers.now, self.durations)
        self._orders = orders = Orders(storage, moves)
        content.standing_orders = orders.of
        timers.handlers = {"reminder": reminders.remind, "deadline": seats.timed_out,
                           "computer": seats.move, "react": orders.window_closed}
        self._hints = hints = Hints(storage, moves, seats.check_person)
        content.deadline_line = timers.deadline_line
        content.hint_offered = hints.offered
        content.seat_left = seats.seat_left
        self._tables = tables = Tables(storage, self.games, moves, seats, self.seed_source)
        self._info = Info(storage, moves, tables, content, deliveries, seats, timers)
        self._absence = Absence(storage, moves, deliveries, timers)
        self._taking_back = TakingBack(storage, moves)
        self.scheduler.add_source(deliveries.next_due, deliveries.run_due)
        if self.archive_days > 0:
            archive = Archive(storage.games, self.archive_days, self.scheduler.clock.now)
            self.scheduler.add_source(archive.next_due, archive.run_due)
        # The league (bot.league): ratings rated in the change that ends a game, shown in its end
        # message; the server's overview message and its worker; the recap atop a turn message.
        self._league = league = League(self, storage, self.games, owns_guild=self.owns_guild,
                                       sharded=getattr(self, "shard_ids", None) is not None)
        moves.listen(league.listener)
        deliveries.end_message = league.end_message(end_messages)
        content.turn_recap = league.turn_recap
        self.scheduler.add_source(league.overviews.next_due, league.overviews.run_due)
        # Tournaments (bot.tournaments): rounds that run themselves, a table's result stored with the
        # change that ends its game, tables past their time ended by the rule, one message each.
        self._tournaments = Tournaments(self, storage, self.games, moves, seats, self.scheduler,
                                        self.durations, self.seed_source, owns_guild=self.owns_guild,
                                        sharded=getattr(self, "shard_ids", None) is not None)
        # The messages kept current beside the games' run in the delivery worker's loop.
        deliveries.keep(league.overviews, self._tournaments.messages)
        deliveries.on_channel_lost(self._tournaments.thread_lost)  # a table's thread deleted: a new one

    def install_signal_handlers(self) -> None:
        """SIGTERM (systemd stop, a deploy) and SIGINT stop cleanly: see `close`."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(signum, self._on_signal, signum)
            except (NotImplementedError, RuntimeError):  # not the main thread, or Windows
                log.debug("Cannot handle signal %s here", signum)

    def _on_signal(self, signum: int) -> None:
        log.info("Received %s: finishing moves under way, then stopping", signal.Signals(signum).name)
        asyncio.create_task(self.close(), name="clean-stop")

    # -------------------------------------------------------------------- back-ups

    def backups(self) -> list[Path]:
        """The automatic back-ups, oldest first."""
        if self.backup_dir is None or not self.backup_dir.is_dir():
            return []
        return sorted(self.backup_dir.glob(BACKUP_PATTERN))

    async def backup_now(self) -> Path:
        """One online back-up (the bot keeps playing), then only the newest `backup_keep` kept."""
        if self.backup_dir is None:
            raise RuntimeError("No back-up directory was given (create_bot(backup_dir=...))")
        target = self.backup_dir / backup_name()
        started = time.monotonic()
        await self.storage.backup(target)
        for old in self.backups()[:-self.backup_keep]:
            old.unlink(missing_ok=True)
        log.info("Back-up written to %s in %.0f ms (keeping the newest %d)", target,
                 (time.monotonic() - started) * 1000, self.backup_keep)
        return target

    async def _backup_loop(self, every: float) -> None:
        while True:
            newest = self.backups()[-1:] or None
            age = time.time() - newest[0].stat().st_mtime if newest else None
            wait = 0.0 if age is None else max(0.0, every - age)
            await asyncio.sleep(wait)
            try:
                await self.backup_now()
            except Exception:
                log.exception("Back-up to %s failed; trying again in an hour", self.backup_dir)
                await asyncio.sleep(min(3600.0, every))

    async def _next_owed_check(self) -> float:
        return self._owed_check_at

    async def _check_owed_boards(self, now: float) -> None:
        """Deliver what games in this process's servers owe (moves applied by another process)."""
        deliveries = self._deliveries
        if now < self._owed_check_at or deliveries is None or deliveries.stopping:
            return
        self._owed_check_at = now + self.owed_board_every
        try:
            for game_id, guild_id in await self.storage.delivery.owed_games():
                if self.owns_guild(guild_id):
                    deliveries.kick(game_id)
        except Exception:
            log.exception("Looking for owed deliveries failed; trying again in %.0f s", self.owed_board_every)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves that server (always, unless the bot runs as shards):
        Discord routes a server to shard (guild_id >> 22) % shard_count."""
        shard_ids = getattr(self, "shard_ids", None)
        if not self.shard_count or shard_ids is None:
            return True
        return (guild_id >> 22) % self.shard_count in shard_ids

    async def sync_commands(self) -> None:
        shard_ids = getattr(self, "shard_ids", None)
        if shard_ids is not None and 0 not in shard_ids:
            return  # one process (the one with shard 0) registers the commands for all
        if self.dev_guild_id is not None:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), self.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands (they can take a while to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("Logged in as %s (%s); games: %s", self.user, getattr(self.user, "id", "?"),
                 ", ".join(sorted(self.games)))

    async def close(self) -> None:
        """A clean stop: refuse new moves, finish those under way, post owed boards, close the
        gateway and the database, all within STOP_TIMEOUT seconds."""
        if self._stopping:
            return await super().close()
        self._stopping = True
        started = time.monotonic()
        try:
            if self._backup_task is not None:
                self._backup_task.cancel()
            moves, deliveries = self._moves, self._deliveries
            if moves is not None and deliveries is not None and self._storage is not None:
                if not await moves.drain(STOP_TIMEOUT * DRAIN_SHARE):
                    log.warning("Stopping with moves still under way (they are stored whole or not at all)")
                left = STOP_TIMEOUT * 0.9 - (time.monotonic() - started)
                if not await deliveries.drain(left):
                    log.warning("Some deliveries were not made before stopping; they are made at the next start")
                await deliveries.stop()
            await super().close()
        finally:
            await self.close_storage()
            log.info("Stopped cleanly in %.1f s", time.monotonic() - started)

    async def close_storage(self) -> None:
        await self.scheduler.stop()
        if self._deliveries is not None:
            await self._deliveries.stop()
        if self._league is not None:
            await self._league.stop()
        if self._tournaments is not None:
            await self._tournaments.stop()
        if self._storage is not None:
            await self._storage.close()


def bot_intents() -> discord.Intents:
    """What the bot hears from the gateway, and so what discord.py keeps in memory: the servers
    with their channels and roles (names for DMs, permissions, channel updates) and the servers'
    message events (a deleted board is posted again). Nothing else: no typing, reactions,
    voice, emoji, invite or scheduled-event updates, no members (docs/scaling.md)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    return intents


def backup_name() -> str:
    """`bot-20261122-031500-123456.sqlite3` (UTC): names sort by age."""
    return datetime.now(UTC).strftime("bot-%Y%m%d-%H%M%S-%f.sqlite3")


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The same bot as several shards in one process, or some of the shards of a bigger bot
    (`SHARD_COUNT` and `SHARD_IDS`), each process serving its own servers."""


def create_bot(
    database_path: str | Path,
    *,
    games: Mapping[str, Game] | None = None,
    seed_source: random.Random | None = None,
    render: Renderer | None = None,
    dev_guild_id: int | None = None,
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
    clock: Clock | None = None,
    durations: Durations | None = None,
    backup_dir: str | Path | None = None,
    backup_every: float | None = None,
    backup_keep: int = BACKUP_KEEP,
    handle_signals: bool = False,
    collect_when_quiet: bool = False,
    archive_days: float = 0.0,
) -> GameBot:
    """Build the bot.

    games: engines by name (default: `games.REGISTRY`).
    seed_source: where seat orders and game seeds come from (default: the OS's SystemRandom;
      tests pass `random.Random(n)` for a reproducible game).
    render: `(view, names, lang) -> PNG bytes`, and optionally `.many(views, names, lang)` for
        several seats' views of one state (default: `renderers.BoardRenderer`).
    shard_count, shard_ids: run as these shards of `shard_count` (see docs/scaling.md).
    clock: the scheduler's clock (tests pass a fake one).
    durations: every wait of game time (`bot.timing.Durations`; tests and the soak shorten them).
    backup_dir / backup_every / backup_keep: automatic online back-ups (every `backup_every`
      seconds into `backup_dir`, keeping the newest `backup_keep`); none unless both are given.
    handle_signals: stop cleanly on SIGTERM/SIGINT (`python -m bot` sets it).
    collect_when_quiet: freeze what start-up loaded and make Python's full garbage collections
      between moves (`bot.collector`; `python -m bot` sets it, tests leave the process's collector
      alone).
    archive_days: archive finished games older than this many days (`bot.storage.archive`; 0: never).
    """
    settings: dict[str, Any] = dict(
        database_path=database_path,
        games=REGISTRY if games is None else games,
        seed_source=seed_source or random.SystemRandom(),
        render=render or BoardRenderer(),
        dev_guild_id=dev_guild_id,
        clock=clock,
        durations=durations,
        backup_dir=backup_dir,
        backup_every=backup_every,
        backup_keep=backup_keep,
        handle_signals=handle_signals,
        collect_when_quiet=collect_when_quiet,
        archive_days=archive_days,
    )
    if shard_count:
        return ShardedGameBot(**settings, shard_count=shard_count, shard_ids=shard_ids)
    return GameBot(**settings)
