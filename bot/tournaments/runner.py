"""Tournaments that run themselves (docs/tournaments.md).

`Tournaments` is what the rest of the bot sees of them (built and followed in `bot.parts.Parts.build`):

- the commands' work: a new tournament, signing up and leaving, starting, withdrawing,
  cancelling (by an organiser), a player's own status, the server's organiser role;
- the rounds: when a tournament starts, and whenever the last table of a round ends (the move
  pipeline's listener, bot.tournaments.listener, kicks it), the next round is paired
  (bot.tournaments.pairing) and stored in one transaction, then each table is opened: a thread
  of the tournament's channel, a game in it with its players in the paired seat order, started
  through the move pipeline like any table (the delivery worker posts its first board);
- the time per game: a table still playing at its `due_at` is ended by the tournament's rule
  (the computer finishes it, or it is scored as it stands), and a sign-up closes at its time;
  both are a source of the one scheduler (bot.scheduler), so a restart loses neither;
- players who left the server: Discord tells a bot without the members intent nothing, so they
  are looked for before each round is paired and every `MEMBER_CHECK` seconds at the tables
  being played; their seat goes to the computer and later pairings leave them out;
- the one message (bot.tournaments.message), kept current, with a chart of the final standings.

Each tournament's work runs in one task at a time (kicked again, it runs once more), never under
a game's lock. A restart kicks every running tournament at the scheduler's first pass: tables
paired but not opened yet are opened then (a table is linked to its game in the transaction that
makes the game, and marked playing in the one that starts it; its thread is marked asked for
before Discord is asked, so a retry finds a thread made meanwhile instead of making another).
"""
from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import math
import random
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from functools import partial
from typing import Any, Final, Literal

import discord

import i18n
from bot import presenter
from bot.changes import Change, SeatSetting, Start
from bot.days.options import OPTION_VALUES
from bot.days.options import split_options as days_options
from bot.days.seats import ComputerSeats, ending
from bot.days.storage import seat_write, table_settings_write
from bot.delivery.requests import Failure, attempt
from bot.delivery.storage import notice_write
from bot.errors import Refusal
from bot.league.ratings import Rating
from bot.moves import Moves, seating
from bot.records import running_scores
from bot.scheduler import Scheduler
from bot.storage import GameRow, StaleVersion
from bot.storage.rows import is_computer_user
from bot.store import Storage
from bot.tables import parse_options
from bot.tasks import cancel_all, start_or_again
from bot.timing import Durations
from bot.tournaments import pairing
from bot.tournaments.buttons import signup_view
from bot.tournaments.listener import TournamentListener
from bot.tournaments.message import TournamentMessages
from bot.tournaments.pairing import Bye, Entrant, TableResult
from bot.tournaments.storage import (
    EntrantRow,
    TableRow,
    TournamentRow,
    game_link_write,
    owed_write,
    playing_write,
)
from bot.tournaments.texts import (
    bold,
    cancelled_text,
    finished_text,
    number,
    running_text,
    setup_line,
    signup_text,
    standings_lines,
    table_lines,
    words,
)
from bot.turns import notice
from games.core import Game
from i18n import game_title
from renderers.standings_chart import Kind, render_standings_chart_png
from renderers.standings_chart import Standing as ChartRow

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080  # a week, Discord's longest: a table stays in the list
RETRY_OPEN = 60                  # seconds before a table that could not be opened is tried again
SHARDED_CHECK = 30               # with several processes: seconds between looks at the running tournaments
MAX_SWISS_ROUNDS = 10
DEFAULT_SWISS_ROUNDS = 3
MEMBER_CHECK = 6 * 3600          # seconds between looks for players who left the server, at the tables being played
UNKNOWN_MEMBER, UNKNOWN_USER = 10007, 10013  # Discord's answers for someone no longer on the server (or at all)
CANCEL_TABLES = ("rule", "abandon")

Standing = tuple[int, EntrantRow, float, float, float]  # place, entrant, points, opponents' points, score


