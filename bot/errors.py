"""The one place where errors become replies.

Handlers never catch errors themselves: slash commands fail into `GameTree.on_error`, and
component callbacks into `Handled.callback`; both call `report_error`. Refusals (ours, and the
engines' `GameError`s) become a short ephemeral line saying what was wrong and what to do
instead, in the user's language (catalogue `bot.errors`); anything else is logged with its
context (game, channel, user, action, whether a move was stored) and answered with an apology.
Every reply goes through `fit`, so nothing the bot sends can exceed Discord's limits.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

import i18n
from bot.delivery.requests import is_discord_trouble, is_lost_interaction
from bot.locale import user_language
from bot.storage import StorageError
from games.core import GameError, Msg

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord's limit for a message's content
ECHO_LIMIT = 60       # how much of a user's own text a refusal repeats

APOLOGY = "Sorry, something went wrong on my side. It has been logged; please try again in a moment."

# Permissions a table needs in its channel (thread: sending there is its own permission).
TABLE_PERMISSIONS = ("view_channel", "send_messages", "attach_files", "embed_links", "read_message_history")


class Refusal(Exception):
    """A request the bot turns down, with a message for the player (what is wrong, what to do).

    `Refusal("plain text")`, or `Refusal.of("bot.errors.<name>", **params)` for words from the
    catalogue, translated into the language of whoever is answered."""

    def __init__(self, text: str = "", *, msg_id: str | None = None, engine: Msg | None = None,
                 names: Sequence[str] = (), **params: Any) -> None:
        super().__init__(text or msg_id or "")
        self.msg_id = msg_id
        self.params = params
        self.engine = engine
        self.names = list(names)

    @classmethod
    def of(cls, msg_id: str, **params: Any) -> Refusal:
        return cls(i18n.t(i18n.DEFAULT_LANGUAGE, msg_id, **params), msg_id=msg_id, **params)

    @classmethod
    def from_engine(cls, error: GameError, names: Sequence[str] = ()) -> Refusal:
        """An engine's refusal in the words of its message (`GameError.msg`), with the seats'
        names in bold and whatever the player typed repeated safely."""
        if error.msg is None:
            return cls(str(error))
        message = Msg(error.msg.id, {key: echo(value, 80) if isinstance(value, str) else value
                                     for key, value in error.msg.params.items()})
        return cls(str(error), engine=message, names=[f"**{discord.utils.escape_markdown(n)}**" for n in names])

    def text(self, lang: str) -> str:
        if self.engine is not None:
            return i18n.translate(self.engine, lang, self.names)
        if self.msg_id is not None:
            return i18n.t(lang, self.msg_id, **self.params)
        return str(self)


def echo(text: Any, limit: int = ECHO_LIMIT) -> str:
    """A user's own text, safe to repeat in a reply: one line, markdown and mentions escaped, short."""
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Any reply shortened to Discord's limit (the one place replies are clipped)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def missing_permissions(permissions: discord.Permissions, *, in_thread: bool = False) -> list[str]:
    needed = [("send_messages_in_threads" if name == "send_messages" and in_thread else name)
              for name in TABLE_PERMISSIONS]
    return [name for name in needed if not getattr(permissions, name)]


def permission_names(names: Sequence[str], lang: str) -> str:
    return i18n.join_list([i18n.t(lang, f"bot.errors.perm.{name}") for name in names], lang)


