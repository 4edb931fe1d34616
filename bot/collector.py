"""Python's full garbage collections between moves rather than in the middle of one.

A full collection walks every object the process holds; in a bot that has run a while that
takes 50-100 ms, and when it falls inside a move the player waits that much longer (it was most
of the slowest moves in `bench/bot_moves.py`). Two things keep it out of the moves:

- At start-up, once discord.py, Pillow, the fonts, the catalogues and the engines are loaded,
  everything alive is frozen (`gc.freeze`): it lives as long as the process, and no collection
  walks it again. (What of it is dropped later is still freed when its last reference goes;
  only a reference cycle among frozen objects would stay.)
- When the bot has no move in hand, a full collection that is due soon is made then, so Python
  rarely has to make one on its own during a move. Not while a move's boards and DMs are still
  being drawn and sent (`defer_while`: the deliveries), which a player waits for as much as for
  the move: a collection made the moment a move was stored fell in its delivery, and was the
  largest part of the costliest moves in `bench/bot_moves.py` (56 of 165 ms of CPU). Once a
  collection is nearly Python's own to make, it is made at once, delivery or not.
- A full collection is due three times less often than Python's default (after 30 collections
  of the middle generation instead of 10): a full collection every eight moves or so (some 20
  ms of CPU each in `bench/bot_moves.py`) was about as much CPU as all the young ones together.
  Rarer still costs memory (with 100: 12-15 MiB more after moves in 500 games in
  `bench/memory_process.py`, against some 4 MiB with 30): garbage in cycles waits longer. The
  young generations keep Python's thresholds: larger ones made each collection dearer, and
  their CPU in all no smaller.
"""
from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

DUE_SHARE = 0.5  # a full collection is made when quiet once half of the oldest generation's threshold is reached
FULL_EVERY = 30  # collections of the middle generation between full ones (Python's default: 10)
OVERDUE_SHARE = 0.9  # from here on a due collection waits for no delivery
RETRY_SECONDS = 0.05  # a collection put off by a delivery is looked at again this much later


class QuietCollector:
    def __init__(self) -> None:
        self._pending: asyncio.Handle | None = None
        self._busy: Callable[[], bool] = lambda: False
        self.collections = 0

    def defer_while(self, busy: Callable[[], bool]) -> None:
        """Put a due collection off while `busy()` (a move's delivery under way), unless overdue."""
        self._busy = busy

    def freeze_start_up(self) -> None:
        """Everything loaded so far lives as long as the process: leave it out of collections."""
        gc.collect()
        gc.freeze()
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, FULL_EVERY)
        log.debug("Start-up objects frozen: %d", gc.get_freeze_count())

    def work_done(self) -> None:
        """The bot has no move in hand: collect at the next turn of the event loop if one is due
        and nothing has started meanwhile."""
        if self._pending is None and self.due():
            self._pending = asyncio.get_running_loop().call_soon(self._collect)

    def work_started(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    @staticmethod
    def due() -> bool:
        # The third count is how many younger collections ran since the last full one; Python
        # makes a full one once it passes the third threshold.
        return gc.get_count()[2] >= DUE_SHARE * gc.get_threshold()[2]

    def _collect(self) -> None:
        self._pending = None
        if self._busy() and gc.get_count()[2] < OVERDUE_SHARE * gc.get_threshold()[2]:
            self._pending = asyncio.get_running_loop().call_later(RETRY_SECONDS, self._collect)
            return
        gc.collect()
        self.collections += 1
