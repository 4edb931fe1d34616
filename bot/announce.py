"""What the bot posts after something happens: the board in the channel and private views by DM.

Boards are normal channel messages (interaction tokens expire after 15 minutes; a board must
outlive them). Images are rendered in a worker thread so the event loop keeps serving others.
"""
from __future__ import annotations

import asyncio
import io
import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import discord

from games.core import Event, Game, Outcome, SubsetChoice

from bot import presenter
from bot.components import Choice, board_view, private_view
from bot.storage import GameRow, Storage

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

Renderer = Callable[[dict, list[str]], bytes]

# Probing hidden variants is only a second leak check (see public_choices); a fixed generator
# keeps it reproducible.
PROBES_PER_OWNER = 2


@dataclass(frozen=True)
class PrivatePayload:
    content: str
    file: discord.File | None
    view: discord.ui.View | None


def choices_for(game: Game, state: Any, seat: int) -> list[Choice]:
    return [Choice(action.encode(), game.describe(state, seat, action)) for action in game.legal_actions(state, seat)]


def toggles_for(game: Game, state: Any, seat: int) -> list[SubsetChoice]:
    """Families of the seat's actions the engine wants shown as toggles (optional contract)."""
    describe = getattr(game, "subset_choices", None)
    return list(describe(state, seat)) if describe is not None else []


def public_choices(game: Game, state: Any, seats: int) -> list[Choice]:
    """Moves that may go on the public board: only when one seat acts and its options reveal
    nothing hidden.

    A seat that holds secrets of its own (its view shows more than the public view: a hand of
    tiles) chooses privately, by DM or 'My hand', unless the engine declares these moves public
    (`moves_are_public`): whether options give a secret away cannot be decided by sampling.
    Then the engine's `hidden_variant` re-deals what is hidden from everyone (a deck's order)
    and the others' secrets; if the options and labels stay the same, they give nothing away.
    """
    to_act = game.to_act(state)
    if len(to_act) != 1:
        return []
    (seat,) = to_act
    declared_public = getattr(game, "moves_are_public", None)
    if declared_public is not None:
        if not declared_public(state, seat):
            return []
    elif private_delta(game.view(state, seat), game.view(state, None)):
        return []
    actions = game.legal_actions(state, seat)
    choices = [Choice(action.encode(), game.describe(state, seat, action)) for action in actions]
    probe = random.Random(0)
    public = game.view(state, None)
    # Seats whose view shows nothing beyond the public view hold no secrets to re-deal.
    owners = [None, *(other for other in range(seats)
                      if other != seat and private_delta(game.view(state, other), public))]
    try:
        for owner in owners:
            for _ in range(PROBES_PER_OWNER):
                variant = game.hidden_variant(state, owner, probe)
                # The actions first (cheap), then their labels, which may name a secret too.
                if game.legal_actions(variant, seat) != actions or any(
                        game.describe(variant, seat, action) != choice.label
                        for action, choice in zip(actions, choices)):
                    return []
    except Exception:  # noqa: BLE001 - an engine that cannot tell us keeps its moves private
        log.warning("hidden_variant failed for %s; keeping moves off the public board", game.name, exc_info=True)
        return []
    return choices


_ABSENT = object()


