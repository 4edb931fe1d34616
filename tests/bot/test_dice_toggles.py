"""Knatsch rolling on Discord: tap the dice to roll again, then "Roll again", or stop.

The toggles change only the buttons (nothing is stored); the confirm button makes the move.
"""
from __future__ import annotations

import sqlite3

import discord
import pytest

from games import REGISTRY
from tests.bot.harness import bot_factory, buttons, move_buttons, reply, seat_order, start_table, toggle_buttons


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"knatsch": REGISTRY["knatsch"]}, seed=3, render=renderer)


async def rolled_once(world):
    """A two-player Knatsch game where the first player announced a stack card and rolled once."""
    players = [world.player("alice"), world.player("bob")]
    await start_table(world, *players, game="knatsch")
    first, second = seat_order(world, 1, players)
    board = world.latest_board()
    target = next(b for b in move_buttons(board) if b["custom_id"].split(":", 4)[4].startswith("target"))
    await world.click(first, board, custom_id=target["custom_id"])  # announcing rolls all six dice at once
    assert world.stored_state(1)["roll"]["rolls_used"] == 1
    return first, second


async def click_labelled(world, player, message, prefix):
    button = next(b for b in move_buttons(message) if b["label"].startswith(prefix))
    return await world.click(player, message, custom_id=button["custom_id"])


def die_labels(message) -> list[str]:
    return [b["label"] for b in toggle_buttons(message)]


def confirm_button(message) -> dict:
    return next(b for b in buttons(message) if b["style"] == discord.ButtonStyle.success.value)


async def test_tapping_dice_then_roll_again_rerolls_exactly_those(world):
    first, _ = await rolled_once(world)
    board = world.latest_board()
    state = world.stored_state(1)
    dice = state["roll"]["dice"]
    free = [i for i, die in enumerate(dice) if die != 6]
    # Named by position and value, as the image numbers them; sixes are locked: no button.
    assert die_labels(board) == [f"Die {i + 1}: {dice[i]}" for i in free]
    rows = [[c.label for c in row.children if c.custom_id.startswith("rk:tog:")] for row in board.components]
    assert all(len(row) <= 3 for row in rows), "at most three dice a row, like the image"
    assert confirm_button(board).get("disabled"), "nothing chosen yet: the confirm button waits"
    version = world.stored(1).version

    chosen = free[:2]
    message = board
    for index in (0, 1):
        message = (await world.click(first, message, custom_id=toggle_buttons(message)[index]["custom_id"])).response
    assert world.stored(1).version == version, "a toggle must not make a move"
    assert [label.endswith("↻") for label in die_labels(message)][:2] == [True, True]
    confirm = confirm_button(message)
    assert not confirm.get("disabled") and "(2)" in confirm["label"]

    await world.click(first, message, custom_id=confirm["custom_id"])
    stored = world.stored(1)
    assert stored.version == version + 1
    with sqlite3.connect(world.database_path) as db:
        (last_action,) = db.execute("SELECT action FROM actions ORDER BY version DESC LIMIT 1").fetchone()
    assert last_action == "reroll " + ",".join(str(i + 1) for i in chosen)


async def test_only_the_roller_may_tap_the_dice(world):
    _, second = await rolled_once(world)
    before = world.stored(1)
    board = world.latest_board()
    result = await world.click(second, board, custom_id=toggle_buttons(board)[0]["custom_id"])
    assert reply(result).content.startswith("⚠️ ") and "waiting for" in reply(result).content
    assert world.stored(1) == before


async def test_dice_from_an_older_view_are_refused(world):
    """Old boards lose their buttons; an older `/game hand` reply keeps them, and is refused."""
    first, _ = await rolled_once(world)
    hand = reply(await world.slash(first, "game hand"))
    assert toggle_buttons(hand), "the private view offers the dice too"
    await click_labelled(world, first, world.latest_board(), "Stop with")
    before = world.stored(1)
    result = await world.click(first, hand, custom_id=toggle_buttons(hand)[0]["custom_id"])
    assert "out of date" in reply(result).content
    assert world.stored(1) == before


async def test_tapped_dice_survive_a_restart(world):
    first, _ = await rolled_once(world)
    board = world.latest_board()
    message = (await world.click(first, board, custom_id=toggle_buttons(board)[0]["custom_id"])).response
    version = world.stored(1).version
    await world.restart()
    await world.click(first, message, custom_id=confirm_button(message)["custom_id"])
    assert world.stored(1).version == version + 1
