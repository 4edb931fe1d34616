"""Die Glücksritter's secret choice on Discord: six card toggles and a confirm button in the
DM, exactly two cards, a choice that can be changed until the last player confirms, and a
channel that only ever hears who has chosen until everything is revealed at once.
"""
from __future__ import annotations

import json

import discord
import pytest

from games import REGISTRY
from tests.bot.harness import (
    bot_factory,
    buttons,
    latest_dm_with_moves,
    move_buttons,
    reply,
    seat_order,
    start_table,
    toggle_buttons,
)

GAME = REGISTRY["gluecksritter"]
CARD_NAMES = ["Brother Jacob", "Farmer Johann", "Master Ehrenfried", "Black Knight", "Tax Collector",
              "Customs Agent"]


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"gluecksritter": GAME}, seed=5, render=renderer)


async def three_at_the_table(world):
    people = [world.player(name) for name in ("anna", "bernd", "clara")]
    game_id = await start_table(world, *people, game="gluecksritter")
    return game_id, seat_order(world, game_id, people)


def confirm_button(message) -> dict:
    return next(b for b in buttons(message) if b["style"] == discord.ButtonStyle.success.value)


def toggled(message) -> list[int]:
    """The card numbers toggled on in a message (a chosen toggle is blue)."""
    return [int(b["label"].split(" ")[0]) for b in toggle_buttons(message)
            if b["style"] == discord.ButtonStyle.primary.value]


async def tap(world, player, message, card: int):
    """Tap the toggle of action card `card`; the answer is the message with its new buttons."""
    button = next(b for b in toggle_buttons(message) if b["label"].startswith(f"{card} · "))
    return (await world.click(player, message, custom_id=button["custom_id"])).response


async def choose(world, player, cards) -> None:
    """Toggle exactly `cards` in the player's DM (from whatever is toggled now) and confirm."""
    message = latest_dm_with_moves(world, player)
    for card in range(1, 7):
        if (card in cards) != (card in toggled(message)):
            message = await tap(world, player, message, card)
    await world.click(player, message, custom_id=confirm_button(message)["custom_id"])


def plain(text: str) -> str:
    return text.replace("**", "")


def channel_words(world) -> str:
    """Everything the channel shows in words: message texts and every component label."""
    parts = []
    for message in world.messages():
        parts.append(message.content or "")
        parts += [str(c.get("label")) for c in buttons(message)]
    return "\n".join(parts)


def assert_no_choice_in_channel(world) -> None:
    text = channel_words(world)
    for name in CARD_NAMES:
        assert name not in text, f"the channel names a card before the reveal: {name}"
    assert "revealed" not in text and "Confirm" not in text and "Change my choice" not in text


def change_button(message) -> dict | None:
    return next((b for b in move_buttons(message) if b["custom_id"].endswith(":change")), None)


async def test_two_cards_are_toggled_and_confirmed_in_the_dm(world):
    game_id, (anna, bernd, clara) = await three_at_the_table(world)
    dm = latest_dm_with_moves(world, anna)
    assert [b["label"] for b in toggle_buttons(dm)] == [f"{n} · {name}" for n, name in enumerate(CARD_NAMES, 1)]
    assert not any(b["custom_id"].split(":", 4)[-1].startswith("play ") for b in move_buttons(dm)), \
        "no menu of pairs any more: only the confirm button plays cards"
    assert not any(o["value"].startswith("play") for menu in dm.components for o in
                   (menu.children[0].to_dict().get("options") or []))
    assert confirm_button(dm).get("disabled") and confirm_button(dm)["label"].endswith("(0/2)")
    version = world.stored(game_id).version
    dms_before = len(world.dms(anna))

    dm = await tap(world, anna, dm, 2)
    assert toggled(dm) == [2]
    assert confirm_button(dm).get("disabled"), "one card: the confirm button waits"
    assert confirm_button(dm)["label"] == "Pick exactly two action cards (1/2)"
    dm = await tap(world, anna, dm, 5)
    assert toggled(dm) == [2, 5] and all(b["label"].endswith(" ✓") for b in toggle_buttons(dm)
                                         if b["style"] == discord.ButtonStyle.primary.value)
    assert not confirm_button(dm).get("disabled") and confirm_button(dm)["label"] == "Confirm my choice"
    dm = await tap(world, anna, dm, 6)
    assert toggled(dm) == [2, 5, 6]
    assert confirm_button(dm).get("disabled"), "three cards: the confirm button waits"
    assert confirm_button(dm)["label"].endswith("(3/2)")
    dm = await tap(world, anna, dm, 6)
    assert world.stored(game_id).version == version, "toggles store nothing"

    await world.click(anna, dm, custom_id=confirm_button(dm)["custom_id"])
    choice = world.stored_state(game_id)["choices"][world.seats(game_id)[anna.id]]
    assert choice == {"cards": [2, 5], "docs": [], "ransom": False, "ready": True}
    assert world.stored(game_id).version == version + 1
    # The same DM, edited: the choice in words and a button to change it; no toggles.
    assert len(world.dms(anna)) == dms_before
    dm = world.dms(anna)[-1]
    assert "Your choice: 2 Farmer Johann and 5 Tax Collector" in dm.content
    assert not toggle_buttons(dm) and change_button(dm) is not None
    assert "Anna has chosen." in plain(world.latest_board().content)
    assert_no_choice_in_channel(world)


