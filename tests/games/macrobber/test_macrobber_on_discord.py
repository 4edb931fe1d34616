"""A whole four-player game of Mac Robber through the real bot, offline in simcord.

Actions and cube choices are chosen on the board; raid cards and discards by DM (one player
has closed DMs and uses 'My hand'); the bot restarts while an attacker's card lies face down.
After every move we check that nothing public tells a hand, a drawn card or the face-down card,
and that channel images are public views.
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
)

GAME = REGISTRY["macrobber"]
SECRET = re.compile(r"(You draw|Your raid cards|You play a|You discard|Play a \d|Discard a \d|You put a)")


@pg.whole_game_on_both_stores
async def test_a_whole_four_player_game_through_the_bot(database_path):
    renderer = SketchRenderer(real_first=3)
    async with simulated_discord(database_path, games={"macrobber": GAME}, seed=4,
                                 render=renderer) as world:
        people = [world.player(name) for name in ("anna", "bernd", "clara", "dieter")]
        closed = people[2]
        world.close_dms(closed)
        game_id = await start_table(world, *people, game="macrobber")
        players = seat_order(world, game_id, people)
        rng = random.Random(3)
        used = {"dm": 0, "my hand": 0, "board": 0, "/move": 0}
        private_moves = {"board": 0, "private": 0}
        raids = restarted = 0

        def state():
            return GAME.from_dict(world.stored_state(game_id))

        def check_public():
            stored = world.env.backend.messages.get(world.channel.id, {})
            for message in sorted(stored.values(), key=lambda m: m.id)[-4:]:
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

        async def move(player, action: str, secret: bool):
            board = world.latest_board()
            spot = offered(board, action)
            source = board if spot else None
            if spot is None and player is closed:
                source = reply(await world.click(player, board, label="My hand"))
                assert source is not None and source.ephemeral
                spot = offered(source, action)
                used["my hand"] += spot is not None
            elif spot is None:
                source = latest_dm_with_moves(world, player)
                spot = offered(source, action) if source is not None else None
                used["dm"] += spot is not None
            else:
                used["board"] += 1
            private_moves["board" if source is board else "private"] += secret and spot is not None
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

        for _ in range(1500):
            current = state()
            if GAME.outcome(current) is not None:
                break
            seat = min(GAME.to_act(current))
            action = GAME.suggest(current, seat, rng)
            if current.phase == "raid" and not current.owed[seat]:
                targets = [a for a in GAME.legal_actions(current, seat) if a.verb == "raid"]
                if targets and (raids < 3 or rng.random() < 0.3):
                    action = rng.choice(targets)  # make sure raids happen, also against the closed DMs
                    raids += 1
            if current.phase == "combat" and current.raid["a_card"] is not None and restarted < 1:
                hand_before = list(current.hands[current.raid["defender"]])
                face_down = current.raid["a_card"]
                await world.restart()
                restarted += 1
                again = state()
                assert again.raid["a_card"] == face_down and again.hands[again.raid["defender"]] == hand_before
                assert GAME.to_act(again) == {again.raid["defender"]}
            secret = action.verb in ("play", "discard", "toss", "draw")
            await move(players[seat], action.encode(), secret)
        final = state()
        assert GAME.outcome(final) is not None, "the game did not end"
        assert raids and restarted
        assert used["dm"] and used["my hand"] and used["board"]
        assert private_moves["board"] == 0, "a raid card or discard was offered on the public board"
        assert "Game over" in world.latest_board().content or world.stored(game_id).status != "active"
        assert renderer.real_left == 0
        lines = " ".join(m.content or "" for m in world.messages())
        assert "plays a card face down" in lines and "green" in lines and "red" in lines


async def test_the_tie_breaker_is_a_table_option(tmp_path):
    async with simulated_discord(tmp_path / "bot.sqlite3", games={"macrobber": GAME}, seed=2,
                                 render=SketchRenderer(real_first=3)) as world:
        people = [world.player(name) for name in ("anna", "bernd", "clara")]
        chosen = await start_table(world, *people, game="macrobber", options="tiebreak=cubes")
        assert GAME.from_dict(world.stored_state(chosen)).tiebreak is True
