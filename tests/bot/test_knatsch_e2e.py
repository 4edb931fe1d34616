"""A whole three-player game of Knatsch, played by simulated users through Discord.

Players read the latest board like people do: its mentions say who must act, and they pick one
of the moves the bot offers (board buttons or select menus, the 'My hand' reply, or `/move`
with its autocomplete). In the middle of the game the bot restarts on the same database file.
"""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games import REGISTRY
from games.core import forced_decision
from tests.bot import pg
from tests.bot.harness import bot_factory, seat_order, take_turn, to_act

BOT_SEED = 11      # seat order and game seed, through create_bot(seed_source=...)
CHOOSER_SEED = 5   # which of the offered moves the simulated players pick
RESTART_AFTER = 80   # the first move after the restart clicks a board posted before it
MAX_MOVES = 1500


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"knatsch": REGISTRY["knatsch"]}, seed=BOT_SEED, render=renderer)


async def make_a_move(world, player, rng: random.Random, move_number: int) -> None:
    """Every fifth move goes through `/move` and its autocomplete; the others through the
    components the bot offers (board buttons or selects, DMs, or the 'My hand' reply)."""
    if move_number % 5 == 4:
        offered = await world.autocomplete(player, "move", "action", "")
        assert 0 < len(offered) <= 25
        await world.slash(player, "move", action=rng.choice(offered)["value"])
    else:
        await take_turn(world, player, rng)


@pg.on_both_stores
async def test_three_players_play_knatsch_to_the_end_across_a_restart(world, renderer):
    alice, bob, carol = (world.player(name) for name in ("alice", "bob", "carol"))
    await world.slash(alice, "game new", game="knatsch")
    for player in (bob, carol):
        await world.click(player, world.latest(), label="Join")
    await world.click(alice, world.latest(), label="Start")
    players = seat_order(world, 1, [alice, bob, carol])
    rng = random.Random(CHOOSER_SEED)

    moves = made_at_once = 0
    game = REGISTRY["knatsch"]
    while "Game over" not in world.latest_board().content:
        assert moves < MAX_MOVES, "the game did not end"
        if moves == RESTART_AFTER:
            before = world.stored(1)
            await world.restart()
            assert world.stored(1) == before
        acting = to_act(world, players)
        assert acting, world.latest_board().content
        version = world.stored(1).version
        await make_a_move(world, acting[0], rng, moves)
        extra = world.stored(1).version - version - 1
        assert extra >= 0, "an offered move was refused"
        if extra:  # a defender's or tournament roller's first roll: the only move, made at once
            assert "⚡" in world.fresh(world.latest_board()).content \
                or "Game over" in world.latest_board().content
        # The game never waits on a person for a decision everyone can see is forced.
        assert world.stored(1).status != "active" or \
            forced_decision(game, game.from_dict(world.stored_state(1))) is None
        moves += 1
        made_at_once += extra

    assert moves > RESTART_AFTER
    final = world.latest_board()
    assert "🏁 **Game over**" in final.content and "Final scores:" in final.content
    stored = world.stored(1)
    assert stored.status == "finished" and stored.version == stored.actions == moves + made_at_once
    assert made_at_once > 5  # the first rolls of defenders and tournament rollers
    # Every board carried a real Knatsch image of the public view: a PNG, small, not square.
    # One message per turn, edited through the turn's sub-steps (tests/bot/test_table_turns.py
    # counts them per handover).
    boards = [m for m in world.bot_messages() if m.attachments]
    assert 1 < len(boards) < moves / 2
    for board in (boards[0], boards[len(boards) // 2], final):
        png = world.png(board)
        assert renderer.viewer_of[png] is None and len(png) < 10 * 1024 * 1024
        width, height = Image.open(io.BytesIO(png)).size
        assert width != height
