"""`python -m bot`: load .env, check the settings, run the bot until stopped.

Set-up mistakes (no token, a wrong token, a malformed setting) end the process at once with
one line saying what to fix, and exit code 2 — no traceback.
"""
from __future__ import annotations

import logging
import os
import sys
from typing import Mapping

import discord
from dotenv import find_dotenv, load_dotenv

from bot.app import create_bot
from bot.config import ConfigError, Settings

EXIT_CONFIG = 2


def main(environ: Mapping[str, str] | None = None) -> int:
    if environ is None:
        load_dotenv(find_dotenv(usecwd=True))  # the .env of the directory you start from
        environ = os.environ
    try:
        settings = Settings.from_env(environ)
    except ConfigError as error:
        return fail(str(error))
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)-8s %(name)s: %(message)s")
    logging.getLogger("discord.http").setLevel(max(settings.log_level, logging.INFO))
    # A board-game bot never joins voice: silence discord.py's start-up warnings about it.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    bot = create_bot(settings.database_path, dev_guild_id=settings.dev_guild_id,
                     shard_count=settings.shard_count, shard_ids=settings.shard_ids)
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


def fail(line: str) -> int:
    print(f"bot: {line}", file=sys.stderr)
    return EXIT_CONFIG


if __name__ == "__main__":
    sys.exit(main())
