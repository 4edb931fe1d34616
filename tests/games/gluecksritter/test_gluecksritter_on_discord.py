"""A whole four-player game of Die Glücksritter through the real bot, offline in simcord.

Secret choices go by DM (one player has closed DMs and uses 'My hand'): the two action cards
are tapped as toggles and confirmed, and once a confirmed choice is taken back and made again;
the first round is
scripted so that two Black Knights haggle on the board; in round two the bot restarts after two
players have chosen and two have not. After every move we check that nothing public tells a
secret choice or a document before the reveal, and that channel images are public views.
"""
from __future__ import annotations

import random
import re

from simcord.results import to_discord_message

from games import REGISTRY
from tests.bot import pg
from tests.bot.harness import (
    SketchRenderer,
    buttons,
    latest_dm_with_moves,
    offered,
    reply,
    seat_order,
    selects,
    simulated_discord,
    start_table,
    toggle_buttons,
)

GAME = REGISTRY["gluecksritter"]
SECRET = re.compile(r"(You play|Play \d|\bplay \d,\d|Your documents|You receive|Monk's Favour: you)")


def toggled(message) -> list[int]:
    return [int(b["label"].split(" ")[0]) for b in toggle_buttons(message) if b["style"] == 1]


async def tap_cards(world, player, source, cards: list[int]) -> None:
    """Toggle exactly `cards` in a message with the card toggles, then press its confirm button."""
    for card in range(1, 7):
        if (card in cards) != (card in toggled(source)):
            button = next(b for b in toggle_buttons(source) if b["label"].startswith(f"{card} · "))
            source = (await world.click(player, source, custom_id=button["custom_id"])).response
    confirm = [b for b in buttons(source) if b["style"] == 3 and not b.get("disabled")]
    assert len(confirm) == 1 and confirm[0]["custom_id"].endswith(f"play {cards[0]},{cards[1]}")
    await world.click(player, source, custom_id=confirm[0]["custom_id"])


