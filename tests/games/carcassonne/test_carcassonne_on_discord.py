"""A whole three-player game of Carcassonne through the real bot in a simulated Discord.

The players tap the board's buttons and selects (square group, square, rotation, follower,
robber, crop circle), one move goes through `/move`, and the bot restarts on the same database
in the middle. Most boards come from a tiny sketch renderer (speed); the real renderer draws the
first board and the one after the restart.
"""
from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from games.carcassonne import GAME
from games.core import forced_decision
from tests.bot import pg
from tests.bot.harness import World, bot_factory, move_buttons, seat_order, selects, start_table, to_act

SEED = 5
RESTART_AFTER = 120
MAX_MOVES = 1200


class Renderer:
    def __init__(self) -> None:
        self.real = True
        self.count = 0

    def __call__(self, view: dict, names: list[str]) -> bytes:
        self.count += 1
        if self.real:
            from renderers import render_png

            return render_png(view, names)
        buffer = io.BytesIO()
        Image.new("P", (8, 10), self.count % 200).save(buffer, format="PNG")
        return buffer.getvalue()


@pytest.fixture
def renderer():
    return Renderer()


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"carcassonne": GAME}, seed=SEED, render=renderer)


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@pytest.fixture
async def world(simcord_env, make_bot, database_path):
    world = World(simcord_env, make_bot, database_path)
    yield world
    await world.bot.close_storage()


def offered(board) -> list[tuple[str, dict, str | None]]:
    """(kind, component, value) for every move the board offers."""
    moves = [("button", b, None) for b in move_buttons(board)]
    for menu in selects(board):
        moves.extend(("select", menu, option["value"]) for option in menu["options"])
    return moves


def text_of(kind, component, value) -> str:
    return component["label"] if kind == "button" else value


@pg.whole_game_on_both_stores
async def test_three_players_play_a_whole_game_on_discord(world, renderer):
    players = [world.player(name) for name in ("anna", "bernd", "clara")]
    game_id = await start_table(world, *players, game="carcassonne")
    players = seat_order(world, game_id, players)
    renderer.real = False
    rng = random.Random(2)
    seen_verbs: set[str] = set()
    used_move_command = False
    for moves in range(MAX_MOVES):
        if world.stored(game_id).status == "finished":
            break
        if moves == RESTART_AFTER:
            await world.restart()
            renderer.real = True
        board = world.latest_board()
        actor = to_act(world, players)[0]
        state = GAME.from_dict(world.stored_state(game_id))
        legal = GAME.legal_actions(state, players.index(actor))
        choices = offered(board)
        assert choices, "the board offers no move to the player whose turn it is"
        assert len(choices) == len(legal), "every legal action is on the board, nothing cut"
        for _kind, component, _ in choices:
            assert len(component.get("label") or component.get("placeholder") or "") <= 80
        # Prefer moving robbers and deciding crop circles so both happen; never go back.
        pick = [a for a in legal if a.verb in ("robber", "crop", "add", "remove")] or \
            [a for a in legal if a.verb != "back"] or legal
        action = rng.choice(pick)
        seen_verbs.add(action.verb)
        if not used_move_command and action.verb == "turn":
            used_move_command = True
            await world.slash(actor, "move", action=action.encode())
        else:
            index = legal.index(action)
            kind, component, value = choices[index]
            if kind == "button":
                await world.click(actor, board, custom_id=component["custom_id"])
            else:
                await world.select(actor, board, value, custom_id=component["custom_id"])
        renderer.real = moves == RESTART_AFTER
        after = GAME.from_dict(world.stored_state(game_id))
        expected = GAME.apply(state, players.index(actor), action)[0]
        while (forced := forced_decision(GAME, expected)) is not None:  # the only move: made at once
            expected = GAME.apply(expected, *forced)[0]
        assert GAME.to_dict(after) == GAME.to_dict(expected)
    assert world.stored(game_id).status == "finished"
    assert {"robber", "crop", "follower", "turn"} <= seen_verbs and used_move_command
    final = GAME.from_dict(world.stored_state(game_id))
    assert len(final.board.tiles) + len(final.set_aside) == 81
    assert "Game over" in world.latest_board().content
