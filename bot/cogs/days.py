"""Games over days: `/game mine`, `/game reminders`, `/game away`, `/game back`,
`/game replace`, `/game undo`, `/game orders`, `/game computer` and `/game hint` (the logic lives
in bot.days)."""
from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.cogs import FeatureCog, game_subcommand, require_channel
from bot.cogs.lobby import STRENGTH_CHOICES
from bot.days.absence import Absence
from bot.days.hints import Hints
from bot.days.options import AWAY_DAYS, words
from bot.days.orders import Orders, kinds_text
from bot.days.seats import ComputerSeats
from bot.days.undo import TakingBack
from bot.errors import Refusal
from bot.locale import user_language
from bot.presenter import mention, timestamp
from bot.store import Storage
from bot.tables import Tables
from games.core import msg
from i18n import translate


class DaysCog(FeatureCog):
    def __init__(self, group: app_commands.Group, tables: Tables, absence: Absence, taking_back: TakingBack,
                 orders: Orders, storage: Storage, seats: ComputerSeats, hints: Hints) -> None:
        super().__init__(group, tables)
        self.absence = absence
        self.taking_back = taking_back
        self.orders = orders
        self.storage = storage
        self.seats = seats
        self.hints = hints

    @game_subcommand("mine", "Every open game of yours on every server, yours to act first")
    async def mine(self, interaction: discord.Interaction) -> None:
        lang = user_language(interaction)
        text = await self.absence.mine(interaction.user, lang)
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game_subcommand("reminders", "Turn your reminders (a DM when a game waits for you) on or off")
    @app_commands.describe(setting="on or off")
    async def reminders(self, interaction: discord.Interaction, setting: Literal["on", "off"]) -> None:
        lang = user_language(interaction)
        await self.absence.set_reminders(interaction.user, setting == "on")
        await interaction.response.send_message(words(lang, f"reminders_{setting}"), ephemeral=True)

    @game_subcommand("away", "Pause your deadlines in all your games for a few days")
    @app_commands.describe(days=f"How many days ({AWAY_DAYS[0]}-{AWAY_DAYS[1]})")
    async def away(self, interaction: discord.Interaction, days: int) -> None:
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        until = await self.absence.away(interaction.user, days, lang)
        await interaction.followup.send(words(lang, "away_done", until=timestamp(until, "f")), ephemeral=True)

    @game_subcommand("back", "Back early: your deadlines run again and the computer gives your seats back")
    async def back(self, interaction: discord.Interaction) -> None:
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.absence.back(interaction.user, lang)
        await interaction.followup.send(words(lang, "back_done"), ephemeral=True)

    @game_subcommand("replace", "Hand a seat to someone else (host or Manage Server)")
    @app_commands.describe(old="Who leaves the seat", new="Who takes it over")
    async def replace(self, interaction: discord.Interaction, old: discord.User, new: discord.User) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        may_manage = bool(interaction.permissions and interaction.permissions.manage_guild)
        table = await self.tables.active_table_in(channel_id)
        if interaction.user.id != table.host_id and not may_manage:
            raise Refusal(words(lang, "replace_not_host", host=mention(table.host_id)))
        if getattr(new, "bot", False):
            raise Refusal(words(lang, "replace_bot"))
        await self.taking_back.replace(table, old, new, lang)
        await interaction.followup.send(words(lang, "replace_done"), ephemeral=True)

    @game_subcommand("undo", "Take back your last move, if it drew no chance and showed nothing hidden")
    async def undo(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.tables.active_table_in(channel_id)
        await self.taking_back.undo(table, interaction.user, lang)
        await interaction.followup.send(words(lang, "undo_done"), ephemeral=True)

    @game_subcommand("orders", "Let the computer answer decisions outside your turn at this table (only you see it)")
    @app_commands.describe(kind="Which kind of decision (start typing)",
                           setting="on: the computer answers; off: you do")
    async def orders(self, interaction: discord.Interaction, kind: str | None = None,
                     setting: Literal["on", "off"] | None = None) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        table = await self.tables.active_table_in(channel_id)
        game, seat = self.orders.seat_for(table, interaction.user, lang)
        if kind is not None:
            given = await self.orders.set(table, interaction.user, kind, setting != "off", lang)
        else:
            given = await self.orders.of(table, seat)
        kinds = game.features.reactions
        text = words(lang, "orders_list", kinds=kinds_text([k for k in kinds if k in given], lang)) if given else \
            words(lang, "orders_nothing", kinds=kinds_text(kinds, lang))
        await interaction.response.send_message(text, ephemeral=True)

    @orders.autocomplete("kind")
    async def order_kinds(self, interaction: discord.Interaction, current: str):
        if interaction.channel_id is None:  # no channel, no game in it
            return []
        table = await self.storage.games.open_game_in(interaction.channel_id)
        if table is None:
            return []
        lang = user_language(interaction)
        found = [(translate(msg(kind), lang), kind) for kind in self.tables.engine(table.game).features.reactions]
        return [app_commands.Choice(name=label, value=kind) for label, kind in found
                if current.strip().lower() in label.lower()][:25]

    @game_subcommand("computer", "Add a computer player to this lobby (host)")
    @app_commands.describe(strength="How strong the table's computer players are")
    @app_commands.choices(strength=STRENGTH_CHOICES)
    async def computer(self, interaction: discord.Interaction,
                       strength: app_commands.Choice[str] | None = None) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.tables.open_table_in(channel_id)
        table = await self.seats.add(table.id, interaction.user, lang,
                                         strength=strength.value if strength is not None else None)
        await interaction.followup.send(words(lang, "computer_added", count=len(table.players)), ephemeral=True)

    @game_subcommand("hint", "The move the computer would make for you, and why (practice tables, or hints=on)")
    async def hint(self, interaction: discord.Interaction) -> None:
        channel_id = require_channel(interaction)
        lang = user_language(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        table = await self.tables.active_table_in(channel_id)
        text = await self.hints.hint(table.id, interaction.user, lang)
        await interaction.followup.send(text, ephemeral=True)
