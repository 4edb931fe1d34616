"""The bot object: start-up wiring shared by `python -m bot`, the tests and the benchmarks."""
from __future__ import annotations

import asyncio
import logging
import math
import random
import signal
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict, Unpack

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
from bot.components import ALL_DYNAMIC_ITEMS, ClickRouter, Persistent, answering
from bot.delivery.content import Renderer
from bot.delivery.follow import DiscordChanges
from bot.errors import quiet_autocomplete_trouble, report_error
from bot.parts import Parts, PartSettings
from bot.postgres import open_storage
from bot.scheduler import Clock, Scheduler
from bot.timing import Durations
from bot.tournaments.buttons import CancelButton, SignupButton
from bot.tournaments.commands import TournamentCog
from bot.translator import CatalogueTranslator
from games import REGISTRY
from games.core import Game
from renderers import BoardRenderer

log = logging.getLogger(__name__)

STOP_TIMEOUT = 10.0   # a clean stop (SIGTERM) ends within this many seconds
DRAIN_SHARE = 0.6     # of which waiting for moves under way may take this share
BACKUP_KEEP = 7
BACKUP_PATTERN = "bot-*.sqlite3"


def feature_cogs(parts: Parts, group: app_commands.Group) -> list[commands.Cog]:
    """One cog per feature, each given the `/game` group and the parts its commands use."""
    tables = parts.tables
    return [
        LobbyCog(group, tables),
        PlayCog(group, tables, parts.moves, parts.info),
        InfoCog(group, tables, parts.info),
        EndingsCog(group, tables),
        RecordsCog(group, tables, parts.storage, parts.league, parts.tournaments),
        DaysCog(group, tables, parts.absence, parts.taking_back, parts.orders, parts.storage, parts.seats,
                parts.hints),
        LeagueCog(group, tables, parts.league),
        TournamentCog(group, tables, parts.tournaments),
    ]


def persistent_items(parts: Parts) -> tuple[Persistent, ...]:
    """Every persistent component, answering its clicks with the parts it uses: a click works
    after a restart, in a DM, or on an ephemeral reply (bot.components)."""
    return (*answering(ALL_DYNAMIC_ITEMS, clicks=parts.clicks),
            *answering((SignupButton, CancelButton), tournaments=parts.tournaments))


