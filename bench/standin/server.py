"""The stand-in Discord on 127.0.0.1: REST under /api/v10 and the gateway's websocket, one
aiohttp server. Every REST request passes the rate limiter and is recorded."""
from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bench.standin import payloads
from bench.standin.botview import Control
from bench.standin.faults import Fault, RequestFaults
from bench.standin.gateway import Gateway
from bench.standin.payloads import GuildShape
from bench.standin.ratelimits import RateLimiter
from bench.standin.recorder import InteractionRecord, Recorder, RequestRecord
from bench.standin.rest import API, Rest, answer
from bench.standin.world import DiscordError, World

log = logging.getLogger(__name__)

GATEWAY_PATH = "/gateway-ws/"
NO_TOKEN_ROUTES = ("/gateway", "/interactions/", "/webhooks/")


@dataclass
class StandInConfig:
    guilds: int = 2
    shape: GuildShape = field(default_factory=GuildShape)
    locale: str = "en-US"          # the guilds' preferred locale
    host: str = "127.0.0.1"
    port: int = 0                  # 0: any free port
    latency: float = 0.0           # seconds added to every REST answer (Discord's are some 50-150 ms)
    rate_limits: bool = True
    ack_deadline: float = 3.0      # Discord's: a later interaction callback gets 404 Unknown interaction
    keep_messages: int = 100       # per channel
    heartbeat_interval_ms: int = 41250
    max_guilds_per_session: int = 2500


