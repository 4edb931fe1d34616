"""Our thin layer over simcord: a simulated Discord running the real bot, offline.

Tests and the benchmarks in bench/ use only this, so a simcord upgrade touches one file.
Importable outside pytest (no pytest import here):

    async with simulated_discord(tmp_path / "bot.sqlite3", games=..., seed=7) as world:
        alice = world.player("alice")
        await world.slash(alice, "game new", game="pips")
        ...
        await world.restart()          # a new bot process on the same database file

Refusals are part of normal play here: simcord records every error that reaches the command
tree's error handler, so after each step we acknowledge the expected ones (Refusal, GameError)
and fail at once on anything else.
"""
from __future__ import annotations

import asyncio
import io
import json
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord
from PIL import Image
from PIL.PngImagePlugin import PngInfo
from simcord.results import to_discord_message

from bot.app import GameBot, create_bot
from bot.delivery.requests import is_discord_trouble
from bot.errors import message_for, unwrap
from bot.parts import Parts
from games.core import Game

BotFactory = Callable[[], GameBot]


@dataclass(frozen=True)
class StoredGame:
    """A game row as stored, for asserting that a refusal changed nothing."""

    id: int
    status: str
    version: int
    state: str | None
    actions: int


class World:
    def __init__(self, env: simcord.Env, factory: BotFactory, database_path: str | Path) -> None:
        self.env = env
        self.factory = factory
        # A SQLite file, or a PostgreSQL URL (`tests.bot.pg`): the bot runs on either.
        self.database = str(database_path)
        self.database_path = Path(database_path)  # for tests that open the SQLite file themselves
        self.guild = env.create_guild("Ritterrunde")
        self.channel = self.guild.create_text_channel("spieltisch")

    @property
    def bot(self) -> GameBot:
        return self.env.bot  # type: ignore[return-value]

    @property
    def parts(self) -> Parts:
        """The running bot's parts (bot.parts), built when it started."""
        parts = self.bot.parts
        if parts is None:
            raise RuntimeError("The bot has not started (its setup_hook has not run)")
        return parts

    # ----------------------------------------------------------------- arranging

    def player(self, name: str, *, manage_server: bool = False) -> simcord.MemberActor:
        roles = []
        if manage_server:
            roles.append(self.guild.create_role(f"{name}-mods", permissions=discord.Permissions(manage_guild=True)))
        return self.guild.add_member(self.env.create_user(name, global_name=name.capitalize()), roles=roles)

    def thread(self, name: str, owner: simcord.MemberActor, parent: simcord.ChannelHandle | None = None):
        """A public thread under `parent` (simcord has no builder for member-made threads)."""
        parent = parent or self.channel
        channel = self.env.backend.create_thread(parent.id, name, owner.id)
        return simcord.ChannelHandle(self.env, self.guild, channel)

    def close_dms(self, member: simcord.MemberActor) -> None:
        """The user does not accept DMs from the bot: Discord answers 403 / 50007."""
        self.env.inject_error("POST", f"/channels/{member.user.dm_channel.id}/messages", status=403, code=50007,
                              message="Cannot send messages to this user", times=None)

    # -------------------------------------------------------------------- acting

    async def slash(self, member: simcord.MemberActor, command: str, *, channel=None,
                    **options: Any) -> simcord.InteractionResult:
        return await self._step(member.slash(channel or self.channel, command, **options))

    async def autocomplete(self, member: simcord.MemberActor, command: str, option: str, typed: str, *,
                           channel=None, **filled: Any) -> list[dict[str, Any]]:
        return await self._step(member.autocomplete(channel or self.channel, command, option, typed, **filled))

    async def click(self, member: simcord.MemberActor, message: discord.Message, *, label: str | None = None,
                    custom_id: str | None = None) -> simcord.InteractionResult:
        return await self._step(self._actor(member, message).click(message, label=label, custom_id=custom_id))

    async def select(self, member: simcord.MemberActor, message: discord.Message, value: str, *,
                     custom_id: str | None = None) -> simcord.InteractionResult:
        return await self._step(self._actor(member, message).select(message, [value], custom_id=custom_id))

    def _actor(self, member: simcord.MemberActor, message):
        """Components in a DM are clicked by the user, in a server by the member."""
        channel_id = message.channel_id if isinstance(message, simcord.ResponseMessage) else message.channel.id
        in_dm = self.env.backend.get_channel(channel_id).guild_id is None
        return member.user if in_dm else member

    async def _step(self, operation):
        cursor = self.env.error_cursor
        result = await operation
        captured = self.env.errors_since(cursor)
        # Refusals are answered to the player; Discord's own trouble (a failing Discord's answers)
        # is a warning: neither is a bug.
        unexpected = [error for error in captured
                      if message_for(error) is None and not is_discord_trouble(unwrap(error))]
        if unexpected:
            raise ExceptionGroup("the bot failed unexpectedly", list(unexpected))
        if captured:
            _ = self.env.errors  # reading them acknowledges them: refusals are expected, answered ephemerally
        return result

    async def run_timers(self) -> None:
        """Handle every timer due by the bot's clock, then let what they owe Discord be delivered
        (the delivery worker runs in tasks of its own: started as the bot's, so simcord waits
        for them as it waits for everything the bot does after a click)."""
        with self.env._bot_scope():
            await self.bot.scheduler.run_due()
        await self.env.settle()

    async def restart(self) -> None:
        """Stop this bot (as if its process died) and start a fresh one on the same database."""
        old = self.bot
        await old.close_storage()
        await self.env.restart_bot(self.factory())

    # ------------------------------------------------------------------- reading

    def messages(self, channel=None) -> list[discord.Message]:
        """Public messages in a channel, oldest first (what every member sees)."""
        return (channel or self.channel).history()

    def bot_messages(self, channel=None) -> list[discord.Message]:
        return [m for m in self.messages(channel) if m.author.id == self.bot.user.id]

    def latest(self, channel=None) -> discord.Message:
        return self._newest(channel, lambda stored: True)

    def latest_board(self, channel=None) -> discord.Message:
        """The newest board: the bot's latest message with an image."""
        return self._newest(channel, lambda stored: bool(stored.attachments))

    def _newest(self, channel, wanted) -> discord.Message:
        # Walks the stored messages newest first and converts only the one returned: reading
        # the whole history per step would make long games quadratic.
        channel = channel or self.channel
        stored = self.env.backend.messages.get(channel.id, {})
        for message in sorted(stored.values(), key=lambda m: m.id, reverse=True):
            if message.author_id == self.bot.user.id and not message.is_ephemeral and wanted(message):
                return to_discord_message(self.env, message)
        raise LookupError(f"no such bot message in #{channel.name}")

    def fresh(self, message: discord.Message) -> discord.Message:
        """The message as Discord holds it now (edited since it was read, perhaps)."""
        return to_discord_message(self.env, self.env.backend.get_message(message.channel.id, message.id))

    def pinged(self, message: discord.Message) -> list[int]:
        """Users the message notifies: its user mentions that the bot's allowed_mentions let through."""
        stored = self.env.backend.get_message(message.channel.id, message.id)
        return [user_id for user_id in message.raw_mentions if stored.allowed_mentions.allows_user(user_id)]

    def dms(self, member: simcord.MemberActor) -> list[discord.Message]:
        return member.user.dm_channel.history()

    def dm_count(self, member: simcord.MemberActor) -> int:
        """How many DMs `member` has had, without reading them (`dms` converts every one)."""
        return len(self.env.backend.messages.get(member.user.dm_channel.id, {}))

    def latest_dm(self, member: simcord.MemberActor) -> discord.Message | None:
        """`member`'s newest DM, the only one converted (a long game's DMs read whole each step
        made the tests that read them quadratic)."""
        stored = self.env.backend.messages.get(member.user.dm_channel.id, {})
        return to_discord_message(self.env, stored[max(stored)]) if stored else None

    def png(self, message: discord.Message | simcord.ResponseMessage) -> bytes | None:
        for attachment in message.attachments:
            if attachment.filename.endswith(".png"):
                return self.env.backend.cdn.get(attachment.url)
        return None

    @property
    def on_postgresql(self) -> bool:
        return self.database.startswith(("postgresql://", "postgres://"))

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of one read, in SQLite's dialect, from whichever store the bot runs on."""
        if not self.on_postgresql:
            with sqlite3.connect(self.database_path) as db:
                return db.execute(sql, params).fetchall()
        return _postgresql_rows(self.database, sql, params)

    def stored(self, game_id: int) -> StoredGame:
        ((status, version, state),) = self.query("SELECT status, version, state FROM games WHERE id = ?", (game_id,))
        ((actions,),) = self.query("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        return StoredGame(game_id, status, version, state, actions)

    def stored_state(self, game_id: int) -> dict:
        return json.loads(self.stored(game_id).state)

    def seats(self, game_id: int) -> dict[int, int]:
        """user id -> seat, as stored."""
        return dict(self.query("SELECT user_id, seat FROM seats WHERE game_id = ?", (game_id,)))

    def dm_ok(self, game_id: int) -> dict[int, bool | None]:
        """user id -> whether DMs to them work, as stored."""
        rows = self.query("SELECT user_id, dm_ok FROM seats WHERE game_id = ?", (game_id,))
        return {user_id: None if ok is None else bool(ok) for user_id, ok in rows}


def _postgresql_rows(url: str, sql: str, params: tuple) -> list[tuple]:
    """One read on PostgreSQL from synchronous test code: on a thread with its own event loop
    (the test's loop is busy running the test), in the bot's dialect translated as the bot does."""
    import asyncpg

    from bot.postgres import to_postgres

    async def fetch() -> list[tuple]:
        connection = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await connection.fetch(to_postgres(sql), *params)]
        finally:
            await connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, fetch()).result()