def discord_settings() -> dict[str, Any]:
    """What the bot asks of discord.py."""
    return dict(
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


RATE_LIMITS_SWEPT_EVERY = 60.0
"""Seconds between two of discord.py's sweeps of the rate limits it knows (`sweep_rate_limits_seldom`)."""


def sweep_rate_limits_seldom(http: Any, every: float = RATE_LIMITS_SWEPT_EVERY,
                             clock: Callable[[], float] = time.monotonic) -> None:
    """discord.py keeps a rate limit per route and channel, and forgets those unused for five
    minutes by looking through all it knows each time a route is first used in a channel while it
    knows 256 or more: at a hundred tables (a board channel and three DM channels each, a post
    and an edit route each) a look through some 600 at each channel's first post or edit, several
    a second while tables start, some 0.3 ms of the bot's CPU a move. Looking once a minute forgets
    the same ones, at most a minute later; no request changes. Another discord.py without the
    sweep keeps its own ways."""
    sweep = getattr(http, "_try_clear_expired_ratelimits", None)
    if sweep is None:
        return
    last = -math.inf

    def seldom() -> None:
        nonlocal last
        now = clock()
        if now - last >= every:
            last = now
            sweep()

    setattr(http, "_try_clear_expired_ratelimits", seldom)  # noqa: B010 - an instance's method replaced


UNREAD_MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE")
"""The gateway's message events the bot has no use for: the servers' message intent is there
for a deleted message (a board is posted again), and brings these too."""


def skip_unread_message_events(state: Any) -> None:
    """discord.py makes a Message of every message posted or edited in the bot's servers (its own
    boards included: some 0.9 a move at 100 tables) to hand to `on_message` and
    `on_message_edit`, which the bot does not listen to (slash commands and components only, no
    message cache, no view discord.py keeps): some 0.1-0.19 ms of the bot's CPU each. They are
    let go unread. Another discord.py without its table of event parsers keeps its own ways."""
    parsers = getattr(state, "parsers", None)
    if not isinstance(parsers, dict):
        return
    for event in UNREAD_MESSAGE_EVENTS:
        if event in parsers:
            parsers[event] = _unread


def _unread(data: Any) -> None:
    return None


class GameTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class BotOptions(TypedDict, total=False):
    """What `create_bot` builds the bot with besides its database; each may be left out.

    games: engines by name (default: `games.REGISTRY`).
    seed_source: where seat orders and game seeds come from (default: the OS's SystemRandom;
      tests pass `random.Random(n)` for a reproducible game).
    render: `(view, names, lang) -> PNG bytes`, and optionally `.many(views, names, lang)` for
        several seats' views of one state (default: `renderers.BoardRenderer`).
    dev_guild_id: the server the commands are synced to at once while developing.
    clock: the scheduler's clock (tests pass a fake one).
    durations: every wait of game time (`bot.timing.Durations`; tests and the soak shorten them).
    backup_dir / backup_every / backup_keep: automatic online back-ups (every `backup_every`
      seconds into `backup_dir`, keeping the newest `backup_keep`, default 7); none unless both
      `backup_dir` and `backup_every` are given.
    handle_signals: stop cleanly on SIGTERM/SIGINT (`python -m bot` sets it).
    collect_when_quiet: freeze what start-up loaded and make Python's full garbage collections
      between moves (`bot.collector`; `python -m bot` sets it, tests leave the process's collector
      alone).
    archive_days: archive finished games older than this many days (`bot.storage.archive`; 0: never).
    """
    games: Mapping[str, Game] | None
    seed_source: random.Random | None
    render: Renderer | None
    dev_guild_id: int | None
    clock: Clock | None
    durations: Durations | None
    backup_dir: str | Path | None
    backup_every: float | None
    backup_keep: int
    handle_signals: bool
    collect_when_quiet: bool
    archive_days: float


class GameBot(commands.Bot):
    # With several processes (shards) on one database, how often (seconds) a process looks for
    # boards owed in its servers for moves another process applied (a DM click reaches any).
    owed_board_every = 2.0

    def __init__(self, database_path: str | Path, options: BotOptions, **shards: Any) -> None:
        super().__init__(**shards, **discord_settings())
        sweep_rate_limits_seldom(self.http)
        skip_unread_message_events(self._connection)
        quiet_autocomplete_trouble()
        self.database_path = database_path
        games = options.get("games")
        self.games = dict(REGISTRY if games is None else games)
        self.seed_source = options.get("seed_source") or random.SystemRandom()
        self.render = options.get("render") or BoardRenderer()
        self.dev_guild_id = options.get("dev_guild_id")
        # Not guild_only: `/game mine` answers in DMs too; the others refuse there (require_guild).
        self.game_group = app_commands.Group(name="game", description="Board games in this channel")
        # the one scheduler for every timer, on the one clock
        self.scheduler = Scheduler(options.get("clock"))
        self.durations = options.get("durations") or Durations()  # every wait of game time (bot.timing)
        self.collect_when_quiet = options.get("collect_when_quiet", False)
        self.collector = QuietCollector() if self.collect_when_quiet else None
        # The bot's parts (bot.parts), built once the storage is open (setup_hook): a Discord
        # client exists before its event loop runs, its database connection only within it.
        self.parts: Parts | None = None
        self.click_router: ClickRouter | None = None  # with the parts its items answer with
        backup_dir = options.get("backup_dir")
        self.backup_dir = None if backup_dir is None else Path(backup_dir)
        self.backup_every = options.get("backup_every")  # seconds; None: no automatic back-ups
        self.backup_keep = options.get("backup_keep", BACKUP_KEEP)
        self.handle_signals = options.get("handle_signals", False)
        # finished games older than this are archived (0: never)
        self.archive_days = options.get("archive_days", 0.0)
        self._backup_task: asyncio.Task | None = None
        self._stopping = False
        self._owed_check_at = 0.0

    async def setup_hook(self) -> None:
        storage = await open_storage(str(self.database_path))
        try:
            self.parts = parts = Parts.build(self, storage, self.part_settings())
        except BaseException:
            await storage.close()  # the bot has no parts to close it with
            raise
        # Persistent components: any custom_id matching a template is routed, even after a restart.
        self.click_router = ClickRouter(persistent_items(parts))
        await self.tree.set_translator(CatalogueTranslator())  # command names in German and English
        self.tree.add_command(self.game_group)
        for cog in feature_cogs(parts, self.game_group):
            await self.add_cog(cog)
        await self.sync_commands()
        await self.add_cog(DiscordChanges(storage, parts.deliveries))
        counts = await storage.games.count_open()
        log.info("Start-up: %d games being played, %d lobbies open (database %s)",
                 counts["active"], counts["lobby"], self.database_path)
        # What was owed to Discord when the bot stopped (a crash, Discord refusing) goes out now.
        owed = await parts.deliveries.start()
        if owed:
            log.info("Start-up: delivering what %d game(s) owe since the last stop", owed)
        if self.backup_every is not None and self.backup_dir is not None:
            self._backup_task = asyncio.create_task(self._backup_loop(self.backup_every), name="daily-backup")
        if self.handle_signals:
            self.install_signal_handlers()
        if self.sharded:  # other processes serve the other shards
            self.scheduler.add_source(self._next_owed_check, self._check_owed_boards)
        self.scheduler.start()  # handles at once whatever fell due while the bot was down
        if self.collector is not None:
            self.collector.defer_while(parts.deliveries.delivering)
            self.collector.freeze_start_up()

    @property
    def sharded(self) -> bool:
        """Whether other processes serve other shards of the bot (`shard_ids` given)."""
        return getattr(self, "shard_ids", None) is not None

    def part_settings(self) -> PartSettings:
        """What the bot's parts are built with (bot.parts), besides the client and the store."""
        return PartSettings(games=self.games, render=self.render, scheduler=self.scheduler, durations=self.durations,
                            seed_source=self.seed_source, collector=self.collector, owns_guild=self.owns_guild,
                            sharded=self.sharded, archive_days=self.archive_days)

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
        if self.parts is None:
            raise RuntimeError("The database is opened when the bot starts (setup_hook)")
        target = self.backup_dir / backup_name()
        started = time.monotonic()
        await self.parts.storage.backup(target)
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
        parts = self.parts
        if now < self._owed_check_at or parts is None or parts.deliveries.stopping:
            return
        deliveries = parts.deliveries
        self._owed_check_at = now + self.owed_board_every
        try:
            for game_id, guild_id in await parts.storage.delivery.owed_games():
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

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A click on a persistent component (`ClickRouter`); discord.py answers the rest."""
        if self.click_router is not None:
            await self.click_router.route(interaction)

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
            if self.parts is not None:
                moves, deliveries = self.parts.moves, self.parts.deliveries
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
        if self.parts is not None:
            await self.parts.stop()
            await self.parts.storage.close()


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


def create_bot(database_path: str | Path, *, shard_count: int | None = None, shard_ids: list[int] | None = None,
               **options: Unpack[BotOptions]) -> GameBot:
    """Build the bot on the database at `database_path` (see `BotOptions` for the options).

    shard_count, shard_ids: run as these shards of `shard_count` (see docs/scaling.md).
    """
    if shard_count:
        return ShardedGameBot(database_path, options, shard_count=shard_count, shard_ids=shard_ids)
    return GameBot(database_path, options)
