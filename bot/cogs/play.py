"""Playing: `/move` (with autocomplete of your legal moves) and `/game hand`.

Buttons and selects for moves live in bot.components and end up in the same pipeline (bot.moves).
"""
from __future__ import annotations

import logging

import discord
from discord import app_commands

import i18n
from bot.cogs import FeatureCog, game_subcommand, require_channel
from bot.errors import echo, fit, reply_ephemeral
from bot.info import Info, split_versioned
from bot.locale import user_language
from bot.moves import Moves
from bot.tables import Tables

log = logging.getLogger(__name__)


class PlayCog(FeatureCog):
    def __init__(self, group: app_commands.Group, tables: Tables, moves: Moves, info: Info) -> None:
        super().__init__(group, tables)
        self.moves = moves
        self.info = info

    @app_commands.command(name="move", description="Make a move in this channel's game")
    @app_commands.describe(action="Start typing: the list shows your legal moves")
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.tables.move_table_in(channel_id)
        seen_version, text = split_versioned(action)  # a suggestion names the version it was offered at
        played = await self.moves.play(interaction.user, game_id=table.id, action_text=text,
                                           seen_version=seen_version, typed=True, interaction=interaction)
        if played.already_done:
            answer = i18n.t(user_language(interaction), "bot.errors.already_done", move=echo(played.label),
                            version=played.version, link=played.board_url or "-")
        else:
            answer = f"✅ {discord.utils.escape_markdown(played.label)}"
        if await reply_ephemeral(interaction, answer):
            await self.moves.answered(played)  # seen: from now on the same text is a new move

    @move.autocomplete("action")
    async def move_choices(self, interaction: discord.Interaction, current: str):
        if interaction.channel_id is None:  # no channel, no game in it
            return []
        try:
            suggestions = await self.info.move_suggestions(interaction.channel_id, interaction.user.id, current)
        except Exception:
            log.exception("Autocomplete failed in channel %s", interaction.channel_id)
            return []
        return [app_commands.Choice(name=fit(label, 100), value=value) for label, value in suggestions]

    @game_subcommand("hand", "Your private view and your moves (only you see the answer)")
    async def hand(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.tables.active_table_in(channel_id)
        await self.info.show_hand(interaction, game_id=table.id)
