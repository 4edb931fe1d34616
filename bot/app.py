"""The bot object: start-up wiring shared by `python -m bot`, the tests and the benchmarks."""
from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Mapping

import discord
from discord import app_commands
from discord.ext import commands

from games import REGISTRY
from games.core import Game
from renderers import render_png

from bot.announce import Announcer, Renderer
from bot.cogs.days import DaysCog
from bot.cogs.endings import EndingsCog
from bot.cogs.info import InfoCog
from bot.cogs.lobby import LobbyCog
from bot.cogs.play import PlayCog
from bot.cogs.records import RecordsCog
from bot.components import ALL_DYNAMIC_ITEMS
from bot.days import Days
from bot.errors import report_error
from bot.scheduler import Clock, Scheduler
from bot.service import GameService
from bot.postgres import open_storage
from bot.storage import Storage
from bot.translator import CatalogueTranslator

log = logging.getLogger(__name__)

FEATURE_COGS = (LobbyCog, PlayCog, InfoCog, EndingsCog, RecordsCog, DaysCog)


class GameTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)


class GameBot(commands.Bot):
    def __init__(
        self,
        *,
        database_path: str | Path,
        games: Mapping[str, Game],
        seed_source: random.Random,
        render: Renderer,
        dev_guild_id: int | None = None,
        clock: Clock | None = None,
        **shards: object,
    ) -> None:
        super().__init__(
            **shards,
            command_prefix=commands.when_mentioned,  # slash commands only; no message content needed
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            # Everything the bot needs is in the database and in each interaction's payload;
            # a cache of recent messages would only cost memory on a small VPS.
            max_messages=None,
        )
        self.database_path = database_path
        self.games = dict(games)
        self.seed_source = seed_source
        self.render = render
        self.dev_guild_id = dev_guild_id
        # Not guild_only: `/game mine` answers in DMs too; the others refuse there (require_guild).
        self.game_group = app_commands.Group(name="game", description="Board games in this channel")
        self.storage: Storage | None = None
        self.service: GameService | None = None
        self.scheduler = Scheduler(clock)  # bot.days: the one scheduler for every timer
        self.days: Days | None = None

    async def setup_hook(self) -> None:
        self.storage = await open_storage(str(self.database_path))
        announcer = Announcer(self, self.storage, self.render)
        self.service = GameService(self, self.storage, self.games, self.seed_source, announcer)
        self.days = Days(self, self.storage, self.scheduler)
        await self.days.load()
        # Persistent components: any custom_id matching a template is routed, even after a restart.
        self.add_dynamic_items(*ALL_DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogueTranslator())  # command names in German and English
        self.tree.add_command(self.game_group)
        for cog in FEATURE_COGS:
            await self.add_cog(cog(self))
        await self.sync_commands()
        self.scheduler.start()  # handles at once whatever fell due while the bot was down

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
        try:
            await super().close()
        finally:
            await self.close_storage()

    async def close_storage(self) -> None:
        await self.scheduler.stop()
        if self.storage is not None:
            await self.storage.close()


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
) -> GameBot:
    """Build the bot.

    games: engines by name (default: `games.REGISTRY`).
    seed_source: where seat orders and game seeds come from (default: the OS's SystemRandom;
      tests pass `random.Random(n)` for a reproducible game).
    render: `(view, names, lang) -> PNG bytes` (default: `renderers.render_png`).
    shard_count, shard_ids: run as these shards of `shard_count` (see docs/scaling.md).
    clock: the scheduler's clock (tests pass a fake one).
    """
    settings = dict(
        database_path=database_path,
        games=REGISTRY if games is None else games,
        seed_source=seed_source or random.SystemRandom(),
        render=render or render_png,
        dev_guild_id=dev_guild_id,
        clock=clock,
    )
    if shard_count:
        return ShardedGameBot(**settings, shard_count=shard_count, shard_ids=shard_ids)
    return GameBot(**settings)
