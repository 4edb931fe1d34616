"""What the bot posts after something happens: the board in the channel and private views by DM.

Boards are normal channel messages (interaction tokens expire after 15 minutes; a board must
outlive them). Images are rendered in a worker thread so the event loop keeps serving others.
"""
from __future__ import annotations

import asyncio
import io
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import discord

from games.core import Msg, Event, Game, Outcome, SubsetChoice
from games.replay import move_is_invisible
from renderers import private_shown

from i18n import game_title, t, translate

from bot import presenter
from bot.locale import table_language
from bot.components import DICE_VERBS, Choice, board_view, private_view
from bot.records import post_early_end, post_game_end
from bot.storage import GameRow, Storage

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="draw")
"""Boards are drawn off the event loop by one thread, in turn: a board takes some 10-20 ms, so
one thread draws 50 or more a second, and more threads would not draw faster on a small VPS's
one core, while each keeps memory of its own (a board is some 6 MB while drawn, and after a
restart every owed board is drawn at once). bench/memory.py: 1,000 games in some 146 MiB with
one drawing thread, 152 with two, 156 with asyncio's default six."""

Renderer = Callable[[dict, list[str]], bytes]

# Probing hidden variants is only a second leak check (see public_choices); a fixed generator
# keeps it reproducible.
PROBES_PER_OWNER = 2


@dataclass(frozen=True)
class PrivatePayload:
    content: str
    file: discord.File | None
    view: discord.ui.View | None
    done: str = ""  # the same DM once its decision is over: no status, no call to move


def resigned(days_seats: dict, seat: int) -> bool:
    """Whether `days_seats` (storage.days_seats) says the seat's player resigned (bot.days)."""
    return days_seats.get(seat, {}).get("computer") == "resigned"


def label_names(table_or_names: Any) -> list[str]:
    """Seat names as plain text for labels (buttons, menus, autocomplete): no Markdown there."""
    return list(getattr(table_or_names, "names", table_or_names) or [])


def choices_for(game: Game, state: Any, seat: int, names: Sequence[str] = (), lang: str = "en") -> list[Choice]:
    """The seat's legal actions with their labels in words: engine text (a Msg or a legacy
    string with `{s0}` placeholders) always goes through `i18n.translate` with the names."""
    return [Choice(action.encode(), translate(game.describe(state, seat, action), lang, names))
            for action in game.legal_actions(state, seat)]


def toggles_for(game: Game, state: Any, seat: int, names: Sequence[str] = (), lang: str = "en") -> list[SubsetChoice]:
    """Families of the seat's actions the engine wants shown as toggles (optional contract),
    with every text in words; a toggle names its item's position and value ("Die 3: 5")."""
    describe = getattr(game, "subset_choices", None)
    if describe is None:
        return []
    families = []
    for family in describe(state, seat):
        item_id = "bot.table.die_item" if family.verb in DICE_VERBS else "bot.table.toggle_item"
        items = tuple((value, t(lang, item_id, position=value, value=translate(label, lang, names)))
                      for value, label in family.items)
        families.append(SubsetChoice(family.verb, items, translate(family.prompt, lang, names),
                                     translate(family.confirm, lang, names), size=family.size,
                                     chosen=tuple(family.chosen)))
    return families


def has_secrets(game: Game, state: Any, seats: int) -> bool:
    """A game shows secrets now if some seat's view holds more than the public view. Without
    secrets every move is a board button: no 'My hand' button and no DMs."""
    public = game.view(state, None)
    return any(private_delta(game.view(state, seat), public) for seat in range(seats))


def public_choices(game: Game, state: Any, seats: int, names: Sequence[str] = (), lang: str = "en") -> list[Choice]:
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
    raw = [game.describe(state, seat, action) for action in actions]
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
                        game.describe(variant, seat, action) != label
                        for action, label in zip(actions, raw)):
                    return []
    except Exception:  # noqa: BLE001 - an engine that cannot tell us keeps its moves private
        log.warning("hidden_variant failed for %s; keeping moves off the public board", game.name, exc_info=True)
        return []
    return [Choice(action.encode(), translate(label, lang, names)) for action, label in zip(actions, raw)]


_ABSENT = object()


