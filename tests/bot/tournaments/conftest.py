"""Fixtures for the tournaments' tests: the bot with the test game on a clock the tests move, and
the tournament message's pauses made longer than simcord's settling."""
from __future__ import annotations

import random

import pytest

from bot.app import create_bot
from bot.scheduler import FakeClock
from bot.tournaments import message as tournament_message
from tests.bot import fakegame
from tests.bot.tournaments.helpers import EVERY, SETTLE


@pytest.fixture(autouse=True)
def message_pauses(monkeypatch):
    monkeypatch.setattr(tournament_message, "EVERY", EVERY)
    monkeypatch.setattr(tournament_message, "SETTLE", SETTLE)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def make_bot(database_path, renderer, clock):
    def build():
        return create_bot(database_path, games={"pips": fakegame.GAME}, render=renderer,
                          seed_source=random.Random(7), clock=clock)
    return build
