"""The tables: every request on a game goes through here, whatever button or command it came from.

Data flows one way: (user, request) -> seat and action -> engine -> store (one transaction) ->
announcer. A per-game `asyncio.Lock` serialises everything done to one game (so two clicks
cannot both apply to the same version); different games never wait for each other.
Refusals raise `Refusal` (or the engine's `GameError`) before anything is stored.
"""
from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections import defaultdict
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

import discord

import i18n
from i18n import game_title, translate
from games.core import Action, Game
from games.replay import move_is_invisible

from bot import presenter
from bot.announce import (Announcer, PrivatePayload, choices_for, has_secrets, label_names, outcome_record,
                          public_choices, toggles_for)
from bot.locale import table_language
from bot.collector import QuietCollector
from bot.components import Choice, board_view, lobby_view, private_view
from bot.days import split_options as days_options
from bot.errors import MoveStored, Refusal, echo
from bot.records import post_game_end
from bot.replay import Replays, decision_still_open, replay
from bot.storage import ChannelBusy, GameRow, StaleVersion, Storage

if TYPE_CHECKING:
    from bot.app import GameBot

log = logging.getLogger(__name__)

AUTOCOMPLETE_LIMIT = 25
LOG_LINES = 15
VALUE_LIMIT = 100            # Discord's limit for an autocomplete value
MAX_ID = 2**63 - 1           # SQLite's INTEGER: ids beyond it cannot exist
MAX_TOGGLES = 25             # items one SubsetChoice may offer (a custom_id's mask has that many bits)
BOARD_INTERVAL = 60          # seconds between `/game board` posts in one channel
OPTIONS_TEXT_LIMIT = 200     # longer `/game new options:` text is refused unread

# An autocomplete value names the version it was offered at: "@12 trump high".
_VERSIONED = re.compile(r"@(\d{1,18}) (.+)", re.S)


def versioned_value(version: int, action: str) -> str:
    """The /move autocomplete value for `action` offered at `version` (plain if it would not fit)."""
    value = f"@{version} {action}"
    return value if len(value) <= VALUE_LIMIT else action


def split_versioned(text: str) -> tuple[int | None, str]:
    """"@12 trump high" -> (12, "trump high"); typed text without a version -> (None, text)."""
    match = _VERSIONED.fullmatch(text.strip())
    if match is None:
        return None, text
    return int(match[1]), match[2]


def check_id(value: int) -> int:
    """An id from a custom_id or a user, checked before it reaches SQLite or a shift."""
    if not 0 < value <= MAX_ID:
        raise Refusal.of("bot.errors.no_such_game")
    return value


@dataclass(frozen=True)
class Played:
    """What a move did: its label, the version it made, and whether it had been stored before
    (a retry of a typed move whose answer was lost: answered "already done", not applied)."""

    choice: Choice
    game_id: int
    version: int
    already_done: bool = False
    board_url: str | None = None

    @property
    def label(self) -> str:
        return self.choice.label

    @property
    def action(self) -> str:
        return self.choice.action


def rank_matches(choices: list[Choice], typed: str) -> list[Choice]:
    """Choices whose label or action text contains every typed word; those naming a typed word
    exactly ("c1" the square, not C10-C18) come first, otherwise in the engine's order."""
    words = typed.lower().split()
    matches = [c for c in choices if all(w in c.label.lower() or w in c.action.lower() for w in words)]

    def exact_words(choice: Choice) -> int:
        tokens = set(choice.label.lower().replace(",", " ").split()) | set(choice.action.lower().split())
        return sum(word in tokens for word in words)

    return sorted(matches, key=exact_words, reverse=True)  # stable: ties keep the engine's order


