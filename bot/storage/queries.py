"""What the stores of the bot's parts (`bot.days`, `bot.delivery`, `bot.league`) use of the core
store (`bot.storage.core.CoreStore`), which every `Storage` combines them with: declared once so
that each part's store reads as complete on its own."""
from __future__ import annotations

import asyncio
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiosqlite

from bot.storage.database import Write as Write


class Queries:
    _lock: asyncio.Lock

    def _transaction(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any error. Caller holds self._lock."""
        raise NotImplementedError

    async def _update(self, sql: str, params: tuple[Any, ...]) -> None:
        raise NotImplementedError

    async def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    async def _row(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        raise NotImplementedError

    async def apply(self, writes: Sequence[Write]) -> None:
        """Statements that belong together, in one transaction."""
        raise NotImplementedError