class StandIn:
    """A small Discord for one bot. `await start()`, point the bot at `api_url`, then play
    through `player(...)`; `recorder` has every request and interaction."""

    def __init__(self, config: StandInConfig | None = None, *, limiter: RateLimiter | None = None) -> None:
        self.config = config or StandInConfig()
        self.world = World(keep_messages=self.config.keep_messages)
        self.recorder = Recorder()
        self.limiter = limiter or RateLimiter(enabled=self.config.rate_limits)
        self.gateway = Gateway(self, heartbeat_interval_ms=self.config.heartbeat_interval_ms,
                               max_guilds_per_session=self.config.max_guilds_per_session)
        self.rest = Rest(self)
        self.faults = RequestFaults()  # storms of REST faults (none unless a soak adds them)
        self.commands_synced = asyncio.Event()
        self.unknown_routes: list[str] = []
        self._runner: web.AppRunner | None = None
        self.port = 0
        for _ in range(self.config.guilds):
            self.world.add_guild(self.config.shape, locale=self.config.locale)

    # ---------------------------------------------------------------- lifecycle

    @property
    def api_url(self) -> str:
        return f"http://{self.config.host}:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.config.host}:{self.port}{GATEWAY_PATH}"

    async def start(self) -> StandIn:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 2**20)
        app.add_routes([web.get(GATEWAY_PATH, self.gateway.handle), *self.rest.routes()])
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        for connection in list(self.gateway.connections):
            await connection.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def wait_connected(self, timeout: float = 60.0) -> None:
        """Until the bot has synced its commands and received every guild (it can take
        interactions from then on; discord.py's on_ready follows some 2 s after the last guild)."""
        await asyncio.wait_for(asyncio.gather(self.commands_synced.wait(), self.gateway.guilds_sent.wait()), timeout)

    async def __aenter__(self) -> StandIn:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    # ---------------------------------------------------------------- REST

    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == GATEWAY_PATH:
            return await handler(request)
        arrived = time.monotonic()
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        route = canonical[len(API):] if canonical.startswith(API) else canonical
        params = dict(request.match_info)
        scope = ""
        if not route.startswith(NO_TOKEN_ROUTES) and \
                request.headers.get("Authorization") != f"Bot {self.world.token}":
            response: web.StreamResponse = answer({"message": "401: Unauthorized", "code": 0}, status=401)
        else:
            verdict = self.limiter.check(request.method, route, params)
            fault = self.faults.pick(request.method, route, params, arrived) if verdict.allowed else None
            if fault is not None and fault.kind == "429":
                verdict = self.limiter.imposed(request.method, route, params, retry_after=fault.storm.retry_after,
                                               scope=fault.storm.scope)
            if not verdict.allowed:
                scope = verdict.scope
                response = answer(
                    {"message": "You are being rate limited.", "retry_after": verdict.retry_after,
                     "global": verdict.is_global}, status=429, headers=verdict.headers)
            else:
                response = await self._carry_out(request, handler, fault)
                response.headers.update(verdict.headers)
        # discord.py treats a 429 without `Via` as a Cloudflare ban; Discord's answers carry it.
        response.headers["Via"] = "1.1 google"
        channel = params.get("channel_id", "")
        self.recorder.request(RequestRecord(arrived, request.method, route, response.status, scope,
                                            int(channel) if channel.isdigit() else 0, time.monotonic() - arrived,
                                            params.get("token", "")))
        return response

    async def _carry_out(self, request: web.Request, handler, fault: Fault | None) -> web.StreamResponse:
        """The request's effect and answer, as a fault (bench/standin/faults.py) shapes them."""
        kind = fault.kind if fault is not None else ""
        if kind == "5xx-before":
            return server_error(fault.storm.status)
        if kind == "hang-before":
            await request.read()  # the body arrived; the client may give up while this waits
            await asyncio.sleep(fault.hang)
        if self.config.latency:
            await asyncio.sleep(self.config.latency)
        try:
            response = await handler(request)
        except DiscordError as error:
            response = answer(error.body(), status=error.status)
        except web.HTTPNotFound:
            self.unknown_routes.append(f"{request.method} {request.path}")
            response = answer({"message": "404: Not Found", "code": 0}, status=404)
        except web.HTTPMethodNotAllowed:
            self.unknown_routes.append(f"{request.method} {request.path}")
            response = answer({"message": "405: Method Not Allowed", "code": 0}, status=405)
        if kind == "5xx-after" and response.status < 400:
            return server_error(fault.storm.status)
        if kind == "hang-after":
            await asyncio.sleep(fault.hang)
        return response

    # ---------------------------------------------------------------- what moderators and users do

    async def delete_message(self, channel_id: int, message_id: int) -> None:
        """A message deleted (by the bot, or by a moderator): gone, and MESSAGE_DELETE sent."""
        channel = self.world.channel(channel_id)
        self.world.message(channel_id, message_id)
        del channel.messages[message_id]
        data = {"id": str(message_id), "channel_id": str(channel_id)}
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        await self.dispatch("MESSAGE_DELETE", data, channel.guild_id)

    async def revoke_send_messages(self, channel_id: int) -> None:
        """A moderator takes Send Messages from the bot in a channel: its posts there are refused
        (403, 50013) and CHANNEL_UPDATE carries the new member overwrite."""
        self.world.send_denied.add(channel_id)
        await self._channel_update(channel_id)

    async def restore_send_messages(self, channel_id: int) -> None:
        self.world.send_denied.discard(channel_id)
        await self._channel_update(channel_id)

    async def _channel_update(self, channel_id: int) -> None:
        channel = self.world.channel(channel_id)
        spec = self.world.guilds[channel.guild_id]
        position = spec.channel_ids.index(channel_id)
        await self.dispatch("CHANNEL_UPDATE", payloads.text_channel(
            spec, channel_id, position, member_denies=self.world.bot_denies(channel_id)), spec.id)

    def close_dms(self, user_id: int) -> None:
        """The user stops taking DMs from the bot: new DMs are refused (403, 50007). Discord
        tells the bot nothing."""
        self.world.dms_closed.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self.world.dms_closed.discard(user_id)

    # ---------------------------------------------------------------- gateway

    async def dispatch(self, event: str, data: Any, guild_id: int | None = None) -> None:
        await self.gateway.dispatch(event, data, guild_id)

    # ---------------------------------------------------------------- users

    def player(self, name: str, locale: str = "en-US") -> Player:
        return Player(self, self.world.add_user(name), locale)

    async def send_interaction(self, user_id: int, channel_id: int, kind: int, data: dict, *, name: str,
                               message: dict | None = None, watch_channel: int | None = None,
                               locale: str = "en-US") -> InteractionRecord:
        world = self.world
        channel = world.channel(channel_id)
        interaction_id = world.ids.next()
        token = payloads.interaction_token(interaction_id)
        guild = world.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        payload = payloads.interaction(
            interaction_id, world.application_id, kind, data, token=token, user_payload=world.user(user_id),
            channel=channel.payload(world), guild_id=channel.guild_id, locale=locale,
            guild_locale=guild.locale if guild else "en-US", message_payload=message,
            joined_at=world.joined.get(user_id), app_permissions=world.app_permissions(channel_id))
        record = InteractionRecord(
            interaction_id, token, {2: "command", 3: "component", 4: "autocomplete"}[kind], name, user_id,
            channel_id, channel.guild_id, time.monotonic(), watch_channel=watch_channel,
            value=(data.get("values") or [None])[0])
        if message is not None:
            record.component_message = (int(message["channel_id"]), int(message["id"]))
            record.source_message = message
        self.recorder.interaction(record)
        await self.dispatch("INTERACTION_CREATE", payload, channel.guild_id)
        return record

    def command_data(self, channel_id: int, command: str, options: dict[str, Any], *,
                     focused: str | None = None) -> dict:
        """The `data` of a slash command interaction, typed after the commands the bot synced:
        `command` is "game new" (a command and its subcommands), `options` by name."""
        words = command.split()
        channel = self.world.channel(channel_id)
        found, guild_id = None, None
        for scope in (channel.guild_id, None):
            for entry in self.world.commands.get(scope, []):
                if entry["name"] == words[0] and entry.get("type", 1) == 1:
                    found, guild_id = entry, scope
                    break
            if found:
                break
        if found is None:
            raise KeyError(f"the bot has not synced a command {words[0]!r}")
        data: dict[str, Any] = {"id": found["id"], "name": found["name"], "type": 1}
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        definitions, holder = found.get("options", []), data
        for word in words[1:]:
            sub = next((o for o in definitions if o["name"] == word and o["type"] in (1, 2)), None)
            if sub is None:
                raise KeyError(f"no subcommand {word!r} in {command!r}")
            option = {"name": word, "type": sub["type"], "options": []}
            holder.setdefault("options", []).append(option)
            definitions, holder = sub.get("options", []), option
        for name, value in options.items():
            definition = next((o for o in definitions if o["name"] == name), None)
            if definition is None:
                raise KeyError(f"{command!r} has no option {name!r}")
            option = {"name": name, "type": definition["type"], "value": value}
            if name == focused:
                option["focused"] = True
            holder.setdefault("options", []).append(option)
        return data


