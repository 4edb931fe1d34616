"""Each tournament's one message in its channel: the sign-up with Join and Leave while it is open,
then the standings and the round's tables, then the final standings with the winner named.

It is kept current the way the league keeps a server's overview (bot.league.overview): what it
owes is counted in the store (`tournaments.wanted`, raised in the very transaction of a sign-up,
a result or a new round) and the message records the count it shows (`shown`). This worker, one
task per tournament at a time, edits it when it owes something, at most once every `every`
seconds; every request goes through the delivery worker's `attempt` (a short timeout, what a
failure means) and is tried again after Discord's `retry_after` or a growing pause; the first
post carries a nonce, so a retry never doubles it. After a restart the same message is edited;
a deleted one is posted again. It never pings anyone.
"""
from __future__ import annotations

import asyncio
import logging
import math
from typing import Any, Awaitable, Callable

import discord

from bot.delivery.requests import Failure, attempt, nonce_for
from bot.storage import Storage
from bot.tournaments.storage import TournamentRow

log = logging.getLogger(__name__)

EVERY = 5.0     # seconds between two edits of one tournament's message, at least
SETTLE = 1.0    # an edit waits this long after the first change it shows (a burst makes one edit)
BACKOFF = (1.0, 3.0, 10.0, 30.0, 60.0, 120.0, 300.0)

Render = Callable[[TournamentRow], Awaitable[tuple[str, discord.ui.View | None]]]


class TournamentMessages:
    def __init__(self, client: discord.Client, storage: Storage, render: Render) -> None:
        self.client = client
        self.storage = storage
        self.render = render  # a tournament -> its message's text and buttons (bot.tournaments.runner)
        self.every = EVERY
        self.requests = 0
        self.stopping = False
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._shown_at: dict[int, float] = {}
        self._owed_at: dict[int, float] = {}

    def kick(self, tournament_id: int, *, at_once: bool = False) -> None:
        """The tournament's message owes something: edit it now, or once the pause between edits
        is over (`at_once`: a new message, shown without waiting)."""
        if self.stopping:
            return
        loop = asyncio.get_running_loop()
        if at_once:
            self._owed_at[tournament_id] = -math.inf
        self._owed_at.setdefault(tournament_id, loop.time())
        task = self._tasks.get(tournament_id)
        if task is not None and not task.done():
            self._again.add(tournament_id)
            return
        self._tasks[tournament_id] = loop.create_task(self._run(tournament_id),
                                                      name=f"tournament-message-{tournament_id}")

    async def stop(self) -> None:
        self.stopping = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def _run(self, tournament_id: int) -> None:
        tries = 0
        try:
            while not self.stopping:
                self._again.discard(tournament_id)
                try:
                    wait = await self._pass(tournament_id)
                except Exception:  # noqa: BLE001 - a bug must not stop the message for good
                    log.exception("The message of tournament %s failed; trying again", tournament_id)
                    wait = BACKOFF[-1]
                if isinstance(wait, Failure):
                    wait = wait.after or BACKOFF[min(tries, len(BACKOFF) - 1)]
                    tries += 1
                elif wait is None:
                    if tournament_id in self._again:
                        continue
                    break
                else:
                    tries = 0
                if wait > 0:
                    await asyncio.sleep(wait)
        finally:
            if self._tasks.get(tournament_id) is asyncio.current_task():
                del self._tasks[tournament_id]

    async def _pass(self, tournament_id: int) -> float | Failure | None:
        """One look at the message: None when it shows everything, a pause before the next look,
        or the failure that stopped it."""
        row = await self.storage.tournament(tournament_id)
        if row is None or row.shown >= row.wanted:
            return None
        loop = asyncio.get_running_loop()
        due = max(self._shown_at.get(tournament_id, -math.inf) + self.every,
                  self._owed_at.setdefault(tournament_id, loop.time()) + SETTLE)
        if due > loop.time():
            return due - loop.time()
        self._owed_at.pop(tournament_id, None)
        text, view = await self.render(row)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        none = discord.AllowedMentions.none()
        result: Any
        if row.message_id is not None:
            message_id = row.message_id
            result = await self._request(lambda: channel.get_partial_message(message_id).edit(
                content=text, view=view, allowed_mentions=none))
            if isinstance(result, Failure) and result.kind == "gone" and result.what == "message":
                await self.storage.tournament_message_gone(tournament_id, message_id)
                return 0.0  # posted again at once
        else:
            nonce = nonce_for("tournament", tournament_id, row.channel_id, row.posts)
            if view is None:
                result = await self._request(lambda: channel.send(text, allowed_mentions=none, nonce=nonce))
            else:
                result = await self._request(lambda: channel.send(text, view=view, allowed_mentions=none, nonce=nonce))
        self._shown_at[tournament_id] = loop.time()
        if isinstance(result, Failure):
            log.warning("Could not show tournament %s in channel %s: %s; it stays owed", tournament_id,
                        row.channel_id, result.reason)
            if result.kind in ("blocked", "refused", "gone"):
                return Failure("retry", result.reason, after=BACKOFF[-1], status=result.status)
            return result
        await self.storage.tournament_shown(tournament_id, message_id=result.id, shown=row.wanted)
        log.info("tournament=%s message %s", tournament_id, "edited" if row.message_id is not None else "posted")
        return 0.0

    async def _request(self, call: Callable[[], Awaitable[Any]]) -> Any:
        self.requests += 1
        return await attempt(call)
