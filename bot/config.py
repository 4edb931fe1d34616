"""Settings from the environment (and `.env`, loaded by `python -m bot`)."""
from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

DEFAULT_DATABASE_PATH = "data/bot.sqlite3"


class ConfigError(Exception):
    """A setting is missing or malformed; the message says what to put where, in one line."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: Path | str  # a SQLite file, or a postgresql:// URL from DATABASE_URL
    log_level: int
    dev_guild_id: int | None
    shard_count: int | None = None   # SHARD_COUNT: the bot's shards in all
    shard_ids: list[int] | None = None  # SHARD_IDS: the ones this process runs (default: all)

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> "Settings":
        token = environ.get("DISCORD_TOKEN", "").strip().strip('"').strip("'")
        if not token:
            raise ConfigError(
                "No DISCORD_TOKEN: copy .env.example to .env and put your bot token after DISCORD_TOKEN= "
                "(Discord Developer Portal > your application > Bot > Reset Token)."
            )
        level_name = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise ConfigError(f"LOG_LEVEL={level_name!r} is not a log level: use DEBUG, INFO, WARNING or ERROR in .env.")
        guild = environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID={guild!r} is not a server id: put the numeric id (right-click the "
                              "server > Copy Server ID) after DEV_GUILD_ID= in .env, or leave it empty.")
        shard_count, shard_ids = _shards(environ)
        return cls(
            shard_count=shard_count,
            shard_ids=shard_ids,
            token=token,
            database_path=environ.get("DATABASE_URL", "").strip()
            or Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
        )


def _shards(environ: Mapping[str, str]) -> tuple[int | None, list[int] | None]:
    count_text = environ.get("SHARD_COUNT", "").strip()
    ids_text = environ.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: put the number of shards after SHARD_COUNT= in .env.")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT={count_text!r} is not a number of shards: put a whole number like 2.")
    count = int(count_text)
    if not ids_text:
        return count, None  # this process runs every shard
    parts = [part.strip() for part in ids_text.split(",") if part.strip()]
    if not all(part.isdigit() and int(part) < count for part in parts):
        raise ConfigError(f"SHARD_IDS={ids_text!r}: list shard numbers from 0 to {count - 1}, "
                          "separated by commas, e.g. SHARD_IDS=0,1.")
    return count, sorted({int(part) for part in parts})
