"""Looking at a game: `/game status`, `/game board`, `/game log`, `/game rules`."""
from __future__ import annotations

import discord
from discord import app_commands

import i18n
from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_channel
from bot.errors import reply_ephemeral
from bot.info import Info
from bot.locale import user_language
from bot.tables import Tables


class InfoCog(FeatureCog):
    def __init__(self, group: app_commands.Group, tables: Tables, info: Info) -> None:
        super().__init__(group, tables)
        self.info = info

    @game_subcommand("status", "Who plays, whose turn it is, and where the latest board is")
    async def status(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        text = await self.info.status_text(channel_id, user_language(interaction))
        await reply_ephemeral(interaction, text)

    @game_subcommand("board", "Post the current board again (players: once a minute; others see it privately)")
    async def board(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = user_language(interaction)
        if await self.info.repost_board(channel_id, interaction.user):
            await reply_ephemeral(interaction, i18n.t(lang, "bot.errors.board_posted"))
            return
        content, image = await self.info.spectator_board(channel_id)  # not a player: only you
        extra = {"file": image} if image is not None else {}
        await reply_ephemeral(interaction, f"{i18n.t(lang, 'bot.errors.board_only_you')}\n{content}", **extra)

    @game_subcommand("log", "The recent moves of this channel's game")
    async def log(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.info.log_text(channel_id, user_language(interaction))
        await reply_ephemeral(interaction, text)

    @game_subcommand("rules", "A short summary of a game's rules")
    @app_commands.describe(game="Which game (default: the one in this channel)")
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await reply_ephemeral(interaction, await self.info.rules_text(interaction.channel_id, game,
                                                                            user_language(interaction)))

    @rules.autocomplete("game")
    async def rules_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.tables, current, user_language(interaction))
