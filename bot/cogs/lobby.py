"""Opening a table: `/game new`. Join / Leave / Start live on the lobby message (bot.components)."""
from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

import i18n
from bot.cogs import FeatureCog, game_name_choices, game_subcommand, require_channel, require_guild
from bot.errors import Refusal, in_thread, missing_permissions, permission_names, reply_ephemeral
from bot.locale import guild_language, user_language
from i18n import translate

LANGUAGE_CHOICES = [app_commands.Choice(name="German", value="de"), app_commands.Choice(name="English", value="en")]
YES_NO_CHOICES = [app_commands.Choice(name="yes", value="yes"), app_commands.Choice(name="no", value="no")]
STRENGTH_CHOICES = [app_commands.Choice(name="normal", value="normal"),
                    app_commands.Choice(name="strong", value="strong")]


def check_table_permissions(interaction: discord.Interaction) -> None:
    """Before anything is stored: a table the bot cannot post boards to would stall at once."""
    missing = missing_permissions(interaction.app_permissions, in_thread=in_thread(interaction))
    if missing:
        raise Refusal.of("bot.errors.new_missing_permissions",
                         permissions=permission_names(missing, user_language(interaction)))


def refused_here(interaction: discord.Interaction) -> Refusal:
    """Discord refused the lobby message though the interaction said the bot may post: which
    permission went is not known, so the answer names every one a table needs."""
    needed = missing_permissions(discord.Permissions.none(), in_thread=in_thread(interaction))
    return Refusal.of("bot.errors.new_missing_permissions",
                      permissions=permission_names(needed, user_language(interaction)))


THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
THREAD_ARCHIVE_MINUTES: Final = 10080  # a week, Discord's longest: a game over days keeps its thread in the list


def check_thread_permissions(interaction: discord.Interaction) -> None:
    """`thread:yes` needs a channel that holds threads and the right to open one and post in it."""
    if not hasattr(interaction.channel, "create_thread"):
        raise Refusal.of("bot.errors.thread_not_here")
    missing = [name for name in THREAD_PERMISSIONS if not getattr(interaction.app_permissions, name)]
    if missing:
        raise Refusal.of("bot.errors.new_missing_permissions",
                         permissions=permission_names(missing, user_language(interaction)))


def thread_name(title: str, host: discord.abc.User) -> str:
    """The new thread's name: the game, then its host (Discord allows 100 characters)."""
    return f"{title} · {host.display_name}"[:100]


class LobbyCog(FeatureCog):
    @game_subcommand("new", "Open a table for a game in this channel or thread")
    @app_commands.describe(game="Which game to play",
                           options="Table options, e.g. rounds=3 (see /game rules)",
                           language="The table's language for boards and posts (default: the server's)",
                           thread="yes: open the table in a new thread of this channel, "
                                  "so one channel holds many games")
    @app_commands.choices(language=LANGUAGE_CHOICES, thread=YES_NO_CHOICES)
    async def new(self, interaction: discord.Interaction, game: str, options: str | None = None,
                  language: app_commands.Choice[str] | None = None,
                  thread: app_commands.Choice[str] | None = None) -> None:
        guild_id = require_guild(interaction)
        check_table_permissions(interaction)
        # In a thread already, the table simply opens there.
        new_thread = thread is not None and thread.value == "yes" and not in_thread(interaction)
        if new_thread:
            check_thread_permissions(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        # The table's language: chosen here, else the server's preferred language.
        lang = language.value if language is not None else guild_language(interaction.guild)
        reply_lang = user_language(interaction)
        channel = interaction.channel
        opened: discord.Thread | None = None  # the new thread, if any
        if new_thread:
            # Checked before the thread exists, so a typo in the options leaves no empty thread.
            self.tables.check_table_request(game, options)
            title = translate(i18n.game_title(self.tables.engine(game)), lang)
            if not isinstance(channel, discord.TextChannel):  # the one kind of channel that holds threads we open
                raise Refusal.of("bot.errors.thread_not_here")
            channel = opened = await channel.create_thread(
                name=thread_name(title, interaction.user), type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES, reason=f"/game new {game}")
        if not isinstance(channel, discord.abc.Messageable):  # a command is used where messages go
            raise app_commands.CheckFailure()  # "not here"
        try:
            table = await self.tables.open_lobby(
                channel, guild_id=guild_id, channel_id=channel.id, host=interaction.user,
                game_name=game, options_text=options, lang=lang,
            )
        except BaseException as error:
            if opened is not None:  # no table, no thread
                await opened.delete()
            if isinstance(error, discord.Forbidden):  # a permission taken away since Discord's check above
                raise refused_here(interaction) from None
            raise
        text = i18n.t(reply_lang, "bot.records.table_open", id=table.id,
                      language=i18n.t(reply_lang, f"bot.records.language.{lang}"))
        if opened is not None:
            text += "\n" + i18n.t(reply_lang, "bot.records.table_in_thread", thread=opened.mention)
        await reply_ephemeral(interaction, text)

    @game_subcommand("practice", "Play a game at once against computer players, with hints (not counted in records)")
    @app_commands.describe(game="Which game to play", players="How many players in all, you included",
                           language="The table's language for boards and posts (default: yours)",
                           computer="How strong the computer players are")
    @app_commands.choices(language=LANGUAGE_CHOICES, computer=STRENGTH_CHOICES)
    async def practice(self, interaction: discord.Interaction, game: str,
                       players: app_commands.Range[int, 2, 6] | None = None,
                       language: app_commands.Choice[str] | None = None,
                       computer: app_commands.Choice[str] | None = None) -> None:
        guild_id, channel_id = require_guild(interaction), require_channel(interaction)
        check_table_permissions(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = language.value if language is not None else user_language(interaction)
        table = await self.tables.open_practice(
            guild_id=guild_id, channel_id=channel_id, host=interaction.user, game_name=game,
            players=players, lang=lang, strength=computer.value if computer is not None else "normal")
        reply_lang = user_language(interaction)
        await reply_ephemeral(interaction, i18n.t(reply_lang, "bot.table.practice_open", id=table.id))

    @practice.autocomplete("game")
    async def practice_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.tables, current, user_language(interaction))

    @new.autocomplete("game")
    async def new_game_names(self, interaction: discord.Interaction, current: str):
        return await game_name_choices(self.tables, current, user_language(interaction))
