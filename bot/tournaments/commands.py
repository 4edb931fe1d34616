"""`/game tournament …`: new (Manage Server, or the server's organiser role), settings (its
organiser, during the sign-up), start, status (only for you), withdraw, cancel (its organiser,
asked to confirm) and organisers (Manage Server). Thin: the work is `Tournaments`'
(bot.tournaments.runner); every refusal is answered only to the one who asked.

And what Discord tells the bot of a tournament's message: deleted (the raw message-delete
events), or perhaps deleted unheard (a new gateway session): an open tournament's message comes
back by itself (bot.tournaments.message). A table's thread deleted or archived: reopened, or a
new one made (bot.tournaments.runner)."""
from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.cogs import FeatureCog, game_name_choices, require_guild
from bot.cogs.lobby import LANGUAGE_CHOICES
from bot.errors import TABLE_PERMISSIONS, Refusal, permission_names, reply_ephemeral
from bot.locale import guild_language, user_language
from bot.tables import Tables
from bot.tournaments.buttons import cancel_view
from bot.tournaments.runner import Tournaments
from bot.tournaments.texts import settings_lines

HOUR = 3600
DAY = 24 * HOUR
FORMAT_CHOICES = [app_commands.Choice(name="Swiss", value="swiss"),
                  app_commands.Choice(name="Knockout", value="knockout"),
                  app_commands.Choice(name="Round robin", value="roundrobin")]
GAME_TIMES = {"none": None, "2d": 2 * DAY, "3d": 3 * DAY, "7d": 7 * DAY, "14d": 14 * DAY}
TIME_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in (
    ("none", "no limit"), ("2d", "2 days"), ("3d", "3 days"), ("7d", "7 days"), ("14d", "14 days"))]
OVERTIME_CHOICES = [app_commands.Choice(name="the computer finishes it", value="computer"),
                    app_commands.Choice(name="scored as it stands", value="score")]
SIGNUPS = {"hand": None, "24h": DAY, "48h": 2 * DAY, "72h": 3 * DAY, "7d": 7 * DAY}
SIGNUP_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in (
    ("hand", "until started by hand"), ("24h", "24 hours"), ("48h", "48 hours"), ("72h", "72 hours"),
    ("7d", "7 days"))]
CANCEL_CHOICES = [app_commands.Choice(name="by the tournament's rule", value="rule"),
                  app_commands.Choice(name="abandoned", value="abandon")]
# What the bot needs in the tournament's channel: its message there, and its tables as threads.
CHANNEL_PERMISSIONS = (*TABLE_PERMISSIONS, "create_public_threads", "send_messages_in_threads")


