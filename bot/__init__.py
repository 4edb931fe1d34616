"""The Discord layer: start-up, commands, components, DMs, notifications and storage.

`create_bot` builds the bot for `python -m bot`, the tests and the benchmarks alike.
"""
from bot.app import GameBot, create_bot

__all__ = ["GameBot", "create_bot"]
