"""Everything the bot knows, stored in SQLite (or PostgreSQL, `bot.postgres`), so a restart
loses nothing: the one place that puts the features' stores together.

`Storage` holds the database (`bot.storage.database`: the connection, transactions, the
migrations runner) and one repository per feature, each over that database with its own tables
and migrations beside its code: the games and their moves (`storage.games`, `bot.storage.games`),
games over days (`storage.days`, `bot.days.storage`), what the bot owes Discord
(`storage.delivery`, `bot.delivery.storage`), the league (`storage.league`, `bot.league.storage`)
and tournaments (`storage.tournaments`, `bot.tournaments.storage`). A feature that needs another's
facts asks that feature's repository (the league asks days which tables were for practice).
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Self

from bot.days.migrations import FEATURE as DAYS
from bot.days.storage import DaysRepository
from bot.delivery.migrations import FEATURE as DELIVERY
from bot.delivery.storage import DeliveryRepository
from bot.league.migrations import FEATURE as LEAGUE
from bot.league.storage import LeagueRepository
from bot.storage.database import Database, Feature, Write
from bot.storage.games import GamesRepository
from bot.storage.migrations import FEATURE as GAMES
from bot.tournaments.migrations import FEATURE as TOURNAMENTS
from bot.tournaments.storage import TournamentRepository


class Storage:
    """The database and every feature's repository over it (see the module's docstring)."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.games = GamesRepository(database)
        self.days = DaysRepository(database)
        self.delivery = DeliveryRepository(database)
        self.league = LeagueRepository(database, self.days)
        self.tournaments = TournamentRepository(database)

    @staticmethod
    def features() -> list[Feature]:
        """Every feature's migrations, in the order they run (the games' tables first: the
        others refer to them)."""
        return [GAMES, DAYS, DELIVERY, LEAGUE, TOURNAMENTS]

    @classmethod
    async def open(cls, path: str | Path) -> Self:
        return cls(await Database.open(path, cls.features()))

    @property
    def path(self) -> Path | None:
        return self.database.path

    async def close(self) -> None:
        await self.database.close()

    async def apply(self, writes: Sequence[Write]) -> None:
        """Statements that belong together (of any features), in one transaction."""
        await self.database.apply(writes)

    async def backup(self, target: str | Path) -> Path:
        return await self.database.backup(target)

    async def schema_version(self) -> dict[str, int]:
        """feature -> the newest of its migrations that has run."""
        return await self.database.schema_versions()