def reply(result: simcord.InteractionResult) -> simcord.ResponseMessage | None:
    """The answer only the user saw: the ephemeral response or followup (a deferred button
    click's `response` is the message the button was on)."""
    for message in (result.response, *result.followups):
        if message is not None and message.ephemeral:
            return message
    return None


def components(message: discord.Message | simcord.ResponseMessage) -> list[dict[str, Any]]:
    """Every button/select of a message as a flat list of dicts (type, label, custom_id, options…)."""
    rows = message.components
    found = []
    for row in rows:
        children = row.children if hasattr(row, "children") else row.get("components", [])
        for child in children:
            if isinstance(child, dict):
                found.append(child)
            else:
                found.append(child.to_dict())
    return found


def buttons(message) -> list[dict[str, Any]]:
    return [c for c in components(message) if c["type"] == 2]


def selects(message) -> list[dict[str, Any]]:
    return [c for c in components(message) if c["type"] == 3]


# ------------------------------------------------------------------- playing like a person


class SketchRenderer:
    """Remembers the view behind every image and draws a tiny PNG unique to it (the real
    renderers have their own tests), except the first `real_first` boards, drawn for real."""

    def __init__(self, real_first: int = 0) -> None:
        self.view_of: dict[bytes, dict] = {}
        self.real_left = real_first
        self._lock = threading.Lock()  # images are drawn in worker threads

    def __call__(self, view: dict, names: list[str], lang: str = "en") -> bytes:
        with self._lock:
            if self.real_left > 0:
                self.real_left -= 1
                from renderers import render_png

                png = render_png(view, names, lang)
            else:
                info = PngInfo()
                info.add_text("sketch", str(len(self.view_of)))
                buffer = io.BytesIO()
                Image.new("P", (8, 10)).save(buffer, format="PNG", pnginfo=info)
                png = buffer.getvalue()
            self.view_of[png] = view
        return png


