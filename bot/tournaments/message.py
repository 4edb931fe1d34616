"""Each tournament's one message in its channel: the sign-up with Join and Leave while it is open,
then the standings and the round's tables, then the final standings with the winner named and a
chart of them.

It is kept current the way the league keeps a server's overview (bot.league.overview): what it
owes is counted in the store (`tournaments.wanted`, raised in the very transaction of a sign-up,
a result or a new round) and the message records the count it shows (`shown`). The delivery
worker's loop keeps it current (a `bot.delivery.worker.KeptMessage`, registered at wiring), one
task per tournament at a time: it edits the message when it owes something, at most once every
`every` seconds; every request goes through `bot.delivery.requests.attempt` (a short timeout,
what a failure means) and is tried again after Discord's `retry_after` or the worker's growing
pause; the first post carries a nonce, so a retry never doubles it. An edit that got no answer in
time may land late, after a newer one: the message is edited once more when it no longer can.
After a restart the same message is edited. It never pings anyone. With several processes, only
the one serving the tournament's server keeps it.

A message deleted while the tournament is open (in its sign-up or running) comes back by itself:
Discord's message-delete event says so at once (`deleted`), and a new gateway session, after
which Discord replays nothing it said meanwhile, looks for every open tournament's message
(`look_for_messages`). A finished or cancelled tournament's message, deleted, stays deleted: a
moderator tidying the channel meant it (its results stay in `/game tournament status` and
`/game stats`).
"""
from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.delivery.requests import LATE_LANDING, Failure, attempt, nonce_for
from bot.store import Storage
from bot.tournaments.storage import TournamentRow

log = logging.getLogger(__name__)

EVERY = 5.0     # seconds between two edits of one tournament's message, at least
SETTLE = 1.0    # an edit waits this long after the first change it shows (a burst makes one edit)
LOOKS_PER_SECOND = 5.0  # a new session's looks for the messages, at most

Render = Callable[[TournamentRow], Awaitable[tuple[str, discord.ui.View | None, list[discord.File]]]]


def _not_kept(tournament_id: int) -> None:
    """Until the worker keeps the messages (wiring), a kick only marks the message owed."""


