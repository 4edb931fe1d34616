"""The database layer (`bot.storage.database`) and the games with their moves (`bot.storage.games`),
on which every feature builds; this package imports no feature. `bot.store.Storage` puts the
features' repositories together.
"""
from __future__ import annotations

from bot.storage import rows
from bot.storage.backups import backup_file, restore_file
from bot.storage.database import Write
from bot.storage.rows import *  # noqa: F403 (the rows and errors, named in rows.__all__)

__all__ = [*rows.__all__, "Write", "backup_file", "restore_file"]