def server_error(status: int) -> web.Response:
    """A 5xx as Cloudflare in front of Discord sends it: HTML, not Discord's JSON."""
    return web.Response(text=f"<html><body><h1>{status}</h1>upstream trouble</body></html>", status=status,
                        content_type="text/html")


class Player:
    """A simulated user: sends slash commands and clicks components on the bot's messages."""

    def __init__(self, standin: StandIn, user: dict, locale: str = "en-US") -> None:
        self.standin = standin
        self.user = user
        self.id = int(user["id"])
        self.name = user["username"]
        self.locale = locale

    def __repr__(self) -> str:
        return f"<Player {self.name} {self.id}>"

    async def slash(self, channel_id: int, command: str, *, watch_channel: int | None = None,
                    **options: Any) -> InteractionRecord:
        data = self.standin.command_data(channel_id, command, options)
        return await self.standin.send_interaction(self.id, channel_id, 2, data, name=command,
                                                   watch_channel=watch_channel, locale=self.locale)

    async def autocomplete(self, channel_id: int, command: str, focused: str, **options: Any) -> InteractionRecord:
        """Typing into option `focused` (its text among `options`): the bot's suggestions arrive
        in the record's `autocomplete` once it is answered."""
        data = self.standin.command_data(channel_id, command, options, focused=focused)
        return await self.standin.send_interaction(self.id, channel_id, 4, data, name=command, locale=self.locale)

    async def click(self, message: dict, control: Control, *, watch_channel: int | None = None) -> InteractionRecord:
        data: dict[str, Any] = {"custom_id": control.custom_id, "component_type": control.kind}
        if control.value is not None:
            data["values"] = [control.value]
        return await self.standin.send_interaction(
            self.id, int(message["channel_id"]), 3, data, name=control.custom_id, message=message,
            watch_channel=watch_channel, locale=self.locale)

    def dm_channel_id(self) -> int | None:
        return self.standin.world.dm_by_user.get(self.id)
