"""Opening a table: `/game new`. Join / Leave / Start live on the lobby message (bot.components)."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_guild


class LobbyCog(FeatureCog):
    @game_subcommand("new", "Open a table for a game in this channel or thread")
    @app_commands.describe(game="Which game to play",
                           options="Table options, e.g. rounds=3 (see /game rules)")
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None) -> None:
        guild_id = require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.service.open_lobby(
            interaction.channel, guild_id=guild_id, channel_id=interaction.channel_id, host=interaction.user,
            game_name=game, options_text=options,
        )
        await interaction.followup.send(
            f"Table open (game #{table.id}). Others press **Join**; you press **Start** when everyone is in.",
            ephemeral=True,
        )

    @new.autocomplete("game")
    async def new_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.service, current)
