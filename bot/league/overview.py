"""Each server's open games in one message: `/game overview here` keeps it in a channel.

The message lists every game being played on the server, oldest first: the game, its channel,
whose turn it is and since when (a Discord timestamp, each reader's own time zone) and a link
to its board. It never pings anyone (names in bold, `<#channel>` links, no mentions allowed).

What it owes is stored (`league_overviews`): the move pipeline's listener counts a change that
alters it (`wanted`) in the change's own transaction, and the message records the count it shows
(`shown`). The delivery worker's loop keeps it current (a `bot.delivery.worker.KeptMessage`,
registered at wiring), one task per server at a time: it edits the message when it owes
something, at most once every `every` seconds per server: a burst of moves makes one edit
`settle` seconds after its first move (the move's board is posted meanwhile, so the line links to
it) and at most one more every `every` seconds while it lasts. Every request runs under a short
timeout (`bot.delivery.requests.attempt`) and is tried again after Discord's `retry_after` or the
worker's growing pause; the first post carries a nonce, so a retry never doubles it.
The message id is stored, so after a restart the same message is edited; a deleted message is
posted again.
"""
from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import discord

import i18n
from bot import presenter
from bot.delivery.requests import Failure, attempt, nonce_for
from bot.league.storage import OverviewRow
from bot.store import Storage
from games.core import Game

log = logging.getLogger(__name__)

EVERY = 5.0          # seconds between two edits of one server's overview, at least
SETTLE = 2.0         # seconds an edit waits after the first change it shows (the change's board is posted meanwhile)
SHARDED_CHECK = 2.0  # seconds between looks for overviews owed by another process's changes
WITHOUT_KEPT = 4_096  # servers known to keep no overview (some 0.3 MiB at most)


def _not_kept(guild_id: int) -> None:
    """Until the worker keeps the overviews (wiring), a kick only marks the overview owed."""


