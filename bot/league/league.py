"""The league as the rest of the bot sees it (docs/league.md).

`League` is what the rest of the bot sees of it (built and followed in `bot.parts.Parts.build`):

- `listener`: follows the move pipeline (bot.league.listener): counts who moved, keeps each
  move's public words, rates a game in the very transaction that ends it, and marks the
  server's overview owed;
- `overviews`: the overview messages (bot.league.overview), kept current by the delivery worker;
- `end_message(inner)`: the end message (bot.records.EndMessages) with each person's rating change;
- `turn_recap(table, people, lines)`: the lines a turn message opens with for whom it calls;
- `recap`, `leaderboard`, `stats`: what `/game recap`, `/game leaderboard` and `/game stats` say.
"""
from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

import i18n
from bot import presenter
from bot.delivery.content import board_url
from bot.league import texts
from bot.league.listener import LeagueListener
from bot.league.overview import Overviews
from bot.league.ratings import PROVISIONAL_GAMES, Rating
from bot.league.recap import asked_recap_text, turn_recap_text
from bot.locale import table_language
from bot.storage import GameRow
from bot.storage.rows import is_computer_user
from bot.store import Storage
from games.core import Game
from renderers.rating_chart import render_rating_chart_png

log = logging.getLogger(__name__)

RECAPS_KEPT = 1_000  # turns whose recap is kept (a few lines each): the last few moves' tables


class League:
    def __init__(self, client: discord.Client, storage: Storage, games: Mapping[str, Game], *,
                 owns_guild: Callable[[int], bool] = lambda guild_id: True, sharded: bool = False) -> None:
        self.storage = storage
        self.games = games
        self.overviews = Overviews(client, storage, games, owns_guild=owns_guild, sharded=sharded)
        self.listener = LeagueListener(storage, self.overviews.kick)
        # What turn messages recapped, by (game id, turn, readers): the moves before a turn's start
        # never change once it is known, so a turn's later boards (a turn of several moves, a
        # toggle, a redraw) need no read for them.
        self._recaps: OrderedDict[tuple[int, int, tuple[int, ...]], list[tuple[int, int, list]]] = OrderedDict()

    async def stop(self) -> None:
        await self.overviews.stop()

    # ---------------------------------------------------------------------- end message

    def end_message(self, inner: Callable[..., Any]) -> Callable[..., Any]:
        """The end message `inner` makes, with a line of each person's new rating and its change
        (stored with the change that ended the game, bot.league.listener)."""

        async def with_ratings(table: GameRow, game: Game, state: Any) -> tuple[str, list[discord.File]]:
            text, files = await inner(table, game, state)
            try:
                line = texts.end_text(await self.storage.league.game_changes(table.id), table_language(table))
            except Exception:
                log.exception("Could not read the rating changes of game %s", table.id)
                line = ""
            if line:
                text = presenter.board_text([text], "", line)  # the ratings stay whole; the rest is clipped
            return text, files

        return with_ratings

    # --------------------------------------------------------------------------- recap

    async def turn_recap(self, table: GameRow, people: Sequence[int], lines: int = presenter.PHONE_TEXT_LINES) -> str:
        """What the turn message says first, to the players it calls: the public moves since
        their own last move, up to the turn's start (its own account follows), in at most
        `lines` lines of a phone. `people`: whom the message calls now (its footer)."""
        try:
            return await self._turn_recap(table, people, lines)
        except Exception:
            log.exception("Could not make the recap of game %s", table.id)
            return ""

    async def _turn_recap(self, table: GameRow, people: Sequence[int], lines: int) -> str:
        if table.status != "active":
            return ""
        # For whom the message calls now, and only them: one who was mentioned and has moved
        # since is not called any more.
        called = {user for user in people if not is_computer_user(user)}
        users = called & set(table.turn_pings) if table.turn_pings is not None else called
        readers = sorted({seat for user in users if (seat := table.seat_of(user)) is not None})
        if not readers or lines < 2:  # a recap is its heading and at least one move
            return ""
        key = (table.id, table.turn_number, tuple(readers))
        moves = self._recaps.get(key)
        if moves is None:
            start, moves = await self.storage.league.turn_recap(table.id, table.turn_number, readers)
            if start is not None:
                self._recaps[key] = moves
                while len(self._recaps) > RECAPS_KEPT:
                    self._recaps.popitem(last=False)
        return turn_recap_text(moves, table, readers, lines)

    async def recap(self, table: GameRow, seat: int, lang: str) -> str:
        """`/game recap`: the public moves since the seat's last move, in `lang`."""
        last = await self.storage.league.last_move(table.id, [seat])
        moves = await self.storage.league.lines_between(table.id, last)
        title = i18n.translate(i18n.game_title(self.games[table.game]), lang)
        return asked_recap_text(moves, table, lang, board_url(table), title)

    # ------------------------------------------------------------------------ ratings

    async def leaderboard(self, guild_id: int, game: str, asker_id: int, title: str, lang: str) -> str:
        rows = await self.storage.league.top(guild_id, game, texts.LEADERBOARD_SIZE)
        asker = (await self.storage.league.ratings(guild_id, game, [asker_id])).get(asker_id)
        rank = await self.storage.league.rank(guild_id, game, asker_id) if asker is not None else None
        return texts.leaderboard_text(rows, title, lang, asker=asker, asker_rank=rank)

    async def stats(self, guild_id: int, user: discord.abc.User, game: str | None, lang: str
                    ) -> tuple[list[str], discord.File | None]:
        """`/game stats`: the player's rating lines, and a chart of their rating over the games of
        `game` (or of the game they have played most rated games of)."""
        ratings = await self.storage.league.player(guild_id, user.id)
        if game is not None:
            ratings = {name: rating for name, rating in ratings.items() if name == game}
        if not ratings:
            return [], None
        ranked: dict[str, tuple[Rating, tuple[int, int] | None]] = {
            name: (rating, await self.storage.league.rank(guild_id, name, user.id)) for name, rating in ratings.items()}
        titles = {name: self.title(name, lang) for name in ratings}
        lines = texts.stats_lines(ranked, titles, lang)
        shown = max(ratings, key=lambda name: (ratings[name].games, titles[name]))
        history = await self.storage.league.history(guild_id, shown, user.id)
        if not history:
            return lines, None
        points = [Rating().points, *(rating.points for rating in history)]
        try:
            png = await asyncio.to_thread(render_rating_chart_png, points, user.display_name, lang, titles[shown],
                                          PROVISIONAL_GAMES)
        except Exception:
            log.exception("Could not draw the rating chart of user %s", user.id)
            return lines, None
        description = presenter.clip(i18n.t(lang, "bot.league.chart_alt", player=user.display_name, game=titles[shown],
                                            rating=texts.number(points[-1], lang), count=len(history)),
                                     presenter.ALT_TEXT_LIMIT)
        return lines, discord.File(io.BytesIO(png), filename="rating.png", description=description)

    def title(self, name: str, lang: str) -> str:
        game = self.games.get(name)
        return i18n.translate(i18n.game_title(game), lang) if game is not None else name
