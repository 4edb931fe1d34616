"""Practice tables: `/game practice` starts at once against computer seats, the player plays to
the end, hints answer privately in the player's language and name a legal move, and the game
counts for nobody's records. At ordinary tables hints are off unless `options:hints=on`."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from games import REGISTRY
from tests.bot.harness import SketchRenderer, buttons, reply, take_turn, to_act

GAME = REGISTRY["knatsch"]


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, clock):
    def build():
        return create_bot(database_path, games=REGISTRY, render=SketchRenderer(),
                          seed_source=random.Random(3), clock=clock)
    return build


async def let_computers_move(world, clock) -> None:
    await world.run_timers()
    clock.advance(3)  # the computer answers after a short pause
    await world.run_timers()


async def test_a_practice_table_plays_to_the_end_with_hints_and_no_records(world, clock):
    anna = world.player("anna")
    opened = await world.slash(anna, "game practice", game="knatsch", players=2)
    assert opened.ephemeral and "#1" in reply(opened).content
    assert world.stored(1).status == "active"  # no lobby: it starts at once
    seats = world.seats(1)
    assert len(seats) == 2 and sorted(u for u in seats if u < 0) == [-1]
    assert "practice" in world.messages()[0].content.lower() or "practice" in world.latest_board().content.lower()

    rng = random.Random(5)
    hinted = 0
    for _ in range(600):
        if world.stored(1).status != "active":
            break
        if anna in to_act(world, [anna]):
            board = world.latest_board()
            if hinted < 3 and any(b.get("label") == "Hint" for b in buttons(board)):
                answer = reply(await world.click(anna, board, label="Hint"))
                assert answer.ephemeral and "The computer would play" in answer.content
                typed = answer.content.split("`/move ")[1].split("`")[0]
                state = GAME.from_dict(world.stored_state(1))
                assert typed in {a.encode() for a in GAME.legal_actions(state, seats[anna.id])}
                hinted += 1
            await take_turn(world, anna, rng)
        else:
            await let_computers_move(world, clock)
    assert world.stored(1).status == "finished" and hinted
    stats = reply(await world.slash(anna, "game stats")).content
    assert "Knatsch" not in stats  # a practice game counts for nobody


async def test_a_practice_boards_hint_is_read_with_the_game_not_apart(world, clock, monkeypatch):
    anna = world.player("anna")
    asked = []

    async def hint_offered(table):  # the read apart a board made before
        asked.append(table.id)
        return False

    monkeypatch.setattr(world.parts.content, "hint_offered", hint_offered)
    await world.slash(anna, "game practice", game="knatsch", players=2)
    await let_computers_move(world, clock)
    assert any(b.get("label") == "Hint" for b in buttons(world.latest_board())) and asked == []


async def test_a_hint_answers_in_the_players_language(world, clock):
    anna = world.player("anna", locale="de") if "locale" in world.player.__code__.co_varnames else world.player("anna")
    await world.slash(anna, "game practice", game="raubritter", players=2, language="de")
    for _ in range(10):
        if anna in to_act(world, [anna]):
            break
        await let_computers_move(world, clock)
    answer = reply(await world.slash(anna, "game hint"))
    assert answer.ephemeral and ("would play" in answer.content or "würde spielen" in answer.content)


async def test_hints_are_off_at_ordinary_tables_unless_turned_on(world, clock):
    anna, bernd = world.player("anna"), world.player("bernd")
    await world.slash(anna, "game new", game="knatsch")
    await world.click(bernd, world.latest(), label="Join")
    await world.click(anna, world.latest(), label="Start")
    off = reply(await world.slash(anna, "game hint"))
    assert off.ephemeral and "Hints are off" in off.content
    await world.slash(anna, "game abandon")

    await world.slash(anna, "game new", game="knatsch", options="hints=on")
    await world.click(bernd, world.latest(), label="Join")
    await world.click(anna, world.latest(), label="Start")
    assert ("Hints are on" in world.latest_board().content
            or any("Hints are on" in m.content for m in world.messages()[-3:]))
    first = next(p for p in (anna, bernd) if p in to_act(world, [anna, bernd]))
    answer = reply(await world.slash(first, "game hint"))
    assert "The computer would play" in answer.content
    other = bernd if first is anna else anna
    waiting = reply(await world.slash(other, "game hint"))
    assert "not your move" in waiting.content
