"""One request to Discord, bounded in time and judged by what its failure means for a delivery.

Every request the delivery worker makes goes through `attempt`: it runs under a short timeout
(a request that hangs must not hold a game's deliveries, and discord.py's own limit is 300 s),
and its failure becomes one of a few verdicts the worker knows what to do with. Messages are
posted with a nonce made from what they deliver (`nonce_for`), and discord.py asks Discord to
enforce it: a retry of a post whose answer was lost returns the message already made instead of
making a second one, as it was then (`shows_sent` tells it from the one just sent).
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

REQUEST_TIMEOUT = 8.0   # seconds a request (with its files) may take before it counts as hung
RETRY_AFTER_CAP = 300.0  # the longest a rate limit makes us wait before trying again
LATE_LANDING = 30.0     # seconds after which a request that got no answer in time can no longer land
GLOBAL_WAIT_RELEASE = 5.0  # seconds after a request gave up before discord.py's global wait is let go

# Discord's JSON error codes the worker acts on.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013
ALREADY_ACKNOWLEDGED = 40060
THREAD_ARCHIVED = 50083


@dataclass(frozen=True)
class Failure:
    """Why a request did not go through, and what that means:

    kind "retry": Discord had a problem or is rate limiting (5xx, 429, a hang, no network):
      try again after `after` seconds (or the worker's own backoff when 0).
    kind "blocked": the bot may not post there (a revoked permission, access lost): try again
      when the permissions change, and now and then.
    kind "gone": the message or channel is gone (deleted by a moderator): `what` says which.
    kind "archived": the thread is archived (Discord does it after a time without messages, or
      a moderator): reopened, the request can go through.
    kind "closed": the user does not take DMs from the bot.
    kind "refused": any other refusal (a request Discord will never take): logged as a bug.

    `late`: the request got no answer in time, so Discord may still carry it out later, after
    newer requests (an edit that lands after a newer one).
    """

    kind: str
    reason: str
    after: float = 0.0
    what: str = ""
    status: int | None = None
    late: bool = False

    @property
    def discord_trouble(self) -> bool:
        """Discord itself had a problem (5xx, a hang, no connection), not with this request: its
        next success elsewhere means it is back."""
        return self.kind == "retry" and self.status != 429


def judge(error: BaseException) -> Failure:
    """What a request's exception means for its delivery."""
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        return Failure("retry", "no answer in time", late=True)
    if isinstance(error, discord.RateLimited):
        return Failure("retry", "rate limited", after=min(error.retry_after, RETRY_AFTER_CAP), status=429)
    if isinstance(error, discord.HTTPException):
        status, code = error.status, getattr(error, "code", 0)
        reason = f"{status} {error.text or ''}".strip()
        if status == 429:  # discord.py waits out rate limits itself; one that reaches us waits the backoff
            retry_after = getattr(error, "retry_after", None) or 0.0
            return Failure("retry", reason, after=min(float(retry_after), RETRY_AFTER_CAP), status=status)
        if status >= 500:
            return Failure("retry", reason, status=status)
        if code == CANNOT_DM:
            return Failure("closed", reason, status=status)
        if code == THREAD_ARCHIVED:
            return Failure("archived", reason, status=status)
        if code in (MISSING_PERMISSIONS, MISSING_ACCESS) or (status == 403 and code != CANNOT_DM):
            return Failure("blocked", reason, status=status)
        if status == 404:
            return Failure("gone", reason, what="channel" if code == UNKNOWN_CHANNEL else "message", status=status)
        return Failure("refused", reason, status=status)
    if isinstance(error, (aiohttp.ClientError, OSError, discord.GatewayNotFound)):
        return Failure("retry", type(error).__name__)
    raise error


async def attempt(call: Callable[[], Awaitable[T]], timeout: float = REQUEST_TIMEOUT) -> T | Failure:
    """Run one Discord request under `timeout`: its result, or the `Failure` it met."""
    try:
        async with asyncio.timeout(timeout):
            return await call()
    except asyncio.CancelledError:
        raise
    except Exception as error:  # noqa: BLE001 - judged; what judge does not know is raised
        return judge(error)


def release_global_wait(client: discord.Client) -> None:
    """After a request that got no answer in time: discord.py holds every request while a global
    rate limit is waited out, and lets them go once the request that met it has slept
    (`HTTPClient._global_over`). A request cancelled during that sleep (by `attempt`'s timeout)
    never does, and every later request would wait until its own timeout, for good. So the wait
    is let go a while later, should nothing else have (a request let go early meets the limit
    again and waits anew)."""
    waiting = getattr(getattr(client, "http", None), "_global_over", None)
    if isinstance(waiting, asyncio.Event) and not waiting.is_set():
        asyncio.get_running_loop().call_later(GLOBAL_WAIT_RELEASE, waiting.set)


def nonce_for(*parts: Any) -> str:
    """A message's nonce (at most 25 characters) from what it delivers, the same on every retry."""
    return hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=10).hexdigest()


def shows_sent(message: discord.Message, text: str, view: discord.ui.View | None) -> bool:
    """Whether a message Discord answered a post with is the one just sent: the same words and
    the same buttons (whose custom_ids carry the game's version). Not so when Discord hands back
    a message made earlier under the same nonce."""
    sent = sorted(custom_id for item in (view.children if view is not None else [])
                  if (custom_id := getattr(item, "custom_id", None)))
    shown = sorted(child.custom_id for row in message.components for child in getattr(row, "children", [row])
                   if getattr(child, "custom_id", None))
    return message.content.strip() == text.strip() and shown == sent


def is_discord_trouble(error: BaseException | None) -> bool:
    """Whether a request failed because of Discord itself (a 5xx, a rate limit discord.py gave up
    waiting out, a hang, no connection): no bug of the bot's, worth one line in the log."""
    if isinstance(error, discord.RateLimited):
        return True
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, (asyncio.TimeoutError, TimeoutError, aiohttp.ClientError, ConnectionError))


def is_lost_interaction(error: BaseException) -> bool:
    """Whether an interaction failed because Discord no longer knows it: it reached the bot too
    late to be answered (a gateway outage) or was answered already. Nothing to do but note it."""
    return isinstance(error, discord.NotFound) and getattr(error, "code", 0) == UNKNOWN_INTERACTION or \
        isinstance(error, discord.HTTPException) and getattr(error, "code", 0) == ALREADY_ACKNOWLEDGED
