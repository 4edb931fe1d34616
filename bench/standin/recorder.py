"""What the stand-in saw: every request (route, time, status), every interaction (sent,
answered, the board it led to) and every board posted or redrawn in a channel."""
from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

ACK_DEADLINE = 3.0  # Discord's: an interaction not answered within 3 s fails for its user


class RequestRecord(NamedTuple):
    at: float          # time.monotonic() when the request arrived
    method: str
    route: str         # e.g. "/channels/{channel_id}/messages"
    status: int
    scope: str         # on a 429: user, global or shared
    channel_id: int    # 0 when the route names no channel
    seconds: float     # how long the stand-in took to answer
    token: str = ""    # an interaction endpoint's token (which interaction it answers)


class MessageEvent(NamedTuple):
    """A message of the bot made or changed, in a channel or a DM, as it was then."""

    at: float
    channel_id: int
    message_id: int
    created: bool      # a new message (else an edit)
    in_dm: bool
    content: str
    components: list   # its component rows then


class BoardEvent(NamedTuple):
    at: float
    channel_id: int
    message_id: int
    created: bool      # a new message (else an edit)
    versions: tuple[int, ...]  # state versions named by the message's move components


@dataclass
class InteractionRecord:
    id: int
    token: str
    kind: str                      # "command", "component" or "autocomplete"
    name: str                      # "game new", or the component's custom_id
    user_id: int
    channel_id: int
    guild_id: int | None
    sent_at: float
    watch_channel: int | None = None  # where the board it leads to appears
    value: str | None = None       # a select menu's chosen value
    acked_at: float | None = None
    ack_type: int | None = None
    late: bool = False             # answered after Discord's 3 s
    board_at: float | None = None
    responses: list[tuple[float, str]] = field(default_factory=list)
    ephemeral: list[dict] = field(default_factory=list)   # ephemeral messages sent for it
    original: dict | None = None   # the response message (@original), if any
    component_message: tuple[int, int] | None = None  # (channel id, message id) the component is on
    source_message: dict | None = None  # that message (an ephemeral one lives only here)
    autocomplete: list | None = None
    outcome: str = ""              # what the players' driver made of it ("moved", "refused", ...)
    errors: list[tuple[int, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.answered = asyncio.Event()  # the callback arrived
        self.changed = asyncio.Event()   # anything arrived (set and cleared by waiters)

    @property
    def ack_seconds(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.sent_at

    @property
    def board_seconds(self) -> float | None:
        return None if self.board_at is None else self.board_at - self.sent_at

    def note(self, what: str) -> None:
        self.responses.append((time.monotonic(), what))
        self.changed.set()

    def texts(self) -> list[str]:
        """What its user was told (ephemeral messages and the response message)."""
        found = [message.get("content", "") for message in self.ephemeral]
        if self.original is not None:
            found.append(self.original.get("content", ""))
        return found


class Recorder:
    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.boards: list[BoardEvent] = []
        self.messages: list[MessageEvent] = []
        self.keep_messages = False  # soaks keep every message's text (what notices and secrets are checked on)
        self._watching: dict[int, list[InteractionRecord]] = defaultdict(list)
        self.last_request_at: dict[int, float] = {}  # channel id -> when its latest request ended
        self.keep_requests = True

    # ------------------------------------------------------------------ recording

    def request(self, record: RequestRecord) -> None:
        if record.channel_id:
            self.last_request_at[record.channel_id] = record.at + record.seconds
        if self.keep_requests:
            self.requests.append(record)

    def interaction(self, record: InteractionRecord) -> None:
        self.interactions[record.id] = record
        self.by_token[record.token] = record
        if record.watch_channel is not None:
            self._watching[record.watch_channel].append(record)

    def stop_watching(self, record: InteractionRecord) -> None:
        """The interaction leads to no board (refused, or nothing public): a later board in the
        channel is not its."""
        waiting = self._watching.get(record.watch_channel or 0)
        if waiting and record in waiting:
            waiting.remove(record)

    def message(self, event: MessageEvent) -> None:
        if self.keep_messages:
            self.messages.append(event)

    def board(self, event: BoardEvent) -> None:
        self.boards.append(event)
        waiting = self._watching.get(event.channel_id)
        if waiting:
            for record in waiting:
                if record.board_at is None and record.sent_at <= event.at:
                    record.board_at = event.at
                    record.changed.set()
            waiting.clear()

    def forget(self, before: float) -> None:
        """Drop what happened before `before` (a long bench keeps only its current window)."""
        self.requests = [r for r in self.requests if r.at >= before]
        self.boards = [b for b in self.boards if b.at >= before]
        self.messages = [m for m in self.messages if m.at >= before]
        old = [i for i, r in self.interactions.items() if r.sent_at < before and r.answered.is_set()]
        for interaction_id in old:
            record = self.interactions.pop(interaction_id)
            self.by_token.pop(record.token, None)

    # ------------------------------------------------------------------ summaries

    def requests_between(self, start: float, end: float) -> list[RequestRecord]:
        return [r for r in self.requests if start <= r.at < end]

    def interactions_between(self, start: float, end: float) -> list[InteractionRecord]:
        return [r for r in self.interactions.values() if start <= r.sent_at < end]

    @staticmethod
    def by_route(requests: Iterable[RequestRecord]) -> Counter:
        return Counter(f"{r.method} {r.route}" + ("" if r.status < 400 else f" -> {r.status}") for r in requests)

    def boards_in_order(self) -> tuple[bool, list[str]]:
        """Whether every channel's boards name non-decreasing state versions (a board never
        follows a newer one); the channels where one did."""
        newest: dict[int, int] = {}
        wrong = []
        for event in self.boards:
            if not event.versions:
                continue
            version = max(event.versions)
            if version < newest.get(event.channel_id, -1):
                wrong.append(f"channel {event.channel_id}: version {version} after {newest[event.channel_id]}")
            newest[event.channel_id] = max(version, newest.get(event.channel_id, -1))
        return not wrong, wrong


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
            "max": max(values), "mean": statistics.fmean(values)}
