"""What a move asks of the store besides the game, asked once: its DM rows and its timers' inputs
together (one hand-over), a turn message's recap once a turn (bot.league), the tournaments' gate
once a game that is no tournament table's (bot.tournaments). The board's deadlines and Hint come
with the delivery pass's one read of the game (tests/bot/test_days_timers.py,
tests/bot/test_practice.py)."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from bot.app import create_bot
from bot.errors import Refusal
from bot.tournaments.listener import TournamentListener
from games import REGISTRY
from tests.bot.harness import SketchRenderer, start_table, take_turn, to_act


@pytest.fixture
def make_bot(database_path):
    def build():
        return create_bot(database_path, games=REGISTRY, render=SketchRenderer(), seed_source=random.Random(5))
    return build


async def test_a_turns_recap_is_read_once_however_many_moves_the_turn_has(world, monkeypatch):
    # What a turn message recaps is history from before the turn began: it never changes, so
    # the boards of the turn's later moves (a Raub Ritter turn is several) say it unread.
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    game_id = await start_table(world, *players, game="raubritter")
    league, content = world.parts.storage.league, world.parts.content
    read, made = [], []
    reading, making = league.turn_recap, content.turn_recap

    async def counted_read(game, turn, seats):
        read.append((game, turn, tuple(seats)))
        return await reading(game, turn, seats)

    async def counted_recap(table, people, lines):
        made.append((table.turn_number, recap := await making(table, people, lines)))
        return recap

    monkeypatch.setattr(league, "turn_recap", counted_read)
    monkeypatch.setattr(content, "turn_recap", counted_recap)
    rng = random.Random(3)
    for _ in range(40):
        if world.stored(game_id).status != "active" or not to_act(world, players):
            break
        await take_turn(world, to_act(world, players)[0], rng)
    recaps = {turn: recap for turn, recap in made if recap}
    assert recaps and len(read) == len(set(read))
    # Turns with a recap drew it on several boards, each the same.
    assert any(sum(1 for turn, _ in made if turn == key) > 1 for key in recaps)
    assert all(recap == recaps[turn] for turn, recap in made if turn in recaps)
    assert len(made) > len(read)


async def test_a_moves_dm_rows_and_timers_inputs_are_read_in_one_hand_over(world, monkeypatch):
    # Once its game is read, a move reads its seats' DM rows and what its timers are worked out
    # from (the table's settings, its timers, the mover's absence) together, not one by one;
    # and its waits and timers are stored as before.
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    game_id = await start_table(world, *players, game="raubritter")
    storage = world.parts.storage
    apart: list[str] = []
    together: list[int] = []
    reads, dm_rows, change_inputs = storage.database.reads, storage.delivery.dm_rows, storage.days.change_inputs

    async def counted_reads(statements):
        if any("FROM seat_dms" in sql for sql, _ in statements):
            together.append(sum(1 for sql, _ in statements if "FROM timers" in sql or "FROM day_tables" in sql))
        return await reads(statements)

    async def dm_rows_apart(game):
        apart.append("dm_rows")
        return await dm_rows(game)

    async def inputs_apart(game, user):
        apart.append("change_inputs")
        return await change_inputs(game, user)

    monkeypatch.setattr(storage.database, "reads", counted_reads)
    monkeypatch.setattr(storage.delivery, "dm_rows", dm_rows_apart)
    monkeypatch.setattr(storage.days, "change_inputs", inputs_apart)
    rng = random.Random(3)
    for _ in range(6):
        await take_turn(world, to_act(world, players)[0], rng)
    assert apart == [] and together and all(count == 2 for count in together)
    waiting = {seat for seat, row in (await storage.days.seats(game_id)).items() if row["since"] is not None}
    assert waiting and {seat for seat, _, _ in await storage.days.timers(game_id)} == waiting


class Tournaments:
    """The tournaments' store as the gate asks it: game id -> (tournament, status, overtime)."""

    def __init__(self, tables: dict[int, tuple[int, str, bool]]) -> None:
        self.tables = tables
        self.asked: list[int] = []

    async def overtime_of(self, game_id: int) -> tuple[int, str, bool] | None:
        self.asked.append(game_id)
        return self.tables.get(game_id)


def snapshot(game_id: int) -> SimpleNamespace:
    return SimpleNamespace(table=SimpleNamespace(id=game_id, lang="en"), seats={})


async def test_the_tournaments_gate_asks_once_of_a_game_no_tournament_table_plays():
    tournaments = Tournaments({7: (1, "running", False)})
    gate = TournamentListener(SimpleNamespace(tournaments=tournaments), lambda tournament_id: None).gate
    for _ in range(3):
        await gate(snapshot(5), 0)  # type: ignore[arg-type]
        await gate(snapshot(7), 0)  # type: ignore[arg-type]
    assert tournaments.asked == [5, 7, 7, 7]
    # A tournament table's time runs out during its game: its next move is refused.
    tournaments.tables[7] = (1, "running", True)
    with pytest.raises(Refusal):
        await gate(snapshot(7), 0)  # type: ignore[arg-type]
    tournaments.tables[7] = (1, "cancelled", True)
    with pytest.raises(Refusal):
        await gate(snapshot(7), 0)  # type: ignore[arg-type]


async def test_a_passs_dms_show_the_standing_orders_read_with_its_game(world, monkeypatch):
    # A DM shows its seat's standing orders (on its toggles, in its words): the pass reads them
    # with the game for all its DMs, never one seat's apart.
    players = [world.player(name) for name in ("alice", "bob", "carol")]
    game_id = await start_table(world, *players, game="macrobber")
    delegator = players[1]
    answer = await world.slash(delegator, "game orders", kind="macrobber.reaction.defence", setting="on")
    assert "the computer answers for you" in answer.response.content
    days = world.parts.storage.days
    read_apart = []

    async def standing_orders(game):
        read_apart.append(game)
        return await type(days).standing_orders(days, game)

    monkeypatch.setattr(days, "standing_orders", standing_orders)
    dms_before = world.dm_count(delegator)
    rng = random.Random(2)
    for _ in range(12):
        if world.stored(game_id).status != "active" or not to_act(world, players):
            break
        await take_turn(world, to_act(world, players)[0], rng)
    assert read_apart == []
    shown = [message for message in world.dms(delegator)[dms_before:] if message.components]
    assert shown and all("the computer answers for you" in (message.content or "") for message in shown)
