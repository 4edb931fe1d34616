"""The bot's parts (bot.parts) as the running bot has them: built once, together, and the
components registered at start-up carry the parts that answer their clicks, even after the bot
has sent messages with views (discord.py would otherwise register the bare classes over them)."""
from __future__ import annotations

import dataclasses

import pytest

from bot.components import ALL_DYNAMIC_ITEMS
from bot.parts import Parts
from tests.bot.harness import start_table


def registered_items(world) -> list[type]:
    return list(world.bot.click_router.items)


async def test_the_parts_are_built_together_and_stay_as_built(world):
    parts = world.parts

    assert isinstance(parts, Parts)
    assert all(getattr(parts, field.name) is not None for field in dataclasses.fields(Parts)
               if field.name != "archive")  # no archive unless the bot is given archive_days
    with pytest.raises(dataclasses.FrozenInstanceError):
        parts.moves = None  # type: ignore[misc]
    assert parts.clicks.moves is parts.moves and parts.info.moves is parts.moves


async def test_clicks_reach_the_parts_after_messages_with_buttons_were_sent(world):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)  # the lobby, a board and DMs sent, each with its buttons

    items = registered_items(world)
    answering = [item for item in items if any(item.__name__ == base.__name__ for base in ALL_DYNAMIC_ITEMS)]
    assert len(answering) == len(ALL_DYNAMIC_ITEMS)
    assert all(item not in ALL_DYNAMIC_ITEMS and item.clicks is world.parts.clicks for item in answering)
    assert world.stored(1).status == "active"