class Tournaments:
    def __init__(self, client: discord.Client, storage: Storage, games: Mapping[str, Game], moves: Moves,
                 seats: ComputerSeats, scheduler: Scheduler, durations: Durations, seed_source: random.Random, *,
                 owns_guild: Callable[[int], bool] = lambda guild_id: True, sharded: bool = False) -> None:
        self.client = client
        self.storage = storage
        self.games = games
        self.moves = moves
        self.seats = seats
        self.scheduler = scheduler
        self.durations = durations
        self.seed_source = seed_source
        self.owns_guild = owns_guild  # with several processes (shards), each runs its own servers' tournaments
        self.sharded = sharded
        self._check_at = 0.0  # sharded: when running tournaments are looked at again (another process's results)
        self.messages = TournamentMessages(client, storage, self.render, owns_guild=owns_guild)
        self.listener = TournamentListener(storage, self.kick)  # followed by the move pipeline (bot.parts)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._recovered = False
        self._retry_at: dict[int, float] = {}  # tournament id -> when a table it could not open is tried again
        self._members_at = math.inf  # when the players at tables being played are looked for next
        self._looking: asyncio.Task[None] | None = None  # that look, in a task of its own
        self.stopping = False

    def now(self) -> int:
        return int(self.scheduler.clock.now())

    async def stop(self) -> None:
        self.stopping = True
        await cancel_all([*self._tasks.values(), self._looking])
        await self.messages.stop()

    def engine(self, name: str) -> Game:
        return self.moves.engine(name)

    def title(self, name: str, lang: str) -> str:
        return i18n.translate(game_title(self.engine(name)), lang)

    # ------------------------------------------------------------------------ commands

    def check_new(self, *, game_name: str, format: str, size: int | None, rounds: int | None,
                  options_text: str | None) -> tuple[Game, int, dict[str, str], dict[str, Any]]:
        """Refuse what cannot make a tournament before anything is stored: the game, the players
        per table (within the game's range), the rounds, the table options. Returns the game, the
        table size, the game's options and the tables' settings (deadline, timeout, reminders,
        computer strength)."""
        game = self.engine(game_name)
        if size is None:
            size = 2 if format == "knockout" else min(max(3, game.min_players), game.max_players)
        if not game.min_players <= size <= game.max_players:
            raise Refusal.of("bot.tournaments.bad_size", game=game_title(game), min=game.min_players,
                             max=game.max_players, count=size)
        if rounds is not None and (format != "swiss" or not 1 <= rounds <= MAX_SWISS_ROUNDS):
            raise Refusal.of("bot.tournaments.bad_rounds", max=MAX_SWISS_ROUNDS)
        rest, settings = days_options(options_text)
        options = parse_options(game, rest)
        settings.pop("practice", None)
        return game, size, options, settings

    async def create(self, *, guild_id: int, channel_id: int, host: discord.abc.User, game_name: str, format: str,
                     size: int | None, rounds: int | None, options_text: str | None, game_time: int | None,
                     overtime: str, signup_for: int | None, lang: str) -> TournamentRow:
        game, size, options, settings = self.check_new(game_name=game_name, format=format, size=size, rounds=rounds,
                                                       options_text=options_text)
        if format == "swiss" and rounds is None:
            rounds = DEFAULT_SWISS_ROUNDS
        signup_until = None if signup_for is None else self.now() + signup_for
        tournament_id = await self.storage.tournaments.create(
            guild_id=guild_id, channel_id=channel_id, host_id=host.id, game=game.name, format=format, size=size,
            rounds=rounds if format == "swiss" else None, options=options, settings=settings,
            game_time=game_time, overtime=overtime, signup_until=signup_until, lang=lang)
        log.info("tournament=%s guild=%s channel=%s user=%s opened %s %s tables of %s", tournament_id, guild_id,
                 channel_id, host.id, format, game.name, size)
        self.messages.kick(tournament_id, at_once=True)
        if signup_until is not None:
            self.scheduler.poke()
        tournament = await self.storage.tournaments.get(tournament_id)
        assert tournament is not None
        return tournament

    async def pick(self, guild_id: int, tournament_id: int | None, user_id: int | None = None,
                   statuses: Sequence[str] = ("signup", "running")) -> TournamentRow:
        """The tournament a command means: the one named, else the server's only open one (or the
        newest the user plays in)."""
        if tournament_id is not None:
            found = await self.storage.tournaments.get(tournament_id)
            if found is None or found.guild_id != guild_id:
                raise Refusal.of("bot.tournaments.no_such", id=tournament_id)
            return found
        candidates = await self.storage.tournaments.in_guild(guild_id, statuses)
        if not candidates:
            raise Refusal.of("bot.tournaments.none_here")
        if len(candidates) > 1 and user_id is not None:
            for candidate in candidates:  # newest first
                if any(e.user_id == user_id for e in await self.storage.tournaments.entrants(candidate.id)):
                    return candidate
        if len(candidates) > 1:
            raise Refusal.of("bot.tournaments.several", ids=", ".join(f"#{t.id}" for t in candidates))
        return candidates[0]

    async def join(self, tournament_id: int, user: discord.abc.User) -> TournamentRow:
        tournament = await self._tournament(tournament_id)
        if tournament.status != "signup" or (tournament.signup_until is not None
                                             and tournament.signup_until <= self.now()):
            raise Refusal.of("bot.tournaments.signup_closed", id=tournament.id)
        rating = await self._rating(tournament, user.id)
        if not await self.storage.tournaments.join(tournament.id, user.id, user.display_name, rating):
            current = await self._tournament(tournament_id)
            if current.status != "signup":
                raise Refusal.of("bot.tournaments.signup_closed", id=tournament.id)
            raise Refusal.of("bot.tournaments.already_in", id=tournament.id)
        log.info("tournament=%s user=%s signed up", tournament.id, user.id)
        self.messages.kick(tournament.id)
        return tournament

    async def leave(self, tournament_id: int, user: discord.abc.User) -> TournamentRow:
        tournament = await self._tournament(tournament_id)
        if tournament.status != "signup":
            raise Refusal.of("bot.tournaments.signup_closed_leave", id=tournament.id)
        if not await self.storage.tournaments.leave(tournament.id, user.id):
            raise Refusal.of("bot.tournaments.not_in", id=tournament.id)
        log.info("tournament=%s user=%s left the sign-up", tournament.id, user.id)
        self.messages.kick(tournament.id)
        return tournament

    async def change_settings(self, tournament_id: int, *, options_text: str | None, change_signup: bool,
                              signup_for: int | None, lang: str = "en") -> TournamentRow:
        """The organiser changes, during the sign-up, the tables' settings (`deadline=`, `timeout=`,
        `reminder=`, `computer=`, …: only those named change) and when the sign-up closes
        (`signup_for` seconds from now, None: by hand). The game, its own options, the format,
        the players per table and the rounds stay as opened: people signed up for them (cancel
        and open a new one to change those). Once it started, nothing changes: its tables play
        with the settings they were opened with. `lang`: the asker's, for a value it refuses."""
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if tournament.status == "running":
                raise Refusal.of("bot.tournaments.settings_started", id=tournament.id)
            if tournament.status != "signup":
                raise Refusal.of("bot.tournaments.already_over", id=tournament.id)
            settings = dict(tournament.settings)
            if options_text is not None:
                rest, chosen = days_options(options_text, lang)
                if rest.strip():
                    parse_options(self.engine(tournament.game), rest)  # a word it does not know: said so
                    raise Refusal.of("bot.tournaments.settings_fixed", id=tournament.id, options=rest.strip())
                named = {part.partition("=")[0].strip().lower() for part in options_text.replace(",", " ").split()}
                settings.update({key: chosen[key] for name, (key, _) in OPTION_VALUES.items() if name in named})
            signup_until = tournament.signup_until
            if change_signup:
                signup_until = None if signup_for is None else self.now() + signup_for
            if not await self.storage.tournaments.change_settings(tournament.id, settings=settings,
                                                                 signup_until=signup_until):
                raise Refusal.of("bot.tournaments.settings_started", id=tournament.id)
        log.info("tournament=%s settings changed: %s, sign-up until %s", tournament.id, settings, signup_until)
        self.messages.kick(tournament.id)
        self.scheduler.poke()
        return await self._tournament(tournament_id)

    async def start(self, tournament_id: int) -> TournamentRow:
        """Close the sign-up and seat the first round (refused, with nothing changed, when the
        field is too small or too large for the format)."""
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if tournament.status != "signup":
                raise Refusal.of("bot.tournaments.already_started", id=tournament.id)
            entrants = await self._still_signed_up(tournament)
            self.check_field(tournament, len(entrants))
            await self._begin(tournament, entrants)
        self.kick(tournament.id)
        return await self._tournament(tournament_id)

    def needed(self, tournament: TournamentRow) -> int:
        """The smallest field the tournament can be played with: more than one table."""
        return tournament.size + 1

    def check_field(self, tournament: TournamentRow, count: int) -> None:
        if count < self.needed(tournament):
            raise Refusal.of("bot.tournaments.too_few", id=tournament.id, needed=self.needed(tournament), count=count)
        if tournament.format == "roundrobin" and count > pairing.ROUND_ROBIN_MAX:
            raise Refusal.of("bot.tournaments.too_many", max=pairing.ROUND_ROBIN_MAX, count=count)

    async def _begin(self, tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> None:
        """Sign-up -> running: the seeding ratings now, the rounds, a round robin's schedule."""
        ratings = {entrant.user_id: await self._rating(tournament, entrant.user_id) for entrant in entrants}
        field = [Entrant(e.user_id, ratings[e.user_id], e.seq) for e in entrants]
        game = self.engine(tournament.game)
        schedule = None
        if tournament.format == "swiss":
            rounds = tournament.rounds or DEFAULT_SWISS_ROUNDS
        elif tournament.format == "knockout":
            rounds = pairing.knockout_rounds(len(field), tournament.size)
        else:
            plans = pairing.round_robin_schedule(field, size=tournament.size, smallest=game.min_players,
                                                 rng=random.Random(f"tournament:{tournament.id}"))
            schedule = [{"tables": [list(table) for table in plan.tables], "byes": list(plan.byes)} for plan in plans]
            rounds = len(plans)
        if await self.storage.tournaments.begin(tournament.id, rounds=rounds, schedule=schedule, ratings=ratings):
            log.info("tournament=%s began with %d players, %d rounds", tournament.id, len(field), rounds)

    async def withdraw(self, tournament_id: int, user: discord.abc.User) -> TournamentRow:
        """A player leaves the tournament: left out of later pairings, and a computer player takes
        their seat at a table still being played."""
        tournament = await self._tournament(tournament_id)
        if tournament.status == "signup":
            return await self.leave(tournament_id, user)
        if tournament.status != "running":
            raise Refusal.of("bot.tournaments.not_running", id=tournament.id)
        entrants = await self.storage.tournaments.entrants(tournament.id)
        entrant = next((e for e in entrants if e.user_id == user.id), None)
        if entrant is None:
            raise Refusal.of("bot.tournaments.not_in", id=tournament.id)
        if not await self._withdraw(tournament, user.id, left_server=False):
            raise Refusal.of("bot.tournaments.already_withdrawn", id=tournament.id)
        self.kick(tournament.id)
        return tournament

    async def _withdraw(self, tournament: TournamentRow, user_id: int, *, left_server: bool) -> bool:
        """Withdraw a player (by their own command, or because they left the server): a computer
        player takes their seat at a table of this round still being played, and later pairings
        leave them out. False if they had withdrawn already."""
        if not await self.storage.tournaments.withdraw(tournament.id, user_id, max(tournament.round, 1),
                                                       left_server=left_server):
            return False
        log.info("tournament=%s user=%s %s in round %s", tournament.id, user_id,
                 "left the server" if left_server else "withdrew", tournament.round)
        for table in await self.storage.tournaments.tables(tournament.id, tournament.round):
            if user_id in table.players and table.status == "playing" and table.game_id is not None:
                await self._computer_takes(table.game_id, user_id, tournament.lang, left_server=left_server)
        self.messages.kick(tournament.id)
        return True

    async def _computer_takes(self, game_id: int, user_id: int, lang: str, *, left_server: bool = False) -> None:
        async def make(table: GameRow, game: Game) -> Change | None:
            seat = table.seat_of(user_id)
            if table.status != "active" or seat is None:
                return None
            if (await self.storage.days.seats(table.id)).get(seat, {}).get("computer") == "resigned":
                return None
            key = "left_at_table" if left_server else "withdrew_at_table"
            said = {"content": words(lang, key, who=presenter.bold_names(table.names)[seat]), "mentions": []}
            return SeatSetting(table=table, game=game, state=game.from_dict(table.state or {}), seat=seat,
                               computer="resigned", notices=(said,),
                               writes=tuple(seat_write(table.id, seat, computer="resigned")))

        await self.moves.change(game_id, make)

    # --------------------------------------------------------- who left the server

    async def _left_server(self, guild_id: int, user_id: int) -> bool:
        """Whether Discord says the user is no longer on the server. Any trouble asking (a 5xx, a
        hang) counts as still there: nobody is withdrawn on a doubt."""

        async def ask() -> bool:
            try:
                await self.client.http.get_member(guild_id, user_id)
            except discord.NotFound as error:
                if error.code in (UNKNOWN_MEMBER, UNKNOWN_USER):
                    return True
                raise
            return False

        answer = await attempt(ask)
        if isinstance(answer, Failure):
            log.info("guild=%s user=%s: could not ask whether they are still on the server: %s", guild_id, user_id,
                     answer.reason)
            return False
        return answer

    async def _still_signed_up(self, tournament: TournamentRow) -> list[EntrantRow]:
        """The sign-ups of those still on the server; the others' are taken back."""
        kept = []
        for entrant in await self.storage.tournaments.entrants(tournament.id):
            if await self._left_server(tournament.guild_id, entrant.user_id):
                if await self.storage.tournaments.leave(tournament.id, entrant.user_id):
                    log.info("tournament=%s user=%s left the server: their sign-up is taken back", tournament.id,
                             entrant.user_id)
                continue
            kept.append(entrant)
        return kept

    async def _departures(self, tournament: TournamentRow, user_ids: Sequence[int]) -> int:
        """Those of `user_ids` who left the server are withdrawn (a computer takes their seat).
        Returns how many."""
        count = 0
        for user_id in user_ids:
            if await self._left_server(tournament.guild_id, user_id) and \
                    await self._withdraw(tournament, user_id, left_server=True):
                count += 1
        return count

    async def _look_for_departures(self) -> None:
        """Every `MEMBER_CHECK` seconds: the players at the tables being played in this process's
        running tournaments, each asked of Discord."""
        try:
            await self._look_at_seated()
        except Exception:
            log.exception("Could not look for tournament players who left their server")

    async def _look_at_seated(self) -> None:
        for tournament_id in await self.storage.tournaments.running():
            if self.stopping:
                return
            tournament = await self.storage.tournaments.get(tournament_id)
            if tournament is None or tournament.status != "running" or not self.owns_guild(tournament.guild_id):
                continue
            playing = {e.user_id for e in await self.storage.tournaments.entrants(tournament.id) if e.playing}
            seated = [user for table in await self.storage.tournaments.tables(tournament.id, tournament.round)
                      if table.status == "playing" for user in table.players if user in playing]
            if await self._departures(tournament, seated):
                self.kick(tournament.id)

    # ----------------------------------------------------------------------- records

    async def stats_lines(self, guild_id: int, user_id: int, game: str | None, lang: str) -> list[str]:
        """`/game stats`: a player's finished tournaments on the server, a line per game."""
        return [words(lang, "stats_line", game=self.title(record.game, lang), played=record.played, won=record.won,
                      best=record.best if record.best is not None else "–")
                for record in await self.storage.tournaments.records(guild_id, user_id, game)
                if record.game in self.games]

    # -------------------------------------------------------------------- cancelling

    async def open_tables(self, tournament: TournamentRow) -> list[TableRow]:
        """The tables of a running tournament's round that have a game and are not over yet."""
        if tournament.status != "running":
            return []
        return [table for table in await self.storage.tournaments.tables(tournament.id, tournament.round)
                if not table.over and table.game_id is not None]

    async def cancel(self, tournament_id: int, by: int, tables: str) -> TournamentRow:
        """An organiser cancels the tournament. In the sign-up nobody plays; while it runs no
        round is paired any more, and its tables still being played are ended by the
        tournament's rule (`tables="rule"`: the computer finishes them, or they are scored as they
        stand) or abandoned (`"abandon"`), each thread told why."""
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if not tournament.is_open:
                raise Refusal.of("bot.tournaments.already_over", id=tournament.id)
            still_played = await self.open_tables(tournament)
            if not await self.storage.tournaments.end(tournament.id, status="cancelled", cancelled_by=by,
                                                      cancel_tables=tables if still_played else None):
                raise Refusal.of("bot.tournaments.already_over", id=tournament.id)
        log.info("tournament=%s cancelled by user %s in round %s; %d table(s) still played: %s", tournament.id, by,
                 tournament.round, len(still_played), tables)
        for table in still_played:
            try:
                await self._end_cancelled(tournament, table, tables)
            except Exception:
                log.exception("tournament=%s table %s/%s: could not end it at the cancellation", tournament.id,
                              table.round, table.number)
        self.messages.kick(tournament.id)
        return await self._tournament(tournament_id)

    async def cancel_question(self, tournament: TournamentRow, tables: str, lang: str) -> str:
        """What `/game tournament cancel` asks before it does it: in the reader's language."""
        title = self.title(tournament.game, lang)
        if tournament.status != "running":
            return words(lang, "cancel_confirm_signup", id=tournament.id, game=title)
        rule = tournament.overtime if tables == "rule" else "abandon"
        count = len(await self.open_tables(tournament))
        if count == 0:
            return words(lang, "cancel_confirm_running_none", id=tournament.id, game=title, round=tournament.round,
                         rounds=tournament.rounds or "?")
        return words(lang, "cancel_confirm_running", id=tournament.id, game=title, round=tournament.round,
                     rounds=tournament.rounds or "?", count=count, tables=words(lang, f"cancel_confirm_tables.{rule}"))

    async def _end_cancelled(self, tournament: TournamentRow, paired: TableRow, tables: str) -> None:
        assert paired.game_id is not None
        game_id, lang = paired.game_id, tournament.lang
        current = await self.moves.table(game_id)
        if current.status not in ("lobby", "active"):
            return
        if current.status == "lobby" or tables == "abandon":
            text = words(lang, "cancelled_table.abandon", id=tournament.id)
            try:
                await self.moves.change(game_id, ending(text, "abandoned", {"reason": "The tournament was cancelled.",
                                                                             "how": "cancelled"},
                                                        expected_status=None))
            except StaleVersion:
                pass  # it ended at this very moment
        elif tournament.overtime == "score":
            await self._score_as_it_stands(game_id, lang, cancelled=tournament.id)
        elif await self.storage.tournaments.claim_overtime(tournament.id, paired.round, paired.number):
            await self._computer_finishes(game_id, lang, words(lang, "cancelled_table.computer", id=tournament.id))

    async def may_run(self, guild_id: int, member: Any, permissions: discord.Permissions | None) -> bool:
        """Manage Server, or the role the server named for tournaments."""
        if permissions is not None and permissions.manage_guild:
            return True
        role_id = await self.storage.tournaments.role(guild_id)
        return role_id is not None and any(role.id == role_id for role in getattr(member, "roles", []))

    async def _tournament(self, tournament_id: int) -> TournamentRow:
        found = await self.storage.tournaments.get(tournament_id)
        if found is None:
            raise Refusal.of("bot.tournaments.no_such", id=tournament_id)
        return found

    async def _rating(self, tournament: TournamentRow, user_id: int) -> float:
        stored = (await self.storage.league.ratings(tournament.guild_id, tournament.game, [user_id])).get(user_id)
        return float((stored.rating if stored is not None else Rating()).points)

    # --------------------------------------------------------------------------- status

    async def status(self, tournament: TournamentRow, user_id: int, lang: str) -> str:
        """A player's own view: where the tournament stands, their place and their table."""
        title = self.title(tournament.game, lang)
        entrants = await self.storage.tournaments.entrants(tournament.id)
        lines = [words(lang, "title", id=tournament.id, game=discord.utils.escape_markdown(title))]
        me = next((e for e in entrants if e.user_id == user_id), None)
        if tournament.status == "signup":
            lines.append(words(lang, "status_signup", count=len(entrants)))
            lines.append(words(lang, "status_signed_up" if me is not None else "status_not_signed_up"))
            return "\n".join(lines)
        if tournament.status == "cancelled":
            lines.append(words(lang, "status_cancelled"))
            return "\n".join(lines)
        order = await self.order(tournament, entrants)
        if tournament.status == "finished":
            winner = next((e.name for e in entrants if e.user_id == tournament.winner_id), None)
            lines.append(words(lang, "winner", player=bold(winner)) if winner else words(lang, "no_winner"))
        else:
            lines.append(words(lang, "round_of", round=tournament.round, rounds=tournament.rounds or "?"))
        if me is None:
            lines.append(words(lang, "status_not_in"))
            return "\n".join(lines)
        place = next(index for index, (_, entrant, *_rest) in enumerate(order, start=1) if entrant.user_id == user_id)
        points = next(row[2] for row in order if row[1].user_id == user_id)
        lines.append(words(lang, "status_place", place=place, count=len(order), points=number(points, lang)))
        if me.withdrawn is not None:
            lines.append(words(lang, "status_left" if me.left_server else "status_withdrawn", round=me.withdrawn))
            return "\n".join(lines)
        if tournament.status != "running":
            return "\n".join(lines)
        tables = await self.storage.tournaments.tables(tournament.id, tournament.round)
        mine = next((table for table in tables if user_id in table.players), None)
        if mine is None:
            lines.append(words(lang, "status_out"))
        elif mine.status == "bye":
            lines.append(words(lang, "status_bye", round=tournament.round, points=self._bye_points(tournament, lang)))
        elif mine.status == "done":
            lines.append(words(lang, "status_table_done", round=tournament.round))
        elif mine.thread_id is not None:
            lines.append(words(lang, "status_table", round=tournament.round, where=f"<#{mine.thread_id}>"))
        else:
            lines.append(words(lang, "status_table", round=tournament.round, where=words(lang, "table_opening")))
        return "\n".join(lines)

    def _bye_points(self, tournament: TournamentRow, lang: str) -> str:
        return number(pairing.BYE_POINTS, lang) if tournament.format == "swiss" else "0"

    # ---------------------------------------------------------------------- standings

    async def results(self, tournament: TournamentRow) -> tuple[list[TableResult], list[Bye], list[TableRow]]:
        tables = await self.storage.tournaments.tables(tournament.id)
        # A table abandoned when its tournament was cancelled counts for nothing.
        results = [result_of(t) for t in tables if t.status == "done" and t.result is not None
                   and t.result.get("how") != "cancelled"]
        byes = [Bye(t.round, t.players[0]) for t in tables if t.status == "bye"]
        return results, byes, tables

    async def order(self, tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> list[Standing]:
        """Everyone in the order of the standings: (place, entrant, points, opponents' points, score)."""
        results, byes, tables = await self.results(tournament)
        field = [Entrant(e.user_id, e.rating, e.seq) for e in entrants]
        by_id = {e.user_id: e for e in entrants}
        if tournament.format == "knockout":
            rounds = [[t.players for t in tables if t.round == number] for number in range(1, tournament.round + 1)]
            rows = pairing.knockout_standings(field, rounds, results, tournament.winner_id)
        else:
            rows = pairing.standings(field, results, [b for b in byes if tournament.format == "swiss"])
            # Who withdrew stays in the standings with what they won, below those still playing.
            rows.sort(key=lambda row: by_id[row.player].withdrawn is not None)
        return [(index, by_id[row.player], row.points, row.opponents_points, row.score)
                for index, row in enumerate(rows, start=1)]

    async def render(self, tournament: TournamentRow) -> tuple[str, discord.ui.View | None, list[discord.File]]:
        """The tournament's message as it should be now, its buttons (only in the sign-up) and its
        files (at the end: the chart of the final standings)."""
        lang = tournament.lang
        title = self.title(tournament.game, lang)
        entrants = await self.storage.tournaments.entrants(tournament.id)
        if tournament.status == "signup":
            return signup_text(tournament, title, entrants, lang), signup_view(tournament.id, lang), []
        if tournament.status == "cancelled" and (tournament.cancelled_by is None or tournament.round == 0):
            return cancelled_text(tournament, title, len(entrants), self.needed(tournament), lang), None, []
        order = await self.order(tournament, entrants)
        out = None
        if tournament.format == "knockout":
            out = await self._knocked_out(tournament)
        standings = standings_lines(order, lang, out)
        if tournament.status == "cancelled":
            return cancelled_text(tournament, title, len(entrants), self.needed(tournament), lang, standings), None, []
        if tournament.status == "finished":
            winner = next((e.name for e in entrants if e.user_id == tournament.winner_id), None)
            chart = await self._chart(tournament, order, out or {}, winner)
            return finished_text(tournament, title, winner, standings, lang), None, [chart] if chart else []
        tables = await self.storage.tournaments.tables(tournament.id, tournament.round)
        names = {e.user_id: e.name for e in entrants}
        return running_text(tournament, title, standings,
                            table_lines(tables, names, lang, self._bye_points(tournament, lang)), lang), None, []

    async def _chart(self, tournament: TournamentRow, order: Sequence[Standing], out: dict[int, int],
                     winner: str | None) -> discord.File | None:
        """The final standings as a picture (renderers.standings_chart): points, or in a knockout
        the round each went out in."""
        lang = tournament.lang
        kind: Kind = "knockout" if tournament.format == "knockout" else "points"
        rows = []
        for place, entrant, points, _opponents, _score in order:
            won = entrant.user_id == tournament.winner_id
            if kind == "knockout":
                value = float((tournament.rounds or 0) + 1 if won else
                              out.get(entrant.user_id) or entrant.withdrawn or tournament.round)
            else:
                value = points
            rows.append(ChartRow(place, entrant.name, value, winner=won, withdrew=entrant.withdrawn is not None))
        title = words(lang, "chart.heading", id=tournament.id, game=self.title(tournament.game, lang))
        subtitle = " · ".join((setup_line(tournament, lang), words(lang, "chart.players", count=len(order))))
        try:
            png = await asyncio.to_thread(render_standings_chart_png, rows, lang, title, subtitle, kind)
        except Exception:
            log.exception("Could not draw the standings of tournament %s", tournament.id)
            return None
        description = presenter.clip(words(lang, "chart.alt", id=tournament.id, winner=winner or "–"),
                                     presenter.ALT_TEXT_LIMIT)
        return discord.File(io.BytesIO(png), filename="standings.png", description=description)

    async def _knocked_out(self, tournament: TournamentRow) -> dict[int, int]:
        """player -> the round they went out in (a knockout)."""
        tables = await self.storage.tournaments.tables(tournament.id)
        entrants = await self.storage.tournaments.entrants(tournament.id)
        withdrawn = {e.user_id for e in entrants if e.withdrawn is not None}
        seeds = await self._seeds(tournament)
        out: dict[int, int] = {}
        for table in tables:
            if table.status != "done" or table.result is None:
                continue
            result = result_of(table)
            winner = pairing.knockout_winner(result, seeds, withdrawn)
            for player in table.players:
                if player != winner:
                    out[player] = table.round
        return out

    async def _seeds(self, tournament: TournamentRow) -> dict[int, int]:
        entrants = await self.storage.tournaments.entrants(tournament.id)
        ordered = pairing.seeding([Entrant(e.user_id, e.rating, e.seq) for e in entrants])
        return {entrant.id: index for index, entrant in enumerate(ordered, start=1)}

    # ---------------------------------------------------------------- running rounds

    def kick(self, tournament_id: int) -> None:
        """Something may move the tournament on (a table ended, it started, a restart): look now."""
        if self.stopping:
            return
        start_or_again(self._tasks, self._again, tournament_id, self._run, f"tournament-{tournament_id}")

    async def settled(self) -> None:
        """Wait until no tournament has work under way (tests)."""
        while pending := [task for task in self._tasks.values() if not task.done()]:
            await asyncio.wait(pending)

    async def _run(self, tournament_id: int) -> None:
        try:
            while not self.stopping:
                self._again.discard(tournament_id)
                try:
                    async with self._locks[tournament_id]:
                        retry = await self._advance(tournament_id)
                except Exception:
                    log.exception("Tournament %s could not move on; trying again", tournament_id)
                    retry = True
                self.messages.kick(tournament_id)
                if retry:
                    # Tried again by the scheduler (a table Discord would not open yet), or sooner
                    # when a table ends or the bot starts again.
                    self._retry_at[tournament_id] = self.now() + RETRY_OPEN
                    self.scheduler.poke()
                if tournament_id not in self._again:
                    break
        finally:
            if self._tasks.get(tournament_id) is asyncio.current_task():
                del self._tasks[tournament_id]

    async def _advance(self, tournament_id: int) -> bool:
        """Open the round's tables; when they are all over, pair the next round or finish. True
        if something could not be done now (Discord refused a thread) and is tried again later."""
        for _ in range(MAX_SWISS_ROUNDS + 64):  # byes-only rounds may follow one another; never loops for ever
            tournament = await self.storage.tournaments.get(tournament_id)
            if tournament is None or tournament.status != "running" or not self.owns_guild(tournament.guild_id):
                return False
            tables = await self.storage.tournaments.tables(tournament.id, tournament.round)
            if tournament.round == 0 or all(table.over for table in tables):
                if not await self._next_round(tournament):
                    return False
                continue
            failed = False
            for table in tables:
                if table.status == "pending":
                    failed = not await self._open(tournament, table) or failed
                elif table.status == "playing" and table.thread_id is None and table.game_id is not None:
                    failed = not await self._rehome(tournament, table) or failed  # its thread was lost
            return failed
        return False

    async def _next_round(self, tournament: TournamentRow) -> bool:
        """Pair and store the next round, or finish. True if a round was stored. Who left the
        server meanwhile is withdrawn first, so the pairing leaves them out."""
        if tournament.round >= 1:
            entrants = await self.storage.tournaments.entrants(tournament.id)
            await self._departures(tournament, [e.user_id for e in entrants if e.playing])
        entrants = await self.storage.tournaments.entrants(tournament.id)
        playing = [Entrant(e.user_id, e.rating, e.seq) for e in entrants if e.playing]
        game = self.engine(tournament.game)
        results, byes, tables = await self.results(tournament)
        rounds = tournament.rounds or 0
        groups: list[Sequence[int]] | None = None
        if tournament.format == "knockout":
            groups = await self._knockout_round(tournament, entrants, tables, results)
        elif tournament.round < rounds:
            if tournament.format == "swiss":
                try:
                    plan = pairing.swiss_round(playing, results, byes, size=tournament.size, smallest=game.min_players,
                                               rng=random.Random(f"tournament:{tournament.id}:{tournament.round + 1}"))
                except pairing.PairingError:
                    plan = None  # too few left playing for a table: the standings stand
                groups = None if plan is None else [*plan.tables, *((player,) for player in plan.byes)]
            else:
                groups = self._scheduled(tournament, {e.id for e in playing}, game.min_players)
        if not groups:
            await self._finish(tournament, entrants)
            return False
        stored = await self.storage.tournaments.next_round(tournament.id, round_no=tournament.round + 1, tables=groups)
        if stored:
            log.info("tournament=%s round %s paired: %s", tournament.id, tournament.round + 1,
                     " | ".join(",".join(map(str, group)) for group in groups))
        return True

    def _scheduled(self, tournament: TournamentRow, playing: set[int], smallest: int) -> list[Sequence[int]]:
        """A round robin's next round as scheduled, without who withdrew (a table left too small
        gives its players a bye)."""
        plan = (tournament.schedule or [])[tournament.round]
        groups: list[Sequence[int]] = []
        for table in plan["tables"]:
            seated = [player for player in table if player in playing]
            if len(seated) >= smallest:
                groups.append(seated)
            else:
                groups += [(player,) for player in seated]
        groups += [(player,) for player in plan["byes"] if player in playing]
        return groups

    async def _knockout_round(self, tournament: TournamentRow, entrants: Sequence[EntrantRow],
                              tables: Sequence[TableRow], results: Sequence[TableResult]) -> list[Sequence[int]] | None:
        withdrawn = {e.user_id for e in entrants if not e.playing}
        if tournament.round == 0:
            field = [Entrant(e.user_id, e.rating, e.seq) for e in entrants if e.playing]
            return list(pairing.knockout_bracket(field, tournament.size))
        if tournament.round >= (tournament.rounds or 0):
            return None
        seeds = await self._seeds(tournament)
        by_table = {(r.round, r.players): r for r in results}
        advancing: list[int | None] = []
        for table in [t for t in tables if t.round == tournament.round]:
            if table.status == "bye":
                advancing.append(None if table.players[0] in withdrawn else table.players[0])
            else:
                result = by_table.get((table.round, table.players))
                advancing.append(None if result is None else pairing.knockout_winner(result, seeds, withdrawn))
        groups = pairing.knockout_next(advancing, tournament.size)
        return list(groups) or None

    async def _finish(self, tournament: TournamentRow, entrants: Sequence[EntrantRow]) -> None:
        winner: int | None = None
        if tournament.format == "knockout":
            finals = await self.storage.tournaments.tables(tournament.id, tournament.round)
            withdrawn = {e.user_id for e in entrants if not e.playing}
            seeds = await self._seeds(tournament)
            for table in finals:
                if table.status == "bye" and table.players[0] not in withdrawn:
                    winner = table.players[0]
                elif table.result is not None:
                    winner = pairing.knockout_winner(result_of(table), seeds, withdrawn)
        else:
            order = await self.order(tournament, entrants)
            winner = next((entrant.user_id for _, entrant, *_rest in order if entrant.playing), None)
        # Everyone's final place is kept with the result (`/game stats` counts them).
        final = await self.order(dataclasses.replace(tournament, winner_id=winner), entrants)
        places = {entrant.user_id: place for place, entrant, *_rest in final}
        if await self.storage.tournaments.end(tournament.id, status="finished", winner_id=winner, places=places):
            log.info("tournament=%s finished; winner %s", tournament.id, winner)

    # ------------------------------------------------------------------- opening tables

    async def _open(self, tournament: TournamentRow, table: TableRow) -> bool:
        """A paired table becomes a thread with its game started. False if Discord refused (tried
        again later)."""
        lang = tournament.lang
        thread_id = table.thread_id
        if thread_id is None:
            thread_id = await self._thread(tournament, table)
            if thread_id is None:
                return False
        game_id = table.game_id
        names = {e.user_id: e.name for e in await self.storage.tournaments.entrants(tournament.id)}
        if game_id is None:
            # The table's first player hosts its game (a lobby seats its host): no one else sits there.
            first = table.players[0]
            row = await self.moves.open_lobby(
                guild_id=tournament.guild_id, channel_id=thread_id, game=tournament.game, host_id=first,
                host_name=names.get(first, "?"), options=tournament.options, lang=lang,
                writes_for=lambda new_id: [table_settings_write(new_id, tournament.settings),
                                           game_link_write(tournament.id, table.round, table.number, new_id)])
            game_id = row.id
        await self.moves.change(game_id, seating([(user_id, names.get(user_id, "?")) for user_id in table.players]))
        await self.moves.change(game_id, self._starter(tournament, table))
        log.info("tournament=%s round=%s table=%s opened: game %s in thread %s", tournament.id, table.round,
                 table.number, game_id, thread_id)
        withdrawn = {e.user_id for e in await self.storage.tournaments.entrants(tournament.id) if not e.playing}
        for user_id in table.players:
            if user_id in withdrawn:
                await self._computer_takes(game_id, user_id, lang)
        return True

    async def _thread(self, tournament: TournamentRow, table: TableRow) -> int | None:
        """The table's thread, stored: one an earlier try made (its answer lost, or its process
        stopped before storing it) if there is one, else a new one; the ask is stored before
        Discord is asked. None if Discord would not make it (or say whether it did) now."""
        channel: Any = self.client.get_channel(tournament.channel_id)
        if channel is None:  # not in the cache yet (just started): asked of Discord
            channel = await attempt(lambda: self.client.fetch_channel(tournament.channel_id))
        if not isinstance(channel, discord.TextChannel):
            log.warning("tournament=%s channel %s is gone or holds no threads", tournament.id, tournament.channel_id)
            return None
        name = self.thread_name(tournament, table)
        if table.thread_asked_at is not None:
            made = await self._threads_named(tournament.guild_id, channel.id, name)
            if made is None:
                return None  # tried again later, rather than perhaps making a second thread
            if made:
                kept, *strays = made
                for stray in strays:
                    await self._remove_thread(stray, tournament.id)
                log.info("tournament=%s round=%s table=%s: thread %s made by an earlier try is the table's",
                         tournament.id, table.round, table.number, kept)
                await self.storage.tournaments.set_thread(tournament.id, table.round, table.number, kept)
                return kept
        await self.storage.tournaments.thread_asked(tournament.id, table.round, table.number)
        thread = await attempt(lambda: channel.create_thread(
            name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            reason=f"tournament {tournament.id}, round {table.round}"))
        if isinstance(thread, Failure):
            log.warning("tournament=%s round=%s table=%s: could not open a thread: %s", tournament.id, table.round,
                        table.number, thread.reason)
            return None
        await self.storage.tournaments.set_thread(tournament.id, table.round, table.number, thread.id)
        return int(thread.id)

    # ------------------------------------------------------------ threads lost

    async def thread_closed(self, thread_id: int, *, deleted: bool) -> None:
        """Discord says a thread was deleted, or archived (after a week without a message, or by a
        moderator): a table being played there is reopened (unarchived), or gets a new thread when
        its thread is gone or may not be reopened."""
        for paired in await self.storage.tournaments.tables_in_thread(thread_id):
            assert paired.game_id is not None
            game = await self.storage.games.get_game(paired.game_id)
            if game is None or game.status not in ("lobby", "active") or game.channel_id != thread_id:
                continue
            if not deleted:
                reopened = await attempt(partial(self.client.http.edit_channel, thread_id, archived=False,
                                                 reason=f"tournament {paired.tournament_id}: its table goes on"))
                if not isinstance(reopened, Failure):
                    log.info("tournament=%s round=%s table=%s: thread %s was archived: reopened",
                             paired.tournament_id, paired.round, paired.number, thread_id)
                    continue
                if reopened.kind == "retry":
                    continue  # the table's next post meets the archive again, and reopens it
            await self.thread_lost(game)

    async def thread_lost(self, game: GameRow) -> bool:
        """A game's channel is gone (or a thread the bot may not reopen; the delivery worker asks,
        bot.delivery.worker.on_channel_lost): a tournament table being played gets a new thread,
        made by the tournament's run (`_rehome`), where its game goes on. False if the game is no
        tournament's table being played."""
        paired = await self.storage.tournaments.table_of_game(game.id)
        if paired is None or paired.status != "playing" or game.status not in ("lobby", "active"):
            return False
        if paired.thread_id is not None and paired.thread_id != game.channel_id:
            # The new thread was made and stored, but the game not moved yet (a stop between).
            tournament = await self._tournament(paired.tournament_id)
            await self._move_game(tournament, paired, paired.thread_id)
            return True
        if await self.storage.tournaments.thread_lost(paired.tournament_id, paired.round, paired.number,
                                                     game.channel_id):
            log.info("tournament=%s round=%s table=%s: thread %s is lost; a new one is made", paired.tournament_id,
                     paired.round, paired.number, game.channel_id)
        self.kick(paired.tournament_id)
        return True

    async def _rehome(self, tournament: TournamentRow, table: TableRow) -> bool:
        """A table being played whose thread was lost: a new thread (made as a table's first one
        is: a retry finds one made meanwhile), where the game goes on. False if Discord would not
        make it now (tried again later)."""
        thread_id = await self._thread(tournament, table)
        if thread_id is None:
            return False
        await self._move_game(tournament, dataclasses.replace(table, thread_id=thread_id), thread_id)
        return True

    async def _move_game(self, tournament: TournamentRow, table: TableRow, thread_id: int) -> None:
        """The table's game goes on in `thread_id`: its turn is posted there, after a word to its
        players of why; the standings link the new thread."""
        assert table.game_id is not None
        people = [user for user in table.players if not is_computer_user(user)]
        text = words(tournament.lang, "thread_lost", players=" ".join(f"<@{user}>" for user in people),
                     id=tournament.id, round=table.round, number=table.number)
        if await self.storage.delivery.game_moved(table.game_id, thread_id,
                                                    [notice_write(table.game_id, notice(text, people)),
                                                     owed_write(tournament.id)]):
            log.info("tournament=%s round=%s table=%s: game %s goes on in thread %s", tournament.id, table.round,
                     table.number, table.game_id, thread_id)
        self.moves.deliveries.kick(table.game_id)
        self.messages.kick(tournament.id)

    def thread_name(self, tournament: TournamentRow, table: TableRow) -> str:
        """A table's thread's name, the same on every try (a retry finds the thread by it)."""
        lang = tournament.lang
        return words(lang, "thread_name", game=self.title(tournament.game, lang), id=tournament.id,
                     round=table.round, number=table.number)[:100]

    async def _threads_named(self, guild_id: int, channel_id: int, name: str) -> list[int] | None:
        """The bot's active threads of the channel named `name`, oldest first (None if Discord
        could not say)."""
        answer = await attempt(lambda: self.client.http.get_active_threads(guild_id))
        if isinstance(answer, Failure):
            log.warning("guild=%s: could not list its active threads: %s", guild_id, answer.reason)
            return None
        me = self.client.user.id if self.client.user is not None else None
        return sorted(int(thread["id"]) for thread in answer.get("threads", [])
                      if str(thread.get("parent_id")) == str(channel_id) and thread.get("name") == name
                      and (me is None or str(thread.get("owner_id")) == str(me)))

    async def _remove_thread(self, thread_id: int, tournament_id: int) -> None:
        """A second thread of one table (two tries both made one): removed, as it stays empty."""
        removed = await attempt(lambda: self.client.http.delete_channel(thread_id,
                                                                        reason=f"tournament {tournament_id}"))
        if isinstance(removed, Failure):
            log.warning("tournament=%s: could not remove thread %s, a second thread of one table: %s", tournament_id,
                        thread_id, removed.reason)

    def _starter(self, tournament: TournamentRow, paired: TableRow) -> Callable[[GameRow, Game],
                                                                                Awaitable[Change | None]]:
        """A maker for `Moves.change`: the table's game starts with its players in the paired seat
        order, and the table is marked playing (with the time its game may take) in the start's
        own transaction."""

        async def make(table: GameRow, game: Game) -> Change | None:
            if table.status != "lobby":
                return None
            order = list(paired.players)
            seed = self.seed_source.getrandbits(63)
            state = game.new_game(len(order), seed=seed, options=table.options)
            seated = tuple(sorted((dataclasses.replace(p, seat=order.index(p.user_id)) for p in table.players),
                                  key=lambda p: p.seat if p.seat is not None else math.inf))
            started = dataclasses.replace(table, status="active", players=seated, version=0, seed=seed)
            lang = tournament.lang
            heading = words(lang, "table_heading", id=tournament.id, round=paired.round,
                            rounds=tournament.rounds or "?", number=paired.number)
            text = "\n".join((heading, presenter.start_text(started, game, [], lang,
                                                             hints=bool(tournament.settings.get("hints")))))
            due = None if tournament.game_time is None else self.now() + self.durations.game(tournament.game_time)
            return Start(table=started, game=game, state=state, seat_order=tuple(order), seed=seed, text=text,
                         writes=(playing_write(tournament.id, paired.round, paired.number, due),
                                 owed_write(tournament.id)))

        return make

    # ----------------------------------------------------------------- the scheduler

    async def next_due(self) -> float | None:
        if not self._recovered:
            return 0.0
        due = [float(when) for when in (await self.storage.tournaments.next_due(), *self._retry_at.values(),
                                        self._check_at if self.sharded else None, self._members_at)
               if when is not None and math.isfinite(when)]
        return min(due) if due else None

    async def run_due(self, now: float) -> None:
        """At the first pass (a start): every running tournament and every owed message is looked
        at. Then: sign-ups whose time is up start (or are cancelled, too few having signed up), and
        tables past their time are ended by the tournament's rule."""
        if not self._recovered or (self.sharded and now >= self._check_at):
            if not self._recovered:
                self._members_at = now + MEMBER_CHECK
            self._recovered = True
            self._check_at = now + SHARDED_CHECK
            for tournament_id in await self.storage.tournaments.running():
                self.kick(tournament_id)
            for tournament_id in await self.storage.tournaments.owed():
                self.messages.kick(tournament_id)
        for tournament_id, when in list(self._retry_at.items()):
            if when <= now:
                del self._retry_at[tournament_id]
                self.kick(tournament_id)
        if now >= self._members_at:
            self._members_at = now + MEMBER_CHECK
            if self._looking is None or self._looking.done():  # a look of a request per player: not in the pass
                self._looking = asyncio.get_running_loop().create_task(self._look_for_departures(),
                                                                       name="tournament-departures")
        for tournament_id in await self.storage.tournaments.signup_due(int(now)):
            await self._signup_over(tournament_id)
        for table in await self.storage.tournaments.tables_due(int(now)):
            if await self.storage.tournaments.claim_overtime(table.tournament_id, table.round, table.number):
                try:
                    await self._time_up(table)
                except Exception:
                    log.exception("tournament=%s table %s/%s: could not apply the rule for its time",
                                  table.tournament_id, table.round, table.number)

    async def _signup_over(self, tournament_id: int) -> None:
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if tournament.status != "signup" or not self.owns_guild(tournament.guild_id):
                return  # (with several processes, the one serving its server starts it)
            entrants = await self._still_signed_up(tournament)
            try:
                self.check_field(tournament, len(entrants))
            except Refusal:
                if await self.storage.tournaments.end(tournament.id, status="cancelled"):
                    log.info("tournament=%s cancelled: %d signed up", tournament.id, len(entrants))
                self.messages.kick(tournament.id)
                return
            await self._begin(tournament, entrants)
        self.kick(tournament_id)

    async def _time_up(self, paired: TableRow) -> None:
        """A table past the tournament's time per game: the computer finishes it, or it is scored
        as it stands."""
        tournament = await self._tournament(paired.tournament_id)
        if paired.game_id is None:
            return
        lang = tournament.lang
        log.info("tournament=%s round=%s table=%s game=%s: time is up (%s)", tournament.id, paired.round,
                 paired.number, paired.game_id, tournament.overtime)
        if tournament.overtime == "score":
            await self._score_as_it_stands(paired.game_id, lang)
        else:
            await self._computer_finishes(paired.game_id, lang, words(lang, "time_up_computer"))
        await self.storage.tournaments.owe(tournament.id)
        self.messages.kick(tournament.id)

    async def _score_as_it_stands(self, game_id: int, lang: str, *, cancelled: int | None = None) -> None:
        """The game ends now, the best running score winning, because its time ran out (or its
        tournament, `cancelled`, was cancelled); the thread says the scores it was judged by."""
        table = await self.moves.table(game_id)
        if table.status != "active":
            return
        game = self.engine(table.game)
        state = game.from_dict(table.state or {})
        scores = running_scores(game, state)
        seats = range(len(table.players))
        names = presenter.bold_names(table.names)
        key = "time_up_scored" if cancelled is None else "cancelled_table.score"
        if scores is None:
            winners = list(seats)
            text = words(lang, f"{key}_none", id=cancelled)
        else:
            best = max(scores)
            winners = [seat for seat in seats if scores[seat] == best]
            shown = ", ".join(f"{names[seat]} {number(scores[seat], lang)}" for seat in seats)
            text = words(lang, key, scores=shown, id=cancelled)
        reason = "Time ran out" if cancelled is None else "The tournament was cancelled"
        result = {"winners": winners, "scores": list(scores) if scores is not None else None,
                  "reason": f"{reason}: scored as it stands.", "how": "scored"}
        try:
            await self.moves.change(game_id, ending(text, "finished", result))
        except StaleVersion:
            pass  # it ended at this very moment: its own result counts

    async def _computer_finishes(self, game_id: int, lang: str, said: str) -> None:
        """Every person's seat goes to the computer (its timers play the game out); their moves are
        refused from now on (the listener's gate). The thread is told `said`."""
        table = await self.moves.table(game_id)
        if table.status != "active":
            return
        first = True
        for player in table.players:
            if player.user_id < 0 or player.seat is None:
                continue
            seat = player.seat
            notice = said if first else None
            first = False

            async def make(current: GameRow, game: Game, seat: int = seat,
                           notice: str | None = notice) -> Change | None:
                if current.status != "active":
                    return None
                if (await self.storage.days.seats(current.id)).get(seat, {}).get("computer"):
                    return None
                said = () if notice is None else ({"content": notice, "mentions": []},)
                return SeatSetting(table=current, game=game, state=game.from_dict(current.state or {}), seat=seat,
                                   computer="timeout", notices=said,
                                   writes=tuple(seat_write(current.id, seat, computer="timeout")))

            await self.moves.change(game_id, make)


def result_of(table: TableRow) -> TableResult:
    """A done table's result as the pairing reads it."""
    assert table.result is not None
    return TableResult(table.round, table.players, tuple(table.result["places"]), tuple(table.result["scores"]))
