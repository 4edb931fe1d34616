"""The bot's own routing of clicks on persistent components (bot.components.ClickRouter), in
place of discord.py's routing of dynamic items: the class whose template matches is made from
the clicked component and called, a select with its chosen values; a click on another bot's
component, on a component no longer on the message, or a command is left alone. Whole games in
the other tests click through it end to end."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from bot.components import ClickRouter, MoveButton, MoveSelect, answering, button, select
from tests.bot.harness import start_table


class Heard:
    """What `clicks` was asked (bot.components.Clicks), in order."""

    def __init__(self) -> None:
        self.moves: list[tuple[int, str, int]] = []

    async def move(self, interaction: Any, game_id: int, action: str, version: int) -> None:
        self.moves.append((game_id, action, version))


def click(rows: list[list[dict[str, Any]]], data: dict[str, Any],
          kind: discord.InteractionType = discord.InteractionType.component) -> Any:
    """An interaction as discord.py parses it: the clicked message's components and the click."""
    components = [discord.ActionRow({"type": 1, "components": row}) for row in rows]  # type: ignore[arg-type]
    return SimpleNamespace(type=kind, message=SimpleNamespace(components=components), data=data)


def router(heard: Heard) -> ClickRouter:
    return ClickRouter(answering((MoveButton, MoveSelect), clicks=heard))


async def test_a_button_is_answered_by_its_class_with_what_its_custom_id_carries():
    heard = Heard()
    rows = [[button(discord.ButtonStyle.primary, "Draw", "rk:move:7:12:draw"),
             button(discord.ButtonStyle.primary, "Pass", "rk:move:7:12:pass")]]

    await router(heard).route(click(rows, {"custom_id": "rk:move:7:12:pass", "component_type": 2}))

    assert heard.moves == [(7, "pass", 12)]


async def test_a_select_is_answered_with_the_value_chosen():
    heard = Heard()
    rows = [[select("rk:pick:7:12:0", [("Place at A1", "place A1"), ("Place at B2", "place B2")], "Choose")]]

    await router(heard).route(click(rows, {"custom_id": "rk:pick:7:12:0", "component_type": 3,
                                           "values": ["place B2"]}))

    assert heard.moves == [(7, "place B2", 12)]


async def test_clicks_not_on_the_message_or_not_the_bots_and_commands_are_left_alone():
    heard = Heard()
    rows = [[button(discord.ButtonStyle.primary, "Draw", "rk:move:7:12:draw")]]
    routing = router(heard)

    await routing.route(click(rows, {"custom_id": "rk:move:7:12:pass", "component_type": 2}))  # gone since
    await routing.route(click(rows, {"custom_id": "rk:move:7:12:draw", "component_type": 3}))  # not a select
    await routing.route(click(rows, {"custom_id": "someone-else:draw", "component_type": 2}))
    await routing.route(click(rows, {"name": "game"}, discord.InteractionType.application_command))

    assert heard.moves == []
    assert routing.answering("rk:move:7:12:draw") is not None and routing.answering("rk:nothing") is None


async def test_discord_py_routes_no_click_of_the_bot_itself(world):
    """One answer a click: discord.py keeps no dynamic item of the bot's (which would answer it a
    second time), the router has them all."""
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)

    assert world.bot._connection._view_store._dynamic_items == {}
    assert world.bot.click_router is not None and len(world.bot.click_router.items) >= 7
