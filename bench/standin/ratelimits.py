"""Discord's REST rate limits: a global limit per bot and per-route buckets, with the headers
Discord sends, so that discord.py's own rate-limit handling (`discord.http.Ratelimit`, the
global lock, the 429 retry loop) runs for real.

What Discord documents (docs/topics/rate-limits):
- every bot may make 50 requests a second in all (the global limit); interaction endpoints
  (the callback and the webhook routes of an interaction token) are not bound by it;
- per-route limits, grouped into buckets named by `X-RateLimit-Bucket`, counted separately per
  top-level resource (channel_id, guild_id, webhook_id + token);
- on 429 the body says `retry_after` (seconds) and `global`, and `X-RateLimit-Scope` says
  user, global or shared.

The per-route numbers are not documented and change; those below are what bots commonly see
(5 messages per 5 s in a channel, edits likewise). Routes without a bucket here (GET message,
GET messages) answer without rate-limit headers, as Discord's do: only the global limit
binds them. Change `ROUTE_LIMITS` (or pass `limits=` to `RateLimiter`) to try other numbers.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RouteLimit:
    limit: int       # requests per window
    per: float       # the window, seconds
    bucket: str = ""  # the X-RateLimit-Bucket name (routes with the same name share a limit)

    def named(self, key: str) -> RouteLimit:
        name = self.bucket or hashlib.md5(key.encode()).hexdigest()
        return RouteLimit(self.limit, self.per, name)


# (method, route without the /api/v10 prefix) -> limit. Major parameters are in the route.
ROUTE_LIMITS: dict[tuple[str, str], RouteLimit] = {
    ("POST", "/channels/{channel_id}/messages"): RouteLimit(5, 5.0),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(5, 5.0),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}"): RouteLimit(5, 1.0),
    ("POST", "/channels/{channel_id}/threads"): RouteLimit(10, 10.0),
    ("DELETE", "/channels/{channel_id}"): RouteLimit(5, 5.0),
    ("POST", "/users/@me/channels"): RouteLimit(5, 1.0),
    ("GET", "/users/@me"): RouteLimit(5, 1.0),
    ("GET", "/oauth2/applications/@me"): RouteLimit(5, 1.0),
    ("GET", "/gateway/bot"): RouteLimit(2, 5.0),
    ("PUT", "/applications/{application_id}/commands"): RouteLimit(4, 20.0),
    ("GET", "/applications/{application_id}/commands"): RouteLimit(5, 1.0),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"): RouteLimit(4, 20.0),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands"): RouteLimit(5, 1.0),
    # Interaction endpoints: a bucket per interaction token, outside the global limit.
    ("POST", "/interactions/{interaction_id}/{token}/callback"): RouteLimit(5, 1.0),
    ("POST", "/webhooks/{application_id}/{token}"): RouteLimit(5, 2.0, "webhook-token"),
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}"): RouteLimit(5, 2.0, "webhook-token-get"),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}"): RouteLimit(5, 2.0, "webhook-token"),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}"): RouteLimit(5, 2.0, "webhook-token"),
}

GLOBAL_LIMIT = 50      # requests
GLOBAL_PER = 1.0       # per second
MAJOR_PARAMETERS = ("channel_id", "guild_id", "interaction_id", "application_id", "token")


def exempt_from_global(route: str) -> bool:
    """Interaction endpoints are not bound by the bot's global limit."""
    return route.startswith("/interactions/") or route.startswith("/webhooks/")


def major_of(route: str, params: dict[str, str]) -> str:
    """The top-level resources a bucket is counted per: channel, guild, webhook (or interaction) and token."""
    if route.startswith("/applications/{application_id}/commands"):
        return ""  # the application's own commands: one bucket for the bot
    return "+".join(params[name] for name in MAJOR_PARAMETERS if name in params and name in route)


@dataclass
class Verdict:
    allowed: bool
    headers: dict[str, str]
    retry_after: float = 0.0
    scope: str = ""          # on a 429: "user", "global" or "shared"
    bucket: str = ""

    @property
    def is_global(self) -> bool:
        return self.scope == "global"


@dataclass
class Injection:
    """The next `times` requests to a route answer 429 with this scope (Discord's shared
    limits and sub-limits arrive like this, whatever the headers said before)."""

    method: str
    route: str
    times: int
    retry_after: float
    scope: str = "shared"


@dataclass
class _Window:
    reset_at: float
    remaining: int