class GameService:
    def __init__(self, bot: "GameBot", storage: Storage, games: Mapping[str, Game],
                 seed_source: random.Random, announcer: Announcer, collector: QuietCollector | None = None) -> None:
        self.bot = bot
        self.collector = collector  # full garbage collections between moves (`python -m bot`)
        self.storage = storage
        self.games = games
        self.seed_source = seed_source
        self.announcer = announcer
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._replays = Replays()  # games replayed to judge clicks on older messages
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.stopping = False
        self._board_posted_at: dict[int, float] = {}  # channel id -> monotonic time of /game board

    @asynccontextmanager
    async def _work(self):
        """A request that may store something: refused once the bot is stopping, and waited for
        by `drain` so a clean stop never cuts a move between storing and announcing it."""
        if self.stopping:
            raise Refusal.of("bot.errors.shutting_down")
        self._in_flight += 1
        self._idle.clear()
        if self.collector is not None:
            self.collector.work_started()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()
                if self.collector is not None:
                    self.collector.work_done()

    async def drain(self, timeout: float) -> bool:
        """Stop taking new moves and wait (at most `timeout` s) for those under way. True if idle."""
        self.stopping = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks[game_id]

    # ------------------------------------------------------------------------ lookups

    def engine(self, name: str) -> Game:
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "-"
            raise Refusal.of("bot.errors.unknown_game", name=echo(name, 40), known=known) from None

    async def table(self, game_id: int) -> GameRow:
        table = await self.storage.get_game(check_id(game_id))
        if table is None:
            raise Refusal.of("bot.errors.game_gone")
        return table

    async def open_table_in(self, channel_id: int) -> GameRow:
        table = await self.storage.open_game_in(channel_id)
        if table is not None:
            return table
        last = await self.storage.latest_game_in(channel_id)
        if last is None:
            raise Refusal.of("bot.errors.no_game_here")
        raise Refusal.of("bot.errors.last_game_ended", id=last.id)

    async def move_table_in(self, channel_id: int) -> GameRow:
        """The game a /move in this channel is for: the active one, or one that just finished (a
        retry of the move that ended it must still hear "already done")."""
        try:
            return await self.active_table_in(channel_id)
        except Refusal:
            last = await self.storage.latest_game_in(channel_id)
            if last is not None and last.status == "finished" and last.state is not None:
                return last
            raise

    async def active_table_in(self, channel_id: int) -> GameRow:
        table = await self.open_table_in(channel_id)
        if table.status == "lobby":
            raise Refusal.of("bot.errors.not_started")
        return table

    def game_titles(self, lang: str = "en") -> list[tuple[str, str]]:
        """(title in `lang`, name) of every game, for menus and autocomplete."""
        return sorted((translate(game_title(game), lang), name) for name, game in self.games.items())

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
        existing = await self.storage.open_game_in(channel_id)
        if existing is not None:
            raise Refusal.of("bot.errors.channel_has_game", game=game_title(self.engine(existing.game)), id=existing.id)
        try:
            table = await self.storage.create_lobby(guild_id=guild_id, channel_id=channel_id, game=game.name,
                                                    host_id=host.id, host_name=host.display_name, options=options,
                                                    lang=lang)
        except ChannelBusy:
            raise Refusal.of("bot.errors.channel_just_opened") from None
        await self.storage.days_set_table(table.id, **day_options)  # bot.days
        message = await channel.send(presenter.lobby_text(table, game), view=lobby_view(table, game),
                                     allowed_mentions=discord.AllowedMentions.none())
        await self.storage.set_lobby_message(table.id, message.id)
        log.info("lobby game=%s channel=%s user=%s opened %s options=%s", table.id, channel_id, host.id,
                 game.name, options)
        return table

    async def open_practice(self, *, guild_id: int, channel_id: int, host: discord.abc.User, game_name: str,
                            players: int | None, lang: str, strength: str = "normal") -> GameRow:
        """`/game practice`: a table at once, the asker against computer seats, no lobby; hints
        on, and not counted in anyone's records."""
        game = self.engine(game_name)
        if getattr(game, "suggest", None) is None:
            raise Refusal.of("bot.errors.practice_no_computer", game=game_title(game))
        count = players if players is not None else min(max(3, game.min_players), game.max_players)
        if not game.min_players <= count <= game.max_players:
            raise Refusal.of("bot.errors.practice_players", game=game_title(game), min=game.min_players,
                             max=game.max_players)
        existing = await self.storage.open_game_in(channel_id)
        if existing is not None:
            raise Refusal.of("bot.errors.channel_has_game", game=game_title(self.engine(existing.game)), id=existing.id)
        try:
            table = await self.storage.create_lobby(guild_id=guild_id, channel_id=channel_id, game=game.name,
                                                    host_id=host.id, host_name=host.display_name, options={},
                                                    lang=lang)
        except ChannelBusy:
            raise Refusal.of("bot.errors.channel_just_opened") from None
        _, day_options = days_options(None)
        await self.storage.days_set_table(table.id, **dict(day_options, practice=True, hints=True, strength=strength))
        for number in range(1, count):
            await self.storage.add_player(table.id, -number, f"Computer {number}")
        log.info("practice game=%s channel=%s user=%s opened %s with %d seats", table.id, channel_id, host.id,
                 game.name, count)
        return await self.start(table.id, host)

    async def join(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            game = self.engine(table.game)
            if table.has_player(user.id):
                raise Refusal.of("bot.errors.already_seated")
            if len(table.players) >= game.max_players:
                raise Refusal.of("bot.errors.table_full", max=game.max_players)
            await self.storage.add_player(game_id, user.id, user.display_name)
            log.info("lobby game=%s channel=%s user=%s joined", game_id, table.channel_id, user.id)
            return await self.table(game_id)

    async def leave(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            if not table.has_player(user.id):
                raise Refusal.of("bot.errors.not_seated_lobby")
            # Computer seats (negative ids) never host and never keep a lobby open on their own.
            people = [p for p in table.players if p.user_id != user.id and p.user_id > 0]
            if not people:
                await self.storage.end_game(game_id, status="abandoned", result={"reason": "Everyone left the lobby."})
            else:
                # The host leaving hands the table to the longest-waiting person.
                new_host = people[0].user_id if user.id == table.host_id else None
                await self.storage.remove_player(game_id, user.id, new_host_id=new_host)
            log.info("lobby game=%s channel=%s user=%s left%s", game_id, table.channel_id, user.id,
                     "" if people else " (lobby abandoned)")
            return await self.table(game_id)

    async def start(self, game_id: int, user: discord.abc.User) -> GameRow:
        async with self.lock(game_id):
            table = await self._lobby(game_id)
            game = self.engine(table.game)
            if user.id != table.host_id:
                raise Refusal.of("bot.errors.host_only_start", host=presenter.mention(table.host_id))
            count = len(table.players)
            if count < game.min_players:
                raise Refusal.of("bot.errors.too_few_players", game=game_title(game), min=game.min_players, count=count)
            if count > game.max_players:
                raise Refusal.of("bot.errors.too_many_players", game=game_title(game), max=game.max_players, count=count)
            # Seat order and seed are the bot's randomness (SystemRandom in production).
            order = [player.user_id for player in table.players]
            self.seed_source.shuffle(order)
            seed = self.seed_source.getrandbits(63)
            state = game.new_game(count, seed=seed, options=table.options)
            await self.storage.start_game(game_id, seat_order=order, seed=seed, state=game.to_dict(state))
            log.info("lobby game=%s channel=%s user=%s started with %d players", game_id, table.channel_id,
                     user.id, count)
            table = await self.table(game_id)
            await self.bot.days.after_change(table, game, state)  # bot.days: timers
            await self.announcer.game_started(table, game, state)
            return await self.table(game_id)

    async def _lobby(self, game_id: int) -> GameRow:
        table = await self.table(game_id)
        if table.status != "lobby":
            raise Refusal.of("bot.errors.table_closed_started" if table.status == "active" else "bot.errors.table_closed")
        return table

    # --------------------------------------------------------------------------- play

    async def play(self, user: discord.abc.User, *, game_id: int, action_text: str,
                   seen_version: int | None = None, typed: bool = False) -> Played:
        """Apply one move for `user`, exactly once.

        `seen_version`: the state version a button or a /move suggestion was made for; a stale
        one is refused unless the user's decision is still the same. `typed`: a /move, whose
        player is answered by the command (the move is stored as unanswered until then): if it
        repeats the seat's last move that was stored but never answered (the bot stopped in
        between), it answers "already done" instead of applying it again.
        """
        started = time.monotonic()
        async with self._work(), self.lock(game_id):
            table = await self.table(game_id)
            game = self.engine(table.game)
            mover = table.seat_of(user.id)
            if typed and table.state is not None and mover is not None and (
                    done := await self._already_done(table, game, game.from_dict(table.state), mover,
                                                     action_text, seen_version)) is not None:
                # Also when that move ended the game: the retry still hears it counted.
                log.info("move game=%s channel=%s seat=%s action=%r already stored as version %s: not applied again",
                         table.id, table.channel_id, mover, action_text[:100], done.version)
                return done
            seat = self._seat(table, user)
            state = game.from_dict(table.state)
            if seen_version is not None and seen_version != table.version:
                if not await self._decision_unchanged(table, game, seat, seen_version):
                    table = await self._catch_up_locked(table)  # the link must point at a current board
                    if typed:
                        raise Refusal.of("bot.errors.stale_choice", seen=seen_version, version=table.version)
                    raise presenter.stale_refusal(self.announcer.board_url(table))
            await self.bot.days.check_person(table, seat)  # bot.days: a resigned seat is the computer's
            action = resolve_action(game, state, seat, action_text, label_names(table), table_language(table))
            to_act = game.to_act(state)
            legal = game.legal_actions(state, seat)
            # A seat the game does not wait for may still make its optional moves (taking back a
            # confirmed choice while others choose); nothing else.
            if seat not in to_act and action not in legal:
                raise Refusal.of("bot.errors.not_your_turn", players=presenter.waiting_for(table, to_act))
            if action not in legal:
                raise toggle_count_refusal(game, state, seat, action) or \
                    Refusal.of("bot.errors.not_legal", move=echo(action_text))
            choice = Choice(action.encode(), translate(game.describe(state, seat, action), table_language(table),
                                                       label_names(table)))
            after, events = game.apply(state, seat, action)
            outcome = game.outcome(after)
            try:
                version = await self.storage.record_move(
                    game_id, expected_version=table.version, seat=seat, action=action.encode(),
                    state=game.to_dict(after), finished_result=outcome_record(outcome) if outcome else None,
                    answered=not typed,
                )
            except StaleVersion:
                raise Refusal.of("bot.errors.same_moment") from None
            table = await self.table(game_id)
            await self.bot.days.after_change(table, game, after, mover=seat, by_person=True)  # bot.days
            try:
                await self.announce_move(table, game, state, after, seat, events, action)
            except Exception as error:  # noqa: BLE001 - stored means it counts: say so, never "try again"
                raise MoveStored(game_id=game_id, version=version, label=choice.label, cause=error) from error
            finally:
                log.info("move game=%s channel=%s seat=%s action=%r version=%s took=%.0fms",
                         table.id, table.channel_id, seat, choice.action, version,
                         (time.monotonic() - started) * 1000)
            return Played(choice, game_id, version)

    async def _already_done(self, table: GameRow, game: Game, state: Any, seat: int, text: str,
                            seen_version: int | None = None) -> Played | None:
        last = await self.storage.last_action_of(table.id, seat)
        if last is None or last.answered:
            return None
        # A suggestion names the version it was offered at: the move stored on that version with
        # that text is the one retried (judged against the newer position it may not even parse).
        same_offer = seen_version is not None and last.version == seen_version + 1 and \
            " ".join(text.split()).lower() == last.action.lower()
        if not same_offer:
            try:
                wanted = resolve_action(game, state, seat, text).encode()
            except Exception:  # noqa: BLE001 - text that is no move cannot repeat one
                return None
            if wanted != last.action:
                return None
        return Played(Choice(last.action, last.action), table.id, last.version, already_done=True,
                      board_url=self.announcer.board_url(table))

    async def answered(self, played: Played) -> None:
        """The player has seen the answer to a typed move: a repeat is a new move from now on."""
        await self.storage.mark_answered(played.game_id, played.version)

    # --------------------------------------------------------------- owed boards

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves the server (always, unless it runs some of several shards)."""
        return getattr(self.bot, "owns_guild", lambda guild_id: True)(guild_id)

    async def announce_move(self, table: GameRow, game: Game, before: Any, after: Any, seat: int,
                            events: list, action: Action | None = None) -> None:
        """Tell the channel and the players about a stored move. A process that does not serve
        the game's server (a DM click reaches whichever process Discord picks) leaves the
        channel to the one that does: the board stays owed and that process posts it (it looks
        for owed boards every few seconds, `GameBot.owed_board_every`); the DMs go out from here.
        So one process writes to a server's channels, in the order of its own per-game lock."""
        public = self.owns(table.guild_id)
        await self.announcer.move_made(table, game, before, after, seat, events, public=public, action=action)
        if not public:
            log.info("board game=%s channel=%s version=%s owed: the process serving the server posts it",
                     table.id, table.channel_id, table.version)

    async def post_owed_boards(self) -> int:
        """Post every board still owed for a stored move (at start-up, after a crash); returns
        how many were posted."""
        posted = 0
        for table in await self.storage.owed_boards():
            if not self.owns(table.guild_id):
                continue  # another shard's process posts it (docs/scaling.md)
            async with self.lock(table.id):
                fresh = await self.table(table.id)
                if (await self._catch_up_locked(fresh)).board_message_id != fresh.board_message_id:
                    posted += 1
        return posted

    async def _catch_up_locked(self, table: GameRow) -> GameRow:
        """Post the board owed for `table` (caller holds its lock); the table as it is after.
        Only the process that serves the game's server posts there (`announce_move`)."""
        if not table.board_owed or table.state is None or not self.owns(table.guild_id):
            return table
        try:
            game = self.engine(table.game)
            state = game.from_dict(table.state)
            if game.outcome(state) is not None:
                await post_game_end(self.announcer, table, game, state)  # the game's one end message
            else:
                footer, ping = self.announcer.footer(table, game, state)
                content = presenter.board_text([], self.announcer.status_line(table, game, state), footer)
                await self.announcer.post_board(table, game, state, content, ping=ping)
        except Exception:  # noqa: BLE001 - the board stays owed; the next chance tries again
            log.warning("Could not post the owed board of game %s (channel %s, version %s); it stays owed",
                        table.id, table.channel_id, table.version, exc_info=True)
            return table
        log.info("board game=%s channel=%s version=%s posted (owed since a stop)",
                 table.id, table.channel_id, table.version)
        return await self.table(table.id)

    async def _decision_unchanged(self, table: GameRow, game: Game, seat: int, since: int) -> bool:
        actions = await self.storage.actions(table.id)
        try:
            states, _ = self._replays.replay(game, table, actions)
        except Exception:  # noqa: BLE001 - if the past cannot be rebuilt, the old board is stale
            log.exception("Replay failed for game %s", table.id)
            return False
        return decision_still_open(game, states, actions, seat, since)

    def _seat(self, table: GameRow, user: discord.abc.User) -> int:
        if table.status == "lobby":
            raise Refusal.of("bot.errors.not_started")
        if table.status != "active":
            raise Refusal.of("bot.errors.game_abandoned_no_moves" if table.status == "abandoned"
                             else "bot.errors.game_finished_no_moves")
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal.of("bot.errors.not_playing")
        return seat

    async def toggled_view(self, user: discord.abc.User, *, game_id: int, seen_version: int, mask: int,
                           on_board: bool) -> discord.ui.View | None:
        """The same components with other items chosen (a die toggled); nothing is stored."""
        if not 0 <= mask < 2**MAX_TOGGLES:
            raise Refusal.of("bot.errors.bad_choice")
        table = await self.table(game_id)
        seat = self._seat(table, user)
        await self.bot.days.check_person(table, seat)
        game = self.engine(table.game)
        state = game.from_dict(table.state)
        # Others' moves in a simultaneous choice bump the version but leave this seat's toggles
        # as they were: judged like a click on a move button.
        if seen_version != table.version and not await self._decision_unchanged(table, game, seat, seen_version):
            raise presenter.stale_refusal(self.announcer.board_url(table))
        if seat not in game.to_act(state):
            raise Refusal.of("bot.errors.only_player_to_act", players=presenter.waiting_for(table, game.to_act(state)))
        names = label_names(table)
        lang = table_language(table) if on_board else await self.announcer.private_language(table, seat)
        if on_board:
            return board_view(table.id, table.version, public_choices(game, state, len(table.players), names, lang),
                              toggles_for(game, state, seat, names, lang), mask,
                              hand=has_secrets(game, state, len(table.players)),
                              hint=await self.announcer.hint_button(table), lang=lang)
        return private_view(table.id, table.version, choices_for(game, state, seat, names, lang),
                            toggles_for(game, state, seat, names, lang), mask, lang=lang)

    async def hand(self, user: discord.abc.User, *, game_id: int) -> PrivatePayload:
        table = await self.table(game_id)
        seat = self._seat(table, user)
        await self.bot.days.check_person(table, seat)  # a resigned player sees the seat no more
        game = self.engine(table.game)
        return await self.announcer.private_payload(table, game, game.from_dict(table.state), seat)

    async def show_hand(self, interaction: discord.Interaction, *, game_id: int) -> None:
        """Answer (already deferred, ephemeral) with the user's private view and moves."""
        payload = await self.hand(interaction.user, game_id=game_id)
        kwargs: dict[str, Any] = {"ephemeral": True}
        if payload.file is not None:
            kwargs["file"] = payload.file
        if payload.view is not None:
            kwargs["view"] = payload.view
        await interaction.followup.send(payload.content, **kwargs)

    async def move_choices(self, channel_id: int, user_id: int, typed: str) -> list[Choice]:
        """The caller's legal moves matching what they typed (for autocomplete)."""
        table = await self.storage.open_game_in(channel_id)
        if table is None or table.status != "active":
            return []
        seat = table.seat_of(user_id)
        if seat is None:
            return []
        game = self.engine(table.game)
        state = game.from_dict(table.state)
        return rank_matches(choices_for(game, state, seat, label_names(table), table_language(table)),
                            typed)[:AUTOCOMPLETE_LIMIT]

    async def move_suggestions(self, channel_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """(label, value) pairs for /move's autocomplete; each value names the version it was
        offered at, so a retry after the game moved on is judged like an old button."""
        table = await self.storage.open_game_in(channel_id)
        if table is None or table.status != "active":
            return []
        return [(c.label, versioned_value(table.version, c.action))
                for c in await self.move_choices(channel_id, user_id, typed[:VALUE_LIMIT])]

    # --------------------------------------------------------------------------- info

    async def repost_board(self, channel_id: int, user: discord.abc.User | None = None) -> bool:
        """Post the current board again (without pinging anyone), for a player at most once a
        minute per channel. False, with nothing posted, when `user` does not play here (they
        get the board ephemerally: `spectator_board`), so no one else can flood the channel."""
        table = await self.active_table_in(channel_id)
        if user is not None and not table.has_player(user.id):
            return False
        async with self._work(), self.lock(table.id):
            table = await self.table(table.id)
            now = time.monotonic()
            last = self._board_posted_at.get(channel_id)
            if user is not None and last is not None and now - last < BOARD_INTERVAL and not table.board_owed:
                url = self.announcer.board_url(table) or "-"
                raise Refusal.of("bot.errors.board_too_soon", when=presenter.timestamp(int(time.time() - (now - last))),
                                 link=url, seconds=int(BOARD_INTERVAL - (now - last)) + 1)
            game = self.engine(table.game)
            state = game.from_dict(table.state)
            footer, _ = self.announcer.footer(table, game, state)
            content = presenter.board_text([], self.announcer.status_line(table, game, state), footer)
            await self.announcer.post_board(table, game, state, content)
            self._board_posted_at[channel_id] = now
            return True

    async def spectator_board(self, channel_id: int) -> tuple[str, discord.File | None]:
        """The current public board as an ephemeral answer: its text and image, no buttons."""
        table = await self.active_table_in(channel_id)
        game = self.engine(table.game)
        state = game.from_dict(table.state)
        footer, _ = self.announcer.footer(table, game, state)
        content = presenter.board_text([], self.announcer.status_line(table, game, state), footer)
        return content, await self.announcer.image(game.view(state, None), table.names, "board.png")

    async def status_text(self, channel_id: int, lang: str = "en") -> str:
        """`/game status`, answered to one user in their language."""
        table = await self.open_table_in(channel_id)
        game = self.engine(table.game)
        if table.status == "lobby":
            return presenter.lobby_text(table, game)
        state = game.from_dict(table.state)
        to_act = game.to_act(state)
        moves, last_at = await self._public_moves(table, game)
        seats = []
        for player, name in zip(table.players, presenter.bold_names(table.names)):
            notes = []
            if player.seat in to_act:
                notes.append(i18n.t(lang, "bot.table.status_to_act"))
            if player.dm_ok is False:
                notes.append(i18n.t(lang, "bot.table.status_dms_closed"))
            seats.append(f"{player.seat + 1}. {name}" + (f" ({', '.join(notes)})" if notes else ""))
        lines = [
            i18n.t(lang, "bot.table.status_title", game=game_title(game), id=table.id, moves=moves,
                   when=presenter.timestamp(last_at or table.updated_at)),
            i18n.t(lang, "bot.table.status_seats", seats=" · ".join(seats)),
            presenter.named(game.view(state, None)["status"], table, lang),
            *await self.bot.days.status_lines(table, lang),  # bot.days: deadlines, absences, computer seats
        ]
        if (url := self.announcer.board_url(table)) is not None:
            lines.append(i18n.t(lang, "bot.table.latest_board", link=url))
        return presenter.clip("\n".join(lines))

    async def _public_moves(self, table: GameRow, game: Game) -> tuple[int, int | None]:
        """How many moves the channel has seen, and when the last of them was made: a secret
        preparation (a document armed during the secret choice) counts for neither."""
        actions = await self.storage.actions(table.id)
        states, moves = replay(game, table, actions)
        seen = [move for index, move in enumerate(moves)
                if not move_is_invisible(game, states[index], states[index + 1], move.events)]
        return len(seen), (seen[-1].row.at if seen else None)

    async def log_text(self, channel_id: int, lang: str = "en") -> str:
        """`/game log`: the channel's recent public events, answered to one user in their language."""
        table = await self.storage.open_game_in(channel_id) or await self.storage.latest_game_in(channel_id)
        if table is None or table.state is None:
            raise Refusal.of("bot.errors.no_moves_yet")
        game = self.engine(table.game)
        actions = await self.storage.actions(table.id)
        if not actions:
            return i18n.t(lang, "bot.table.log_empty", game=game_title(game), id=table.id)
        states, moves = replay(game, table, actions)
        # A secret preparation (a document armed during the secret choice) leaves no trace.
        seen = [move for index, move in enumerate(moves)
                if not move_is_invisible(game, states[index], states[index + 1], move.events)]
        lines = [i18n.t(lang, "bot.table.log_title", game=game_title(game), id=table.id)]
        index_of = {id(move): index for index, move in enumerate(moves)}
        for move in seen[-LOG_LINES:]:
            # Only public events, as the channel saw them: the log must not reveal what a seat
            # chose in secret (a `describe` label only for a choice made in public).
            index = index_of[id(move)]
            action = None if move.row.action.startswith("~") else Action.parse(move.row.action)
            said = " ".join(presenter.public_event_lines(move.events, table, lang)) or \
                presenter.made_a_move(table, move.row.seat, lang, game, states[index], states[index + 1], action)
            lines.append(f"`#{move.row.version}` {presenter.timestamp(move.row.at)} {said}")
        return presenter.clip("\n".join(lines))

    async def rules_text(self, channel_id: int, game_name: str | None, lang: str = "en") -> str:
        """`/game rules`: a game's summary and table options, answered to one user in their language."""
        if game_name is None:
            table = await self.storage.open_game_in(channel_id)
            if table is None:
                raise Refusal.of("bot.errors.rules_which_game")
            game_name = table.game
        game = self.engine(game_name)
        lines = [i18n.t(lang, "bot.table.rules_title", game=game_title(game), players=presenter.player_range(game)),
                 translate(game.rules_summary, lang)]
        if game.options:
            lines.append(i18n.t(lang, "bot.table.rules_options"))
            lines += [i18n.t(lang, "bot.table.rules_option", name=o.name, description=translate(o.description, lang),
                             choices=", ".join(o.choices), default=o.default)
                      for o in game.options]
        return presenter.clip("\n".join(lines))

    # ------------------------------------------------------------------------ endings

    async def resign(self, channel_id: int, user: discord.abc.User) -> None:
        """Resigning: with two players the other one wins; with more the computer takes the
        seat and the game goes on (bot.days)."""
        table = await self.active_table_in(channel_id)
        async with self.lock(table.id):
            table = await self.table(table.id)
            seat = self._seat(table, user)
            game = self.engine(table.game)
            names = presenter.bold_names(table.names)
            if len(table.players) == 2:
                winner = 1 - seat
                result = {"winners": [winner], "reason": f"{{s{seat}}} resigned.", "resigned": seat}
                status = "finished"
                text = i18n.t(table_language(table), "bot.table.resigned", player=names[seat], winner=names[winner])
            else:  # bot.days: three or more players, the computer takes the seat
                return await self.bot.days.resign_to_computer(table, seat)
            await self.storage.end_game(table.id, status=status, result=result, expected_status="active")
            log.info("game game=%s channel=%s user=%s resigned (%s)", table.id, table.channel_id, user.id, status)
            await self.announcer.game_ended(table, text)

    async def abandon(self, channel_id: int, user: discord.abc.User, *, may_manage_server: bool) -> GameRow:
        table = await self.open_table_in(channel_id)
        if user.id != table.host_id and not may_manage_server:
            raise Refusal.of("bot.errors.host_only_abandon", host=presenter.mention(table.host_id))
        async with self.lock(table.id):
            try:
                await self.storage.end_game(table.id, status="abandoned",
                                            result={"reason": f"Abandoned by {user.display_name}."})
            except StaleVersion:
                raise Refusal.of("bot.errors.already_ended") from None
            log.info("game game=%s channel=%s user=%s abandoned it", table.id, table.channel_id, user.id)
            table = await self.table(table.id)
            game = self.engine(table.game)
            if table.lobby_message_id is not None and table.board_message_id is None:
                await self.announcer.channel(table).get_partial_message(table.lobby_message_id).edit(
                    content=presenter.lobby_text(table, game), view=None,
                    allowed_mentions=discord.AllowedMentions.none())
            await self.announcer.game_ended(
                table, i18n.t(table_language(table), "bot.table.abandoned", game=game_title(game), id=table.id,
                              user=f"**{discord.utils.escape_markdown(user.display_name)}**"))
            return table


# ------------------------------------------------------------------------------- parsing


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


def toggle_count_refusal(game: Game, state: Any, seat: int, action: Action) -> Refusal | None:
    """For a confirm of a toggle family of an exact size (two action cards) with another number
    of items chosen (an old message, a crafted click, a typed move): say how many it takes."""
    describe = getattr(game, "subset_choices", None)
    if describe is None:
        return None
    picked = [value for value in ",".join(action.args).split(",") if value]
    for family in describe(state, seat):
        if family.verb == action.verb and family.size is not None and len(picked) != family.size:
            return Refusal.of("bot.errors.toggle_count", prompt=family.prompt, picked=len(picked), size=family.size)
    return None


def resolve_action(game: Game, state: Any, seat: int, text: str, names=(), lang: str = "en") -> Action:
    """The action meant by `/move` text: its canonical form, or one of the offered labels."""
    action = Action.parse(text)
    legal = game.legal_actions(state, seat)
    if action in legal:
        return action
    wanted = text.strip().lower()
    for candidate in legal:
        if translate(game.describe(state, seat, candidate), lang, names).strip().lower() == wanted:
            return candidate
    return action