class TournamentCog(FeatureCog):
    tournament = app_commands.Group(name="tournament", description="Tournaments over weeks, run by the bot",
                                    extras={"group": "game"})

    def __init__(self, group: app_commands.Group, tables: Tables, tournaments: Tournaments) -> None:
        super().__init__(group, tables)
        self.tournaments = tournaments

    @tournament.command(name="new", description="Open a tournament for sign-up (Manage Server or the organiser role)")
    @app_commands.describe(game="Which game", format="Swiss, knockout or round robin",
                           players="Players at each table (default: 3, or 2 for a knockout)",
                           rounds="Rounds of a Swiss tournament (default 3)",
                           options="Table options, e.g. deadline=24h timeout=computer reminder=12h computer=strong",
                           time="How long a table may take before the rule below ends it",
                           overtime="What happens to a table whose time is up",
                           signup="How long the sign-up is open (or until /game tournament start)",
                           channel="The channel for its message; the tables are threads in it (default: here)",
                           language="The language of its message and tables (default: the server's)")
    @app_commands.choices(format=FORMAT_CHOICES, time=TIME_CHOICES, overtime=OVERTIME_CHOICES, signup=SIGNUP_CHOICES,
                          language=LANGUAGE_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str, format: app_commands.Choice[str],
                  players: app_commands.Range[int, 2, 6] | None = None,
                  rounds: app_commands.Range[int, 1, 10] | None = None, options: str | None = None,
                  time: app_commands.Choice[str] | None = None, overtime: app_commands.Choice[str] | None = None,
                  signup: app_commands.Choice[str] | None = None, channel: discord.TextChannel | None = None,
                  language: app_commands.Choice[str] | None = None) -> None:
        guild_id = require_guild(interaction)
        await self._check_organiser(interaction, guild_id)
        target = self._channel(interaction, channel)
        # Everything is checked before anything is stored or posted.
        self.tournaments.check_new(game_name=game, format=format.value, size=players, rounds=rounds,
                                   options_text=options)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = language.value if language is not None else guild_language(interaction.guild)
        tournament = await self.tournaments.create(
            guild_id=guild_id, channel_id=target.id, host=interaction.user, game_name=game, format=format.value,
            size=players, rounds=rounds, options_text=options,
            game_time=GAME_TIMES[time.value] if time is not None else 7 * DAY,
            overtime=overtime.value if overtime is not None else "computer",
            signup_for=SIGNUPS[signup.value] if signup is not None else None, lang=lang)
        reply = user_language(interaction)
        await reply_ephemeral(interaction, i18n.t(reply, "bot.tournaments.created", id=tournament.id,
                                                  channel=f"<#{target.id}>"))

    @new.autocomplete("game")
    async def new_game_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await game_name_choices(self.tables, current, user_language(interaction))

    @tournament.command(name="settings",
                        description="Change the tables' options or the sign-up's time before the start (the organiser)")
    @app_commands.describe(tournament="Which tournament (its number; default: the server's open one)",
                           options="Only those named change, e.g. deadline=48h timeout=computer reminder=6h "
                                   "computer=strong",
                           signup="How long the sign-up stays open from now (or until /game tournament start)")
    @app_commands.choices(signup=SIGNUP_CHOICES)
    async def settings(self, interaction: discord.Interaction, tournament: int | None = None,
                       options: str | None = None, signup: app_commands.Choice[str] | None = None) -> None:
        guild_id = require_guild(interaction)
        found = await self.tournaments.pick(guild_id, tournament)
        await self._check_runs_it(interaction, found.host_id, found.id, "bot.tournaments.settings_not_allowed")
        lang = user_language(interaction)
        if options is None and signup is None:
            raise Refusal.of("bot.tournaments.settings_nothing", id=found.id)
        changed = await self.tournaments.change_settings(
            found.id, options_text=options, change_signup=signup is not None,
            signup_for=SIGNUPS[signup.value] if signup is not None else None, lang=lang)
        await reply_ephemeral(interaction, "\n".join((
            i18n.t(lang, "bot.tournaments.settings_changed", id=changed.id, channel=f"<#{changed.channel_id}>"),
            settings_lines(changed, lang))))

    @tournament.command(name="start", description="Close the sign-up and seat the first round (the organiser)")
    @app_commands.describe(tournament="Which tournament (its number; default: the server's open one)")
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = require_guild(interaction)
        found = await self.tournaments.pick(guild_id, tournament, statuses=("signup",))
        await self._check_runs_it(interaction, found.host_id, found.id, "bot.tournaments.start_not_allowed")
        await interaction.response.defer(ephemeral=True, thinking=True)
        started = await self.tournaments.start(found.id)
        await reply_ephemeral(interaction, i18n.t(user_language(interaction), "bot.tournaments.started",
                                                  id=started.id, channel=f"<#{started.channel_id}>"))

    @tournament.command(name="status",
                        description="Where a tournament stands, your place and your table (only for you)")
    @app_commands.describe(tournament="Which tournament (its number; default: yours on this server)")
    async def status(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = require_guild(interaction)
        found = await self.tournaments.pick(guild_id, tournament, interaction.user.id,
                                            statuses=("signup", "running", "finished"))
        await reply_ephemeral(interaction, await self.tournaments.status(found, interaction.user.id,
                                                                         user_language(interaction)))

    @tournament.command(name="withdraw", description="Leave a tournament: a computer takes your open seats")
    @app_commands.describe(tournament="Which tournament (its number; default: yours on this server)")
    async def withdraw(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        guild_id = require_guild(interaction)
        found = await self.tournaments.pick(guild_id, tournament, interaction.user.id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        left = await self.tournaments.withdraw(found.id, interaction.user)
        key = "bot.tournaments.left" if left.status == "signup" else "bot.tournaments.withdrawn"
        await reply_ephemeral(interaction, i18n.t(user_language(interaction), key, id=left.id))

    @tournament.command(name="cancel", description="Cancel a tournament (its organiser, or Manage Server); asks first")
    @app_commands.describe(tournament="Which tournament (its number; default: the server's open one)",
                           tables="What becomes of its tables still being played (default: the tournament's rule)")
    @app_commands.choices(tables=CANCEL_CHOICES)
    async def cancel(self, interaction: discord.Interaction, tournament: int | None = None,
                     tables: app_commands.Choice[str] | None = None) -> None:
        guild_id = require_guild(interaction)
        found = await self.tournaments.pick(guild_id, tournament)
        if not found.is_open:
            raise Refusal.of("bot.tournaments.already_over", id=found.id)
        await self._check_runs_it(interaction, found.host_id, found.id, "bot.tournaments.cancel_not_allowed")
        rule = tables.value if tables is not None else "rule"
        lang = user_language(interaction)
        question = await self.tournaments.cancel_question(found, rule, lang)
        await reply_ephemeral(interaction, question, view=cancel_view(found.id, rule, lang))

    @tournament.command(name="organisers", description="The role that may run tournaments here (Manage Server)")
    @app_commands.describe(role="Members with this role may run tournaments (leave it out: Manage Server only)")
    async def organisers(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        guild_id = require_guild(interaction)
        lang = user_language(interaction)
        if not (interaction.permissions and interaction.permissions.manage_guild):
            raise Refusal.of("bot.tournaments.organisers_not_allowed")
        await self.tournaments.storage.tournaments.set_role(guild_id, None if role is None else role.id)
        text = (i18n.t(lang, "bot.tournaments.organisers_set", role=role.mention) if role is not None
                else i18n.t(lang, "bot.tournaments.organisers_cleared"))
        await reply_ephemeral(interaction, text)

    # --------------------------------------------------------- its message, deleted

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            await self.tournaments.messages.deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self, payload: discord.RawBulkMessageDeleteEvent) -> None:
        if payload.guild_id is not None:
            await self.tournaments.messages.deleted(payload.channel_id, set(payload.message_ids))

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.tournaments.thread_closed(payload.thread_id, deleted=True)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread archived (after a week without a message, or by a moderator): a table being
        played there is reopened."""
        if payload.data.get("thread_metadata", {}).get("archived"):
            await self.tournaments.thread_closed(payload.thread_id, deleted=False)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A new gateway session: Discord replays nothing it said meanwhile, so every open
        tournament's message is looked for."""
        self.tournaments.messages.new_session()

    # ------------------------------------------------------------------------ checks

    async def _check_runs_it(self, interaction: discord.Interaction, host_id: int, tournament_id: int,
                             refusal: str) -> None:
        """Its organiser, or whoever may run tournaments on the server."""
        guild_id = require_guild(interaction)
        if interaction.user.id != host_id and not await self.tournaments.may_run(
                guild_id, interaction.user, interaction.permissions):
            raise Refusal.of(refusal, id=tournament_id, host=f"<@{host_id}>")

    async def _check_organiser(self, interaction: discord.Interaction, guild_id: int) -> None:
        if await self.tournaments.may_run(guild_id, interaction.user, interaction.permissions):
            return
        role_id = await self.tournaments.storage.tournaments.role(guild_id)
        if role_id is None:
            raise Refusal.of("bot.tournaments.not_allowed")
        raise Refusal.of("bot.tournaments.not_allowed_role", role=f"<@&{role_id}>")

    @staticmethod
    def _channel(interaction: discord.Interaction, chosen: Any) -> discord.TextChannel:
        """The tournament's channel: a text channel that can hold threads, where the bot may post
        its message, open threads and play in them."""
        guild = interaction.guild
        channel = interaction.channel if chosen is None else guild.get_channel(chosen.id) if guild else None
        if not isinstance(channel, discord.TextChannel):
            raise Refusal.of("bot.tournaments.channel_not_text")
        me = guild.me if guild is not None else None
        permissions = channel.permissions_for(me) if me is not None else interaction.app_permissions
        missing = [name for name in CHANNEL_PERMISSIONS if not getattr(permissions, name)]
        if missing:
            raise Refusal.of("bot.tournaments.missing_permissions", channel=f"<#{channel.id}>",
                             permissions=permission_names(missing, user_language(interaction)))
        return channel
