"""Looking at a game: `/game status`, `/game board`, `/game log`, `/game rules`."""
from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_guild


class InfoCog(FeatureCog):
    @game_subcommand("status", "Who plays, whose turn it is, and where the latest board is")
    async def status(self, interaction: discord.Interaction) -> None:
        require_guild(interaction)
        text = await self.service.status_text(interaction.channel_id)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game_subcommand("board", "Post the current board again in this channel")
    async def board(self, interaction: discord.Interaction) -> None:
        require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.service.repost_board(interaction.channel_id)
        await interaction.followup.send("Posted the current board.", ephemeral=True)

    @game_subcommand("log", "The recent moves of this channel's game")
    async def log(self, interaction: discord.Interaction) -> None:
        require_guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(await self.service.log_text(interaction.channel_id), ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())

    @game_subcommand("rules", "A short summary of a game's rules")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        text = await self.service.rules_text(interaction.channel_id, game)
        await interaction.response.send_message(text, ephemeral=True)

    @rules.autocomplete("game")
    async def rules_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.service, current)