def offered(message, action: str):
    """(custom_id, value) of the component in `message` offering `action`, or None: an enabled
    button (value None) or a select option."""
    for button in buttons(message):
        if button["custom_id"].startswith("rk:move:") and button["custom_id"].split(":", 4)[4] == action \
                and not button.get("disabled"):
            return button["custom_id"], None
    for menu in selects(message):
        for option in menu["options"]:
            if option["value"] == action:
                return menu["custom_id"], action
    return None


async def open_table(world: World, host, *others, game: str = "pips", channel=None,
                     options: str | None = None) -> int:
    """`/game new` by `host`, everyone else presses Join; returns the game id."""
    extra = {"options": options} if options else {}
    await world.slash(host, "game new", channel=channel, game=game, **extra)
    lobby = world.latest(channel)
    for player in others:
        await world.click(player, world.latest(channel), label="Join")
    return int(buttons(lobby)[0]["custom_id"].split(":")[2])


async def start_table(world: World, host, *others, game: str = "pips", channel=None,
                      options: str | None = None) -> int:
    """Open a table, let everyone join, and have the host press Start; returns the game id."""
    game_id = await open_table(world, host, *others, game=game, channel=channel, options=options)
    await world.click(host, world.latest(channel), label="Start")
    return game_id


def seat_order(world: World, game_id: int, players) -> list:
    """The players in seat order, as the bot drew it."""
    seats = world.seats(game_id)
    return sorted(players, key=lambda p: seats[p.id])


def move_buttons(message) -> list[dict]:
    """The enabled buttons that make a move."""
    return [b for b in buttons(message) if b["custom_id"].startswith("rk:move:") and not b.get("disabled")]


def toggle_buttons(message) -> list[dict]:
    """Buttons that choose items (e.g. dice to roll again) without making a move."""
    return [b for b in buttons(message) if b["custom_id"].startswith("rk:tog:")]


