"""One scheduler for the whole bot: a single task that sleeps until the earliest stored timer.

Nothing here knows about games. A *source* (bot.days is the only one today) answers two
questions: when is the next thing due (`next_due() -> float | None`, read from the database),
and handle everything due by now (`run_due(now)`). The loop asks every source for its next
time, sleeps until the earliest one (or until `poke()` says a timer was added or moved), and
then lets each source handle what is due. While nothing is due the task is parked in one
`asyncio.sleep`: no polling, no task per game, no CPU.

The clock is injectable. `SystemClock` is the real one; `FakeClock` is for tests: it only
moves when the test calls `advance()`, and tests then call `await scheduler.run_due()`
themselves (the loop is not started on a fake clock, so nothing runs behind a test's back).
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

# A source that keeps failing must not spin the loop: after an error, wait this long.
ERROR_BACKOFF = 30.0
# asyncio timeouts are not meant for days; longer sleeps are cut into pieces of this size.
MAX_SLEEP = 6 * 3600.0
MIN_SLEEP = 0.05


class Clock(Protocol):
    real: bool

    def now(self) -> float: ...


class SystemClock:
    real = True

    def now(self) -> float:
        return time.time()


class FakeClock:
    """A clock for tests: starts at `start` (Unix seconds) and moves only when told."""

    real = False

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        self._now += seconds
        return self._now

    def set(self, when: float) -> None:
        self._now = float(when)


NextDue = Callable[[], Awaitable[float | None]]
RunDue = Callable[[float], Awaitable[None]]


class Scheduler:
    def __init__(self, clock: Clock | None = None) -> None:
        self.clock: Clock = clock or SystemClock()
        self._sources: list[tuple[NextDue, RunDue]] = []
        self._sleeping = False
        self._wake_at: float | None = None  # while sleeping: when the loop wakes (the clock's time)
        self._stopping = False
        self._poked = False
        self._also_due: float | None = None  # the earliest `poke(when)` heard during a pass
        self._task: asyncio.Task | None = None
        self._running = asyncio.Lock()  # run_due never runs twice at once (loop and a test)
        self.wakeups = 0  # how often the loop woke up (the idle benchmark reads it)

    def add_source(self, next_due: NextDue, run_due: RunDue) -> None:
        self._sources.append((next_due, run_due))

    # ------------------------------------------------------------------------- running

    def start(self) -> None:
        """Start the loop (real clocks only). Whatever fell due while the bot was down is
        handled at once, oldest first, by the first pass."""
        if self._task is None and self.clock.real:
            self._task = asyncio.create_task(self._loop(), name="scheduler")

    async def stop(self) -> None:
        task = self._task
        if task is not None:
            self._stopping = True
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - stopping anyway
                pass
            self._task = None
            self._stopping = False

    def poke(self, when: float | None = None) -> None:
        """A timer was added or moved earlier: look again at what is due next. `when`: the
        earliest time the change made anything due, where the caller knows it. A time no earlier
        than the wake already planned needs no look (a move that sets a new deadline a day ahead,
        while another table's timer falls due sooner: most moves at scale); one heard during a
        pass is the latest the next wake may come."""
        if when is not None and when > self.clock.now():
            if self._sleeping:
                if self._wake_at is not None and when >= self._wake_at:
                    return
            else:
                self._also_due = when if self._also_due is None else min(self._also_due, when)
                return
        self._poked = True
        if self._sleeping and self._task is not None:
            self._task.cancel()  # wakes the sleep below; the loop takes the cancel back

    async def run_due(self) -> None:
        """Handle everything due by the clock's now (each source in turn)."""
        async with self._running:
            for _, run in self._sources:
                await run(self.clock.now())

    async def next_due(self) -> float | None:
        times = [when for next_due, _ in self._sources if (when := await next_due()) is not None]
        return min(times) if times else None

    def _with_heard(self, due: float | None) -> float | None:
        """`due`, or the earliest `poke(when)` heard during the pass if sooner: a timer stored
        while the pass looked, which its look may have missed."""
        heard = self._also_due
        if heard is None:
            return due
        return heard if due is None else min(due, heard)

    async def _loop(self) -> None:
        # The wait is a plain asyncio.sleep, woken early by poke() cancelling it: one parked
        # task, nothing polled. (A sleep, not an Event, so simulated Discords see it as idle.)
        while True:
            self._poked = False
            self._also_due = None
            try:
                await self.run_due()
                due = await self.next_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Scheduler pass failed; trying again in %ss", ERROR_BACKOFF)
                due = self.clock.now() + ERROR_BACKOFF
            if self._poked:
                continue  # something changed while we looked
            due = self._with_heard(due)
            # A floor on the sleep: a source that failed to move a due timer cannot spin the CPU.
            delay = MAX_SLEEP if due is None else min(max(due - self.clock.now(), MIN_SLEEP), MAX_SLEEP)
            self._wake_at = self.clock.now() + delay
            self._sleeping = True
            try:
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                if self._stopping:
                    raise
                task = asyncio.current_task()
                if task is not None:  # always: the scheduler runs as a task
                    task.uncancel()  # a poke, not a stop
            finally:
                self._sleeping = False
                self._wake_at = None
            self.wakeups += 1
