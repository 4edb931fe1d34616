"""The secret choice by DM: six action cards as toggles and a confirm button that waits for two,
documents beside them, and a choice that can be taken back and changed until the last player
confirms. The channel only ever learns who has chosen."""
from __future__ import annotations

import discord

from games import REGISTRY
from games.core import Action
from tests.bot.harness import (
    buttons, components, latest_dm_with_moves, move_buttons, reply, seat_order, simulated_discord, start_table, toggle_buttons,
)

GAME = REGISTRY["gluecksritter"]


def confirm(message) -> dict:
    (button,) = [b for b in buttons(message) if b["style"] == discord.ButtonStyle.success.value]
    return button


def chosen_cards(message) -> list[str]:
    return [b["label"] for b in toggle_buttons(message) if b["style"] == discord.ButtonStyle.primary.value]


async def tap(world, player, message, card: int):
    """Tap the toggle of action card `card` (1-6) in `message`; returns the message as it is now."""
    found = [b for b in toggle_buttons(message) if b["label"].startswith(f"{card}:")]
    assert len(found) == 1, (message.content, [c.get("label") or c.get("placeholder") for c in components(message)])
    (button,) = found
    return (await world.click(player, message, custom_id=button["custom_id"])).response


async def test_two_cards_by_toggles_changed_until_the_last_player_confirms(tmp_path):
    async with simulated_discord(tmp_path / "bot.sqlite3", games={"gluecksritter": GAME}, seed=2) as world:
        people = [world.player(name) for name in ("anna", "bernd", "clara")]
        game_id = await start_table(world, *people, game="gluecksritter")
        anna, bernd, clara = seat_order(world, game_id, people)
        seat = {player: index for index, player in enumerate((anna, bernd, clara))}

        def state():
            return GAME.from_dict(world.stored_state(game_id))

        dm = latest_dm_with_moves(world, anna)
        labels = [b["label"] for b in toggle_buttons(dm)]
        assert len(labels) == 6 and all(f"{n}:" in label for n, label in zip(range(1, 7), labels))
        assert confirm(dm).get("disabled") and "two" in confirm(dm)["label"]
        assert not any(b["custom_id"].split(":", 4)[4].startswith("play ") for b in move_buttons(dm))

        # One card: not yet; two: the confirm button says so; three: not any more.
        dm = await tap(world, anna, dm, 2)
        assert confirm(dm).get("disabled")
        dm = await tap(world, anna, dm, 5)
        assert not confirm(dm).get("disabled") and confirm(dm)["custom_id"].endswith(":play 2,5")
        dm = await tap(world, anna, dm, 6)
        assert confirm(dm).get("disabled") and len(chosen_cards(dm)) == 3
        dm = await tap(world, anna, dm, 6)
        assert world.stored(game_id).actions == 0  # toggling stores nothing

        board = world.latest_board()
        await world.click(anna, dm, custom_id=confirm(dm)["custom_id"])
        assert state().choices[seat[anna]] == {"cards": [2, 5], "docs": [], "ransom": False, "ready": True}
        assert world.latest_board().id == board.id  # the others still choose: the same turn message
        assert "has chosen" in world.latest_board().content and "2,5" not in world.latest_board().content

        # Her DM, edited in place, now offers to change the choice.
        dms_before = len(world.dms(anna))
        dm = latest_dm_with_moves(world, anna)
        assert [b["label"] for b in move_buttons(dm)] == ["Change my choice"] and not toggle_buttons(dm)
        await world.click(anna, dm, custom_id=move_buttons(dm)[0]["custom_id"])
        assert state().choices[seat[anna]]["ready"] is False
        assert world.latest_board().id == board.id and world.pinged(world.latest_board()) == []
        assert "takes their choice back" in world.latest_board().content
        assert len(world.dms(anna)) == dms_before  # the same DM again, with her cards still tapped
        dm = latest_dm_with_moves(world, anna)
        assert [label.split(":")[0] for label in chosen_cards(dm)] == ["2", "5"]
        assert not confirm(dm).get("disabled")

        # One card or three, typed, are refused and store nothing.
        version = world.stored(game_id).version
        for typed in ("play 2", "play 2,5,6"):
            refused = reply(await world.slash(anna, "move", action=typed))
            assert refused.ephemeral and "⚠️" in refused.content and world.stored(game_id).version == version

        dm = await tap(world, anna, dm, 5)
        dm = await tap(world, anna, dm, 3)
        await world.click(anna, dm, custom_id=confirm(dm)["custom_id"])
        assert state().choices[seat[anna]]["cards"] == [2, 3] and state().choices[seat[anna]]["ready"]

        # The others choose; the last confirmation reveals everything at once.
        for player, cards in ((bernd, (1, 6)), (clara, (1, 5))):
            dm = latest_dm_with_moves(world, player)
            for card in cards:
                dm = await tap(world, player, dm, card)
            await world.click(player, dm, custom_id=confirm(dm)["custom_id"])
        after = state()
        assert after.revealed and after.phase != "choose"
        assert GAME.view(after, None)["players"][seat[anna]]["cards"] == [2, 3]
        assert Action("change") not in GAME.legal_actions(after, seat[anna])
        version = world.stored(game_id).version
        refused = reply(await world.slash(anna, "move", action="change"))
        assert refused.ephemeral and world.stored(game_id).version == version
