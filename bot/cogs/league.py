"""The league (bot.league): `/game leaderboard` by rating, `/game recap`, and
`/game overview here|off` (Manage Server)."""
from __future__ import annotations

import discord
from discord import app_commands

import i18n
from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_channel, require_guild
from bot.errors import Refusal, reply_ephemeral
from bot.league.league import League
from bot.locale import user_language
from bot.tables import Tables


def game_named(games, typed: str, lang: str) -> str:
    """The engine name for what the user typed (its name or its title in either language)."""
    wanted = typed.strip().lower()
    for name, game in games.items():
        titles = {i18n.translate(i18n.game_title(game), language).lower() for language in i18n.LANGUAGES}
        if wanted in ({name, game.title.lower()} | titles):
            return name
    raise Refusal(i18n.t(lang, "bot.records.unknown_game", name=typed.strip()[:40], known=", ".join(sorted(games))))


class LeagueCog(FeatureCog):
    def __init__(self, group: app_commands.Group, tables: Tables, league: League) -> None:
        super().__init__(group, tables)
        self.league = league

    overview = app_commands.Group(name="overview", description="One message in a channel listing the server's games",
                                  extras={"group": "game"})

    @game_subcommand("leaderboard", "The best players of a game on this server, by rating")
    @app_commands.describe(game="Which game")
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        guild_id = require_guild(interaction)
        lang = user_language(interaction)
        name = game_named(self.tables.games, game, lang)
        text = await self.league.leaderboard(guild_id, name, interaction.user.id, self.league.title(name, lang),
                                                 lang)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @leaderboard.autocomplete("game")
    async def leaderboard_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.tables, current, user_language(interaction))

    @game_subcommand("recap", "What happened in this channel's game since your last move (only for you)")
    async def recap(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        table = await self.tables.active_table_in(channel_id)
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal.of("bot.errors.not_playing")
        await reply_ephemeral(interaction, await self.league.recap(table, seat, lang))

    @overview.command(name="here", description="Keep the list of this server's games in this channel (Manage Server)")
    async def overview_here(self, interaction: discord.Interaction) -> None:
        guild_id, channel_id = require_guild(interaction), require_channel(interaction)
        lang = user_language(interaction)
        self._check_manager(interaction, lang)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.league.overviews.place(guild_id, channel_id, lang)
        await reply_ephemeral(interaction, i18n.t(lang, "bot.league.overview_placed"))

    @overview.command(name="off", description="No more list of this server's games (Manage Server)")
    async def overview_off(self, interaction: discord.Interaction) -> None:
        guild_id = require_guild(interaction)
        lang = user_language(interaction)
        self._check_manager(interaction, lang)
        await interaction.response.defer(ephemeral=True, thinking=True)
        removed = await self.league.overviews.remove(guild_id)
        await reply_ephemeral(interaction, i18n.t(lang, "bot.league.overview_removed" if removed
                                                  else "bot.league.overview_none_kept"))

    @staticmethod
    def _check_manager(interaction: discord.Interaction, lang: str) -> None:
        if not (interaction.permissions and interaction.permissions.manage_guild):
            raise Refusal(i18n.t(lang, "bot.league.overview_not_allowed"))
