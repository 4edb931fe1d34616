"""How long the bot waits for things, in one place a test or a soak can set.

Every wait of game time reads `Durations`: a table's deadline, its reminders and its reaction
window (the table's options say them in hours; `game` scales them), how soon a computer seat
moves, how soon a timer whose handling failed is tried again, and when DMs that were refused are
tried again. The clock they are measured by is the scheduler's (`bot.scheduler`), one for all.
`scale` shortens game time as a whole (TIME_SCALE in the environment, for testing only: 0.001
makes a 24-hour deadline 86 seconds), so a soak sees deadlines, reminders, timeouts and
substitutes within minutes without patching module constants.
"""
from __future__ import annotations

from dataclasses import dataclass

HOUR = 3600


@dataclass(frozen=True)
class Durations:
    scale: float = 1.0
    dm_retry: float = 6 * HOUR        # a player whose DMs were refused is tried again this much later
    dm_retry_on_return: float = 600   # ... or at their next interaction, this long after the refusal
    computer_pause: float = 2         # before a computer seat moves, so boards read naturally
    timer_retry: float = 300          # a timer whose handling failed is tried again this much later

    def game(self, seconds: float) -> int:
        """`seconds` of game time as the bot waits them (whole seconds, at least 1)."""
        return max(1, round(seconds * self.scale))

    @property
    def dm_retry_after(self) -> int:
        return self.game(self.dm_retry)

    @property
    def dm_retry_on_return_after(self) -> float:
        return self.dm_retry_on_return * self.scale

    @property
    def computer_pause_after(self) -> int:
        return round(self.computer_pause * self.scale)

    @property
    def timer_retry_after(self) -> int:
        return self.game(self.timer_retry)
