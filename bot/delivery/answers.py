"""A click answered with the message it was on.

Discord wants every click answered within 3 s. The usual answer is "deferred" and then a request
of its own to edit the board or the DM the button was on: two requests. Here the click's handler
makes the move and leaves the answer to the delivery worker: when it edits that very message, it
edits it as the click's answer (one request). Whatever the worker does not answer that way, it
defers at the end of the game's pass; and should the pass take long (Discord hangs), a timer
defers the click before Discord's 3 s are up. Whoever answers first claims the click, so it is
answered exactly once.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.delivery.requests import Failure, attempt

log = logging.getLogger(__name__)

WAIT = 2.0  # seconds after which a click nobody answered yet is deferred (Discord allows 3)


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
    def __init__(self) -> None:
        self._by_message: dict[int, Pending] = {}
        # Messages an edit of which got no answer in time (it may land after a newer one): the
        # worker takes them (`took_late`) and edits them once more after it could have landed.
        self._late: set[int] = set()

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
            result = await attempt(lambda: pending.interaction.response.edit_message(**fields))
            if not isinstance(result, Failure):
                return message
            if result.late:
                self._late.add(message.id)
            log.info("Answering a click with its message failed (%s); editing it as usual", result.reason)
        edited = await attempt(lambda: message.edit(**fields))
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
