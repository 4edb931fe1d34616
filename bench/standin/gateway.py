"""The gateway: one websocket per session (or shard), as discord.py's DiscordWebSocket expects
it. HELLO, IDENTIFY -> READY and one GUILD_CREATE per guild, heartbeats and their ACKs,
RECONNECT and RESUME (the missed events replayed), connections dropped (with the session kept
for a RESUME, or forgotten: a new session), dispatches in sequence, and the zlib-stream
transport compression discord.py asks for (`compress=zlib-stream`)."""
from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
import zlib
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from bench.standin.server import StandIn

log = logging.getLogger(__name__)

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = \
    0, 1, 2, 3, 6, 7, 9, 10, 11
GUILD_MESSAGES, DIRECT_MESSAGES = 1 << 9, 1 << 12
MAX_GUILDS_PER_SESSION = 2500  # Discord closes with 4011 (sharding required) beyond this
RESUME_BUFFER = 20_000         # events kept per session for a RESUME


class Connection:
    """One websocket: sends JSON payloads in order, compressed as a zlib stream if asked."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._deflate = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()
        self.sent_bytes = 0

    async def send(self, text: str) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            if self._deflate is None:
                data = text.encode()
                await self.ws.send_str(text)
            else:
                data = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            self.sent_bytes += len(data)

    async def send_op(self, op: int, d: Any) -> None:
        await self.send(json.dumps({"op": op, "d": d, "s": None, "t": None}))


class Session:
    def __init__(self, gateway: Gateway, intents: int, shard: tuple[int, int] | None, guild_ids: list[int]) -> None:
        self.gateway = gateway
        self.id = uuid.uuid4().hex
        self.intents = intents
        self.shard = shard
        self.guild_ids = guild_ids
        self.seq = 0
        self.buffer: deque[tuple[int, str]] = deque(maxlen=RESUME_BUFFER)
        self.connection: Connection | None = None

    def serves(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    def wants(self, event: str, guild_id: int | None) -> bool:
        if event.startswith("MESSAGE_"):
            return bool(self.intents & (GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES))
        return True

    async def dispatch(self, event: str, data: Any) -> None:
        self.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, text))
        if self.connection is not None:
            await self.connection.send(text)


class Gateway:
    def __init__(self, standin: StandIn, *, heartbeat_interval_ms: int = 41250,
                 max_guilds_per_session: int = MAX_GUILDS_PER_SESSION) -> None:
        self.standin = standin
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.max_guilds_per_session = max_guilds_per_session
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.counts = {"identify": 0, "resume": 0, "heartbeat": 0, "reconnect_sent": 0, "invalid_session": 0,
                       "dropped": 0, "sessions_forgotten": 0}
        self.ready_sent_at: float | None = None
        self.guilds_sent_at: float | None = None   # the last GUILD_CREATE of the newest session
        self.guilds_sent = asyncio.Event()
        self.bytes_sent = 0
        self._closing: set[asyncio.Task] = set()
        # The longest time between two heartbeats of one connection: past the interval, Discord
        # would take the connection for a zombie and the bot would have to reconnect.
        self.longest_heartbeat_gap: float | None = None  # None: fewer than two heartbeats yet

    # ------------------------------------------------------------------ dispatching

    async def dispatch(self, event: str, data: Any, guild_id: int | None = None) -> None:
        """Send an event to the session that serves `guild_id` (DMs: shard 0)."""
        for session in list(self.sessions.values()):
            if session.serves(guild_id) and session.wants(event, guild_id):
                await session.dispatch(event, data)

    async def reconnect(self) -> None:
        """Ask every connected client to reconnect (op 7), as Discord does now and then; they
        come back with RESUME."""
        for connection in list(self.connections):
            self.counts["reconnect_sent"] += 1
            await connection.send_op(RECONNECT, None)

    async def drop(self, *, resume: bool = True) -> int:
        """Every connection breaks (close code 4000, as when a gateway node restarts); the
        client reconnects. With `resume` its session is kept: it RESUMEs and gets the events it
        missed. Without, the session is forgotten: the RESUME is refused (INVALID_SESSION), the
        client identifies anew (READY, every GUILD_CREATE) and what happened meanwhile is lost
        to it, as on Discord. Returns the connections dropped."""
        if not resume:
            self.counts["sessions_forgotten"] += len(self.sessions)
            self.sessions.clear()
        dropped = list(self.connections)
        for connection in dropped:
            self.counts["dropped"] += 1
            # The close handshake waits for the client: not in the caller's time.
            task = asyncio.create_task(connection.ws.close(code=4000, message=b"Unknown error"), name="standin-drop")
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)
        return len(dropped)

    # ------------------------------------------------------------------ the socket

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        connection = Connection(ws, compress=request.query.get("compress") == "zlib-stream")
        self.connections.add(connection)
        session: Session | None = None
        last_heartbeat: float | None = None
        try:
            await connection.send_op(HELLO, {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["standin"]})
            async for message in ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break
                payload = json.loads(message.data)
                op, d = payload.get("op"), payload.get("d")
                if op == HEARTBEAT:
                    self.counts["heartbeat"] += 1
                    now = time.monotonic()
                    if last_heartbeat is not None:
                        self.longest_heartbeat_gap = max(self.longest_heartbeat_gap or 0.0, now - last_heartbeat)
                    last_heartbeat = now
                    asyncio.create_task(self._acknowledge(connection))
                elif op == IDENTIFY:
                    session = await self._identify(connection, d)
                elif op == RESUME:
                    session = await self._resume(connection, d)
                # presence updates (3), voice (4) and member requests (8): nothing to answer
        finally:
            self.connections.discard(connection)
            self.bytes_sent += connection.sent_bytes
            if session is not None and session.connection is connection:
                session.connection = None
        return ws

    async def _acknowledge(self, connection: Connection) -> None:
        # After the network's latency, as Discord's ACK comes: an instant ACK can reach discord.py
        # before its heartbeat thread notes the send, and it then logs a false "Can't keep up".
        await asyncio.sleep(max(self.standin.config.latency, 0.01))
        await connection.send_op(HEARTBEAT_ACK, None)

    async def _identify(self, connection: Connection, d: dict) -> Session | None:
        self.counts["identify"] += 1
        world = self.standin.world
        if d.get("token") != world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return None
        shard = tuple(d["shard"]) if d.get("shard") else None
        guild_ids = [gid for gid in world.guilds
                     if shard is None or (gid >> 22) % shard[1] == shard[0]]
        if len(guild_ids) > self.max_guilds_per_session:
            await connection.ws.close(code=4011, message=b"Sharding required.")
            return None
        session = Session(self, int(d.get("intents", 0)), shard, guild_ids)  # type: ignore[arg-type]
        session.connection = connection
        # A new IDENTIFY (a restarted bot) replaces the sessions of the same shard.
        for old in [s for s in self.sessions.values() if s.shard == session.shard]:
            del self.sessions[old.id]
        self.sessions[session.id] = session
        ready = {
            "v": 10, "user": dict(world.bot_user, verified=True, mfa_enabled=False, email=None),
            "guilds": [{"id": str(gid), "unavailable": True} for gid in guild_ids],
            "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.standin.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [], "relationships": [], "presences": [], "guild_join_requests": [],
            "geo_ordered_rtc_regions": [], "auth": {}, "user_settings": {}, "_trace": ["standin"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await session.dispatch("READY", ready)
        self.ready_sent_at = time.monotonic()
        self.guilds_sent.clear()
        asyncio.create_task(self._send_guilds(session), name="standin-guild-create")
        return session

    async def _send_guilds(self, session: Session) -> None:
        world = self.standin.world
        for number, guild_id in enumerate(session.guild_ids):
            await session.dispatch("GUILD_CREATE", world.guild_create(guild_id))
            if number % 20 == 19:
                await asyncio.sleep(0)  # let REST requests in while thousands of guilds stream
        self.guilds_sent_at = time.monotonic()
        self.guilds_sent.set()

    async def _resume(self, connection: Connection, d: dict) -> Session | None:
        self.counts["resume"] += 1
        session = self.sessions.get(d.get("session_id", ""))
        seq = d.get("seq") or 0
        known = session is not None and (not session.buffer or session.buffer[0][0] <= seq + 1)
        if session is None or d.get("token") != self.standin.world.token or not known:
            self.counts["invalid_session"] += 1
            await connection.send_op(INVALID_SESSION, False)
            return None
        session.connection = connection
        for number, text in list(session.buffer):
            if number > seq:
                await connection.send(text)
        await session.dispatch("RESUMED", {"_trace": ["standin"]})
        return session