class TournamentMessages:
    kind = "tournament"

    def __init__(self, client: discord.Client, storage: Storage, render: Render, *,
                 owns_guild: Callable[[int], bool] = lambda guild_id: True) -> None:
        self.client = client
        self.storage = storage
        self.render = render  # a tournament -> its message's text, buttons and files (bot.tournaments.runner)
        self.owns_guild = owns_guild
        self.every = EVERY
        self.requests = 0
        self.stopping = False
        self._wake: Callable[[int], None] = _not_kept
        self._shown_at: dict[int, float] = {}
        self._owed_at: dict[int, float] = {}
        self._late_until: dict[int, float] = {}  # an edit that got no answer may land until then
        self._looking: asyncio.Task[int] | None = None

    def kick(self, tournament_id: int, *, at_once: bool = False) -> None:
        """The tournament's message owes something: edit it now, or once the pause between edits
        is over (`at_once`: a new message, shown without waiting)."""
        if self.stopping:
            return
        loop = asyncio.get_running_loop()
        if at_once:
            self._owed_at[tournament_id] = -math.inf
        self._owed_at.setdefault(tournament_id, loop.time())
        self._wake(tournament_id)

    def attach(self, kick: Callable[[int], None]) -> None:
        """The delivery worker keeps the messages current: `kick` asks it to look at one."""
        self._wake = kick

    async def stop(self) -> None:
        """No more kicks (the delivery worker stops its looks), and a new session's look ends."""
        self.stopping = True
        if self._looking is not None:
            self._looking.cancel()
            await asyncio.gather(self._looking, return_exceptions=True)

    # ------------------------------------------------------------- deleted messages

    async def deleted(self, channel_id: int, message_ids: set[int]) -> None:
        """Discord says messages were deleted: an open tournament's message among them is posted
        again."""
        for tournament_id, message_id in await self.storage.tournaments.with_message(channel_id, sorted(message_ids)):
            if await self.storage.tournaments.message_gone(tournament_id, message_id):
                log.info("tournament=%s message %s was deleted: posting it again", tournament_id, message_id)
                self.kick(tournament_id, at_once=True)

    def new_session(self) -> None:
        """A new gateway session: every open tournament's message is looked for, in a task."""
        if self.stopping or (self._looking is not None and not self._looking.done()):
            return
        self._looking = asyncio.get_running_loop().create_task(self.look_for_messages(),
                                                               name="look-for-tournament-messages")

    async def look_for_messages(self) -> int:
        """Each open tournament's message (of this process's servers) is fetched; one deleted
        while the bot heard nothing is posted again. Returns how many were."""
        posted = 0
        for tournament_id, guild_id, channel_id, message_id in await self.storage.tournaments.messages_shown():
            if self.stopping:
                break
            if not self.owns_guild(guild_id):
                continue
            message = self.client.get_partial_messageable(channel_id, guild_id=guild_id).get_partial_message(message_id)
            found = await self._request(message.fetch)
            if isinstance(found, Failure) and found.kind == "gone" and found.what == "message":
                if await self.storage.tournaments.message_gone(tournament_id, message_id):
                    log.info("tournament=%s message %s was deleted while the bot heard nothing: posting it again",
                             tournament_id, message_id)
                    self.kick(tournament_id, at_once=True)
                    posted += 1
            await asyncio.sleep(1.0 / LOOKS_PER_SECOND)
        return posted

    async def look(self, tournament_id: int) -> float | Failure | None:
        """One look at the message: None when it shows everything, a pause before the next look,
        or the failure that stopped it."""
        row = await self.storage.tournaments.get(tournament_id)
        if row is not None and not self.owns_guild(row.guild_id):
            return None  # with several processes, the one serving its server keeps it (its look for owed ones)
        loop = asyncio.get_running_loop()
        if row is not None and row.shown >= row.wanted and tournament_id in self._late_until:
            # An edit that got no answer in time could still land over a newer one: once it no
            # longer can, the message is edited once more.
            until = self._late_until[tournament_id]
            if until > loop.time():
                return until - loop.time()
            del self._late_until[tournament_id]
            await self.storage.tournaments.owe(tournament_id)
            self._owed_at[tournament_id] = -math.inf
            return 0.0
        if row is None or row.shown >= row.wanted:
            return None
        due = max(self._shown_at.get(tournament_id, -math.inf) + self.every,
                  self._owed_at.setdefault(tournament_id, loop.time()) + SETTLE)
        if due > loop.time():
            return due - loop.time()
        self._owed_at.pop(tournament_id, None)
        text, view, files = await self.render(row)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        none = discord.AllowedMentions.none()
        extra: dict[str, Any] = {} if view is None else {"view": view}
        result: Any
        if row.message_id is not None:
            message_id = row.message_id
            if files:
                extra["attachments"] = files
            result = await self._request(lambda: channel.get_partial_message(message_id).edit(
                content=text, allowed_mentions=none, **({"view": None} | extra)))
            if isinstance(result, Failure) and result.kind == "gone" and result.what == "message":
                await self.storage.tournaments.message_gone(tournament_id, message_id)
                return 0.0  # posted again at once
        else:
            nonce = nonce_for("tournament", tournament_id, row.channel_id, row.posts)
            if files:
                extra["files"] = files
            result = await self._request(lambda: channel.send(text, allowed_mentions=none, nonce=nonce, **extra))
        self._shown_at[tournament_id] = loop.time()
        if isinstance(result, Failure) and result.late:
            self._late_until[tournament_id] = loop.time() + LATE_LANDING
        if isinstance(result, Failure):
            log.warning("Could not show tournament %s in channel %s: %s; it stays owed", tournament_id,
                        row.channel_id, result.reason)
            return result  # tried again by the worker (the longest pause where the bot may not post)
        await self.storage.tournaments.shown(tournament_id, message_id=result.id, shown=row.wanted)
        log.info("tournament=%s message %s", tournament_id, "edited" if row.message_id is not None else "posted")
        return 0.0

    async def _request(self, call: Callable[[], Awaitable[Any]]) -> Any:
        self.requests += 1
        return await attempt(call)