def private_delta(mine: Any, public: Any) -> Any:
    """The part of a seat's view that the public view does not show (recursively)."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {key: private_delta(value, public.get(key, _ABSENT)) for key, value in mine.items()
                if key != "viewer" and value != public.get(key, _ABSENT)}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return [None if a == b else private_delta(a, b) for a, b in zip(mine, public)]
    return mine


ACCOUNT_MARK = "• "
ACCOUNT_LINES = 12  # the running account of a turn keeps its latest lines; `/game log` has all


def merge_account(account: Sequence[str], lines: Sequence[str]) -> list[str]:
    """The turn's running account with new lines added: a line that only repeats or extends
    the one before it ("… from stack 2." then "… from stack 2 (up to 3 rolls).") replaces it."""
    merged = list(account)
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if merged and (line == merged[-1] or line.startswith(merged[-1].rstrip(".").rstrip())):
            merged[-1] = line
        else:
            merged.append(line)
    if len(merged) > ACCOUNT_LINES:
        merged = ["…", *merged[-(ACCOUNT_LINES - 1):]]
    return merged


def account_of(content: str | None) -> list[str]:
    """The running account lines at the top of a turn message."""
    lines = []
    for line in (content or "").splitlines():
        if not line.startswith(ACCOUNT_MARK) and line != "…":
            break
        lines.append(line.removeprefix(ACCOUNT_MARK))
    return lines


def account_text(lines: Sequence[str]) -> list[str]:
    return [line if line == "…" else ACCOUNT_MARK + line for line in lines]


def turn_text(account: Sequence[str], status: str, footer: str) -> str:
    """A turn message: the running account, the status and who is next. A status that only
    repeats or extends the last line of the account ("… from stack 2." then "… from stack 2
    (up to 3 rolls).") takes that line's place instead of following it."""
    account = list(account)
    if account and status and status.rstrip(".").startswith(account[-1].rstrip(".")):
        account[-1], status = status, ""
    return presenter.board_text(account_text(account), status, footer)


class Announcer:
    """One channel message per turn, edited in place while the same player works through its
    sub-steps; a new message (with a mention) only when someone else must act. Likewise one
    DM per private decision, edited as it goes."""

    def __init__(self, bot: "GameBot", storage: Storage, render: Renderer) -> None:
        self.bot = bot
        self.storage = storage
        self.render = render
        # (game id, seat) -> (DM channel id, message id) of the seat's open private decision.
        # Lost on a restart, which then costs one extra DM, never a lost move.
        self._dm_messages: dict[tuple[int, int], tuple[int, int]] = {}
        # Those of them that still show buttons, with the user they went to: a new decision's DM
        # to the same user takes them off the old one (a "Change my choice" must not outlive the
        # choice it would change).
        self._dm_with_buttons: dict[tuple[int, int], int] = {}
        # The user each of those DMs went to: a seat that changed hands starts a new DM.
        self._dm_users: dict[tuple[int, int], int] = {}
        # What each of them says once its decision is over (PrivatePayload.done).
        self._dm_done: dict[tuple[int, int], str] = {}

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

    async def image(self, view: dict, names: list[str], filename: str, lang: str = "en",
                    description: str | None = None, *, drawn: bytes | None = None) -> discord.File | None:
        """The rendered view, with its alt text, or None if the renderer fails: a move is never
        lost to a drawing bug. `drawn`: this very view's PNG, if already drawn (`private_images`)."""
        arguments = (view, names) if lang == "en" else (view, names, lang)
        try:
            png = drawn if drawn is not None else \
                await asyncio.get_running_loop().run_in_executor(DRAWING, self.render, *arguments)
        except Exception:  # noqa: BLE001
            log.exception("Rendering %s failed; posting without an image", view.get("game"))
            return None
        return discord.File(io.BytesIO(png), filename=filename, description=description)

    async def private_images(self, table: GameRow, game: Game, state: Any, seats: Sequence[int], *,
                             board: bool = False) -> dict[tuple[int | None, str], bytes]:
        """The DM images of `state` for the seats that get one, drawn together where the renderer
        can (`many`: the board they share is drawn and compressed once), by (seat, language).
        Each is drawn from that seat's own view and goes only into that seat's DM of this very
        state, sent by the same move (a language changed meanwhile just misses and is drawn anew).
        `board`: the public board in the table's language is drawn with them, under (None, lang),
        when a DM image is drawn in that language (a renderer may share the board's drawing)."""
        many = getattr(self.render, "many", None)
        if many is None or len(seats) < (1 if board else 2):
            return {}
        days_seats = await self.storage.days_seats(table.id)
        public = game.view(state, None)
        by_language: dict[str, list[tuple[int | None, dict]]] = {}
        for seat in seats:
            if table.player_at(seat).user_id < 0 or resigned(days_seats, seat):
                continue  # no DM at all (send_private)
            view = game.view(state, seat)
            if private_delta(view, public) and private_shown(view):
                by_language.setdefault(await self.private_language(table, seat), []).append((seat, view))
        if board and table_language(table) in by_language:
            by_language[table_language(table)].insert(0, (None, public))
        images: dict[tuple[int | None, str], bytes] = {}
        for lang, entries in by_language.items():
            if len(entries) < 2:
                continue
            try:
                pngs = await asyncio.get_running_loop().run_in_executor(
                    DRAWING, many, [view for _, view in entries], table.names, lang)
            except Exception:  # noqa: BLE001
                log.exception("Rendering %s's DM images failed; drawing them one by one", game.name)
                continue
            images.update({(seat, lang): png for (seat, _), png in zip(entries, pngs)})
        return images

    async def strip_components(self, table: GameRow, message_id: int | None) -> None:
        """Take the buttons off an older message (clicks there would be refused anyway)."""
        if message_id is None:
            return
        try:
            await self.channel(table).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("Could not clear components of message %s", message_id)

    # -------------------------------------------------------------------------- board

    def _board_components(self, table: GameRow, game: Game, state: Any,
                          choices: Sequence[Choice] | None, *, hint: bool = False) -> discord.ui.View | None:
        if table.status != "active":
            return None
        lang = table_language(table)
        names = label_names(table)
        if choices is None:
            choices = public_choices(game, state, len(table.players), names, lang)
        # Public choices exist only when exactly one seat acts; its toggles go with them.
        toggles = toggles_for(game, state, min(game.to_act(state)), names, lang) if choices else []
        return board_view(table.id, table.version, choices, toggles,
                          hand=has_secrets(game, state, len(table.players)), hint=hint, lang=lang)

    @staticmethod
    def board_alt_text(table: GameRow, game: Game, state: Any, said: str) -> str:
        """The board's alt text, from public things only: the scores and what the message says."""
        from bot.records import running_scores  # late: bot.records builds on this module

        try:
            scores = running_scores(game, state)
        except Exception:  # noqa: BLE001 - a description must never cost a board
            scores = None
        return presenter.alt_text(table, game, scores, said, table_language(table))

    async def hint_button(self, table: GameRow) -> bool:
        """A practice table's turn message carries a Hint button (bot.days: practice tables)."""
        return table.status == "active" and (await self.storage.days_table(table.id))["practice"]

    async def post_board(self, table: GameRow, game: Game, state: Any, content: str, *,
                         ping: Sequence[int] = (), choices: Sequence[Choice] | None = None,
                         drawn: bytes | None = None) -> discord.Message:
        """Post the board (image, text, components) as a new channel message and make it the
        latest: the previous board loses its buttons. `choices`: the public moves, if known;
        `drawn`: this board's PNG, if already drawn (`private_images`)."""
        file = await self.image(game.view(state, None), table.names, "board.png", table_language(table),
                                self.board_alt_text(table, game, state, content), drawn=drawn)
        view = self._board_components(table, game, state, choices, hint=await self.hint_button(table))
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(user_id) for user_id in ping])
        kwargs: dict[str, Any] = {"allowed_mentions": mentions}
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        message = await self.channel(table).send(presenter.clip(content), **kwargs)
        await self.strip_components(table, table.board_message_id)
        await self.storage.set_board_message(table.id, message.id, table.version)
        return message

    async def edit_board(self, table: GameRow, game: Game, state: Any, content: str, *,
                         choices: Sequence[Choice] | None = None, drawn: bytes | None = None) -> bool:
        """Edit the latest board in place (text, image, components); edits never ping.
        False if the message is gone (then the caller posts a new one). `drawn`: this board's
        PNG, if already drawn (`private_images`)."""
        if table.board_message_id is None:
            return False
        file = await self.image(game.view(state, None), table.names, "board.png", table_language(table),
                                self.board_alt_text(table, game, state, content), drawn=drawn)
        view = self._board_components(table, game, state, choices, hint=await self.hint_button(table))
        try:
            await self.channel(table).get_partial_message(table.board_message_id).edit(
                content=presenter.clip(content), attachments=[file] if file is not None else [], view=view,
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("Could not edit board %s of game %s; posting a new one", table.board_message_id, table.id)
            return False
        await self.storage.set_board_message(table.id, table.board_message_id, table.version)  # owed no more
        return True

    async def _board_account(self, table: GameRow) -> list[str]:
        """The running account of the open turn message (read back from Discord, so it survives
        a restart)."""
        if table.board_message_id is None:
            return []
        try:
            message = await self.channel(table).fetch_message(table.board_message_id)
        except discord.HTTPException:
            return []
        return account_of(message.content)

    async def close_turn(self, table: GameRow, lines: Sequence[str]) -> None:
        """The turn message becomes history: its account plus the move that ended the turn,
        without buttons, status or mentions."""
        if table.board_message_id is None:
            return
        account = merge_account(await self._board_account(table), lines)
        try:
            await self.channel(table).get_partial_message(table.board_message_id).edit(
                content=presenter.clip("\n".join(account_text(account))) or "…", view=None,
                allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("Could not close turn message %s", table.board_message_id)

    def status_line(self, table: GameRow, game: Game, state: Any) -> str:
        return presenter.named(game.view(state, None)["status"], table, table_language(table))

    def footer(self, table: GameRow, game: Game, state: Any) -> tuple[str, list[int]]:
        """'Your move' with mentions of who must act, or the outcome; and whom to ping."""
        outcome = game.outcome(state)
        if outcome is not None:
            return presenter.outcome_text(outcome, table, table_language(table), game), []
        to_act = sorted(game.to_act(state))
        ping = [table.player_at(seat).user_id for seat in to_act]
        line = presenter.next_move_line(table, to_act, table_language(table))
        if (days := getattr(self.bot, "days", None)) is not None:  # bot.days: the waiting seats' deadlines
            line = "\n".join(part for part in (line, days.deadline_text(table)) if part)
        return line, [user_id for user_id in ping if user_id > 0]  # bot.days: no computer

    # ----------------------------------------------------------------- private views

    async def private_payload(self, table: GameRow, game: Game, state: Any, seat: int,
                              lines: Sequence[Any] = (), *,
                              drawn: dict[tuple[int, str], bytes] | None = None) -> PrivatePayload:
        """A seat's private view for a DM or 'My hand', in its player's language (that of their
        last interaction with the bot; the table's until then). `lines`: engine texts to add;
        `drawn`: DM images of this state already drawn (`private_images`)."""
        lang = await self.private_language(table, seat)
        lines = [presenter.named(text, table, lang) for text in lines]
        guild = self.bot.get_guild(table.guild_id)
        channel = self.bot.get_channel(table.channel_id)
        header = presenter.dm_header(
            table, game,
            guild_name=guild.name if guild else f"server {table.guild_id}",
            channel_name=getattr(channel, "name", None) or str(table.channel_id),
            jump_url=self.channel_url(table), lang=lang,
        )
        view = game.view(state, seat)
        active = table.status == "active"
        may_act = active and seat in game.to_act(state)
        names = label_names(table)
        # A seat the game does not wait for may still have optional moves ("Change my choice").
        choices = choices_for(game, state, seat, names, lang) if active else []
        toggles = toggles_for(game, state, seat, names, lang) if may_act else []
        components = private_view(table.id, table.version, choices, toggles, lang=lang)
        secrets = (view.get("private") or {}).get("summary")
        content = presenter.private_text(
            header, [*lines, *([presenter.named(secrets, table, lang)] if secrets else [])],
            presenter.named(view["status"], table, lang), may_act, components is not None, lang)
        # An image only when it shows something private: the public board is in the channel.
        private = bool(private_delta(view, game.view(state, None))) and private_shown(view)
        description = presenter.clip(" ".join((
            t(lang, "bot.table.alt_title", game=game_title(game), id=table.id),
            presenter.named(secrets, table, lang) if secrets else "",
            presenter.named(view["status"], table, lang))).replace("**", ""), presenter.ALT_TEXT_LIMIT)
        file = await self.image(view, table.names, "hand.png", lang, description,
                                drawn=(drawn or {}).get((seat, lang))) if private else None
        done = presenter.private_text(header, [*lines, *([presenter.named(secrets, table, lang)] if secrets else [])],
                                      t(lang, "bot.table.dm_done"), False, False, lang)
        return PrivatePayload(content, file, components, done)

    async def private_language(self, table: GameRow, seat: int) -> str:
        return await self.storage.language_of_user(table.player_at(seat).user_id, table_language(table))

    async def send_private(self, table: GameRow, game: Game, state: Any, seat: int,
                           lines: Sequence[Any] = (), *, new_decision: bool = True,
                           drawn: dict[tuple[int, str], bytes] | None = None) -> bool:
        """DM a seat its private view: a new DM for a new decision, else an edit of the open
        one. False (and dm_ok cleared) if its DMs are closed. `drawn`: see private_payload."""
        player = table.player_at(seat)
        if player.user_id < 0:  # bot.days: a computer seat reads no DMs
            return True
        key = (table.id, seat)
        if await self.seat_left(table, seat):
            # A player who resigned (the computer plays the seat) learns nothing more of it.
            await self.close_private(table, seat)
            return True
        payload = await self.private_payload(table, game, state, seat, lines, drawn=drawn)
        known = self._dm_messages.get(key)
        if known is not None and self._dm_users.get(key) != player.user_id:
            # The seat changed hands (/game replace): the old player's DM is never edited again.
            await self.close_private(table, seat)
            known = None
        if known is None and not new_decision:
            known = await self._open_dm(table, player.user_id)
        if known is not None and not new_decision:
            channel_id, message_id = known
            try:
                await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(
                    content=payload.content, view=payload.view,
                    attachments=[payload.file] if payload.file is not None else [])
                self._note_buttons(key, payload.view, player.user_id)
                self._dm_done[key] = payload.done
                return True
            except discord.HTTPException:
                log.info("Could not edit DM %s; sending a new one", message_id)
        elif known is not None and self._dm_with_buttons.get(key) == player.user_id:
            await self.finish_private(table, seat)  # a new decision: the old DM asks no more
        kwargs: dict[str, Any] = {}
        if payload.file is not None:
            kwargs["file"] = payload.file
        if payload.view is not None:
            kwargs["view"] = payload.view
        try:
            dm = await self.bot.create_dm(discord.Object(player.user_id))
            message = await dm.send(payload.content, **kwargs)
        except discord.Forbidden:  # 50007: the player does not accept DMs from us
            log.info("DMs closed for user %s (game %s)", player.user_id, table.id)
            await self.storage.set_dm_ok(table.id, player.user_id, False)
            return False
        self._dm_messages[key] = (message.channel.id, message.id)
        self._dm_users[key] = player.user_id
        self._dm_done[key] = payload.done
        self._note_buttons(key, payload.view, player.user_id)
        if player.dm_ok is not True:
            await self.storage.set_dm_ok(table.id, player.user_id, True)
        return True

    async def seat_left(self, table: GameRow, seat: int) -> bool:
        """Whether the seat's player resigned and the computer plays it now (bot.days): such a
        player gets nothing private of the seat any more (no DMs, no 'My hand')."""
        return resigned(await self.storage.days_seats(table.id), seat)

    async def close_private(self, table: GameRow, seat: int) -> None:
        """End the seat's open DM (no buttons, no call to move) and forget it: nothing more goes there."""
        await self.finish_private(table, seat)
        key = (table.id, seat)
        self._dm_messages.pop(key, None)
        self._dm_users.pop(key, None)
        self._dm_done.pop(key, None)

    async def finish_private(self, table: GameRow, seat: int) -> None:
        """A DM whose decision is over: it keeps what it showed, loses its buttons, its status and
        its "your move" line, and says that the decision is over."""
        key = (table.id, seat)
        known = self._dm_messages.get(key)
        if known is None or self._dm_with_buttons.pop(key, None) is None:
            return
        channel_id, message_id = known
        done = self._dm_done.get(key)
        try:
            message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
            await (message.edit(content=done, view=None) if done else message.edit(view=None))
        except discord.HTTPException:
            log.info("Could not close DM %s", message_id)

    def _note_buttons(self, key: tuple[int, int], view: discord.ui.View | None, user_id: int) -> None:
        if view is not None:
            self._dm_with_buttons[key] = user_id
        else:
            self._dm_with_buttons.pop(key, None)

    async def _open_dm(self, table: GameRow, user_id: int) -> tuple[int, int] | None:
        """After a restart: the player's latest DM from us, if it belongs to this game (it names
        the game number and links its channel)."""
        try:
            dm = await self.bot.create_dm(discord.Object(user_id))
            async for message in dm.history(limit=1):
                if (message.author.id == self.bot.user.id and f"#{table.id})" in message.content
                        and self.channel_url(table) in message.content):
                    return message.channel.id, message.id
        except discord.HTTPException:
            log.info("Could not read the DMs of user %s", user_id)
        return None

    # ----------------------------------------------------------------------- moments

    async def game_started(self, table: GameRow, game: Game, state: Any) -> None:
        """The first turn message, mentioning who acts first. DMs only in a game with secrets."""
        closed = []
        if has_secrets(game, state, len(table.players)):
            for player in table.players:
                if not await self.send_private(table, game, state, player.seat):
                    closed.append(player.name)
        footer, ping = self.footer(table, game, state)
        lang = table_language(table)
        settings = await self.storage.days_table(table.id)
        account = presenter.start_text(table, game, closed, lang, practice=settings["practice"],
                                       hints=settings["hints"]).splitlines()
        content = presenter.board_text(account_text(account), self.status_line(table, game, state), footer)
        await self.post_board(table, game, state, content, ping=ping)

    async def move_made(self, table: GameRow, game: Game, before: Any, after: Any, mover: int,
                        events: list[Event], *, public: bool = True, action: Any = None) -> None:
        """The board (new or edited) and the players' DMs after a move. `public=False`: the DMs
        only, from a process that does not serve the game's server (its board stays owed)."""
        lang = table_language(table)
        if move_is_invisible(game, before, after, events) and table.board_message_id is not None:
            # A secret preparation (a document armed during the secret choice): the channel must
            # not learn even that it happened, so the board stays as it is, and is not owed.
            await self.storage.set_board_message(table.id, table.board_message_id, version=table.version)
            public = False
        lines = presenter.public_event_lines(events, table, lang)
        if not lines:
            lines = [presenter.made_a_move(table, mover, lang, game, before, after, action)]
        waiting_before, waiting_after = game.to_act(before), game.to_act(after)
        footer, _ = self.footer(table, game, after)
        status = self.status_line(table, game, after)
        board_choices = public_choices(game, after, len(table.players), label_names(table), lang)
        public_views = (game.view(before, None), game.view(after, None))
        informed = [
            (player, [e.text for e in events if e.seat == player.seat])  # in the seat's own language
            for player in table.players if player.dm_ok is not False
            # (a player whose DMs are closed uses 'My hand' / `/game hand`; the board mention tells them when)
        ]
        informed = [(player, private_lines) for player, private_lines in informed
                    if private_lines or self._needs_private_update(game, before, after, player.seat, mover,
                                                                   bool(board_choices), public_views)]
        # Several seats' images of one move (a new round's secret choice) are drawn together, in the
        # drawing thread while the bot builds the turn message, and the turn message's board with
        # them: where a game's public board and its DM images share the board above a seat's own
        # strip, it is drawn once.
        drawing = asyncio.ensure_future(self.private_images(
            table, game, after, [player.seat for player, _ in informed],
            board=public and game.outcome(after) is None))
        try:
            await self._post_move(table, game, after, mover, events, lines, waiting_before, waiting_after, footer,
                                  status, board_choices, public, lang, drawing)
        except BaseException:
            drawing.cancel()
            raise
        drawn = await drawing
        # The DMs go out side by side: on Discord each is a request of its own, and a new round of
        # six players waited for six in a row. The mover's own DM goes on being edited, even when
        # its move reopened its choice.
        sent = await asyncio.gather(*(
            self.send_private(table, game, after, player.seat, private_lines, drawn=drawn,
                              new_decision=player.seat in waiting_after and player.seat not in waiting_before
                              and player.seat != mover)
            for player, private_lines in informed), return_exceptions=True)
        for result in sent:
            if isinstance(result, BaseException):
                raise result
        for (player, _), delivered in zip(informed, sent):
            if not delivered and public:
                await self.channel(table).send(
                    presenter.dm_closed_text(player.name, lang),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        for player in table.players:
            # A DM that still asks its seat to move, though the seat has nothing to do now.
            if (table.id, player.seat) in self._dm_with_buttons and not game.legal_actions(after, player.seat):
                await self.finish_private(table, player.seat)
        if table.status != "active":
            for player in table.players:
                self._dm_messages.pop((table.id, player.seat), None)
                self._dm_with_buttons.pop((table.id, player.seat), None)
                self._dm_users.pop((table.id, player.seat), None)
                self._dm_done.pop((table.id, player.seat), None)

    async def _post_move(self, table: GameRow, game: Game, after: Any, mover: int, events: list[Event],
                         lines: list[str], waiting_before: set[int], waiting_after: set[int], footer: str,
                         status: str, board_choices: Any, public: bool, lang: str,
                         drawing: "asyncio.Future[dict[tuple[int | None, str], bytes]]") -> None:
        """The channel's side of a move: the turn message edited or a new one, or the game's end.
        `drawing`: the move's DM images, with the board if it was drawn with them."""
        if public:
            # The same wait goes on (the mover's sub-steps, or others of a simultaneous choice still
            # choosing), or the game is over: edit the turn message. Someone new must act: a new
            # message that mentions only them.
            # A seat that takes back a choice (an optional move) waits again, but its own move
            # wakes no one: that is still the same wait.
            same_wait = waiting_after - {mover} <= waiting_before
            edited = False
            if game.outcome(after) is not None:
                # bot.records: one end-of-game message with the final board, scores and score chart;
                # the last turn message keeps its account. The win is said once, by the outcome.
                ending = presenter.public_event_lines([e for e in events if e.kind not in ("end", "win")], table, lang)
                await post_game_end(self, table, game, after, ending)
                # After the new post: a refused post leaves the old board working.
                await self.close_turn(table, lines)
                edited = True
            elif same_wait:
                account = merge_account(await self._board_account(table), lines)
                content = turn_text(account, status, footer)
                drawn = (await drawing).get((None, lang))
                edited = await self.edit_board(table, game, after, content, choices=board_choices, drawn=drawn)
            if not edited:
                ping = [table.player_at(seat).user_id for seat in sorted(waiting_after - waiting_before)
                        if table.player_at(seat).user_id > 0] \
                    if not same_wait else []
                content = turn_text(merge_account([], lines), status, footer)
                drawn = (await drawing).get((None, lang))
                await self.post_board(table, game, after, content, ping=ping, choices=board_choices, drawn=drawn)
                # Only once the new message is out: a refused post leaves the old board working.
                await self.close_turn(table, lines)

    @staticmethod
    def _needs_private_update(game: Game, before: Any, after: Any, seat: int, mover: int,
                              board_serves_actor: bool, public_views: tuple[dict, dict]) -> bool:
        """A seat hears privately when its hidden view changed or it faces a new decision that
        the public board does not already offer. `public_views`: the public views before and
        after, computed once for all seats."""
        public_before, public_after = public_views
        mine_after = private_delta(game.view(after, seat), public_after)
        if private_delta(game.view(before, seat), public_before) != mine_after:
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
        if table.status == "active" and table.state is not None:  # bot.records: last board and score chart
            await post_early_end(self, table, text)
            return
        await self.channel(table).send(presenter.clip(text), allowed_mentions=discord.AllowedMentions.none())


def outcome_record(outcome: Outcome) -> dict:
    reason = outcome.reason.to_json() if isinstance(outcome.reason, Msg) else outcome.reason
    return {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": reason}
