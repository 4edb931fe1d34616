"""A stand-in Discord on 127.0.0.1 that the real bot process logs into and plays on.

    standin = await StandIn(StandInConfig(guilds=3)).start()
    bot = BotProcess(api_url=standin.api_url, token=standin.world.token, database_path=path)
    await bot.start(); await bot.wait_ready()
    alice = standin.player("alice")
    await alice.slash(channel_id, "game new", game="knatsch")

server: the aiohttp server (REST + gateway; also what moderators and users change: Send
Messages revoked, DMs closed, messages deleted), world: Discord's state, ratelimits: the global
and per-route limits, faults: REST storms (429, 5xx, hangs) for soaks, recorder: requests,
interactions, boards and messages seen, process: the bot's process, tables: simulated players
opening tables and playing through the bot's buttons.
"""
from bench.standin.payloads import GuildShape
from bench.standin.process import BotProcess
from bench.standin.server import Player, StandIn, StandInConfig

__all__ = ["BotProcess", "GuildShape", "Player", "StandIn", "StandInConfig"]