def private_delta(mine: Any, public: Any) -> Any:
    """The part of a seat's view that the public view does not show (recursively)."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {key: private_delta(value, public.get(key, _ABSENT)) for key, value in mine.items()
                if key != "viewer" and value != public.get(key, _ABSENT)}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return [None if a == b else private_delta(a, b) for a, b in zip(mine, public)]
    return mine


class Announcer:
    def __init__(self, bot: "GameBot", storage: Storage, render: Renderer) -> None:
        self.bot = bot
        self.storage = storage
        self.render = render

    # ------------------------------------------------------------------------ helpers

    def channel(self, table: GameRow) -> discord.PartialMessageable:
        # Partial: works without a cache, e.g. right after a restart or from a DM click.
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    @staticmethod
    def channel_url(table: GameRow) -> str:
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}"

    @staticmethod
    def board_url(table: GameRow) -> str | None:
        if table.board_message_id is None:
            return None
        return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.board_message_id}"

    async def image(self, view: dict, names: list[str], filename: str) -> discord.File | None:
        """The rendered view, or None if the renderer fails: a move is never lost to a drawing bug."""
        try:
            png = await asyncio.to_thread(self.render, view, names)
        except Exception:  # noqa: BLE001
            log.exception("Rendering %s failed; posting without an image", view.get("game"))
            return None
        return discord.File(io.BytesIO(png), filename=filename)

    async def strip_components(self, table: GameRow, message_id: int | None) -> None:
        """Take the buttons off an older message (clicks there would be refused anyway)."""
        if message_id is None:
            return
        try:
            await self.channel(table).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("Could not clear components of message %s", message_id)

    # -------------------------------------------------------------------------- board

    async def post_board(self, table: GameRow, game: Game, state: Any, content: str, *,
                         ping: Sequence[int] = (), choices: Sequence[Choice] | None = None) -> discord.Message:
        """Post the board (image, text, components) as a normal channel message and make it the
        latest: the previous board loses its buttons. `choices`: the public moves, if known."""
        public = game.view(state, None)
        file = await self.image(public, table.names, "board.png")
        view = None
        if table.status == "active":
            if choices is None:
                choices = public_choices(game, state, len(table.players))
            # Public choices exist only when exactly one seat acts; its toggles go with them.
            toggles = toggles_for(game, state, min(game.to_act(state))) if choices else []
            view = board_view(table.id, table.version, choices, toggles)
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(user_id) for user_id in ping])
        kwargs: dict[str, Any] = {"allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        message = await self.channel(table).send(presenter.clip(content), **kwargs)
        await self.strip_components(table, table.board_message_id)
        await self.storage.set_board_message(table.id, message.id)
        return message

    def status_line(self, table: GameRow, game: Game, state: Any) -> str:
        return presenter.named(game.view(state, None)["status"], table)

    def footer(self, table: GameRow, game: Game, state: Any) -> tuple[str, list[int]]:
        """'Your move' with mentions of who must act, or the outcome; and whom to ping."""
        outcome = game.outcome(state)
        if outcome is not None:
            return presenter.outcome_text(outcome, table), []
        to_act = sorted(game.to_act(state))
        ping = [table.player_at(seat).user_id for seat in to_act]
        line = presenter.next_move_line(table, to_act)
        if (days := getattr(self.bot, "days", None)) is not None:  # bot.days: the waiting seats' deadlines
            line = "\n".join(part for part in (line, days.deadline_text(table)) if part)
        return line, [user_id for user_id in ping if user_id > 0]  # bot.days: no computer

    # ----------------------------------------------------------------- private views

    async def private_payload(self, table: GameRow, game: Game, state: Any, seat: int,
                              lines: Sequence[str] = ()) -> PrivatePayload:
        guild = self.bot.get_guild(table.guild_id)
        channel = self.bot.get_channel(table.channel_id)
        header = presenter.dm_header(
            table, game,
            guild_name=guild.name if guild else f"server {table.guild_id}",
            channel_name=getattr(channel, "name", None) or str(table.channel_id),
            jump_url=self.channel_url(table),
        )
        view = game.view(state, seat)
        may_act = table.status == "active" and seat in game.to_act(state)
        choices = choices_for(game, state, seat) if may_act else []
        toggles = toggles_for(game, state, seat) if may_act else []
        components = private_view(table.id, table.version, choices, toggles)
        secrets = (view.get("private") or {}).get("summary")
        content = presenter.private_text(header, [*lines, *([secrets] if secrets else [])],
                                         presenter.named(view["status"], table), may_act, components is not None)
        return PrivatePayload(content, await self.image(view, table.names, "hand.png"), components)

    async def send_private(self, table: GameRow, game: Game, state: Any, seat: int,
                           lines: Sequence[str] = ()) -> bool:
        """DM a seat its private view. False (and dm_ok cleared) if its DMs are closed."""
        player = table.player_at(seat)
        if player.user_id < 0:  # bot.days: a computer seat reads no DMs
            return True
        payload = await self.private_payload(table, game, state, seat, lines)
        kwargs: dict[str, Any] = {}
        if payload.file is not None:
            kwargs["file"] = payload.file
        if payload.view is not None:
            kwargs["view"] = payload.view
        try:
            dm = await self.bot.create_dm(discord.Object(player.user_id))
            await dm.send(payload.content, **kwargs)
        except discord.Forbidden:  # 50007: the player does not accept DMs from us
            log.info("DMs closed for user %s (game %s)", player.user_id, table.id)
            await self.storage.set_dm_ok(table.id, player.user_id, False)
            return False
        if player.dm_ok is not True:
            await self.storage.set_dm_ok(table.id, player.user_id, True)
        return True

    # ----------------------------------------------------------------------- moments

    async def game_started(self, table: GameRow, game: Game, state: Any) -> None:
        closed = []
        for player in table.players:
            if not await self.send_private(table, game, state, player.seat):
                closed.append(player.name)
        footer, ping = self.footer(table, game, state)
        content = presenter.board_text([presenter.start_text(table, game, closed)],
                                       self.status_line(table, game, state), footer)
        await self.post_board(table, game, state, content, ping=ping)

    async def move_made(self, table: GameRow, game: Game, before: Any, after: Any, mover: int,
                        events: list[Event]) -> None:
        headline = presenter.public_event_lines(events, table)
        if not headline:
            headline = [f"{presenter.bold_names(table.names)[mover]} made a move."]
        footer, ping = self.footer(table, game, after)
        board_choices = public_choices(game, after, len(table.players))
        await self.post_board(table, game, after,
                              presenter.board_text(headline, self.status_line(table, game, after), footer),
                              ping=ping, choices=board_choices)
        public_views = (game.view(before, None), game.view(after, None))
        for player in table.players:
            if player.dm_ok is False:
                continue  # they use 'My hand' / `/game hand`; the board mention tells them when
            seat = player.seat
            lines = [presenter.named(e.text, table) for e in events if e.seat == seat]
            if lines or self._needs_private_update(game, before, after, seat, mover, bool(board_choices),
                                                   public_views):
                if not await self.send_private(table, game, after, seat, lines):
                    await self.channel(table).send(
                        f"📭 I could not DM **{discord.utils.escape_markdown(player.name)}** (DMs closed): "
                        "use the **My hand** button or `/game hand` to see your view and moves.",
                        allowed_mentions=discord.AllowedMentions.none(),
                    )

    @staticmethod
    def _needs_private_update(game: Game, before: Any, after: Any, seat: int, mover: int,
                              board_serves_actor: bool, public_views: tuple[dict, dict]) -> bool:
        """A seat hears privately when its hidden view changed or it faces a new decision that
        the public board does not already offer. `public_views`: the public views before and
        after, computed once for all seats."""
        public_before, public_after = public_views
        if private_delta(game.view(before, seat), public_before) != private_delta(
            game.view(after, seat), public_after
        ):
            return True
        if seat not in game.to_act(after) or board_serves_actor:
            return False
        return (
            seat == mover
            or seat not in game.to_act(before)
            or game.legal_actions(before, seat) != game.legal_actions(after, seat)
        )

    async def game_ended(self, table: GameRow, text: str) -> None:
        """Resignation or abandonment: take the buttons off the board and say so."""
        await self.strip_components(table, table.board_message_id)
        await self.channel(table).send(presenter.clip(text), allowed_mentions=discord.AllowedMentions.none())


def outcome_record(outcome: Outcome) -> dict:
    return {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": outcome.reason}
