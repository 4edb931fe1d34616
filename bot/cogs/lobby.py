"""Opening a table: `/game new`. Join / Leave / Start live on the lobby message (bot.components)."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_guild
from bot.errors import Refusal, in_thread, missing_permissions, permission_names, reply_ephemeral
from bot.locale import user_language


class LobbyCog(FeatureCog):
    @game_subcommand("new", "Open a table for a game in this channel or thread")
    @app_commands.describe(game="Which game to play",
                           options="Table options, e.g. rounds=3 (see /game rules)")
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        guild_id = require_guild(interaction)
        # Before anything is stored: a table the bot cannot post boards to would stall at once.
        missing = missing_permissions(interaction.app_permissions, in_thread=in_thread(interaction))
        if missing:
            raise Refusal.of("bot.errors.new_missing_permissions",
                             permissions=permission_names(missing, user_language(interaction)))
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.service.open_lobby(
            interaction.channel, guild_id=guild_id, channel_id=interaction.channel_id, host=interaction.user,
            game_name=game, options_text=options,
        )
        await reply_ephemeral(
            interaction,
            f"Table open (game #{table.id}). Others press **Join**; you press **Start** when everyone is in.",
        )

    @new.autocomplete("game")
    async def new_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.service, current)
