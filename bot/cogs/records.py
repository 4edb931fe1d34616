"""Records and replays: `/game stats`, `/game export`; and remembering the language each user last
spoke to the bot in (for DMs sent to them later). `/game leaderboard` ranks by rating: bot.cogs.league."""
from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot import records
from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_channel, require_guild
from bot.errors import Refusal, reply_ephemeral
from bot.league.league import League
from bot.locale import user_language
from bot.store import Storage
from bot.tables import Tables
from bot.tournaments.runner import Tournaments

log = logging.getLogger(__name__)


class RecordsCog(FeatureCog):
    def __init__(self, group: app_commands.Group, tables: Tables, storage: Storage, league: League,
                 tournaments: Tournaments) -> None:
        super().__init__(group, tables)
        self.storage = storage
        self.league = league
        self.tournaments = tournaments
        self._known_language: dict[int, str] = {}  # what is stored already: a write only on a change

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction tells us the user's Discord language; keep it for later DMs."""
        lang = user_language(interaction)
        user_id = interaction.user.id
        if self._known_language.get(user_id) == lang:  # the cog is added once the storage is open
            return
        self._known_language[user_id] = lang
        try:
            await self.storage.games.remember_language(user_id, lang)
        except Exception:
            self._known_language.pop(user_id, None)
            log.warning("Could not remember the language of user %s", user_id, exc_info=True)

    def _title(self, name: str) -> str:
        return self.tables.engine(name).title

    def _game_name(self, typed: str, lang: str) -> str:
        wanted = typed.strip().lower()
        for name, game in self.tables.games.items():
            if wanted in (name, game.title.lower()):
                return name
        known = ", ".join(sorted(self.tables.games))
        raise Refusal(i18n.t(lang, "bot.records.unknown_game", name=typed.strip()[:40], known=known))

    @game_subcommand("stats", "Games played, won, win rate, average score and rating on this server")
    @app_commands.describe(player="Whose records (default: yours)", game="Only this game")
    async def stats(self, interaction: discord.Interaction, player: discord.Member | None = None,
                    game: str | None = None) -> None:
        guild_id = require_guild(interaction)
        lang = user_language(interaction)
        name = None if game is None else self._game_name(game, lang)
        who = player or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        # Practice tables (the asker against the computer) count for nobody's records.
        storage = self.storage
        results = await storage.games.results_in_guild(guild_id, name, leave_out=await storage.days.practice_tables())
        mine = records.player_records(results, who.id, name)
        titles = {key: self._title(key) for key in {r.game for r in mine}}
        text = records.stats_text(mine, who.display_name, titles, lang)
        # bot.league: the player's ratings, and a chart of their rating over the games.
        ratings, chart = await self.league.stats(guild_id, who, name, lang)
        # bot.tournaments: the tournaments they played and won.
        tournaments = self.tournaments
        played = [] if tournaments is None else await tournaments.stats_lines(guild_id, who.id, name, lang)
        await reply_ephemeral(interaction, "\n".join([text, *ratings, *played]), **({"file": chart} if chart else {}))

    @stats.autocomplete("game")
    async def game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.tables, current, user_language(interaction))

    @game_subcommand("export", "This channel's game as a replay file (no seed while it runs)")
    async def export(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        storage = self.storage
        table = await storage.games.open_game_in(channel_id) or await storage.games.latest_game_in(channel_id)
        if table is None or table.seed is None:
            raise Refusal(i18n.t(lang, "bot.records.export_none"))
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = self.tables.engine(table.game)
        actions = await storage.games.actions(table.id)
        data, file = await asyncio.to_thread(records.export_file, table, game, actions)
        key = "bot.records.export_done" if data["complete"] else "bot.records.export_running"
        await interaction.followup.send(i18n.t(lang, key, id=table.id, game=i18n.game_title(game), file=file.filename),
                                        file=file, ephemeral=True)
