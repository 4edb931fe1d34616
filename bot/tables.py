"""Tables: opening a lobby (`/game new`, `/game practice`), joining, leaving, starting, and ending
a game early (`/game resign`, `/game abandon`).

Starting and ending are changes to the game like any move: they go through the move pipeline
(bot.moves), which stores the first board (or the last) as owed, and the delivery worker posts it.
"""
from __future__ import annotations

import dataclasses
import logging
import random
from collections.abc import Mapping

import discord

import i18n
from bot import presenter
from bot.changes import Change, LobbyChange, Start
from bot.components import lobby_view
from bot.days.options import split_options as days_options
from bot.days.seats import ComputerSeats, ending
from bot.days.storage import table_settings_write
from bot.errors import Refusal, echo
from bot.locale import table_language
from bot.moves import Moves, seating
from bot.storage import ChannelBusy, GameRow, StaleVersion
from bot.store import Storage
from games.core import Game
from i18n import game_title

log = logging.getLogger(__name__)

OPTIONS_TEXT_LIMIT = 200     # longer `/game new options:` text is refused unread


class Tables:
    def __init__(self, storage: Storage, games: Mapping[str, Game], moves: Moves, seats: ComputerSeats,
                 seed_source: random.Random) -> None:
        self.storage = storage
        self.games = games
        self.moves = moves
        self.seats = seats
        self.seed_source = seed_source

    def engine(self, name: str) -> Game:
        return self.moves.engine(name)

    def game_titles(self, lang: str = "en") -> list[tuple[str, str]]:
        """(title in `lang`, name) of every game, for menus and autocomplete."""
        return sorted((i18n.translate(game_title(game), lang), name) for name, game in self.games.items())

    async def open_table_in(self, channel_id: int) -> GameRow:
        table = await self.storage.games.open_game_in(channel_id)
        if table is not None:
            return table
        last = await self.storage.games.latest_game_in(channel_id)
        if last is None:
            raise Refusal.of("bot.errors.no_game_here")
        raise Refusal.of("bot.errors.last_game_ended", id=last.id)

    async def active_table_in(self, channel_id: int) -> GameRow:
        table = await self.open_table_in(channel_id)
        if table.status == "lobby":
            raise Refusal.of("bot.errors.not_started")
        return table

    async def move_table_in(self, channel_id: int) -> GameRow:
        """The game a /move in this channel is for: the active one, or one that just finished (a
        retry of the move that ended it must still hear "already done")."""
        try:
            return await self.active_table_in(channel_id)
        except Refusal:
            last = await self.storage.games.latest_game_in(channel_id)
            if last is not None and last.status == "finished" and last.state is not None:
                return last
            raise

    # -------------------------------------------------------------------------- lobby

    def lobby_text(self, table: GameRow) -> str:
        return presenter.lobby_text(table, self.engine(table.game))

    def check_table_request(self, game_name: str, options_text: str | None) -> None:
        """Refuse an unknown game or bad options before anything is made for the table."""
        game = self.engine(game_name)
        options_text, _ = days_options(options_text)
        parse_options(game, options_text)

    async def open_lobby(self, channel: discord.abc.Messageable, *, guild_id: int, channel_id: int,
                         host: discord.abc.User, game_name: str, options_text: str | None,
                         lang: str = "en") -> GameRow:
        game = self.engine(game_name)
        options_text, day_options = days_options(options_text)  # bot.days: deadline=, timeout=, reminder=
        options = parse_options(game, options_text)
        table = await self._new_table(guild_id, channel_id, host, game, options, lang, day_options)
        try:
            message = await channel.send(presenter.lobby_text(table, game), view=lobby_view(table, game),
                                         allowed_mentions=discord.AllowedMentions.none())
        except BaseException:
            # No lobby message, no lobby: the channel stays free for the next try.
            await self.moves.withdraw_lobby(table.id, "The lobby was never shown.")
            raise
        await self.storage.games.set_lobby_message(table.id, message.id)
        log.info("lobby game=%s channel=%s user=%s opened %s options=%s", table.id, channel_id, host.id,
                 game.name, options)
        return table

    async def _new_table(self, guild_id: int, channel_id: int, host: discord.abc.User, game: Game,
                         options: dict, lang: str, settings: dict) -> GameRow:
        existing = await self.storage.games.open_game_in(channel_id)
        if existing is not None:
            raise Refusal.of("bot.errors.channel_has_game", game=game_title(self.engine(existing.game)), id=existing.id)
        try:
            return await self.moves.open_lobby(
                guild_id=guild_id, channel_id=channel_id, game=game.name, host_id=host.id,
                host_name=host.display_name, options=options, lang=lang,
                writes_for=lambda game_id: [table_settings_write(game_id, settings)])
        except ChannelBusy:
            raise Refusal.of("bot.errors.channel_just_opened") from None

    async def open_practice(self, *, guild_id: int, channel_id: int, host: discord.abc.User, game_name: str,
                            players: int | None, lang: str, strength: str = "normal") -> GameRow:
        """`/game practice`: a table at once, the asker against computer seats, no lobby; hints
        on, and not counted in anyone's records."""
        game = self.engine(game_name)
        if not game.features.computer:
            raise Refusal.of("bot.errors.practice_no_computer", game=game_title(game))
        count = players if players is not None else min(max(3, game.min_players), game.max_players)
        if not game.min_players <= count <= game.max_players:
            raise Refusal.of("bot.errors.practice_players", game=game_title(game), min=game.min_players,
                             max=game.max_players)
        _, settings = days_options(None)
        table = await self._new_table(guild_id, channel_id, host, game, {}, lang,
                                      dict(settings, practice=True, hints=True, strength=strength))
        computers = tuple((-number, f"Computer {number}") for number in range(1, count))
        await self.moves.change(table.id, seating(computers))
        log.info("practice game=%s channel=%s user=%s opened %s with %d seats", table.id, channel_id, host.id,
                 game.name, count)
        return await self.start(table.id, host)

    async def join(self, game_id: int, user: discord.abc.User) -> GameRow:
        async def make(table: GameRow, game: Game) -> Change:
            self._check_lobby(table)
            if table.has_player(user.id):
                raise Refusal.of("bot.errors.already_seated")
            if len(table.players) >= game.max_players:
                raise Refusal.of("bot.errors.table_full", max=game.max_players)
            log.info("lobby game=%s channel=%s user=%s joined", game_id, table.channel_id, user.id)
            return LobbyChange(table=table, game=game, joined=((user.id, user.display_name),))

        await self.moves.change(game_id, make)
        return await self.moves.table(game_id)

    async def leave(self, game_id: int, user: discord.abc.User) -> GameRow:
        async def make(table: GameRow, game: Game) -> Change:
            self._check_lobby(table)
            if not table.has_player(user.id):
                raise Refusal.of("bot.errors.not_seated_lobby")
            # Computer seats (negative ids) never host and never keep a lobby open on their own.
            people = [p for p in table.players if p.user_id != user.id and not p.computer]
            log.info("lobby game=%s channel=%s user=%s left%s", game_id, table.channel_id, user.id,
                     "" if people else " (lobby abandoned)")
            if not people:
                return LobbyChange(table=table, game=game, left=user.id, closed=True)
            # The host leaving hands the table to the longest-waiting person.
            new_host = people[0].user_id if user.id == table.host_id else None
            return LobbyChange(table=table, game=game, left=user.id, new_host=new_host)

        await self.moves.change(game_id, make)
        return await self.moves.table(game_id)

    async def start(self, game_id: int, user: discord.abc.User) -> GameRow:
        async def make(table: GameRow, game: Game) -> Change:
            if table.status != "lobby":
                raise Refusal.of("bot.errors.table_closed_started" if table.status == "active"
                                 else "bot.errors.table_closed")
            if user.id != table.host_id:
                raise Refusal.of("bot.errors.host_only_start", host=presenter.mention(table.host_id))
            count = len(table.players)
            if count < game.min_players:
                raise Refusal.of("bot.errors.too_few_players", game=game_title(game), min=game.min_players, count=count)
            if count > game.max_players:
                raise Refusal.of("bot.errors.too_many_players", game=game_title(game), max=game.max_players,
                                 count=count)
            # Seat order and seed are the bot's randomness (SystemRandom in production).
            order = [player.user_id for player in table.players]
            self.seed_source.shuffle(order)
            seed = self.seed_source.getrandbits(63)
            state = game.new_game(count, seed=seed, options=table.options)
            seated = tuple(sorted((dataclasses.replace(p, seat=order.index(p.user_id)) for p in table.players),
                                  key=lambda p: p.seated))
            started = dataclasses.replace(table, status="active", players=seated, version=0, seed=seed)
            settings = await self.storage.days.table(table.id)
            text = presenter.start_text(started, game, [], table_language(table), practice=settings["practice"],
                                        hints=settings["hints"])
            log.info("lobby game=%s channel=%s user=%s started with %d players", table.id, table.channel_id,
                     user.id, count)
            return Start(table=started, game=game, state=state, seat_order=tuple(order), seed=seed, text=text)

        await self.moves.change(game_id, make)
        return await self.moves.table(game_id)

    @staticmethod
    def _check_lobby(table: GameRow) -> None:
        if table.status != "lobby":
            closed = "bot.errors.table_closed_started" if table.status == "active" else "bot.errors.table_closed"
            raise Refusal.of(closed)

    # ------------------------------------------------------------------------ endings

    async def resign(self, channel_id: int, user: discord.abc.User) -> None:
        """Resigning: with two players the other one wins; with more the computer takes the seat
        and the game goes on (bot.days)."""
        table = await self.active_table_in(channel_id)
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal.of("bot.errors.not_playing")
        if len(table.players) != 2:
            await self.seats.resign_to_computer(table, seat)
            return
        names = presenter.bold_names(table.names)
        winner = 1 - seat
        result = {"winners": [winner], "reason": f"{{s{seat}}} resigned.", "resigned": seat}
        text = i18n.t(table_language(table), "bot.table.resigned", player=names[seat], winner=names[winner])
        await self.moves.change(table.id, ending(text, "finished", result))
        log.info("game game=%s channel=%s user=%s resigned", table.id, table.channel_id, user.id)

    async def abandon(self, channel_id: int, user: discord.abc.User, *, may_manage_server: bool) -> GameRow:
        table = await self.open_table_in(channel_id)
        if user.id != table.host_id and not may_manage_server:
            raise Refusal.of("bot.errors.host_only_abandon", host=presenter.mention(table.host_id))
        game = self.engine(table.game)
        text = i18n.t(table_language(table), "bot.table.abandoned", game=game_title(game), id=table.id,
                      user=f"**{discord.utils.escape_markdown(user.display_name)}**")
        # A lobby's message says it closed (bot.moves: every end of a table not yet shown on a board).
        make = ending(text, "abandoned", {"reason": f"Abandoned by {user.display_name}."}, expected_status=None)
        try:
            done = await self.moves.change(table.id, make)
        except StaleVersion:
            done = None
        if done is None:
            raise Refusal.of("bot.errors.already_ended")
        log.info("game game=%s channel=%s user=%s abandoned it", table.id, table.channel_id, user.id)
        return await self.moves.table(table.id)


def parse_options(game: Game, text: str | None) -> dict[str, str]:
    """`rounds=3 variant=x` (spaces or commas) -> a full option dict with defaults filled in."""
    chosen = {option.name: option.default for option in game.options}
    if text is not None and len(text) > OPTIONS_TEXT_LIMIT:
        raise Refusal.of("bot.errors.options_too_long", length=len(text))
    known = {option.name: option for option in game.options}
    for part in (text or "").replace(",", " ").split():
        name, _, value = part.partition("=")
        option = known.get(name.strip().lower())
        if option is None:
            raise Refusal.of("bot.errors.unknown_option", game=game_title(game), name=echo(name, 30),
                             known=", ".join(known) or "-")
        if value not in option.choices:
            raise Refusal.of("bot.errors.bad_option_value", name=echo(name, 30), choices=", ".join(option.choices))
        chosen[option.name] = value
    return chosen
