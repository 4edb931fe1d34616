"""Slash commands in German and English: a discord.py `app_commands.Translator` that Discord asks,
when the commands are synced, for every command, option and choice name and description in every
locale. Discord then shows each user the commands in their own client's language.

The words live in the catalogue `i18n/locales/<lang>/bot.commands.po`, keyed by where they are,
not by their English text:

    bot.commands.<command>.name / .description          e.g. bot.commands.game.new.description
    bot.commands.<command>.param.<option>.name / .description
    bot.commands.choice.<value>                          a fixed choice's name

`<command>` is the qualified name with dots (`game.new`, `move`). A command's code keeps its
English name: Discord always sends the code name back, whatever the user saw.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n

log = logging.getLogger(__name__)

# Discord's rule for command and option names in every locale: lower case, no spaces, 1-32.
NAME_PATTERN = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_LIMIT = 100


def command_key(command: Any) -> str:
    return "bot.commands." + command.qualified_name.replace(" ", ".")


def message_id(string: app_commands.locale_str, context: app_commands.TranslationContext) -> str | None:
    """The catalogue id for one string Discord asks about, or None for strings we do not serve."""
    data = context.data
    location = context.location
    if location in (Where.command_name, Where.group_name):
        return command_key(data) + ".name"
    if location in (Where.command_description, Where.group_description):
        return command_key(data) + ".description"
    if location in (Where.parameter_name, Where.parameter_description):
        suffix = "name" if location is Where.parameter_name else "description"
        return f"{command_key(data.command)}.param.{data.name}.{suffix}"
    if location is Where.choice_name:
        return f"bot.commands.choice.{data.value}"
    return None


class CatalogueTranslator(app_commands.Translator):
    """Serves `bot.commands` in German for German clients and English for the English ones."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        key = message_id(string, context)
        if key is None:
            return None
        lang = i18n.language_of(locale)
        try:
            return i18n.template(lang, key, strict=True)
        except i18n.MissingMessage:
            log.warning("No %s text for %s (%r)", lang, key, string.message)
            return None


def walk(tree: app_commands.CommandTree) -> Iterator[tuple[str, str, Any]]:
    """Every (catalogue id, English text in the code, kind) the translator is asked about."""
    def visit(command: Any) -> Iterator[tuple[str, str, Any]]:
        key = command_key(command)
        yield key + ".name", command.name, "name"
        yield key + ".description", command.description, "description"
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                yield from visit(child)
            return
        for parameter in command.parameters:
            yield f"{key}.param.{parameter.name}.name", parameter.display_name, "name"
            yield f"{key}.param.{parameter.name}.description", parameter.description, "description"
            for choice in parameter.choices:
                yield f"bot.commands.choice.{choice.value}", choice.name, "description"

    for command in tree.get_commands():
        if isinstance(command, (app_commands.Command, app_commands.Group)):
            yield from visit(command)