@dataclass
class RateLimiter:
    limits: dict[tuple[str, str], RouteLimit] = field(default_factory=lambda: dict(ROUTE_LIMITS))
    global_limit: int = GLOBAL_LIMIT
    global_per: float = GLOBAL_PER
    clock: Callable[[], float] = time.monotonic
    enabled: bool = True

    def __post_init__(self) -> None:
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global = _Window(0.0, self.global_limit)
        self._injections: list[Injection] = []
        self.hits = {"global": 0, "user": 0, "shared": 0}

    def inject_429(self, method: str, route: str, *, times: int = 1, retry_after: float = 0.5,
                   scope: str = "shared") -> None:
        self._injections.append(Injection(method, route, times, retry_after, scope))

    def check(self, method: str, route: str, params: dict[str, str]) -> Verdict:
        """Count one request: whether it may pass, and the headers of its answer."""
        now = self.clock()
        limit = self.limits.get((method, route))
        named = limit.named(f"{method} {route}") if limit is not None else None
        injected = self._injected(method, route)
        if injected is not None:
            return self.imposed(method, route, params, retry_after=injected.retry_after, scope=injected.scope)
        if not self.enabled:
            return Verdict(True, {})
        if not exempt_from_global(route):
            if now >= self._global.reset_at:
                self._global = _Window(now + self.global_per, self.global_limit)
            if self._global.remaining <= 0:
                wait = self._global.reset_at - now
                return self._refuse(wait, "global", {"X-RateLimit-Global": "true"})
        if named is None:
            self._take_global(route)
            return Verdict(True, {})
        window = self._window(method, route, params, named, now)
        if window.remaining <= 0:
            return self._refuse(window.reset_at - now, "user", self._headers(named, window, now), named.bucket)
        window.remaining -= 1
        self._take_global(route)
        return Verdict(True, self._headers(named, window, now), bucket=named.bucket)

    def imposed(self, method: str, route: str, params: dict[str, str], *, retry_after: float,
                scope: str = "shared") -> Verdict:
        """A 429 the counts did not call for (an injection, a fault storm: Discord's shared and
        sub-limits, or a global limit hit by other traffic), with the headers Discord sends."""
        now = self.clock()
        limit = self.limits.get((method, route))
        named = limit.named(f"{method} {route}") if limit is not None else None
        headers = self._headers(named, self._window(method, route, params, named, now), now) if named else {}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return self._refuse(retry_after, scope, headers, named.bucket if named else "")

    def _take_global(self, route: str) -> None:
        if not exempt_from_global(route):
            self._global.remaining -= 1

    def _window(self, method: str, route: str, params: dict[str, str], named: RouteLimit, now: float) -> _Window:
        key = (named.bucket, major_of(route, params))
        window = self._windows.get(key)
        if window is None or now >= window.reset_at:
            window = self._windows[key] = _Window(now + named.per, named.limit)
            if len(self._windows) > 50_000:  # forget windows long past
                self._windows = {k: w for k, w in self._windows.items() if w.reset_at > now}
        return window

    def _injected(self, method: str, route: str) -> Injection | None:
        for injection in self._injections:
            if injection.method == method and injection.route == route and injection.times > 0:
                injection.times -= 1
                return injection
        return None

    def _refuse(self, retry_after: float, scope: str, headers: dict[str, str], bucket: str = "") -> Verdict:
        retry_after = max(0.001, round(retry_after, 3))
        self.hits[scope] = self.hits.get(scope, 0) + 1
        headers = dict(headers, **{"Retry-After": str(max(1, round(retry_after + 0.499))),
                                   "X-RateLimit-Scope": scope})
        return Verdict(False, headers, retry_after, scope, bucket)

    @staticmethod
    def _headers(named: RouteLimit, window: _Window, now: float) -> dict[str, str]:
        reset_after = max(0.0, window.reset_at - now)
        return {
            "X-RateLimit-Limit": str(named.limit),
            "X-RateLimit-Remaining": str(max(0, window.remaining)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": named.bucket,
        }


def parse_route_limit(text: str) -> tuple[tuple[str, str], RouteLimit]:
    """"POST /users/@me/channels=10/1" -> that route's limit: 10 requests a second."""
    route, _, numbers = text.partition("=")
    method, _, path = route.strip().partition(" ")
    limit, _, per = numbers.partition("/")
    return (method.upper(), path.strip()), RouteLimit(int(limit), float(per or 1))


def describe_limits(limiter: RateLimiter) -> list[str]:
    """The limits in force, one line each (benches print them with their figures)."""
    lines = [f"global: {limiter.global_limit} requests per {limiter.global_per:g} s "
             "(interaction callbacks and webhook routes exempt)"]
    lines += [f"{method} {route}: {limit.limit} per {limit.per:g} s"
              for (method, route), limit in sorted(limiter.limits.items(), key=lambda item: item[0][1])]
    return lines
