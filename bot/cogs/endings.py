"""Ending early: `/game resign` and `/game abandon`."""
from __future__ import annotations

import discord

import i18n
from bot.cogs import FeatureCog, game_subcommand, require_channel
from bot.errors import reply_ephemeral
from bot.locale import user_language


class EndingsCog(FeatureCog):
    @game_subcommand("resign", "Give up: with two players the other wins; with more the computer takes your seat")
    async def resign(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.tables.resign(channel_id, interaction.user)
        await reply_ephemeral(interaction, i18n.t(user_language(interaction), "bot.table.you_resigned"))

    @game_subcommand("abandon", "End this channel's game without a result (host or Manage Server)")
    async def abandon(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        may_manage = bool(interaction.permissions and interaction.permissions.manage_guild)
        table = await self.tables.abandon(channel_id, interaction.user, may_manage_server=may_manage)
        await reply_ephemeral(interaction, i18n.t(user_language(interaction), "bot.table.you_abandoned", id=table.id))
