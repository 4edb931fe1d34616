"""A click answered with the message it was on.

Discord wants every click answered within 3 s. The usual answer is "deferred" and then a request
of its own to edit the board or the DM the button was on: two requests. Here the click's handler
makes the move and leaves the answer to the delivery worker: when it edits that very message, it
edits it as the click's answer (one request). Whatever the worker does not answer that way, it
defers at the end of the game's pass; and should the pass take long (Discord hangs), a timer
defers the click before Discord's 3 s are up. Whoever answers first claims the click, so it is
answered exactly once.

Edits of a message (a click's answer, a toggle's, the worker's) go out one at a time: Discord may
carry out an edit that got no answer in time long after, over a newer one, and the message would
go back to what it showed before. So a request that edits a message is not given up at its
timeout but followed until Discord answers it (or until it can no longer land, `LATE_LANDING`),
and no other edit of that message goes out meanwhile (`in_flight`, `settle`); `landed` tells the
worker when the message may be edited again.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.delivery.requests import LATE_LANDING, REQUEST_TIMEOUT, Failure, attempt

log = logging.getLogger(__name__)

T = TypeVar("T")

WAIT = 2.0  # seconds after which a click nobody answered yet is deferred (Discord allows 3)
SETTLE = 1.0  # seconds an edit waits for an earlier edit of its message to land before giving way
# Seconds after which an edit Discord has not answered is given up: it can no longer land then.
GIVE_UP = REQUEST_TIMEOUT + LATE_LANDING


class Pending:
    """A click waiting for its answer."""

    def __init__(self, interaction: discord.Interaction, message_id: int, game_id: int) -> None:
        self.interaction = interaction
        self.message_id = message_id  # the message the click was on
        self.game_id = game_id
        self.claimed = False
        self.timer: asyncio.TimerHandle | None = None

    def claim(self) -> bool:
        if self.claimed or self.interaction.response.is_done():
            return False
        self.claimed = True
        if self.timer is not None:
            self.timer.cancel()
        return True


class Answers:
    def __init__(self, landed: Callable[[int], None] = lambda message_id: None) -> None:
        self._by_message: dict[int, Pending] = {}
        # Messages an edit of which got no answer in time (it may land after a newer one): the
        # worker takes them (`took_late`) and edits them once more after it could have landed.
        self._late: set[int] = set()
        # Edits under way, by message: each until Discord answers it or it can no longer land
        # (then given up), with that loop time.
        self._in_flight: dict[int, dict[asyncio.Future[Any], float]] = {}
        # Messages an edit of an earlier run may still land on (a stored late edit), until when
        # (loop time).
        self._held: dict[int, float] = {}
        self.landed = landed  # (message id): its edits under way are all over

    # ------------------------------------------------------------------ edits one at a time

    def in_flight(self, message_id: int) -> float | None:
        """Seconds until every edit of the message under way has landed or can no longer land
        (at most); None when none is."""
        now = asyncio.get_running_loop().time()
        if message_id in self._held and self._held[message_id] <= now:
            del self._held[message_id]
        ends = [*self._in_flight.get(message_id, {}).values(), *([self._held[message_id]] if message_id in self._held
                                                                 else [])]
        return max(0.0, max(ends) - now) if ends else None

    async def settle(self, message_id: int, seconds: float = SETTLE) -> float | None:
        """Wait up to `seconds` for the message's edits under way; what `in_flight` says then."""
        edits = self._in_flight.get(message_id)
        if edits:
            await asyncio.wait(list(edits), timeout=seconds)
        return self.in_flight(message_id)

    def hold(self, message_id: int, seconds: float) -> None:
        """An edit of the message made before (by an earlier run) may land for `seconds` more."""
        if seconds > 0:
            until = asyncio.get_running_loop().time() + seconds
            self._held[message_id] = max(until, self._held.get(message_id, until))

    def _over(self, message_id: int, edit: asyncio.Future[Any]) -> None:
        if not edit.cancelled():
            edit.exception()  # looked at: how it ended was judged (or given up on) already
        edits = self._in_flight.get(message_id, {})
        edits.pop(edit, None)
        if not edits:
            self._in_flight.pop(message_id, None)
            self.landed(message_id)

    def _send(self, message_id: int, call: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """An edit of the message sent, followed until Discord answers it or `GIVE_UP`."""
        loop = asyncio.get_running_loop()
        edit = asyncio.ensure_future(call())
        give_up = loop.call_later(GIVE_UP, edit.cancel)
        edit.add_done_callback(lambda _: give_up.cancel())
        self._in_flight.setdefault(message_id, {})[edit] = loop.time() + GIVE_UP
        edit.add_done_callback(lambda done: self._over(message_id, done))
        return edit

    async def _edit_once(self, message_id: int, call: Callable[[], Awaitable[T]]) -> T | Failure:
        """One edit of the message, judged after the usual timeout (bot.delivery.requests), but
        followed beyond it (`_send`)."""
        edit = self._send(message_id, call)
        return await attempt(lambda: asyncio.shield(edit))

    def stop(self) -> None:
        """The bot stops: edits still followed are given up."""
        for edits in list(self._in_flight.values()):
            for edit in list(edits):
                edit.cancel()

    async def answer_edit(self, interaction: discord.Interaction, **fields: Any) -> None:
        """A click's own answer with its message edited (a toggle): deferred instead while an
        earlier edit of the message may still land over it (the click then shows nothing)."""
        message = interaction.message
        if message is None:
            await interaction.response.edit_message(**fields)
            return
        if await self.settle(message.id) is not None:
            log.info("A click's answer on message %s waits for no earlier edit of it: deferred", message.id)
            await interaction.response.defer()
            return
        edit = self._send(message.id, lambda: interaction.response.edit_message(**fields))
        try:
            await asyncio.shield(edit)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if edit.cancelled() and not (task is not None and task.cancelling()):
                log.info("A click's answer on message %s got no answer in time: given up", message.id)
                return
            raise

    def took_late(self, message_id: int) -> bool:
        """Whether an edit of the message got no answer in time since this was last asked."""
        if message_id in self._late:
            self._late.discard(message_id)
            return True
        return False

    def expect(self, interaction: discord.Interaction, game_id: int) -> Pending | None:
        """A click on a message (a button or a menu) whose answer the worker may give with that
        message edited. None for a slash command (nothing to edit)."""
        message = interaction.message
        if message is None or interaction.type is not discord.InteractionType.component:
            return None
        pending = Pending(interaction, message.id, game_id)
        self._by_message[message.id] = pending
        loop = asyncio.get_running_loop()
        pending.timer = loop.call_later(WAIT, lambda: loop.create_task(self.release(pending)))
        return pending

    def forget(self, pending: Pending | None) -> None:
        """The click is answered otherwise (a refusal): nothing waits for it any more."""
        if pending is None:
            return
        if pending.timer is not None:
            pending.timer.cancel()
        if self._by_message.get(pending.message_id) is pending:
            del self._by_message[pending.message_id]

    async def release(self, pending: Pending) -> None:
        """Defer a click nobody answered (its message is edited the usual way, if at all)."""
        self.forget(pending)
        if pending.claim():
            await attempt(pending.interaction.response.defer)

    async def release_game(self, game_id: int) -> None:
        """The game's pass is over: its clicks not answered with their message are deferred."""
        for pending in [p for p in self._by_message.values() if p.game_id == game_id]:
            await self.release(pending)

    async def edit(self, message: discord.PartialMessage, **fields: Any) -> Any:
        """Edit `message`: as the answer to the click made on it, when one waits; else as usual.
        Returns the message (or the Failure met)."""
        pending = self._by_message.get(message.id)
        if pending is not None and pending.claim():
            self.forget(pending)
            result = await self._edit_once(message.id, lambda: pending.interaction.response.edit_message(**fields))
            if not isinstance(result, Failure):
                return message
            if result.late:
                self._late.add(message.id)
            log.info("Answering a click with its message failed (%s); editing it as usual", result.reason)
        edited = await self._edit_once(message.id, lambda: message.edit(**fields))
        if isinstance(edited, Failure):
            if edited.late:
                self._late.add(message.id)
            return edited
        return message

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        """Say something to a mover alone: the click's own answer when it has none yet, else a
        follow-up (ephemeral)."""
        pending = next((p for p in self._by_message.values() if p.interaction is interaction), None)
        if pending is not None and pending.claim():
            self.forget(pending)
            await attempt(lambda: interaction.response.send_message(text, ephemeral=True))
            return
        await attempt(lambda: interaction.followup.send(text, ephemeral=True))