async def test_a_confirm_with_the_wrong_count_is_refused_and_nothing_is_stored(world):
    game_id, (anna, bernd, clara) = await three_at_the_table(world)
    before = world.stored(game_id)
    # Typed: one card.
    result = await world.slash(anna, "move", action="play 2")
    answer = reply(result)
    assert answer is not None and answer.ephemeral
    assert "Pick exactly two action cards: you picked 1." in answer.content
    # An old or crafted message whose confirm button is enabled with three cards chosen.
    dm = latest_dm_with_moves(world, anna)
    for card in (1, 3, 6):
        dm = await tap(world, anna, dm, card)
    stored = world.env.backend.get_message(dm.channel_id if hasattr(dm, "channel_id") else dm.channel.id, dm.id)
    for row in stored.components:
        for component in row.get("components", []):
            if component.get("style") == discord.ButtonStyle.success.value:
                component["disabled"] = False
                crafted = component["custom_id"]
    assert crafted.endswith(":play 1,3,6")
    answer = reply(await world.click(anna, dm, custom_id=crafted))
    assert answer is not None and answer.ephemeral
    assert "you picked 3" in answer.content and "exactly 2" in answer.content
    assert world.stored(game_id) == before
    assert_no_choice_in_channel(world)


async def test_a_choice_can_be_changed_until_the_last_player_confirms(world):
    game_id, (anna, bernd, clara) = await three_at_the_table(world)
    seats = world.seats(game_id)
    await choose(world, anna, [2, 5])
    await choose(world, bernd, [1, 3])
    board = world.latest_board()
    assert "Bernd has chosen." in plain(board.content)
    assert anna.id not in board.raw_mentions and bernd.id not in board.raw_mentions, "confirmed: not waited for"

    # Anna takes her choice back from her DM (made before Bernd confirmed: still valid).
    dm = world.dms(anna)[-1]
    dms_before = len(world.dms(anna))
    await world.click(anna, dm, custom_id=change_button(dm)["custom_id"])
    state = world.stored_state(game_id)
    assert state["choices"][seats[anna.id]] == {"cards": [2, 5], "docs": [], "ransom": False, "ready": False}
    assert sorted(GAME.to_act(GAME.from_dict(state))) == sorted([seats[anna.id], seats[clara.id]])
    assert len(world.dms(anna)) == dms_before, "the same DM, edited in place"
    dm = world.dms(anna)[-1]
    assert toggled(dm) == [2, 5], "the cards stay picked: confirming again is one tap"
    assert not confirm_button(dm).get("disabled")
    assert world.latest_board().id == board.id, "the turn message is edited, nobody is pinged anew"
    assert "Anna changes their choice." in plain(world.latest_board().content)
    assert_no_choice_in_channel(world)

    # A changed mind: 5 and 6 instead of 2 and 5.
    await choose(world, anna, [5, 6])
    assert world.stored_state(game_id)["choices"][seats[anna.id]]["cards"] == [5, 6]
    assert_no_choice_in_channel(world)

    # Clara's toggles were made before anyone chose; they still work. Her confirm is the last
    # one: everything is revealed at once.
    await choose(world, clara, [1, 6])
    state = GAME.from_dict(world.stored_state(game_id))
    assert state.previous is not None or state.revealed
    cards = state.previous["cards"] if state.previous is not None else [c["cards"] for c in state.choices]
    assert cards[seats[anna.id]] == [5, 6] and cards[seats[bernd.id]] == [1, 3] and cards[seats[clara.id]] == [1, 6]
    text = plain("\n".join(m.content or "" for m in world.messages()))
    assert "The action cards are revealed." in text, "the turn message says it in a phone's line"
    log = plain(reply(await world.slash(anna, "game log")).content)
    assert "The action cards are revealed: Anna: 5 and 6 · Bernd: 1 and 3 · Clara: 1 and 6." in log
    for player in (anna, bernd, clara):
        assert not any(change_button(m) for m in world.dms(player)), "no one may change a revealed choice"


async def test_a_late_change_after_the_reveal_is_refused(world):
    game_id, (anna, bernd, clara) = await three_at_the_table(world)
    await choose(world, anna, [5, 6])
    await choose(world, bernd, [5, 6])
    before = world.stored(game_id)
    result = await world.slash(anna, "move", action="change")
    assert reply(result) is None or not reply(result).content.startswith("⚠️")
    assert world.stored(game_id).version == before.version + 1
    await choose(world, anna, [1, 6])
    await choose(world, clara, [5, 6])  # the last confirmation: revealed, the round is played
    after = world.stored(game_id)
    assert json.loads(after.state)["round"] == 2
    answer = reply(await world.slash(bernd, "move", action="change"))
    assert answer is not None and answer.content.startswith("⚠️")
    assert world.stored(game_id) == after
