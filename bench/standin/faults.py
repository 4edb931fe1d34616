"""Discord's REST API misbehaving, in storms: for a while, a share of the requests to some routes
(in one channel, or anywhere) meet a fault. Soaks (bench/soak.py) add storms that overlap; with
none added the stand-in answers as before.

The faults, each as Discord (or Cloudflare in front of it) shows it:

- "429": rate limited with `retry_after`, scope "user" or "shared" (a route's limit or a shared
  sub-limit the headers did not foretell) or "global" (the bot's own limit, used up by traffic
  elsewhere: every route but the interaction endpoints);
- "5xx-before": 500, 502 or 503 before the request takes effect: nothing happened;
- "5xx-after": the request takes effect (the message is made, the edit shown) and the answer is
  a 5xx all the same, so a client that retries repeats something done;
- "hang-before": no answer for 9-20 s, then the request takes effect: the client has given up
  by then and tried again, and the late one lands after newer ones (an old edit over a new one);
- "hang-after": the request takes effect at once and its answer comes 9-20 s later.

The stand-in asks `pick` once per request that passed the rate limiter; when storms overlap the
first one that hits wins. Draws come from a seeded generator, so a soak's schedule repeats.
"""
from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from bench.standin.ratelimits import exempt_from_global

KINDS = ("429", "5xx-before", "5xx-after", "hang-before", "hang-after")

# What storms aim at, by (method, route) as the stand-in's routes name them.
MESSAGE_ROUTES = frozenset({
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
})
DM_OPEN_ROUTES = frozenset({("POST", "/users/@me/channels")})
INTERACTION_ROUTES = frozenset({
    ("POST", "/interactions/{interaction_id}/{token}/callback"),
    ("POST", "/webhooks/{application_id}/{token}"),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"),
})


@dataclass
class Storm:
    kind: str                                   # one of KINDS
    start: float                                # time.monotonic()
    end: float
    routes: frozenset[tuple[str, str]] | None   # (method, route) it hits; None: every route
    channel_id: int | None = None               # only requests naming this channel; None: any
    share: float = 0.5                          # of the matching requests, hit
    retry_after: float = 1.0                    # "429"
    scope: str = "shared"                       # "429": user, shared or global
    status: int = 503                           # "5xx-before", "5xx-after"
    hang: tuple[float, float] = (9.0, 20.0)     # "hang-before", "hang-after": seconds, drawn per request
    label: str = ""                             # how reports name it
    hits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault {self.kind!r}: one of {', '.join(KINDS)}")

    def active(self, now: float) -> bool:
        return self.start <= now < self.end

    def matches(self, method: str, route: str, params: dict[str, str]) -> bool:
        if self.kind == "429" and self.scope == "global" and exempt_from_global(route):
            return False  # interaction endpoints are outside the bot's global limit
        if self.routes is not None and (method, route) not in self.routes:
            return False
        return self.channel_id is None or params.get("channel_id") == str(self.channel_id)


@dataclass(frozen=True)
class Fault:
    """What one request meets: its storm, and for a hang how long."""

    storm: Storm
    hang: float = 0.0

    @property
    def kind(self) -> str:
        return self.storm.kind


class RequestFaults:
    def __init__(self, seed: int = 0, clock=time.monotonic) -> None:
        self.storms: list[Storm] = []
        self.random = random.Random(seed)
        self.clock = clock

    def add(self, storm: Storm) -> Storm:
        self.storms.append(storm)
        return storm

    def active(self, now: float | None = None) -> list[Storm]:
        now = self.clock() if now is None else now
        return [storm for storm in self.storms if storm.active(now)]

    def pick(self, method: str, route: str, params: dict[str, str], now: float | None = None) -> Fault | None:
        """The fault this request meets, if any."""
        if not self.storms:
            return None
        now = self.clock() if now is None else now
        for storm in self.storms:
            if storm.active(now) and storm.matches(method, route, params) and self.random.random() < storm.share:
                storm.hits += 1
                hang = self.random.uniform(*storm.hang) if storm.kind.startswith("hang") else 0.0
                return Fault(storm, hang)
        return None

    def hits_by_kind(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for storm in self.storms:
            found[storm.kind] = found.get(storm.kind, 0) + storm.hits
        return found

    @staticmethod
    def routes(*groups: Iterable[tuple[str, str]]) -> frozenset[tuple[str, str]]:
        return frozenset(route for group in groups for route in group)
