"""The bot's parts, built once when the storage is open (`Parts.build`, from `GameBot.setup_hook`).

Every part gets what it uses through its constructor, built in the order they depend on each
other: what a board shows (`Content`) reads only the storage and the parts that do not make
moves (timers, the league); the delivery worker sends it; the move pipeline (`Moves`) hands its
changes to the worker; the features that make moves (computer seats, standing orders, hints,
tables, tournaments...) come after it. Then who follows whom is declared in one place
(`_follow`): the listeners and gates of the move pipeline and the sources of the scheduler.
Commands (bot.cogs) and components (bot.clicks) are given the parts they use; nothing asks the
bot for a part.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial

import discord

from bot.clicks import ClickAnswers
from bot.collector import QuietCollector
from bot.days.absence import Absence
from bot.days.hints import Hints, board_facts, board_read, hint_offered
from bot.days.orders import ComputerChoices, Orders, standing_orders
from bot.days.reminders import Reminders
from bot.days.seats import ComputerSeats, left_of, seats_left
from bot.days.timers import DueTimers, Timers
from bot.days.undo import TakingBack
from bot.delivery.content import Content, Renderer
from bot.delivery.worker import Deliveries
from bot.info import Info
from bot.league.league import League
from bot.moves import Moves
from bot.records import EndMessages
from bot.scheduler import Scheduler
from bot.storage.archive import Archive
from bot.store import Storage
from bot.tables import Tables
from bot.timing import Durations
from bot.tournaments.runner import Tournaments
from games.core import Game


@dataclass(frozen=True)
class PartSettings:
    """What the parts are built with besides the Discord client and the storage."""

    games: Mapping[str, Game]
    render: Renderer
    scheduler: Scheduler
    durations: Durations
    seed_source: random.Random
    collector: QuietCollector | None
    owns_guild: Callable[[int], bool]
    sharded: bool
    archive_days: float


@dataclass(frozen=True)
class Parts:
    """Every part of the bot, built once by `build` in the order they depend on each other."""

    storage: Storage
    timers: Timers
    league: League
    content: Content
    deliveries: Deliveries
    moves: Moves
    seats: ComputerSeats
    reminders: Reminders
    orders: Orders
    hints: Hints
    tables: Tables
    info: Info
    absence: Absence
    taking_back: TakingBack
    tournaments: Tournaments
    due_timers: DueTimers
    archive: Archive | None  # finished games archived (none unless `archive_days` is set)
    clicks: ClickAnswers

    @classmethod
    def build(cls, client: discord.Client, storage: Storage, settings: PartSettings) -> Parts:
        """Every part, each built once with the parts it uses, and who follows whom declared."""
        games, scheduler, durations = settings.games, settings.scheduler, settings.durations
        timers = Timers(storage, scheduler, durations)
        league = League(client, storage, games, owns_guild=settings.owns_guild, sharded=settings.sharded)
        content = Content(client, storage, settings.render, deadline_line=timers.deadline_line,
                          hint_offered=partial(hint_offered, storage), board_read=board_read, board_from=board_facts,
                          seats_left=partial(seats_left, storage),
                          left_read=storage.days.seats_read,
                          left_from=lambda rows: left_of(storage.days.seats_from(rows)),
                          standing_orders=partial(standing_orders, storage), orders_read=storage.days.orders_read,
                          orders_from=storage.days.orders_from, turn_recap=league.turn_recap)
        deliveries = Deliveries(client, storage, games, content, owns_guild=settings.owns_guild,
                                end_message=league.end_message(EndMessages(content, storage)),
                                now=scheduler.clock.now, durations=durations)
        choices = ComputerChoices(storage)
        moves = Moves(storage, games, deliveries, settings.collector, automatic=choices.automatic_decision,
                      automatic_move=choices.automatic_move)
        seats = ComputerSeats(storage, moves, deliveries)
        reminders = Reminders(client, storage, moves, deliveries, timers.now, durations)
        orders = Orders(storage, moves, choices)
        hints = Hints(storage, moves, seats.check_person)
        tables = Tables(storage, games, moves, seats, settings.seed_source)
        info = Info(storage, moves, tables, content, deliveries, seats, timers)
        tournaments = Tournaments(client, storage, games, moves, seats, scheduler, durations, settings.seed_source,
                                  owns_guild=settings.owns_guild, sharded=settings.sharded)
        due_timers = DueTimers(timers, {"reminder": reminders.remind, "deadline": seats.timed_out,
                                        "computer": seats.move, "react": orders.window_closed})
        archive = (Archive(storage.games, settings.archive_days, scheduler.clock.now)
                   if settings.archive_days > 0 else None)
        parts = cls(storage=storage, timers=timers, league=league, content=content, deliveries=deliveries,
                    moves=moves, seats=seats, reminders=reminders, orders=orders, hints=hints, tables=tables,
                    info=info, absence=Absence(storage, moves, deliveries, timers),
                    taking_back=TakingBack(storage, moves), tournaments=tournaments, due_timers=due_timers,
                    archive=archive,
                    clicks=ClickAnswers(tables, seats, info, hints, orders, moves, deliveries.answers))
        parts._follow(scheduler)
        return parts

    def _follow(self, scheduler: Scheduler) -> None:
        """Who follows whom, in the order each is asked: the move pipeline's listeners (what a
        change also writes, and what follows once it is stored) and gates (who may move), and the
        scheduler's sources of work that falls due."""
        self.moves.listen(self.timers)  # bot.days: waits, deadlines, reminders
        self.moves.gate(self.seats.gate)  # a player who resigned moves no more
        self.moves.listen(self.league.listener)  # bot.league: ratings in the change that ends a game
        self.moves.listen(self.tournaments.listener)  # bot.tournaments: a table's result, the next round
        self.moves.gate(self.tournaments.listener.gate)  # a table past its time is the computer's
        scheduler.add_source(self.due_timers.next_due, self.due_timers.run_due)
        scheduler.add_source(self.deliveries.next_due, self.deliveries.run_due)
        if self.archive is not None:
            scheduler.add_source(self.archive.next_due, self.archive.run_due)
        scheduler.add_source(self.league.overviews.next_due, self.league.overviews.run_due)
        scheduler.add_source(self.tournaments.next_due, self.tournaments.run_due)
        # The messages kept current beside the games' run in the delivery worker's loop.
        self.deliveries.keep(self.league.overviews, self.tournaments.messages)
        self.deliveries.on_channel_lost(self.tournaments.thread_lost)  # a table's thread deleted: a new one

    async def stop(self) -> None:
        """Stop the workers of the parts (the storage is closed by its owner, the bot)."""
        await self.deliveries.stop()
        await self.league.stop()
        await self.tournaments.stop()