def in_thread(interaction: discord.Interaction) -> bool:
    channel = interaction.channel
    return isinstance(channel, discord.Thread) or getattr(channel, "type", None) in (
        discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def unwrap(error: BaseException) -> BaseException:
    """The error a handler raised, without discord.py's invoke wrappers."""
    while isinstance(error, (app_commands.CommandInvokeError, app_commands.TransformerError)) and error.__cause__:
        error = error.__cause__
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error


def message_for(error: BaseException, lang: str = i18n.DEFAULT_LANGUAGE) -> str | None:
    """The player-facing text for an expected refusal; None for a bug."""
    error = unwrap(error)
    if isinstance(error, Refusal):
        return error.text(lang)
    if isinstance(error, GameError) and error.msg is not None:
        return i18n.translate(error.msg, lang)
    if isinstance(error, (GameError, StorageError)):  # all worded for players
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return i18n.t(lang, "bot.errors.no_dms")
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or i18n.t(lang, "bot.errors.not_here")
    return None


def describe_interaction(interaction: discord.Interaction) -> str:
    """What the user did, for the log: the command and its options, or the component's custom_id."""
    data: Mapping[str, Any] = interaction.data or {}
    if interaction.type is discord.InteractionType.application_command:
        parts = [data.get("name", "?")]
        options = list(data.get("options") or [])
        while options:
            option = options.pop(0)
            if "options" in option:
                parts.append(option["name"])
                options = list(option["options"]) + options
            else:
                parts.append(f"{option['name']}={str(option.get('value'))[:80]!r}")
        return "/" + " ".join(parts)
    return f"component {str(data.get('custom_id'))[:100]!r}"


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    lang = user_language(interaction)
    error = unwrap(error)
    context = (f"channel={interaction.channel_id} user={getattr(interaction.user, 'id', '?')} "
               f"action={describe_interaction(interaction)}")
    if isinstance(error, discord.HTTPException) and is_lost_interaction(error):  # (only a request's error is)
        # Discord gave the click up before the bot could answer (it reached us late, after a
        # gateway outage): the player saw "interaction failed" and may click again.
        log.info("Click lost: Discord no longer knows the interaction (%s) %s", error.text or error.code, context)
        return
    game_id = getattr(error, "game_id", None)
    stored = getattr(error, "move_stored", "no")
    if is_discord_trouble(error):
        # Discord did not take the bot's answer (a 5xx, a rate limit): no bug of ours. Whatever
        # was done is stored whole or not at all, and the board shows it either way.
        log.warning("Discord did not take an answer (%s): game=%s %s stored=%s", trouble_words(error), game_id,
                    context, stored)
        await reply_ephemeral(interaction, "⚠️ " + i18n.t(lang, "bot.errors.answer_failed"))
        return
    text = message_for(error, lang)
    if text is None:
        log.error("Unhandled error: game=%s %s stored=%s", game_id, context, stored, exc_info=error)
        text = i18n.t(lang, "bot.errors.apology")
    else:
        log.debug("Refused: %s: %s", context, text)
    await reply_ephemeral(interaction, f"⚠️ {text}")


async def reply_ephemeral(interaction: discord.Interaction, text: str, **kwargs: Any) -> bool:
    """Answer whether or not the interaction was already deferred; never raise. True if delivered."""
    if interaction.type is discord.InteractionType.autocomplete:
        return False  # autocomplete cannot show messages; its errors only get logged
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    try:
        if interaction.response.is_done():
            await interaction.followup.send(fit(text), ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(fit(text), ephemeral=True, **kwargs)
    except discord.HTTPException as error:
        log.warning("Could not deliver a reply for interaction %s: %s", interaction.id, trouble_words(error))
        return False
    return True


def trouble_words(error: BaseException) -> str:
    """A request's failure in a few words for the log: '503 Service Unavailable', 'TimeoutError'."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or ''}".strip()
    return type(error).__name__


class AutocompleteTrouble(logging.Filter):
    """discord.py logs an autocomplete answer that failed with its traceback at ERROR. When Discord
    itself did not take it (a 5xx, a rate limit, a hang), that is one line at WARNING."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and record.getMessage().startswith("Ignoring exception in autocomplete") \
                and is_discord_trouble(unwrap(error)):
            record.msg, record.args = f"{record.getMessage()}: Discord did not take the answer " \
                                      f"({trouble_words(unwrap(error))})", None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def quiet_autocomplete_trouble() -> None:
    """Install `AutocompleteTrouble` on discord.py's command tree logger (once)."""
    logger = logging.getLogger("discord.app_commands.tree")
    if not any(isinstance(f, AutocompleteTrouble) for f in logger.filters):
        logger.addFilter(AutocompleteTrouble())
