"""Settings from the environment (and `.env`, loaded by `python -m bot`)."""
from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

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
    backup_dir: Path | None = None     # default: `backups/` beside the database
    backup_hours: float = 24.0         # 0: no automatic back-ups
    backup_keep: int = 7
    api_url: str | None = None         # DISCORD_API_URL: a stand-in Discord, for testing only
    archive_days: float = 0.0          # ARCHIVE_AFTER_DAYS: finished games this old are archived (0: never)
    time_scale: float = 1.0            # TIME_SCALE: game time shortened by this factor, for testing only

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
        token = environ.get("DISCORD_TOKEN", "").strip().strip('"').strip("'")
        if not token:
            raise ConfigError(
                "No DISCORD_TOKEN: copy .env.example to .env and put your bot token after DISCORD_TOKEN= "
                "(Discord Developer Portal > your application > Bot > Reset Token)."
            )
        level_name = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise ConfigError(f"LOG_LEVEL={level_name!r} is not a log level: "
                              "use DEBUG, INFO, WARNING or ERROR in .env.")
        guild = environ.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID={guild!r} is not a server id: put the numeric id (right-click the "
                              "server > Copy Server ID) after DEV_GUILD_ID= in .env, or leave it empty.")
        shard_count, shard_ids = _shards(environ)
        database_url = environ.get("DATABASE_URL", "").strip()
        database_path = Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH)
        hours = _number(environ, "BACKUP_HOURS", "24", float, "a number of hours, e.g. 24 (0 turns back-ups off)")
        keep = _number(environ, "BACKUP_KEEP", "7", int, "a whole number of back-ups to keep, e.g. 7")
        if hours < 0 or keep < 1:
            raise ConfigError("BACKUP_HOURS must be 0 or more and BACKUP_KEEP at least 1 in .env.")
        if database_url:
            hours = 0  # the bot's own back-ups are of SQLite files; PostgreSQL has its own tools
        backup_dir = environ.get("BACKUP_DIR", "").strip()
        archive_days = _number(environ, "ARCHIVE_AFTER_DAYS", "0", float,
                               "a number of days, e.g. 365 (0 keeps every finished game as it is)")
        if archive_days < 0:
            raise ConfigError("ARCHIVE_AFTER_DAYS must be 0 (off) or more in .env.")
        api_url = environ.get("DISCORD_API_URL", "").strip().rstrip("/")
        if api_url and not api_url.startswith(("http://", "https://")):
            raise ConfigError(f"DISCORD_API_URL={api_url!r} is not a URL: leave it empty (it is for testing only).")
        time_scale = _number(environ, "TIME_SCALE", "1", float, "a factor such as 0.001 (it is for testing only)")
        if not 0 < time_scale <= 1:
            raise ConfigError("TIME_SCALE must be above 0 and at most 1 in .env "
                              "(leave it empty: it is for testing only).")
        return cls(
            time_scale=time_scale,
            api_url=api_url or None,
            archive_days=archive_days,
            shard_count=shard_count,
            shard_ids=shard_ids,
            backup_dir=Path(backup_dir) if backup_dir else database_path.parent / "backups",
            backup_hours=hours,
            backup_keep=keep,
            token=token,
            database_path=database_url or database_path,
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


def _number(environ: Mapping[str, str], name: str, default: str, kind: type, what: str):
    raw = environ.get(name, "").strip() or default
    try:
        return kind(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not valid: put {what} after {name}= in .env.") from None
