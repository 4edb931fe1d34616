"""Following Discord's own changes, so what a player must see comes back by itself:

- a board deleted by a moderator is posted again;
- a server's permissions change (a channel, a role, the bot's member): its games whose channel
  refused the bot are tried again at once;
- a player whose DMs were closed interacts with the bot again: their owed DMs are tried again;
- the gateway comes back after an outage: every game that owes something is delivered;
- a new gateway session (the bot started, or the gateway came back without RESUME): Discord
  replays nothing it said meanwhile, so every board the store takes as shown is looked for, and
  one deleted meanwhile is posted again.
"""
from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot.delivery.worker import Deliveries
from bot.store import Storage

log = logging.getLogger(__name__)


class DiscordChanges(commands.Cog):
    def __init__(self, storage: Storage, deliveries: Deliveries) -> None:
        self.storage = storage
        self.deliveries = deliveries

    async def _board_deleted(self, channel_id: int, message_ids: set[int]) -> None:
        table = await self.storage.games.open_game_in(channel_id)
        if table is None or table.board_message_id not in message_ids:
            return
        if await self.storage.delivery.board_gone(table.id, table.board_message_id):
            log.info("board game=%s channel=%s deleted: posting it again", table.id, channel_id)
            self.deliveries.kick(table.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            await self._board_deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            await self._board_deleted(payload.channel_id, set(payload.message_ids))

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        self.deliveries.kick_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        self.deliveries.kick_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if after.guild.me is not None and after.id == after.guild.me.id:
            self.deliveries.kick_guild(after.guild.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A player who closed their DMs and is back may take them again: try at once."""
        if not self.deliveries.dms.back(interaction.user.id):
            return
        for game_id in await self.storage.delivery.dms_reopened(interaction.user.id):
            self.deliveries.kick(game_id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A new session: what the bot may have missed is found out (`Deliveries.new_session`)."""
        owed = await self.deliveries.new_session()
        if owed:
            log.info("New gateway session: delivering what %d game(s) owe", owed)

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """Back after a gateway outage: what failed meanwhile is tried again now."""
        owed = await self.deliveries.start()
        if owed:
            log.info("Gateway resumed: delivering what %d game(s) owe", owed)
