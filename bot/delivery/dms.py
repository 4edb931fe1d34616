"""Each seat's DM: the private view a change owes it, delivered by the worker (bot.delivery.worker).

One DM per private decision: the open DM is edited while the same decision goes on, and a new
decision gets a new DM (the old one keeps what it showed and loses its buttons). A seat that
changed hands starts a new DM for its new player; a computer seat, and a player who resigned,
get none. A player whose DMs are closed is told about once in the channel ('My hand' shows the
same view), and tried again at their next interaction with the bot or after a while
(`Durations.dm_retry`, bot.timing).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot import presenter
from bot.delivery.content import Content, Images, PrivatePayload, StandingOrders
from bot.delivery.requests import REQUEST_TIMEOUT, Failure, nonce_for, shows_sent
from bot.delivery.storage import (
    DmRow,
    dm_delivered_write,
    dm_finished_write,
    dm_settled_write,
    notice_write,
)
from bot.locale import table_language
from bot.storage import GameRow
from bot.storage.database import Write
from bot.storage.games import dm_ok_write
from bot.store import Storage
from bot.timing import Durations
from games.core import Game

log = logging.getLogger(__name__)

SHOWN_KEPT = 20_000  # open DMs whose picture and buttons are remembered (a few MiB at most)
CHANNELS_KEPT = 50_000  # users whose DM channel is remembered (some 5 MiB at most)
OPEN_TURN_WAIT = REQUEST_TIMEOUT  # seconds an opening waits for its turn before it is tried again later


class DmChannels:
    """Each user's DM channel with the bot: opened one at a time, and remembered.

    Discord limits opening DM channels per bot (`POST /users/@me/channels`, a few a second).
    discord.py paces a route by the answers' headers, but requests that set off together (the
    DMs of many tables starting at once) can overrun the route's window, and discord.py then
    waits out the 429s. So the bot opens one channel at a time: discord.py's pacing then holds
    (each request sees the previous one's headers), and a DM waits only for the openings ahead of
    it. A user's DM channel never changes, so it is opened once per process (discord.py keeps only
    the newest 128); the channels the store names (a seat's DM row) are learnt too (`learn`).

    A request that fails is judged as any other (`request`: the worker's, under its timeout); an
    opening that waited its turn longer than `OPEN_TURN_WAIT` (Discord slow, or very many) is a
    `Failure` to try again after a moment, so no delivery waits long on others' openings."""

    def __init__(self, client: discord.Client,
                 request: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]) -> None:
        self.client = client
        self.request = request
        self._by_user: OrderedDict[int, int] = OrderedDict()  # user id -> DM channel id
        self._turn = asyncio.Lock()
        self.opened = 0  # channels opened by a request (tests count them)

    def learn(self, user_id: int, channel_id: int) -> None:
        """The user's DM channel is `channel_id` (a stored DM row, a DM sent)."""
        self._by_user[user_id] = channel_id
        self._by_user.move_to_end(user_id)
        while len(self._by_user) > CHANNELS_KEPT:
            self._by_user.popitem(last=False)

    def learn_rows(self, rows: Iterable[DmRow]) -> None:
        """The DM channels the seats' stored DM rows name."""
        for row in rows:
            if row.user_id is not None and row.channel_id is not None:
                self.learn(row.user_id, row.channel_id)

    def known(self, user_id: int) -> discord.PartialMessageable | None:
        channel_id = self._by_user.get(user_id)
        return None if channel_id is None else self.client.get_partial_messageable(channel_id)

    async def open(self, user_id: int) -> discord.abc.Messageable | Failure:
        """The user's DM channel: as known, or opened once the openings ahead of it are done."""
        if (known := self.known(user_id)) is not None:
            return known
        try:
            async with asyncio.timeout(OPEN_TURN_WAIT):
                await self._turn.acquire()
        except TimeoutError:
            return Failure("retry", "DM channels opened one at a time: its turn did not come in time", after=1.0)
        try:
            if (known := self.known(user_id)) is not None:  # opened while it waited
                return known
            channel: discord.DMChannel | Failure = await self.request(
                lambda: self.client.create_dm(discord.Object(user_id)))
            if not isinstance(channel, Failure):
                self.opened += 1
                self.learn(user_id, channel.id)
            return channel
        finally:
            self._turn.release()


@dataclass(frozen=True)
class Shown:
    """What this process last sent to a seat's open DM: its picture (`picture_key`) and its
    components (`buttons_key`), made for the game's `version`."""

    message_id: int
    picture: int | None
    buttons: int
    version: int


def closing_only(row: DmRow) -> bool:
    """Whether the seat's owed DM is its open DM's done text alone, should its view offer no
    move (`deliver`: its decision is over and it has nothing new to say): no picture goes out."""
    return row.message_id is not None and not row.fresh and not row.lines and row.buttons


def sends_picture(game: Game, state: Any, table: GameRow, row: DmRow) -> bool:
    """Whether the seat's owed DM may carry a picture (not its done text alone): a pass draws
    pictures only for those."""
    return not closing_only(row) or (table.status == "active" and bool(game.legal_actions(state, row.seat)))


class PrivateDeliveries:
    def __init__(self, client: discord.Client, storage: Storage, content: Content,
                 request: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]],
                 edit: Callable[..., Awaitable[Any]], again: Callable[[int], None], now: Callable[[], float],
                 durations: Durations = Durations()) -> None:
        self.client = client
        self.storage = storage
        self.content = content
        self.request = request  # one Discord request, bounded and judged (the worker's)
        self.edit = edit  # a message edited: as a click's answer when one waits on it (the worker's)
        self.again = again  # the game's pass must run once more (a channel post was added)
        self.now = now
        # Users whose DMs were refused, and when (monotonic): tried again when they are back.
        self.refused_users: dict[int, float] = {}
        self.durations = durations
        # What each open DM shows, as this process sent it: an edit that changes neither its
        # picture nor its decision sends its words alone (no picture drawn, a player's taps on
        # its toggles kept). Only a process that serves every server knows: with shards in
        # several processes another one may have edited the DM since.
        self.alone = getattr(client, "shard_ids", None) is None
        self._shown: OrderedDict[tuple[int, int], Shown] = OrderedDict()
        self.channels = DmChannels(client, request)

    def shown(self, game_id: int, row: DmRow) -> Shown | None:
        """What the seat's open DM shows, if this process sent it and nothing changed it since."""
        shown = self._shown.get((game_id, row.seat)) if self.alone else None
        if shown is None or row.fresh or shown.message_id != row.message_id:
            return None
        return shown

    @staticmethod
    def _same_decision(seat: int, shown: Shown | None, payload: PrivatePayload,
                       last_moves: Mapping[int, int | None]) -> bool:
        """Whether the DM's components offer, with toggles, the decision the seat faces now,
        untouched by the seat since (it made no move since they were sent). `last_moves`: the
        version of each seat with a DM row's newest move (None before its first), read with the
        pass's game."""
        if shown is None or not payload.toggles or shown.buttons != payload.buttons:
            return False
        version = last_moves.get(seat)
        return version is None or version <= shown.version

    def _remember(self, game_id: int, seat: int, shown: Shown | None) -> None:
        self._shown.pop((game_id, seat), None)
        if shown is not None and self.alone:
            self._shown[(game_id, seat)] = shown
            while len(self._shown) > SHOWN_KEPT:
                self._shown.popitem(last=False)

    def back(self, user_id: int) -> bool:
        """Whether a user whose DMs were refused, and who interacts with the bot now, is to be
        tried again (not at every click: a while after the refusal)."""
        refused = self.refused_users.get(user_id)
        if refused is None or time.monotonic() - refused < self.durations.dm_retry_on_return_after:
            return False
        del self.refused_users[user_id]
        return True

    async def deliver(self, table: GameRow, game: Game, state: Any, row: DmRow, drawn: Images,
                      lang: str | None = None, left: frozenset[int] | None = None, stored: list[Write] | None = None,
                      *, last_moves: Mapping[int, int | None], orders: StandingOrders | None = None) -> Failure | None:
        """A seat's owed DM: its open DM edited, or a new one for a new decision. `lang`: its player's language,
        `left`, `orders`: the seats whose players resigned, their standing orders, if read already; `last_moves`:
        each seat's newest move's version; `stored`: what it stores once Discord confirmed it, for the pass."""
        seat, version = row.seat, row.owed
        if version is None:
            raise ValueError(f"seat {seat}'s DM owes nothing: nothing to deliver")
        player = table.player_at(seat)
        if left is None and not player.computer and state is not None:
            left = await self.content.seats_left(table)
        if player.computer or state is None or seat in (left or ()):
            return await self._no_more(table, row, version, stored)
        if row.message_id is not None and row.user_id != player.user_id:
            # The seat changed hands: the old player's DM is never edited again.
            if unfinished := await self._finish(row, row.done_text):
                return await self._dm_failed(table, seat, unfinished)
            await self.storage.delivery.dm_finished(table.id, seat, forget=True)  # now: `_dm_failed` reads it
            row = DmRow(seat, None, None, None, False, None, version, True, row.lines, None)
        shown = self.shown(table.id, row)
        payload = await self.content.private_payload(table, game, state, seat, row.lines, drawn=drawn,
                                                     shown=shown.picture if shown is not None else None, lang=lang,
                                                     with_picture=not closing_only(row), orders=orders)
        if row.message_id is not None and not row.fresh:
            message = self._open_dm(row)
            if not payload.moves and closing_only(row):
                # Its decision is over and it has nothing new to say (nor a table that would go stale).
                result = await self.edit(message, content=row.done_text or payload.done, view=None, **payload.closed())
                after = None
            else:
                fields: dict[str, Any] = {"content": payload.content}
                if not payload.picture_kept and not (shown is not None and shown.picture is None
                                                     and payload.picture is None):
                    fields["attachments"] = [payload.file] if payload.file is not None else []
                if shown is not None and self._same_decision(seat, shown, payload, last_moves):
                    # Its components stay, with whatever the player has tapped on its toggles so
                    # far; a click on them is judged like one on an older DM (the same decision).
                    after = Shown(row.message_id, payload.picture, payload.buttons, shown.version)
                else:
                    fields["view"] = payload.view
                    after = Shown(row.message_id, payload.picture, payload.buttons, table.version)
                    if payload.moves and not row.buttons:
                        await self._buttons_coming(table, row, message, payload)
                result = await self.edit(message, **fields)
            # (An edit that failed may still land: what the DM shows is not known then.)
            self._remember(table.id, seat, after if not isinstance(result, Failure) else None)
            if not isinstance(result, Failure):
                await self._store(stored, dm_delivered_write(
                    table.id, seat, version=version, user_id=player.user_id, channel_id=message.channel.id,
                    message_id=message.id, buttons=payload.moves, done_text=payload.done))
                return None
            if result.kind != "gone":
                return await self._dm_failed(table, seat, result)
        elif row.message_id is not None and row.buttons:
            # A new decision: the old DM asks no more. Only once its buttons are off is the new DM
            # sent, for the row forgets the old one then and nothing would take them off later.
            if unfinished := await self._finish(row, row.done_text):
                return await self._dm_failed(table, seat, unfinished)
        return await self._send_new(table, game, state, row, version, payload, drawn, lang, stored, orders=orders)

    async def _buttons_coming(self, table: GameRow, row: DmRow, message: discord.PartialMessage,
                              payload: PrivatePayload) -> None:
        """An edit about to give the seat's open DM move buttons may land though its answer is lost
        (a 5xx after it took effect, a hang, a kill): the row says so first, so that a new decision
        takes them off before its new DM."""
        await self.storage.delivery.dm_delivered(
            table.id, row.seat, version=None, user_id=table.player_at(row.seat).user_id,
            channel_id=message.channel.id, message_id=message.id, buttons=True, done_text=payload.done)

    async def _no_more(self, table: GameRow, row: DmRow, version: int, stored: list[Write] | None) -> Failure | None:
        """A seat whose DMs end: a computer seat reads none; a player who resigned learns nothing
        more of it (their open DM loses its buttons, standing orders' toggles too)."""
        computer = table.player_at(row.seat).computer
        if row.message_id is not None and not computer:
            if unfinished := await self._finish(row, row.done_text):
                return await self._dm_failed(table, row.seat, unfinished)
        await self._store(stored, dm_finished_write(table.id, row.seat, forget=not computer),
                          dm_settled_write(table.id, row.seat, version))
        return None

    async def _store(self, stored: list[Write] | None, *writes: Write) -> None:
        """What a DM's delivery stores: into `stored` when the caller stores it (`deliver`), else now."""
        if stored is not None:
            stored.extend(writes)
        else:
            await self.storage.apply(writes)

    async def _send_new(self, table: GameRow, game: Game, state: Any, row: DmRow, version: int,
                        payload: PrivatePayload, drawn: Images, lang: str | None,
                        stored: list[Write] | None = None, *,
                        orders: StandingOrders | None = None) -> Failure | None:
        """A new DM for the seat's owed `version` (there is no open one, or it could not be edited)."""
        seat = row.seat
        player = table.player_at(seat)
        kwargs: dict[str, Any] = {"view": payload.view}
        if payload.view is None:
            kwargs.pop("view")
        if payload.file is not None:
            kwargs["file"] = payload.file
        dm: discord.abc.Messageable | Failure
        if row.channel_id is not None and row.user_id == player.user_id:
            dm = self.client.get_partial_messageable(row.channel_id)  # their DM channel, known already
        else:
            dm = await self.channels.open(player.user_id)
            if isinstance(dm, Failure):
                return await self._dm_failed(table, seat, dm)
        if payload.picture_kept or payload.picture_left:  # a new DM draws its picture anew
            payload = await self.content.private_payload(table, game, state, seat, row.lines, drawn=drawn, lang=lang,
                                                         orders=orders)
            kwargs = {key: value for key, value in kwargs.items() if key != "file"}
            if payload.file is not None:
                kwargs["file"] = payload.file
        # The nonce names the seat's DM slot (its player, and the DM the new one follows), not the
        # version: a post whose outcome is unknown (a 5xx after Discord made it, a hang) is tried
        # again under the same nonce whatever the seat is owed by then, and Discord answers with
        # the message it made, which is then brought up to date (`_made_unseen`).
        nonce = nonce_for("dm", table.id, seat, player.user_id, row.message_id)
        message = await self.request(lambda: dm.send(payload.content, nonce=nonce, **kwargs))
        if isinstance(message, Failure):
            return await self._dm_failed(table, seat, message)
        if not shows_sent(message, payload.content, payload.view):
            return await self._made_unseen(table, game, state, row, version, message, drawn, lang, stored, orders)
        self.channels.learn(player.user_id, message.channel.id)
        await self._now_shows(table, seat, version, message, payload, stored)
        return None

    async def _made_unseen(self, table: GameRow, game: Game, state: Any, row: DmRow, version: int,
                           message: discord.Message, drawn: Images, lang: str | None,
                           stored: list[Write] | None,
                           orders: StandingOrders | None = None) -> Failure | None:
        """Discord answered a new DM's post with the one it had made earlier under the same nonce
        (the seat's DM slot), as it was then: an earlier post's answer was lost. It is the seat's
        DM, edited to what the seat is owed now. Should that edit fail, the seat's row names it
        all the same (with buttons): the next try takes them off and sends the owed DM anew, so
        no DM with live buttons is left unknown to the bot."""
        seat, player = row.seat, table.player_at(row.seat)
        log.info("DM game=%s seat=%s post had been made unseen (message %s): brought up to date", table.id, seat,
                 message.id)
        self.channels.learn(player.user_id, message.channel.id)
        payload = await self.content.private_payload(table, game, state, seat, row.lines, drawn=drawn, lang=lang,
                                                     orders=orders)
        made = self.client.get_partial_messageable(message.channel.id).get_partial_message(message.id)
        result = await self.edit(made, content=payload.content, view=payload.view,
                                 attachments=[payload.file] if payload.file is not None else [])
        if isinstance(result, Failure):
            self._remember(table.id, seat, None)
            await self._store(stored, dm_delivered_write(
                table.id, seat, version=None, user_id=player.user_id, channel_id=message.channel.id,
                message_id=message.id, buttons=True, done_text=payload.done))
            return await self._dm_failed(table, seat, result)
        await self._now_shows(table, seat, version, message, payload, stored)
        return None

    async def _now_shows(self, table: GameRow, seat: int, version: int, message: discord.Message,
                     payload: PrivatePayload, stored: list[Write] | None) -> None:
        """A seat's DM shows `version` now: remembered, stored, and its player's DMs known to be open."""
        player = table.player_at(seat)
        self._remember(table.id, seat, Shown(message.id, payload.picture, payload.buttons, table.version))
        # That DMs reach the player is stored with the DM's row: one commit for both (its own,
        # before, at the first DM of each seat).
        await self._store(stored, dm_delivered_write(
            table.id, seat, version=version, user_id=player.user_id, channel_id=message.channel.id,
            message_id=message.id, buttons=payload.moves, done_text=payload.done),
            *([dm_ok_write(table.id, player.user_id, True)] if player.dm_ok is not True else []))

    async def _finish(self, row: DmRow, done: str | None) -> Failure | None:
        """An open DM whose decision is over keeps what it showed and loses its buttons. The failure
        where Discord may take the edit later (a 5xx, a 429, a hang, access for now lost): the DM
        then stays owed, so that its buttons come off when Discord answers again. A DM deleted, or
        an edit Discord will never take, is done with."""
        message = self._open_dm(row)
        result = await (self.edit(message, content=done, view=None) if done else self.edit(message, view=None))
        if isinstance(result, Failure) and result.kind in ("retry", "blocked", "closed"):
            return result
        return None

    def _open_dm(self, row: DmRow) -> discord.PartialMessage:
        """The seat's open DM (a row that names its message names its channel too)."""
        if row.channel_id is None or row.message_id is None:
            raise ValueError(f"seat {row.seat}'s DM row names no open DM")
        return self.client.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)

    async def _dm_failed(self, table: GameRow, seat: int, failure: Failure) -> Failure:
        player = table.player_at(seat)
        if failure.kind != "closed":
            log.warning("Could not DM seat %s of game %s: %s; it stays owed", seat, table.id, failure.reason)
            return failure
        log.info("DMs closed for user %s (game %s); trying again later", player.user_id, table.id)
        self.refused_users[player.user_id] = time.monotonic()
        await self.storage.delivery.dm_refused(table.id, seat, until=int(self.now()) + self.durations.dm_retry_after)
        if player.dm_ok is not False:
            await self.storage.games.set_dm_ok(table.id, player.user_id, False)
            if table.status == "active":
                await self.storage.apply([notice_write(table.id, {
                    "content": presenter.dm_closed_text(player.name, table_language(table)), "mentions": []})])
                self.again(table.id)
        rows = await self.storage.delivery.dm_rows(table.id)
        row = rows.get(seat)
        if row is not None and row.message_id is not None and row.buttons:
            await self._finish(row, row.done_text)  # its buttons would be refused; take them off if we may
            await self.storage.delivery.dm_finished(table.id, seat, forget=False)
        return failure
