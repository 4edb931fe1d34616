"""The database layer (`bot.storage.database`) and the games with their moves (`bot.storage.games`),
on which every feature builds; this package imports no feature. `bot.store.Storage` puts the
features' repositories together.
"""
from __future__ import annotations

from bot.storage.backups import backup_file, restore_file
from bot.storage.database import Write
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

__all__ = ["GameRow", "SeatRow", "ActionRow", "ResultRow", "StaleVersion", "ChannelBusy", "StorageError",
           "Write", "backup_file", "restore_file", "OPEN_STATUSES"]
