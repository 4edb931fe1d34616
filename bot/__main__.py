"""`python -m bot`: load .env, check the settings, run the bot until stopped.

Set-up mistakes (no token, a wrong token, a malformed setting) end the process at once with
one line saying what to fix, and exit code 2 — no traceback. SIGTERM (systemd stop, a deploy)
stops cleanly: moves under way finish, owed boards are posted, the database is closed.

    python -m bot                      run the bot
    python -m bot backup               write a back-up now (also while the bot runs)
    python -m bot restore <back-up>    put a back-up in place of the database (bot stopped)
    python -m bot ratings rebuild      work every rating out again from the stored results
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path

import discord
import yarl
from dotenv import find_dotenv, load_dotenv

from bot.app import backup_name, create_bot
from bot.config import ConfigError, Settings
from bot.league.rebuild import rebuild
from bot.postgres import open_storage
from bot.storage import backup_file, restore_file
from bot.timing import Durations

EXIT_CONFIG = 2
GATEWAY_TRIES = 10  # asking a stand-in Discord where its gateway is (DISCORD_API_URL)


def command_line() -> argparse.ArgumentParser:
    """What `python -m bot` (and the `robber-knights-bot` command) can do; each part answers --help."""
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="The board-games Discord bot. Settings come from .env "
        "(DISCORD_TOKEN, DATABASE_PATH, …; see .env.example). Without a command it runs the bot.")
    commands = parser.add_subparsers(dest="command", metavar="command")
    commands.add_parser("run", help="run the bot (the default)", description="Run the bot until SIGTERM "
                        "or Ctrl-C: it needs DISCORD_TOKEN in .env.")
    commands.add_parser("backup", help="copy the SQLite database into BACKUP_DIR (the bot may be running)",
                        description="Copy the SQLite database (DATABASE_PATH) into BACKUP_DIR, online.")
    restore = commands.add_parser("restore", help="put a back-up in place of the database (stop the bot first)",
                                  description="Put a back-up in place of the database; the previous one is kept.")
    restore.add_argument("file", nargs="?", help="the back-up file")
    league = commands.add_parser("ratings", help="the league's ratings (ratings rebuild)",
                                 description="The league's ratings per game and server.")
    league.add_subparsers(dest="action", metavar="action").add_parser(
        "rebuild", help="rate every ended game again, in order", description="Rate every ended game again, "
        "in the order the games ended, replacing every rating and its history (also while the bot runs).")
    return parser


def main(environ: Mapping[str, str] | None = None, argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if any(word in ("-h", "--help") for word in argv):
        try:
            command_line().parse_args(argv)
        except SystemExit as done:  # --help printed what it can do
            return int(done.code or 0)
    if environ is None:
        load_dotenv(find_dotenv(usecwd=True))  # the .env of the directory you start from
        environ = os.environ
    if argv and argv[0] in ("backup", "restore"):
        return maintenance(environ, argv)
    if argv and argv[0] == "ratings":
        return ratings(environ, argv)
    if argv and argv[0] != "run":
        return fail(f"No command {argv[0]!r}: python -m bot --help lists what it can do.")
    try:
        settings = Settings.from_env(environ)
    except ConfigError as error:
        return fail(str(error))
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    logging.getLogger("discord.http").setLevel(max(settings.log_level, logging.INFO))
    # A board-game bot never joins voice: silence discord.py's start-up warnings about it.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if settings.api_url:
        use_api(settings.api_url)
    bot = create_bot(settings.database_path, dev_guild_id=settings.dev_guild_id, handle_signals=True,
                     shard_count=settings.shard_count, shard_ids=settings.shard_ids,
                     backup_dir=settings.backup_dir, backup_keep=settings.backup_keep,
                     backup_every=settings.backup_hours * 3600 if settings.backup_hours > 0 else None,
                     collect_when_quiet=True, archive_days=settings.archive_days,
                     durations=Durations(scale=settings.time_scale))
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        return fail("Discord refused the token: put the current bot token after DISCORD_TOKEN= in .env "
                    "(Developer Portal > your application > Bot > Reset Token).")
    except discord.PrivilegedIntentsRequired:
        return fail("Discord asks for privileged intents this bot does not use; check you run this bot's code.")
    except OSError as error:  # no network, DNS failure, unreachable gateway
        return fail(f"Could not reach Discord ({error.__class__.__name__}: {error}). Check the network and retry.")
    return 0


def use_api(api_url: str) -> None:
    """For testing only (DISCORD_API_URL): talk to a stand-in Discord at `api_url`, its gateway
    included (GET /gateway names it; discord.py would otherwise connect to Discord's own)."""
    discord.http.Route.BASE = api_url
    for attempt in range(GATEWAY_TRIES):
        try:
            with urllib.request.urlopen(f"{api_url}/gateway", timeout=10) as answer:
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(json.load(answer)["url"])
            return
        except urllib.error.HTTPError as error:
            # Rate limited or in trouble, as Discord can be: wait as it says, then ask again.
            if error.code != 429 and error.code < 500 or attempt == GATEWAY_TRIES - 1:
                raise
            time.sleep(min(float(error.headers.get("Retry-After") or 1.0), 10.0))


def maintenance(environ: Mapping[str, str], argv: list[str]) -> int:
    """`backup` and `restore <file>`: they need no token, only DATABASE_PATH (and BACKUP_DIR)."""
    settings = Settings.from_env({**environ, "DISCORD_TOKEN": environ.get("DISCORD_TOKEN") or "unused"})
    database = settings.database_path
    if argv[0] == "backup":
        if not isinstance(database, Path):  # DATABASE_URL: PostgreSQL keeps its own back-ups
            return fail(f"The database is {database}: back it up with PostgreSQL's own tools.")
        if not database.exists():
            return fail(f"No database at {database}: nothing to back up.")
        if settings.backup_dir is None:  # from_env always names one (BACKUP_DIR, or beside the database)
            return fail("No BACKUP_DIR to back up into.")
        target = settings.backup_dir / backup_name()
        backup_file(database, target)
        print(f"bot: backed up {database} to {target}")
        return 0
    if len(argv) != 2:
        return fail("Usage: python -m bot restore <back-up file>   (stop the bot first)")
    try:
        kept = restore_file(argv[1], database)
    except (OSError, ValueError) as error:
        return fail(f"Could not restore {argv[1]}: {error}")
    print(f"bot: restored {argv[1]} to {database}" + (f" (the previous database is kept as {kept})" if kept else ""))
    return 0


def ratings(environ: Mapping[str, str], argv: list[str]) -> int:
    """`ratings rebuild` (bot.league.rebuild): it needs no token, only the database."""
    if argv[1:] != ["rebuild"]:
        return fail("Usage: python -m bot ratings rebuild")
    settings = Settings.from_env({**environ, "DISCORD_TOKEN": environ.get("DISCORD_TOKEN") or "unused"})
    database = settings.database_path
    if isinstance(database, Path) and not database.exists():  # (a URL names a PostgreSQL database)
        return fail(f"No database at {database}: nothing to rebuild.")

    async def run():
        storage = await open_storage(str(database))
        try:
            return await rebuild(storage)
        finally:
            await storage.close()

    done = asyncio.run(run())
    print(f"bot: ratings rebuilt from {done.ended} ended games ({done.rated} rated): {done.players} ratings")
    return 0


def fail(line: str) -> int:
    print(f"bot: {line}", file=sys.stderr)
    return EXIT_CONFIG


def cli() -> None:
    """The installed `robber-knights-bot` command."""
    sys.exit(main())


if __name__ == "__main__":
    cli()
