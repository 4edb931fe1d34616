"""One cog per feature. Their `/game …` subcommands share one `/game` group.

discord.py binds a cog's app commands to the cog, but a group can only be declared in one
class; so each feature cog marks its subcommands with `game_subcommand` and, when loaded,
moves them (already bound to the cog) under the bot's `/game` group.
"""
from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import Tables

_GROUP_KEY = "group"
_GAME_GROUP = "game"


def game_subcommand(name: str, description: str):
    return app_commands.command(name=name, description=description, extras={_GROUP_KEY: _GAME_GROUP})


class FeatureCog(commands.Cog):
    """A feature's commands, given the `/game` group and the parts they use (bot.parts): every
    cog reads tables; a cog taking more says so in its constructor."""

    def __init__(self, group: app_commands.Group, tables: Tables) -> None:
        self.group = group
        self.tables = tables

    async def cog_load(self) -> None:
        group = self.group
        top_level = []
        for command in self.__cog_app_commands__:
            if command.extras.get(_GROUP_KEY) == _GAME_GROUP:
                command.parent = group
                group.add_command(command)
            else:
                top_level.append(command)
        self.__cog_app_commands__ = top_level  # what discord.py then adds to the tree itself

    async def cog_unload(self) -> None:
        for command in list(self.group.commands):
            if getattr(command, "binding", None) is self:
                self.group.remove_command(command.name)


async def game_name_choices(tables: Tables, typed: str, lang: str = "en") -> list[app_commands.Choice[str]]:
    """The games whose title (in the asker's language) or name contains what they typed."""
    needle = typed.strip().lower()
    return [
        app_commands.Choice(name=title, value=name)
        for title, name in tables.game_titles(lang)
        if needle in title.lower() or needle in name
    ][:25]


def require_guild(interaction: discord.Interaction) -> int:
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def require_channel(interaction: discord.Interaction) -> int:
    """The server channel a command was used in (every command in a server names one)."""
    require_guild(interaction)
    if interaction.channel_id is None:
        raise app_commands.CheckFailure()  # "not here"
    return interaction.channel_id
