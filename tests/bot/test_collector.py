"""Full garbage collections are made between moves, when the bot has nothing in hand."""
from __future__ import annotations

import asyncio
import gc

import pytest

from bot.collector import QuietCollector
from tests.bot import fakegame
from tests.bot.conftest import SEED
from tests.bot.harness import bot_factory, play_to_end, start_table


@pytest.fixture
def counts(monkeypatch):
    """gc's counts as the test sets them, and the collections asked for."""
    state = {"count": (0, 0, 0), "collected": []}
    monkeypatch.setattr(gc, "get_count", lambda: state["count"])
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(gc, "collect", lambda generation=2: state["collected"].append(generation) or 0)
    return state


async def test_a_due_collection_is_made_once_the_work_is_done(counts):
    collector = QuietCollector()
    counts["count"] = (10, 3, 5)  # half of Python's own threshold for a full collection
    collector.work_done()
    assert counts["collected"] == []  # not inside the handler that just finished
    await asyncio.sleep(0)
    assert counts["collected"] == [2]
    assert collector.collections == 1


async def test_no_collection_before_it_is_due(counts):
    collector = QuietCollector()
    counts["count"] = (600, 9, 4)
    collector.work_done()
    await asyncio.sleep(0)
    assert counts["collected"] == []


async def test_work_that_starts_first_puts_the_collection_off(counts):
    collector = QuietCollector()
    counts["count"] = (0, 0, 9)
    collector.work_done()
    collector.work_started()  # a click arrived before the loop came round
    await asyncio.sleep(0)
    assert counts["collected"] == []
    collector.work_done()  # and when that move is done, it is made
    collector.work_done()  # asked twice, made once
    await asyncio.sleep(0)
    assert counts["collected"] == [2]


async def test_a_due_collection_waits_for_the_deliveries_under_way(counts, monkeypatch):
    monkeypatch.setattr("bot.collector.RETRY_SECONDS", 0.001)
    delivering = [True]
    collector = QuietCollector()
    collector.defer_while(lambda: delivering[0])
    counts["count"] = (10, 3, 5)
    collector.work_done()
    await asyncio.sleep(0.01)
    assert counts["collected"] == []  # the move's board and DMs are still being sent
    delivering[0] = False
    await asyncio.sleep(0.01)
    assert counts["collected"] == [2] and collector.collections == 1


async def test_a_nearly_overdue_collection_waits_for_no_delivery(counts):
    collector = QuietCollector()
    collector.defer_while(lambda: True)
    counts["count"] = (10, 3, 9)  # Python would make it itself within a collection or two
    collector.work_done()
    await asyncio.sleep(0)
    assert counts["collected"] == [2]


def test_start_up_objects_are_left_out_of_later_collections():
    before, thresholds = gc.get_freeze_count(), gc.get_threshold()
    try:
        QuietCollector().freeze_start_up()
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_after_start_up_full_collections_are_due_three_times_less_often_and_young_ones_as_before():
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        QuietCollector().freeze_start_up()
        assert gc.get_threshold() == (700, 10, 30)
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


# ------------------------------------------------------------------------ in the bot


@pytest.fixture
def make_bot(database_path, renderer, monkeypatch):
    """The bot as `python -m bot` runs it; the test process's own objects are not frozen, nor its
    collector's thresholds changed."""
    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(gc, "set_threshold", lambda *thresholds: None)
    return bot_factory(database_path, games={"pips": fakegame.GAME}, seed=SEED, render=renderer,
                       collect_when_quiet=True)


async def test_the_bot_collects_between_moves_never_during_one(world, monkeypatch):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    service = world.parts.moves
    during: list[int] = []
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 10))  # always due
    monkeypatch.setattr(gc, "collect", lambda generation=2: during.append(service._in_flight) or 0)
    moves = await play_to_end(world, [alice, bob])
    assert moves > 2
    assert during, "no collection was made between the moves"
    assert set(during) == {0}


async def test_the_bot_collects_once_a_move_is_delivered_not_while_it_is(world, monkeypatch):
    alice, bob = world.player("alice"), world.player("bob")
    await start_table(world, alice, bob)
    deliveries = world.parts.deliveries
    during: list[bool] = []
    monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
    monkeypatch.setattr(gc, "get_count", lambda: (0, 0, 5))  # due, and far from overdue
    monkeypatch.setattr(gc, "collect", lambda generation=2: during.append(deliveries.delivering()) or 0)
    moves = await play_to_end(world, [alice, bob])
    assert moves > 2
    assert during, "no collection was made between the moves"
    assert not any(during)
