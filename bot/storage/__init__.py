"""Everything the bot knows, stored in SQLite (or PostgreSQL, `bot.postgres`), so a restart
loses nothing.

`Storage` is the store's core (`bot.storage.core`: games, seats, the action log, every change to
a game) together with the tables each feature keeps beside it: games over days
(`bot.days.storage`), what the bot owes Discord (`bot.delivery.storage`) and the league's
ratings, overviews and recaps (`bot.league.storage`) and tournaments (`bot.tournaments.storage`).
"""
from __future__ import annotations

from bot.days.storage import DaysRepository
from bot.delivery.storage import DeliveryRepository
from bot.league.storage import LeagueRepository
from bot.storage.backups import backup_file, restore_file
from bot.storage.core import CoreStore
from bot.storage.database import Database, Feature
from bot.storage.queries import Write
from bot.storage.rows import (
    OPEN_STATUSES,
    ActionRow,
    ChannelBusy,
    GameRow,
    ResultRow,
    SeatRow,
    StaleVersion,
    StorageError,
)
from bot.tournaments.storage import TournamentRepository


class Storage(CoreStore):
    """The whole store over one connection (see the module's docstring)."""

    def __init__(self, database: Database) -> None:
        super().__init__(database)
        self.days = DaysRepository(database)
        self.delivery = DeliveryRepository(database)
        self.league = LeagueRepository(database, self.days)
        self.tournaments = TournamentRepository(database)

    @staticmethod
    def features() -> list[Feature]:
        from bot.days.migrations import MIGRATIONS as DAYS
        from bot.delivery.migrations import MIGRATIONS as DELIVERY
        from bot.league.migrations import MIGRATIONS as LEAGUE
        from bot.storage.migrations import MIGRATIONS as GAMES
        from bot.tournaments.migrations import MIGRATIONS as TOURNAMENTS

        return [Feature("games", GAMES), Feature("days", DAYS), Feature("delivery", DELIVERY),
                Feature("league", LEAGUE), Feature("tournaments", TOURNAMENTS)]


__all__ = ["Storage", "GameRow", "SeatRow", "ActionRow", "ResultRow", "StaleVersion", "ChannelBusy", "StorageError",
           "Write", "backup_file", "restore_file", "OPEN_STATUSES"]
