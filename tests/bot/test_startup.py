"""`python -m bot` start-up: settings, one-line failures, and the commands it registers."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import discord
import pytest

import bot.__main__ as entry
from bot.app import GameBot
from bot.config import ConfigError, Settings

REPO = Path(__file__).resolve().parents[2]


def test_without_a_token_it_exits_at_once_with_one_clear_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)

    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)

    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0] and ".env" in lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_token_is_read_from_dotenv_in_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDATABASE_PATH=\nDEV_GUILD_ID=not-a-number\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env["PYTHONPATH"] = str(REPO)

    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)

    # The token was found; the malformed guild id is reported in one line before any login.
    assert done.returncode == 2 and "DEV_GUILD_ID" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_rejected_token_exits_with_one_line(monkeypatch, capsys):
    async def refuse(self, token):
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(GameBot, "login", refuse)

    code = entry.main({"DISCORD_TOKEN": "wrong"}, [])

    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "refused the token" in err[0] and "DISCORD_TOKEN=" in err[0]


def test_settings_defaults_and_parsing():
    settings = Settings.from_env({"DISCORD_TOKEN": ' "tok" ', "DEV_GUILD_ID": "123", "LOG_LEVEL": "debug"})
    assert settings.token == "tok" and settings.dev_guild_id == 123 and settings.log_level == logging.DEBUG
    assert settings.database_path == Path("data/bot.sqlite3")

    assert Settings.from_env({"DISCORD_TOKEN": "t", "DATABASE_PATH": "x.db"}).database_path == Path("x.db")
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        Settings.from_env({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"})


def test_the_bot_needs_no_privileged_intents():
    from bot import create_bot

    intents = create_bot(":memory:").intents
    assert not intents.members and not intents.presences and not intents.message_content


async def test_the_synced_commands(world):
    alice = world.player("alice")

    assert sorted(alice.available_commands(world.channel)) == sorted([
        "game new", "game hand", "game status", "game board", "game log", "game rules",
        "game resign", "game abandon", "move",
        "game stats", "game leaderboard", "game export",  # bot.records
        # issue 9, games over days (bot.cogs.days)
        "game mine", "game reminders", "game away", "game back", "game replace", "game undo", "game computer",
        "game practice", "game hint",  # practice tables and hints
        "game orders",  # standing orders (bot.days.orders)
        "game recap", "game overview here", "game overview off",  # issue 32, the league (bot.cogs.league)
        "game tournament cancel", "game tournament new", "game tournament start",  # bot.tournaments
        "game tournament status", "game tournament withdraw", "game tournament organisers", "game tournament settings",
    ])


def test_the_bot_hears_only_what_it_uses_and_keeps_no_members():
    from bot import create_bot

    bot = create_bot(":memory:")
    assert bot.intents.guilds and bot.intents.guild_messages
    assert not (bot.intents.typing or bot.intents.reactions or bot.intents.voice_states or bot.intents.members
                or bot.intents.emojis_and_stickers or bot.intents.invites or bot.intents.dm_messages)
    assert bot._connection.member_cache_flags.value == 0


async def test_a_restart_with_many_stored_games_loads_none_of_them(world):
    """What start-up reads is ids at most: a bot on a store of many games keeps none of them."""
    from tests.bot.harness import start_table

    for number in range(12):
        channel = world.guild.create_text_channel(f"tisch-{number}")
        people = [world.player(f"p{number}a"), world.player(f"p{number}b")]
        await start_table(world, *people, channel=channel)
    await world.restart()
    assert world.parts.storage.games.loads == 0  # not one game read
    assert world.parts.deliveries._tasks == {}  # and nothing owed, so nothing to deliver


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["run", "--help"], ["backup", "--help"], ["restore", "--help"],
                                  ["ratings", "--help"], ["ratings", "rebuild", "--help"]])
def test_every_command_answers_help_without_a_token(argv, capsys):
    assert entry.main({}, argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m bot")


def test_the_help_lists_what_the_bot_can_do(capsys):
    entry.main({}, ["--help"])
    out = capsys.readouterr().out
    assert all(command in out for command in ("run", "backup", "restore", "ratings"))


def test_an_unknown_command_says_where_to_look(capsys):
    assert entry.main({"DISCORD_TOKEN": "x"}, ["nonsense"]) == 2
    assert "--help" in capsys.readouterr().err
