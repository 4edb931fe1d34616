"""Fixtures for the bot tests: a simulated Discord running our bot on a fresh database."""
from __future__ import annotations

import threading

import pytest
import simcord.interactions

from tests.bot import fakegame
from tests.bot.harness import World, bot_factory

SEED = 7


class RecordingRenderer:
    """Renders like the bot would (the test game has a tiny renderer of its own) and remembers
    which view every image came from, so tests can tell a public board from a private one."""

    def __init__(self) -> None:
        self.viewer_of: dict[bytes, int | None] = {}
        self.batches: list[list[int | None]] = []  # the seats of each `many` call
        # Every view an image was drawn from: two seats with the same hand get the same bytes.
        self.viewers_of: dict[bytes, set[int | None]] = {}
        self.views_of: dict[bytes, list[dict]] = {}  # the very views (a picture current or stale)
        self._lock = threading.Lock()  # renders run in worker threads

    def __call__(self, view: dict, names: list[str], lang: str = "en") -> bytes:
        if view["game"] == fakegame.GAME.name:
            png = fakegame.render(view, names)
        else:
            from renderers import render_png

            png = render_png(view, names, lang)
        with self._lock:
            self.viewer_of[png] = view["viewer"]
            self.viewers_of.setdefault(png, set()).add(view["viewer"])
            self.views_of.setdefault(png, []).append(view)
        return png

    def many(self, views: list[dict], names: list[str], lang: str = "en") -> list[bytes]:
        """Several seats' views of one state at once, as the bot's own renderer draws them."""
        if views[0]["game"] == fakegame.GAME.name:
            pngs = [fakegame.render(view, names) for view in views]
        else:
            from renderers import render_pngs

            pngs = render_pngs(views, names, lang)
        with self._lock:
            for view, png in zip(views, pngs):
                self.viewer_of[png] = view["viewer"]
                self.viewers_of.setdefault(png, set()).add(view["viewer"])
                self.views_of.setdefault(png, []).append(view)
            self.batches.append([view["viewer"] for view in views])
        return pngs


@pytest.fixture
def renderer() -> RecordingRenderer:
    return RecordingRenderer()


@pytest.fixture
def make_bot(database_path, renderer):
    return bot_factory(database_path, games={"pips": fakegame.GAME}, seed=SEED, render=renderer)


@pytest.fixture
def simcord_bot(make_bot):
    """What simcord's pytest plugin runs (its `simcord_env` fixture)."""
    return make_bot()


@pytest.fixture
async def world(simcord_env, make_bot, database_path):
    world = World(simcord_env, make_bot, database_path)
    yield world
    await world.bot.close_storage()  # aiosqlite's worker thread must not outlive the test


LOCALES: dict[int, str] = {}  # user id -> the Discord client language simcord reports


@pytest.fixture
def client_languages(monkeypatch):
    """simcord reports every user as en-US; here a user may speak German (interaction.locale)."""
    original = simcord.interactions.base_payload

    def with_locale(*args, **kwargs):
        record, payload = original(*args, **kwargs)
        payload["locale"] = LOCALES.get(kwargs["user_id"], "en-US")
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    LOCALES.clear()
    yield LOCALES
    LOCALES.clear()


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch):
    """Deliveries refused by the simulated Discord are tried again after short pauses (the real
    ones grow to minutes); the last pause stays long, so a test sees a delivery left owed."""
    from bot.delivery import worker

    monkeypatch.setattr(worker, "BACKOFF", (0.05, 0.1, 0.2, 60.0))
