"""The delivery worker's loop for the messages features keep current (`KeptMessage`: a server's
overview, a tournament's standings): the games' backoff after Discord's trouble, Discord's own
retry_after, the longest pause where the bot may not post, a kick during a pause that asks for
one more look after it (never sooner), a bug tried again, and a stop that ends it."""
from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from bot.delivery import worker
from bot.delivery.requests import Failure
from bot.delivery.worker import Deliveries

BACKOFF = (1.0, 3.0, 10.0, 300.0)


class Standings:
    """A kept message whose looks answer what the test lines up, one by one (then None)."""

    kind = "standings"

    def __init__(self, answers: list) -> None:
        self.answers: Iterator = iter(answers)
        self.looks: list[int] = []
        self.kick = None

    def attach(self, kick) -> None:
        self.kick = kick

    async def look(self, key: int):
        self.looks.append(key)
        answer = next(self.answers, None)
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.fixture
def pauses(monkeypatch) -> list[float]:
    """The pauses the loop sleeps, recorded; each lasts one turn of the event loop."""
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(worker.asyncio, "sleep", sleep)
    return slept


def kept(answers: list) -> tuple[Deliveries, Standings]:
    deliveries = Deliveries(None, None, {}, None)  # type: ignore[arg-type]  # a kept message needs none of them
    deliveries.backoff = BACKOFF
    standings = Standings(answers)
    deliveries.keep(standings)
    return deliveries, standings


async def test_discord_trouble_backs_off_as_for_games_and_a_rate_limit_waits_its_retry_after(pauses):
    deliveries, standings = kept([Failure("retry", "503", status=503), Failure("retry", "no answer in time"),
                                  Failure("retry", "429", after=7.0, status=429), 5.0,
                                  Failure("retry", "502", status=502), 0.0])
    standings.kick(4)
    await deliveries.settled(("standings", 4))
    assert standings.looks == [4] * 7
    # 1 and 3 s of backoff, Discord's 7 s, the message's own 5 s pause (the backoff starts
    # again after it), then at once.
    assert pauses == [1.0, 3.0, 7.0, 5.0, 1.0]


@pytest.mark.parametrize("kind", ["blocked", "refused", "gone"])
async def test_where_the_bot_may_not_post_it_is_tried_again_after_the_longest_pause(pauses, kind):
    deliveries, standings = kept([Failure(kind, "403", status=403)])
    standings.kick(1)
    await deliveries.settled(("standings", 1))
    assert pauses == [BACKOFF[-1]] and standings.looks == [1, 1]


async def test_a_kick_during_a_pause_asks_for_one_more_look_after_it_never_sooner(monkeypatch):
    deliveries, standings = kept([Failure("retry", "429", after=30.0, status=429), None, None])
    pausing = asyncio.Event()
    go_on = asyncio.Event()
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        pausing.set()
        await go_on.wait()
        await real_sleep(0)

    monkeypatch.setattr(worker.asyncio, "sleep", sleep)
    standings.kick(2)
    await pausing.wait()
    standings.kick(2)  # the standings changed while Discord asked for 30 s
    standings.kick(2)
    await real_sleep(0)
    assert standings.looks == [2]
    go_on.set()
    await deliveries.settled(("standings", 2))
    assert standings.looks == [2, 2]  # the look after the pause shows it all: one, not one per kick


async def test_a_bug_in_a_look_is_tried_again_after_the_longest_pause(pauses, caplog):
    deliveries, standings = kept([RuntimeError("a bug"), None])
    standings.kick(3)
    await deliveries.settled(("standings", 3))
    assert standings.looks == [3, 3] and pauses == [BACKOFF[-1]]
    assert "Delivering the standings message 3 failed" in caplog.text


async def test_a_stop_ends_the_looks_and_refuses_new_kicks():
    deliveries, standings = kept([60.0, None])
    standings.kick(5)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    await deliveries.stop()
    assert standings.looks == [5]
    standings.kick(5)
    await deliveries.settled(("standings", 5))  # nothing runs: returns at once
    assert standings.looks == [5]
