"""What a click on a persistent component does (bot.components): built once at start-up with the
parts it hands the click to (bot.parts), so the components never look for the bot."""
from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.days.hints import Hints
from bot.days.orders import Orders
from bot.days.seats import ComputerSeats
from bot.delivery.answers import Answers
from bot.info import Info
from bot.locale import user_language
from bot.moves import Moves
from bot.tables import Tables

LATE_CLICK = 1.5  # seconds: a click older than this when it reaches the bot is answered before its move


@dataclass(frozen=True)
class ClickAnswers:
    """`bot.components.Clicks`: each kind of click handed to the part that answers it."""

    tables: Tables
    seats: ComputerSeats
    info: Info
    hints: Hints
    orders: Orders
    moves: Moves
    answers: Answers

    async def lobby(self, interaction: discord.Interaction, game_id: int, op: str) -> None:
        """Join, Leave, Start, and the host's computer seats, on a lobby message."""
        tables = self.tables
        # The lobby message itself is edited by the change (bot.moves: one way for every change
        # of a lobby): the click is only acknowledged here, once the change is stored (a refusal
        # is its answer instead).
        if op == "start":
            await interaction.response.defer()  # starting stores the first board and DMs
            await tables.start(game_id, interaction.user)
            return
        if op == "join":
            await tables.join(game_id, interaction.user)
        elif op == "leave":
            await tables.leave(game_id, interaction.user)
        else:  # bot.days: computer seats, the host's
            lang = user_language(interaction)
            await (self.seats.add(game_id, interaction.user, lang) if op == "computer"
                   else self.seats.remove(game_id, interaction.user, lang))
        await interaction.response.defer()

    async def hand(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.info.show_hand(interaction, game_id=game_id)

    async def hint(self, interaction: discord.Interaction, game_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await self.hints.hint(game_id, interaction.user, user_language(interaction))
        await interaction.followup.send(text, ephemeral=True)

    async def move(self, interaction: discord.Interaction, game_id: int, action: str, version: int) -> None:
        """A move clicked on a board or a DM. Its answer is that message, edited with the move by
        the delivery worker (bot.delivery.answers); a refusal is answered by the error handler."""
        answers = self.answers
        if (discord.utils.utcnow() - interaction.created_at).total_seconds() > LATE_CLICK:
            # It reached us late (a gateway outage): answered first, so that a click Discord has
            # given up (it told the player it failed) makes no move.
            await interaction.response.defer()
            pending = None
        else:
            pending = answers.expect(interaction, game_id)
        try:
            await self.moves.play(interaction.user, game_id=game_id, action_text=action, seen_version=version,
                                  interaction=interaction)
        except BaseException:
            answers.forget(pending)
            raise

    async def toggle(self, interaction: discord.Interaction, game_id: int, version: int, mask: int) -> None:
        """An item of a SubsetChoice flipped: the buttons drawn again with `mask` chosen."""
        message = interaction.message
        on_board = (message is not None and message.guild is not None
                    and not message.flags.ephemeral)
        view = await self.info.toggled_view(interaction.user, game_id=game_id, seen_version=version,
                                            mask=mask, on_board=on_board)
        # Never over a newer edit of the message: it waits for the worker's (bot.delivery.answers).
        await self.answers.answer_edit(interaction, view=view)

    async def order(self, interaction: discord.Interaction, game_id: int, index: int, on: bool) -> None:
        """A standing order flipped on a player's DM (it was `on`)."""
        await interaction.response.defer()  # the message is edited to show the order
        await self.orders.set_kind(game_id, interaction.user, index, not on, user_language(interaction))
        payload = await self.info.hand(interaction.user, game_id=game_id)
        await interaction.edit_original_response(content=payload.content, view=payload.view)
