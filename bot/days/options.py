"""Games over days: the table options (`deadline=`, `timeout=`, `reminder=`, `hints=`,
`computer=`, `react=`) and the words of the feature (catalogue `bot.days`)."""
from __future__ import annotations

from typing import Any

import i18n
from bot.errors import Refusal

STRENGTHS = ("normal", "strong")
HOUR = 3600
DAY = 24 * HOUR
DEADLINES: dict[str, int | None] = {"none": None, "24h": DAY, "48h": 2 * DAY, "72h": 3 * DAY, "7d": 7 * DAY}
TIMEOUT_CHOICES = ("computer", "skip", "end")
REMINDER_DEFAULT = 12 * HOUR
REMINDERS: dict[str, int] = {"1h": HOUR, "6h": 6 * HOUR, "12h": 12 * HOUR, "24h": DAY}
REACTION_WINDOWS: dict[str, int | None] = {"off": None, "15m": 15 * 60, "1h": HOUR, "6h": 6 * HOUR}
TIMEOUTS_BEFORE_COMPUTER = 3  # timed-out turns in a row after which the computer keeps the seat
MAX_COMPUTER_STEPS = 50       # a timed-out turn of many steps (Knatsch re-rolls) is played out
AWAY_DAYS = (1, 14)
PASS_VERBS = ("pass", "skip")


def words(lang: str, key: str, **params: Any) -> str:
    return i18n.t(lang, f"bot.days.{key}", **params)


# ------------------------------------------------------------------------- table options


# Each option: the key it sets in `split_options`' result, and its words with their values.
OPTION_VALUES: dict[str, tuple[str, dict[str, Any]]] = {
    "deadline": ("deadline", DEADLINES),
    "timeout": ("timeout", {choice: choice for choice in TIMEOUT_CHOICES}),
    "reminder": ("reminder", REMINDERS),
    "hints": ("hints", {"on": True, "off": False}),
    "react": ("react", REACTION_WINDOWS),
    "computer": ("strength", {strength: strength for strength in STRENGTHS}),
}


def split_options(text: str | None, lang: str = "en") -> tuple[str, dict[str, Any]]:
    """Take this part's options (`deadline=24h timeout=computer reminder=12h`) out of the
    `/game new options:` text; the rest goes on to the game's own options."""
    chosen: dict[str, Any] = {"deadline": None, "timeout": "computer", "reminder": REMINDER_DEFAULT,
                              "hints": False, "strength": "normal", "react": None}
    rest = []
    for part in (text or "").replace(",", " ").split():
        name, _, value = part.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if name not in OPTION_VALUES:
            rest.append(part)
            continue
        key, values = OPTION_VALUES[name]
        if value not in values:
            raise Refusal(words(lang, "bad_option", name=name, values=", ".join(values)))
        chosen[key] = values[value]
    return " ".join(rest), chosen


