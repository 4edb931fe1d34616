"""The one place where errors become replies.

Handlers never catch errors themselves: slash commands fail into `GameTree.on_error`, and
component callbacks into `GameItem.callback`; both call `report_error`. Refusals (ours, and the
engines' `GameError`s) become a short ephemeral line saying what was wrong and what to do
instead; anything else is logged and answered with an apology.
"""
from __future__ import annotations

import logging

import discord
from discord import app_commands

from games.core import GameError

from bot.storage import StorageError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again in a moment."


class Refusal(Exception):
    """A request the bot turns down, with a message for the player (what is wrong, what to do)."""


def unwrap(error: BaseException) -> BaseException:
    """The error a handler raised, without discord.py's invoke wrappers."""
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


def message_for(error: BaseException) -> str | None:
    """The player-facing text for an expected refusal; None for a bug."""
    error = unwrap(error)
    if isinstance(error, (Refusal, GameError, StorageError)):  # all worded for players
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Game commands work in a server channel or thread, not in DMs."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use that command here."
    return None


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    text = message_for(error)
    if text is None:
        log.error("Unhandled error in interaction %s", interaction.id, exc_info=unwrap(error))
        text = APOLOGY
    await reply_ephemeral(interaction, f"⚠️ {text}")


async def reply_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer whether or not the interaction was already deferred; never raise."""
    if interaction.type is discord.InteractionType.autocomplete:
        return  # autocomplete cannot show messages; its errors only get logged
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not deliver an error reply for interaction %s", interaction.id, exc_info=True)
