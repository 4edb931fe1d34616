"""A click answered with the message it was on.

Discord wants every click answered within 3 s. The usual answer is "deferred" and then a request
of its own to edit the board or the DM the button was on: two requests. When the delivery worker
edits that very message soon enough, it edits it as the click's answer instead (one request).
The click's handler waits a little for that; if the worker has not answered by then (a slow
drawing, a Discord that fails), the handler defers and the worker edits the message as usual.

Whoever answers first claims the click, so it is answered exactly once.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.delivery.requests import Failure, attempt

log = logging.getLogger(__name__)

WAIT = 2.0  # seconds a click's handler waits for the worker's answer before deferring


class Pending:
    """A click waiting for its answer."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.claimed = False
        self.answered = asyncio.Event()

    def claim(self) -> bool:
        if self.claimed or self.interaction.response.is_done():
            return False
        self.claimed = True
        return True


class Answers:
    def __init__(self) -> None:
        self._by_message: dict[int, Pending] = {}

    def expect(self, interaction: discord.Interaction) -> Pending | None:
        """A click on a message (a button or a menu): the worker may answer it with that message
        edited. None for a slash command (nothing to edit)."""
        message = interaction.message
        if message is None or interaction.type is not discord.InteractionType.component:
            return None
        pending = Pending(interaction)
        self._by_message[message.id] = pending
        return pending

    def forget(self, pending: Pending | None) -> None:
        if pending is not None and self._by_message.get(pending.interaction.message.id) is pending:
            del self._by_message[pending.interaction.message.id]

    async def run(self, pending: Pending | None, move: Any, settled: Any = None) -> Any:
        """A click's handler: run `move` (a coroutine: the move pipeline); then wait, within `WAIT`
        of the click in all, for the worker to answer the click with its message (or to finish
        without it: `settled()`, the game's deliveries done), else defer it (its message is then
        edited the usual way). A refusal raised at once is answered by the error handler as usual;
        a move that takes longer than `WAIT` gets the click deferred first."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        task = asyncio.ensure_future(move)
        await asyncio.wait({task}, timeout=WAIT)
        if task.done() and task.exception() is not None:
            self.forget(pending)
            return task.result()  # raises it, for the error handler
        if pending is not None and not task.done() and pending.claim():
            await pending.interaction.response.defer()  # slow work: answered now, edited later
            pending.answered.set()
        result = await task
        if pending is not None:
            waits = [asyncio.ensure_future(pending.answered.wait())]
            if settled is not None:
                waits.append(asyncio.ensure_future(settled()))
            await asyncio.wait(waits, timeout=max(0.0, WAIT - (loop.time() - started)),
                               return_when=asyncio.FIRST_COMPLETED)
            for waiting in waits:
                waiting.cancel()
            self.forget(pending)
            if pending.claim():
                await pending.interaction.response.defer()
                pending.answered.set()
        return result

    async def edit(self, message: discord.PartialMessage, **fields: Any) -> Any:
        """Edit `message`: as the answer to the click made on it, when one waits; else as usual.
        Returns the message (or the Failure met)."""
        pending = self._by_message.get(message.id)
        if pending is not None and pending.claim():
            self.forget(pending)
            result = await attempt(lambda: pending.interaction.response.edit_message(**fields))
            pending.answered.set()
            if not isinstance(result, Failure):
                return message
            log.info("Answering a click with its message failed (%s); editing it as usual", result.reason)
        result = await attempt(lambda: message.edit(**fields))
        return result if isinstance(result, Failure) else message

    async def tell(self, interaction: discord.Interaction, text: str) -> None:
        """Say something to a mover alone: the click's own answer when it has none yet, else a
        follow-up (ephemeral)."""
        pending = next((p for p in self._by_message.values() if p.interaction is interaction), None)
        if pending is not None and pending.claim():
            self.forget(pending)
            await attempt(lambda: interaction.response.send_message(text, ephemeral=True))
            pending.answered.set()
            return
        await attempt(lambda: interaction.followup.send(text, ephemeral=True))