@pg.whole_game_on_both_stores
async def test_a_whole_four_player_game_through_the_bot(database_path):
    renderer = SketchRenderer(real_first=4)
    database = database_path
    async with simulated_discord(database, games={"gluecksritter": GAME}, seed=4, render=renderer) as world:
        people = [world.player(name) for name in ("anna", "bernd", "clara", "dieter")]
        closed = people[2]
        world.close_dms(closed)
        game_id = await start_table(world, *people, game="gluecksritter")
        players = seat_order(world, game_id, people)
        rng = random.Random(3)
        seen = {"images": set()}
        used = {"dm": 0, "my hand": 0, "board": 0, "/move": 0, "toggles": 0}
        haggled = restarted = changed = False

        def state():
            return GAME.from_dict(world.stored_state(game_id))

        def check_public():
            stored = world.env.backend.messages.get(world.channel.id, {})
            # Every message every time: a turn's message is edited in place, so an old one may
            # have new words and a new image.
            for message in sorted(stored.values(), key=lambda m: m.id):
                if message.is_ephemeral:
                    continue
                message = to_discord_message(world.env, message)
                assert not SECRET.search(message.content or ""), message.content
                for item in buttons(message) + [o for menu in selects(message) for o in menu["options"]]:
                    assert not SECRET.search(str(item.get("label"))) and not SECRET.search(str(item.get("value")))
                png = world.png(message)
                if png is not None:
                    view = renderer.view_of[png]
                    assert view["viewer"] is None and "private" not in view
                    seen["images"].add(png)

        async def move(player, action: str):
            seat = players.index(player)
            board = world.latest_board()
            if action.startswith("play "):  # the cards: toggles and a confirm button, never a menu
                assert offered(board, action) is None
                if player is closed:
                    source = reply(await world.click(player, board, label="My hand"))
                    used["my hand"] += 1
                else:
                    source = latest_dm_with_moves(world, player)
                    used["dm"] += 1
                assert toggle_buttons(source)
                assert not any(o["value"].startswith("play") for menu in selects(source) for o in menu["options"])
                await tap_cards(world, player, source, [int(c) for c in action.split()[1].split(",")])
                used["toggles"] += 1
                check_public()
                return seat
            spot = offered(board, action)
            source = board if spot else None
            if spot is None and player is closed:
                source = reply(await world.click(player, board, label="My hand"))
                assert source is not None and source.ephemeral
                spot = offered(source, action)
                used["my hand"] += 1
            elif spot is None:
                source = latest_dm_with_moves(world, player)
                spot = offered(source, action) if source is not None else None
                used["dm"] += spot is not None
            else:
                used["board"] += 1
            if spot is None:
                await world.slash(player, "move", action=action)
                used["/move"] += 1
            else:
                custom_id, value = spot
                if value is None:
                    await world.click(player, source, custom_id=custom_id)
                else:
                    await world.select(player, source, value, custom_id=custom_id)
            check_public()
            return seat

        moves_made = 0
        for _ in range(600):
            current = state()
            if GAME.outcome(current) is not None:
                break
            moves_made += 1
            acting = sorted(GAME.to_act(current))
            if current.round == 1 and current.phase == "choose":
                # Scripted: seats 0 and 1 send their Black Knights, 2 and 3 go for coins.
                plan = {0: "4,5", 1: "4,6", 2: "1,5", 3: "1,6"}
                seat = acting[0]
                before = world.stored_state(game_id)["choices"]
                await move(players[seat], "play " + plan[seat])
                after = state()
                if not all(c["ready"] for c in after.choices):
                    # The chosen pair is secret: nobody else's view has changed for it.
                    assert GAME.view(after, None)["players"][seat]["cards"] is None
                    assert [c["ready"] for c in before] != [c["ready"] for c in after.choices]
                continue
            if current.phase == "haggle":
                haggled = True
                h = current.haggle
                seat = h["chooser"] if h["opener"] is None else h["turn"]
                legal = [a.encode() for a in GAME.legal_actions(current, seat)]
                if h["opener"] is None:
                    action = legal[0]
                elif h["offer"] is None:
                    action = legal[0]             # offer 1
                elif h["offer"][1] < 2 and "offer 2" in legal:
                    action = "offer 2"
                else:
                    action = "accept"
                await move(players[seat], action)
                continue
            if current.round == 2 and current.phase == "choose" and not restarted \
                    and sum(c["ready"] for c in current.choices) == 2:
                chosen = [list(c["cards"]) for c in current.choices]
                await world.restart()
                restarted = True
                again = state()
                assert [list(c["cards"]) for c in again.choices] == chosen
                assert sorted(GAME.to_act(again)) == [s for s in range(4) if not current.choices[s]["ready"]]
                continue
            confirmed = [s for s in range(4) if current.phase == "choose" and current.choices[s]["ready"]]
            if current.round >= 3 and confirmed and not changed:
                # A confirmed choice is taken back (from the DM or 'My hand') and made again below.
                changed = True
                seat = confirmed[-1]
                await move(players[seat], "change")
                again = state()
                assert seat in GAME.to_act(again) and not again.choices[seat]["ready"]
                assert again.choices[seat]["cards"] == current.choices[seat]["cards"]
                continue
            seat = rng.choice(acting)
            action = GAME.suggest(current, seat, rng).encode()
            await move(players[seat], action)
        final = state()
        assert GAME.outcome(final) is not None, "the game did not end"
        assert haggled and restarted and changed
        assert used["dm"] and used["my hand"] and used["board"] and used["toggles"]
        assert used["/move"] == 0, "every move was offered as a button, a menu or toggles"
        assert "Game over" in world.latest_board().content or world.stored(game_id).status != "active"
        assert len(seen["images"]) >= moves_made // 2, "a fresh board image after (nearly) every move"
        assert renderer.real_left == 0, "the first boards were drawn by the real renderer"
        assert any("has chosen" in (m.content or "") for m in world.messages()), "who has chosen is public"
