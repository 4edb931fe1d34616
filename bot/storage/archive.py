"""The archive of finished games (`ARCHIVE_AFTER_DAYS`, off by default): once a day, games that
ended longer ago than that keep their action log in one compressed row instead of a row per
move, and drop their last state (seed and log rebuild it). Records, `/game log`, exports and
replays read them as before; a store of years of games stays small (docs/scaling.md)."""
from __future__ import annotations

import logging

from bot.storage.games import GamesRepository

log = logging.getLogger(__name__)

EVERY = 24 * 3600      # seconds between passes
FIRST_AFTER = 600      # the first pass, this long after start-up (not in the start's rush)
PER_PASS = 5000        # games archived in one pass at most (the rest the next day)


class Archive:
    def __init__(self, games: GamesRepository, after_days: float, now) -> None:
        self.games = games
        self.after = after_days * 86400
        self.now = now
        self._next = now() + FIRST_AFTER

    async def next_due(self) -> float:
        return self._next

    async def run_due(self, now: float) -> None:
        if now < self._next:
            return
        self._next = now + EVERY
        archived = 0
        while archived < PER_PASS:
            done = await self.games.archive_finished(int(now - self.after))
            archived += done
            if not done:
                break
        if archived:
            log.info("Archived %d finished game(s) older than %.0f days", archived, self.after / 86400)
