"""The gateway's message events the bot has no use for (bot.app.skip_unread_message_events): a
message posted or edited in a server is let go without discord.py making a Message of it, while
a deleted board is still posted again (tests/bot/test_reliability.py and others)."""
from __future__ import annotations

from typing import Any

from bot.app import UNREAD_MESSAGE_EVENTS, skip_unread_message_events


class State:
    def __init__(self) -> None:
        self.made: list[str] = []
        self.parsers = {name: self._parser(name) for name in (*UNREAD_MESSAGE_EVENTS, "MESSAGE_DELETE")}

    def _parser(self, name: str) -> Any:
        return lambda data: self.made.append(name)


def test_posted_and_edited_messages_are_let_go_deleted_ones_are_read():
    state = State()

    skip_unread_message_events(state)
    for parse in state.parsers.values():
        parse({"id": "1", "channel_id": "2"})

    assert state.made == ["MESSAGE_DELETE"]


def test_a_discord_py_without_a_table_of_parsers_is_left_as_it_is():
    state = object()

    skip_unread_message_events(state)  # no error: nothing to change


async def test_the_running_bot_lets_them_go(world):
    parsers = world.bot._connection.parsers

    dispatched: list[str] = []
    real_dispatch = world.bot.dispatch

    def dispatch(event: str, *args: Any, **kwargs: Any) -> None:
        dispatched.append(event)
        real_dispatch(event, *args, **kwargs)

    world.bot.dispatch = dispatch
    try:
        for event in UNREAD_MESSAGE_EVENTS:
            parsers[event]({"id": "1", "channel_id": "2", "content": "hello", "author": {"id": "3", "username": "x"}})
    finally:
        world.bot.dispatch = real_dispatch

    assert "message" not in dispatched and "raw_message_edit" not in dispatched
    assert parsers["MESSAGE_DELETE"].__name__ == "parse_message_delete"