class Overviews:
    kind = "overview"

    def __init__(self, client: discord.Client, storage: Storage, games: Mapping[str, Game], *,
                 owns_guild: Callable[[int], bool] = lambda guild_id: True, sharded: bool = False) -> None:
        self.client = client
        self.storage = storage
        self.games = games
        self.owns_guild = owns_guild
        self.sharded = sharded
        self.every = EVERY  # seconds between one server's edits (tests set their own)
        self.requests = 0
        self.stopping = False
        self._wake: Callable[[int], None] = _not_kept
        self._shown_at: dict[int, float] = {}  # guild id -> loop time of the last edit or post
        self._owed_at: dict[int, float] = {}   # guild id -> loop time of the first change not shown yet
        self._check_at = 0.0                   # the first scheduler pass looks for owed overviews
        # Servers whose look found no overview: most keep none, and nearly every move kicks its
        # server's overview, so each move would read the missing row once more (a hand-over to
        # the store's thread). Only `place` makes a server's overview (its row), and it takes the
        # server out of here; another process's row shows up in `run_due`'s owed overviews.
        self._without: dict[int, None] = {}

    # -------------------------------------------------------------------- kicking

    def kick(self, guild_id: int) -> None:
        """Something the server's overview shows changed: edit it (now, or once the pause between
        edits is over)."""
        if self.stopping or not self.owns_guild(guild_id) or guild_id in self._without:
            return
        self._owed_at.setdefault(guild_id, asyncio.get_running_loop().time())
        self._wake(guild_id)

    def attach(self, kick: Callable[[int], None]) -> None:
        """The delivery worker keeps the overviews current: `kick` asks it to look at one."""
        self._wake = kick

    # A scheduler source (bot.scheduler): its first pass (at start-up) kicks every overview that
    # still owes an edit; with several processes on one database it looks again every few seconds
    # for edits owed by changes another process stored.
    async def next_due(self) -> float | None:
        return self._check_at if math.isfinite(self._check_at) else None

    async def run_due(self, now: float) -> None:
        if now < self._check_at:
            return
        self._check_at = now + SHARDED_CHECK if self.sharded else math.inf
        for guild_id in await self.storage.league.overviews_owed():
            self._without.pop(guild_id, None)
            self.kick(guild_id)

    async def stop(self) -> None:
        """No more kicks (the delivery worker stops its looks)."""
        self.stopping = True

    # -------------------------------------------------------------------- running

    async def look(self, guild_id: int) -> float | Failure | None:
        """One look at a server's overview: None when it shows everything, a pause before the
        next look, or the failure that stopped it."""
        row = await self.storage.league.overview(guild_id)
        if row is None:
            self._known_without(guild_id)
            return None
        self._without.pop(guild_id, None)  # a look begun before `place` made the row may have put it there
        if row.shown >= row.wanted:
            return None
        loop = asyncio.get_running_loop()
        due = max(self._shown_at.get(guild_id, -math.inf) + self.every,
                  self._owed_at.setdefault(guild_id, loop.time()) + SETTLE)
        if due > loop.time():
            return due - loop.time()
        self._owed_at.pop(guild_id, None)  # what changes from now on waits for the next edit
        text = await self.text(row)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=guild_id)
        none = discord.AllowedMentions.none()
        if row.message_id is not None:
            result = await self._request(lambda: channel.get_partial_message(row.message_id).edit(
                content=text, allowed_mentions=none))
            if isinstance(result, Failure) and result.kind == "gone" and result.what == "message":
                await self.storage.league.overview_gone(guild_id, row.message_id)
                return 0.0  # posted again at once
        else:
            result = await self._request(lambda: channel.send(
                text, allowed_mentions=none, nonce=nonce_for("overview", guild_id, row.channel_id, row.posts)))
        self._shown_at[guild_id] = loop.time()
        if isinstance(result, Failure):
            # Tried again by the worker; one the bot may not post (or whose channel is gone) after
            # its longest pause, and whenever a game of the server changes: `/game overview here`
            # elsewhere moves it.
            log.warning("Could not show the overview of server %s in channel %s: %s; it stays owed",
                        row.guild_id, row.channel_id, result.reason)
            return result
        await self.storage.league.overview_shown(guild_id, row.channel_id, message_id=result.id, shown=row.wanted)
        log.info("overview guild=%s channel=%s %s", guild_id, row.channel_id,
                 "edited" if row.message_id is not None else "posted")
        return 0.0

    def _known_without(self, guild_id: int) -> None:
        """The server keeps no overview: its kicks look no more until `place` makes one."""
        self._without[guild_id] = None
        if len(self._without) > WITHOUT_KEPT:
            del self._without[next(iter(self._without))]

    async def _request(self, call):
        self.requests += 1
        return await attempt(call)

    # ------------------------------------------------------------------------- text

    async def text(self, row: OverviewRow) -> str:
        """The overview in its language: one line per game being played, as many as fit."""
        lang = row.lang if row.lang in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE
        games = await self.storage.league.overview_games(row.guild_id)
        head = i18n.t(lang, "bot.league.overview_title", count=len(games), when=presenter.timestamp(int(time.time())))
        if not games:
            return "\n".join((head, i18n.t(lang, "bot.league.overview_none")))
        lines = [head]
        room = presenter.MESSAGE_LIMIT - len(head) - 80  # what is left, with room for "and n more"
        for index, game in enumerate(games):
            line = self._line(game, row.guild_id, lang)
            if len(line) + 1 > room:
                lines.append(i18n.t(lang, "bot.league.overview_more", count=len(games) - index))
                break
            room -= len(line) + 1
            lines.append(line)
        return "\n".join(lines)

    def _line(self, game: dict[str, Any], guild_id: int, lang: str) -> str:
        engine = self.games.get(game["game"])
        title = i18n.translate(i18n.game_title(engine), lang) if engine is not None else game["game"]
        names = presenter.bold_names(game["names"])
        waiting = sorted(game["waiting"])
        who = i18n.join_list([names[seat] for seat, _ in waiting if seat < len(names)], lang) or "–"
        since = min((when for _, when in waiting), default=None)
        parts = {"game": f"**{discord.utils.escape_markdown(title)}**", "id": game["id"],
                 "channel": f"<#{game['channel_id']}>", "players": who, "count": len(waiting)}
        if since is None:
            line = i18n.t(lang, "bot.league.overview_line_nobody", **parts)
        else:
            line = i18n.t(lang, "bot.league.overview_line", **parts, since=presenter.timestamp(since))
        # The turn's own message once it is posted; until then the channel, where it will be.
        url = f"https://discord.com/channels/{guild_id}/{game['channel_id']}"
        if game["board_message_id"] is not None and game["board_current"]:
            url += f"/{game['board_message_id']}"
        return line + " · " + i18n.t(lang, "bot.league.overview_board", link=url)

    # ------------------------------------------------------------------ commands

    async def place(self, guild_id: int, channel_id: int, lang: str) -> None:
        """`/game overview here`: the server's overview lives in this channel from now on (a
        message elsewhere is removed), and is shown at once."""
        old = await self.storage.league.overview_here(guild_id, channel_id, lang)
        self._without.pop(guild_id, None)
        if old is not None and old.channel_id != channel_id and old.message_id is not None:
            await self._remove(old, old.message_id)
        self._shown_at.pop(guild_id, None)
        self._owed_at[guild_id] = -math.inf  # shown at once
        self.kick(guild_id)

    async def remove(self, guild_id: int) -> bool:
        """`/game overview off`: no overview any more (its message is removed). False if none."""
        old = await self.storage.league.overview_off(guild_id)
        if old is None:
            return False
        if old.message_id is not None:
            await self._remove(old, old.message_id)
        return True

    async def _remove(self, row: OverviewRow, message_id: int) -> None:
        """Delete the overview's message (`message_id`, the one `row` names)."""
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        result = await self._request(lambda: channel.get_partial_message(message_id).delete())
        if isinstance(result, Failure) and result.kind != "gone":
            log.warning("Could not remove the old overview of server %s: %s", row.guild_id, result.reason)
