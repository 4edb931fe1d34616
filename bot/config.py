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
        return cls(
            token=token,
            database_path=environ.get("DATABASE_URL", "").strip()
            or Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH),
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
        )