def offers_moves(message) -> bool:
    return bool(move_buttons(message) or selects(message) or toggle_buttons(message))


def latest_dm_with_moves(world: World, player):
    offered = [m for m in world.dms(player) if offers_moves(m)]
    return offered[-1] if offered else None


def to_act(world: World, players, channel=None) -> list:
    """Who the latest board calls, read from its mentions like a player would."""
    board = world.latest_board(channel)
    return [p for p in players if p.id in board.raw_mentions]


async def take_turn(world: World, player, rng: random.Random, channel=None) -> None:
    """One move the way a person makes it: the board's buttons if it offers any, else the moves
    in their latest DM, else the ephemeral 'My hand' reply."""
    board = world.latest_board(channel)
    source = board if offers_moves(board) else latest_dm_with_moves(world, player)
    if source is None:
        source = reply(await world.click(player, board, label="My hand"))
    if toggle_buttons(source) and (rng.random() < 0.7 or not (move_buttons(source) or selects(source))):
        # Tap some dice, then the confirm button that the taps enabled.
        toggles = toggle_buttons(source)
        for index in sorted(rng.sample(range(len(toggles)), rng.randint(1, len(toggles)))):
            label = toggle_buttons(source)[index]["label"]
            result = await world.click(player, source, custom_id=toggle_buttons(source)[index]["custom_id"])
            source = result.response
            assert toggle_buttons(source)[index]["label"] != label, "a toggle did not flip"
        confirm = [b for b in move_buttons(source) if b["style"] == discord.ButtonStyle.success.value]
        if not confirm:
            # A choice of an exact size (two action cards): untap all, then tap in order until
            # the confirm button is enabled.
            while chosen := [b for b in toggle_buttons(source) if b["style"] == discord.ButtonStyle.primary.value]:
                source = (await world.click(player, source, custom_id=chosen[0]["custom_id"])).response
            index = 0
            while not confirm:
                toggle = toggle_buttons(source)[index]
                source = (await world.click(player, source, custom_id=toggle["custom_id"])).response
                confirm = [b for b in move_buttons(source) if b["style"] == discord.ButtonStyle.success.value]
                index += 1
        await world.click(player, source, custom_id=confirm[0]["custom_id"])
    elif move_buttons(source):
        choice = rng.choice(move_buttons(source))
        await world.click(player, source, custom_id=choice["custom_id"])
    else:
        menu = rng.choice(selects(source))
        await world.select(player, source, rng.choice(menu["options"])["value"], custom_id=menu["custom_id"])


async def play_to_end(world: World, players, *, seed: int = 1, channel=None, max_moves: int = 200) -> int:
    rng = random.Random(seed)
    for moves in range(max_moves):
        if any(end in world.latest_board(channel).content for end in ("Game over", "Spielende")):
            return moves
        await take_turn(world, to_act(world, players, channel)[0], rng, channel)
    raise AssertionError("the game did not end")


def bot_factory(database_path: str | Path, *, games: Mapping[str, Game] | None = None, seed: int | None = None,
                render=None, collect_when_quiet: bool = False) -> BotFactory:
    """Builds a fresh bot on `database_path` each call (a restart builds a new one).
    `collect_when_quiet`: garbage collection as `python -m bot` runs it (for benches)."""

    def build() -> GameBot:
        return create_bot(database_path, games=games, render=render,
                          seed_source=random.Random(seed) if seed is not None else None,
                          collect_when_quiet=collect_when_quiet)

    return build


@asynccontextmanager
async def simulated_discord(database_path: str | Path, *, games: Mapping[str, Game] | None = None,
                            seed: int | None = None, render=None, collect_when_quiet: bool = False,
                            **env_options: Any) -> AsyncIterator[World]:
    """Run our bot in simcord on `database_path` (for scripts; pytest tests use the fixtures).

    `seed` fixes seat orders and game seeds. Enter and leave it in the same task: simcord keeps
    its clock in a context variable.
    """
    factory = bot_factory(database_path, games=games, seed=seed, render=render,
                          collect_when_quiet=collect_when_quiet)
    async with simcord.run(factory(), **env_options) as env:
        world = World(env, factory, database_path)
        try:
            yield world
        finally:
            await world.bot.close_storage()


__all__ = [
    "World", "StoredGame", "bot_factory", "simulated_discord", "components", "buttons", "selects", "reply",
    "open_table", "start_table", "seat_order", "move_buttons", "toggle_buttons", "offers_moves", "latest_dm_with_moves",
    "to_act", "take_turn",
    "play_to_end", "SketchRenderer", "offered",
]
