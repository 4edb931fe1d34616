"""A player's own days: `/game away` and `/game back`, `/game reminders`, and `/game mine` (every
open game of theirs on every server, theirs to move first)."""
from __future__ import annotations

import discord

import i18n
from bot import presenter
from bot.changes import Change, SeatSetting
from bot.days.options import AWAY_DAYS, DAY, words
from bot.days.storage import seat_write
from bot.days.timers import Timers
from bot.delivery.content import board_url, channel_url
from bot.delivery.worker import Deliveries
from bot.errors import Refusal
from bot.locale import table_language
from bot.moves import Moves
from bot.storage import GameRow
from bot.store import Storage
from games.core import Game
from i18n import game_title


class Absence:
    def __init__(self, storage: Storage, moves: Moves, deliveries: Deliveries, timers: Timers) -> None:
        self.storage = storage
        self.moves = moves
        self.deliveries = deliveries
        self.timers = timers

    async def away(self, user: discord.abc.User, days: int, lang: str) -> int:
        if not AWAY_DAYS[0] <= days <= AWAY_DAYS[1]:
            raise Refusal(words(lang, "away_range", low=AWAY_DAYS[0], high=AWAY_DAYS[1]))
        now = self.timers.now()
        until = now + days * DAY
        previous = (await self.storage.days.user(user.id))["away_until"]
        paused_from = previous if previous is not None and previous > now else now
        await self.storage.days.set_user(user.id, away_until=until)
        await self.storage.days.shift_deadlines(user.id, delta=until - paused_from, not_before=now)
        self.timers.scheduler.poke()
        for table in await self.storage.games.open_games_of(user.id):
            if table.status == "active":
                await self.moves.notify(table.id, words(
                    table_language(table), "away_post", who=presenter.bold_names([user.display_name])[0],
                    until=presenter.timestamp(until, "f")))
        return until

    async def back(self, user: discord.abc.User, lang: str) -> int:
        """End an absence early and take every seat the computer kept after timeouts back.
        Returns how many games changed."""
        was_away = await self.timers.end_away(user.id, self.timers.now())
        changed = 0
        for table in await self.storage.games.open_games_of(user.id):
            if table.status != "active":
                continue
            seat = table.seat_of(user.id)
            if seat is None:  # every open game of theirs seats them
                continue
            row = (await self.storage.days.seats(table.id)).get(seat, {})
            if row.get("computer") == "timeout" or row.get("timeouts"):
                await self.moves.change(table.id, self._taken_back(seat))
                changed += 1
        if not was_away and not changed:
            raise Refusal(words(lang, "not_away"))
        return changed

    @staticmethod
    def _taken_back(seat: int):
        async def make(table: GameRow, game: Game) -> Change:
            return SeatSetting(table=table, game=game, state=game.from_dict(table.started_state), seat=seat,
                               computer=None, writes=tuple(seat_write(table.id, seat, computer=None, timeouts=0,
                                                                      since=None)))
        return make

    async def set_reminders(self, user: discord.abc.User, on: bool) -> None:
        await self.storage.days.set_user(user.id, reminders=int(on))

    async def mine(self, user: discord.abc.User, lang: str) -> str:
        tables = await self.storage.games.open_games_of(user.id)
        if not tables:
            return words(lang, "mine_none")
        entries = []
        for table in tables:
            game = self.moves.engine(table.game)
            link = board_url(table) or channel_url(table)
            title = f"**{i18n.translate(game_title(game), lang)}** (#{table.id})"
            if table.status == "lobby":
                entries.append((2, table.id, words(lang, "mine_lobby", game=title, link=link)))
                continue
            state = game.from_dict(table.started_state)
            to_act = sorted(game.to_act(state))
            seats = await self.storage.days.seats(table.id)
            started = [seats[s]["since"] for s in to_act if seats.get(s, {}).get("since")]
            since = presenter.timestamp(min(started)) if started else presenter.timestamp(table.updated_at)
            who = ", ".join(presenter.bold_names([table.names[s] for s in to_act]))
            mine_first = table.seat_of(user.id) in to_act
            key = "mine_your_turn" if mine_first else "mine_waiting"
            entries.append((0 if mine_first else 1, table.id, words(lang, key, game=title, link=link, who=who,
                                                                     since=since)))
        lines = [words(lang, "mine_header", count=len(tables))]
        lines += [text for _, _, text in sorted(entries)]
        return presenter.clip("\n".join(lines))
