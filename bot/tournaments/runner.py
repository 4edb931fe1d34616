"""Tournaments that run themselves (docs/tournaments.md).

`Tournaments` is what the rest of the bot sees of them (wired in `bot.app.GameBot.wire`):

- the commands' work: a new tournament, signing up and leaving, starting, withdrawing, a
  player's own status, the server's organiser role;
- the rounds: when a tournament starts, and whenever the last table of a round ends (the move
  pipeline's listener, bot.tournaments.listener, kicks it), the next round is paired
  (bot.tournaments.pairing) and stored in one transaction, then each table is opened: a thread
  of the tournament's channel, a game in it with its players in the paired seat order, started
  through the move pipeline like any table (the delivery worker posts its first board);
- the time per game: a table still playing at its `due_at` is ended by the tournament's rule
  (the computer finishes it, or it is scored as it stands), and a sign-up closes at its time;
  both are a source of the one scheduler (bot.scheduler), so a restart loses neither;
- the one message (bot.tournaments.message), kept current.

Each tournament's work runs in one task at a time (kicked again, it runs once more), never under
a game's lock. A restart kicks every running tournament at the scheduler's first pass: tables
paired but not opened yet are opened then (a table is linked to its game in the transaction that
makes the game, and marked playing in the one that starts it).
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import random
from collections import defaultdict
from typing import Any, Callable, Final, Literal, Mapping, Sequence

import discord

import i18n
from games.core import Game
from i18n import game_title

from bot import presenter
from bot.days.options import split_options as days_options
from bot.days.seats import ComputerSeats, ending
from bot.days.storage import seat_write, table_settings_write
from bot.delivery.requests import Failure, attempt
from bot.errors import Refusal
from bot.moves import Moves
from bot.records import running_scores
from bot.scheduler import Scheduler
from bot.storage import GameRow, StaleVersion, Storage
from bot.tables import parse_options
from bot.timing import Durations
from bot.tournaments import pairing
from bot.tournaments.listener import TournamentListener
from bot.tournaments.message import TournamentMessages
from bot.tournaments.pairing import Bye, Entrant, TableResult
from bot.tournaments.storage import EntrantRow, TableRow, TournamentRow, game_link_write, owed_write, playing_write
from bot.tournaments.texts import (bold, cancelled_text, finished_text, number, running_text, signup_text,
                                   standings_lines, table_lines, words)
from bot.turns import Change

log = logging.getLogger(__name__)

THREAD_ARCHIVE_MINUTES: Final[Literal[10080]] = 10080  # a week, Discord's longest: a table stays in the list
RETRY_OPEN = 60                  # seconds before a table that could not be opened is tried again
SHARDED_CHECK = 30               # with several processes: seconds between looks at the running tournaments
MAX_SWISS_ROUNDS = 10
DEFAULT_SWISS_ROUNDS = 3


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
        self.messages = TournamentMessages(client, storage, self.render)
        self.listener = TournamentListener(storage, self.kick)
        moves.listen(self.listener)
        moves.gate(self.listener.gate)
        scheduler.add_source(self.next_due, self.run_due)
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._recovered = False
        self._retry_at: dict[int, float] = {}  # tournament id -> when a table it could not open is tried again
        self.stopping = False

    def now(self) -> int:
        return int(self.scheduler.clock.now())

    async def stop(self) -> None:
        self.stopping = True
        for task in self._tasks.values():
            task.cancel()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
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
        tournament_id = await self.storage.tournament_create(
            guild_id=guild_id, channel_id=channel_id, host_id=host.id, game=game.name, format=format, size=size,
            rounds=rounds if format == "swiss" else None, options=options, settings=settings,
            game_time=game_time, overtime=overtime, signup_until=signup_until, lang=lang)
        log.info("tournament=%s guild=%s channel=%s user=%s opened %s %s tables of %s", tournament_id, guild_id,
                 channel_id, host.id, format, game.name, size)
        self.messages.kick(tournament_id, at_once=True)
        if signup_until is not None:
            self.scheduler.poke()
        tournament = await self.storage.tournament(tournament_id)
        assert tournament is not None
        return tournament

    async def pick(self, guild_id: int, tournament_id: int | None, user_id: int | None = None,
                   statuses: Sequence[str] = ("signup", "running")) -> TournamentRow:
        """The tournament a command means: the one named, else the server's only open one (or the
        newest the user plays in)."""
        if tournament_id is not None:
            found = await self.storage.tournament(tournament_id)
            if found is None or found.guild_id != guild_id:
                raise Refusal.of("bot.tournaments.no_such", id=tournament_id)
            return found
        candidates = await self.storage.tournaments_in(guild_id, statuses)
        if not candidates:
            raise Refusal.of("bot.tournaments.none_here")
        if len(candidates) > 1 and user_id is not None:
            for candidate in candidates:  # newest first
                if any(e.user_id == user_id for e in await self.storage.tournament_entrants(candidate.id)):
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
        if not await self.storage.tournament_join(tournament.id, user.id, user.display_name, rating):
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
        if not await self.storage.tournament_leave(tournament.id, user.id):
            raise Refusal.of("bot.tournaments.not_in", id=tournament.id)
        log.info("tournament=%s user=%s left the sign-up", tournament.id, user.id)
        self.messages.kick(tournament.id)
        return tournament

    async def start(self, tournament_id: int) -> TournamentRow:
        """Close the sign-up and seat the first round (refused, with nothing changed, when the
        field is too small or too large for the format)."""
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if tournament.status != "signup":
                raise Refusal.of("bot.tournaments.already_started", id=tournament.id)
            entrants = await self.storage.tournament_entrants(tournament.id)
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
        if await self.storage.tournament_begin(tournament.id, rounds=rounds, schedule=schedule, ratings=ratings):
            log.info("tournament=%s began with %d players, %d rounds", tournament.id, len(field), rounds)

    async def withdraw(self, tournament_id: int, user: discord.abc.User) -> TournamentRow:
        """A player leaves the tournament: left out of later pairings, and a computer player takes
        their seat at a table still being played."""
        tournament = await self._tournament(tournament_id)
        if tournament.status == "signup":
            return await self.leave(tournament_id, user)
        if tournament.status != "running":
            raise Refusal.of("bot.tournaments.not_running", id=tournament.id)
        entrant = next((e for e in await self.storage.tournament_entrants(tournament.id) if e.user_id == user.id), None)
        if entrant is None:
            raise Refusal.of("bot.tournaments.not_in", id=tournament.id)
        if not await self.storage.tournament_withdraw(tournament.id, user.id, max(tournament.round, 1)):
            raise Refusal.of("bot.tournaments.already_withdrawn", id=tournament.id)
        log.info("tournament=%s user=%s withdrew in round %s", tournament.id, user.id, tournament.round)
        for table in await self.storage.tournament_tables(tournament.id, tournament.round):
            if user.id in table.players and table.status == "playing" and table.game_id is not None:
                await self._computer_takes(table.game_id, user.id, tournament.lang)
        self.kick(tournament.id)
        return tournament

    async def _computer_takes(self, game_id: int, user_id: int, lang: str) -> None:
        async def make(table: GameRow, game: Game) -> Change | None:
            seat = table.seat_of(user_id)
            if table.status != "active" or seat is None:
                return None
            if (await self.storage.days_seats(table.id)).get(seat, {}).get("computer") == "resigned":
                return None
            state = game.from_dict(table.state or {})
            change = Change("seat", table, game, state, state, seat=seat, record={"seat": {"computer": "resigned"}},
                            writes=seat_write(table.id, seat, computer="resigned"))
            change.notices.append({"content": words(lang, "withdrew_at_table",
                                                    who=presenter.bold_names(table.names)[seat]), "mentions": []})
            return change

        await self.moves.change(game_id, make)

    async def may_run(self, guild_id: int, member: Any, permissions: discord.Permissions | None) -> bool:
        """Manage Server, or the role the server named for tournaments."""
        if permissions is not None and permissions.manage_guild:
            return True
        role_id = await self.storage.tournament_role(guild_id)
        return role_id is not None and any(role.id == role_id for role in getattr(member, "roles", []))

    async def _tournament(self, tournament_id: int) -> TournamentRow:
        found = await self.storage.tournament(tournament_id)
        if found is None:
            raise Refusal.of("bot.tournaments.no_such", id=tournament_id)
        return found

    async def _rating(self, tournament: TournamentRow, user_id: int) -> float:
        from bot.league.ratings import Rating

        stored = (await self.storage.league_ratings(tournament.guild_id, tournament.game, [user_id])).get(user_id)
        return float((stored.rating if stored is not None else Rating()).points)

    # --------------------------------------------------------------------------- status

    async def status(self, tournament: TournamentRow, user_id: int, lang: str) -> str:
        """A player's own view: where the tournament stands, their place and their table."""
        title = self.title(tournament.game, lang)
        entrants = await self.storage.tournament_entrants(tournament.id)
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
            lines.append(words(lang, "status_withdrawn", round=me.withdrawn))
            return "\n".join(lines)
        if tournament.status != "running":
            return "\n".join(lines)
        tables = await self.storage.tournament_tables(tournament.id, tournament.round)
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
        tables = await self.storage.tournament_tables(tournament.id)
        results = [result_of(t) for t in tables if t.status == "done" and t.result is not None]
        byes = [Bye(t.round, t.players[0]) for t in tables if t.status == "bye"]
        return results, byes, tables

    async def order(self, tournament: TournamentRow, entrants: Sequence[EntrantRow]
                    ) -> list[tuple[int, EntrantRow, float, float, float]]:
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

    async def render(self, tournament: TournamentRow) -> tuple[str, discord.ui.View | None]:
        """The tournament's message as it should be now, and its buttons (only in the sign-up)."""
        from bot.tournaments.buttons import signup_view

        lang = tournament.lang
        title = self.title(tournament.game, lang)
        entrants = await self.storage.tournament_entrants(tournament.id)
        if tournament.status == "signup":
            return signup_text(tournament, title, entrants, lang), signup_view(tournament.id, lang)
        if tournament.status == "cancelled":
            return cancelled_text(tournament, title, len(entrants), self.needed(tournament), lang), None
        order = await self.order(tournament, entrants)
        out = None
        if tournament.format == "knockout":
            out = await self._knocked_out(tournament)
        standings = standings_lines(order, lang, out)
        if tournament.status == "finished":
            winner = next((e.name for e in entrants if e.user_id == tournament.winner_id), None)
            return finished_text(tournament, title, winner, standings, lang), None
        tables = await self.storage.tournament_tables(tournament.id, tournament.round)
        names = {e.user_id: e.name for e in entrants}
        return running_text(tournament, title, standings,
                            table_lines(tables, names, lang, self._bye_points(tournament, lang)), lang), None

    async def _knocked_out(self, tournament: TournamentRow) -> dict[int, int]:
        """player -> the round they went out in (a knockout)."""
        tables = await self.storage.tournament_tables(tournament.id)
        entrants = await self.storage.tournament_entrants(tournament.id)
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
        entrants = await self.storage.tournament_entrants(tournament.id)
        ordered = pairing.seeding([Entrant(e.user_id, e.rating, e.seq) for e in entrants])
        return {entrant.id: index for index, entrant in enumerate(ordered, start=1)}

    # ---------------------------------------------------------------- running rounds

    def kick(self, tournament_id: int) -> None:
        """Something may move the tournament on (a table ended, it started, a restart): look now."""
        if self.stopping:
            return
        task = self._tasks.get(tournament_id)
        if task is not None and not task.done():
            self._again.add(tournament_id)
            return
        self._tasks[tournament_id] = asyncio.get_running_loop().create_task(
            self._run(tournament_id), name=f"tournament-{tournament_id}")

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
                except Exception:  # noqa: BLE001 - one tournament's trouble must not stop the others
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
            tournament = await self.storage.tournament(tournament_id)
            if tournament is None or tournament.status != "running" or not self.owns_guild(tournament.guild_id):
                return False
            tables = await self.storage.tournament_tables(tournament.id, tournament.round)
            if tournament.round == 0 or all(table.over for table in tables):
                if not await self._next_round(tournament):
                    return False
                continue
            failed = False
            for table in tables:
                if table.status == "pending":
                    failed = not await self._open(tournament, table) or failed
            return failed
        return False

    async def _next_round(self, tournament: TournamentRow) -> bool:
        """Pair and store the next round, or finish. True if a round was stored."""
        entrants = await self.storage.tournament_entrants(tournament.id)
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
        stored = await self.storage.tournament_next_round(tournament.id, round_no=tournament.round + 1, tables=groups)
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
            finals = await self.storage.tournament_tables(tournament.id, tournament.round)
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
        if await self.storage.tournament_end(tournament.id, status="finished", winner_id=winner):
            log.info("tournament=%s finished; winner %s", tournament.id, winner)

    # ------------------------------------------------------------------- opening tables

    async def _open(self, tournament: TournamentRow, table: TableRow) -> bool:
        """A paired table becomes a thread with its game started. False if Discord refused (tried
        again later)."""
        lang = tournament.lang
        thread_id = table.thread_id
        if thread_id is None:
            channel: Any = self.client.get_channel(tournament.channel_id)
            if channel is None:  # not in the cache yet (just started): asked of Discord
                channel = await attempt(lambda: self.client.fetch_channel(tournament.channel_id))
            if not isinstance(channel, discord.TextChannel):
                log.warning("tournament=%s channel %s is gone or holds no threads", tournament.id,
                            tournament.channel_id)
                return False
            name = words(lang, "thread_name", game=self.title(tournament.game, lang), id=tournament.id,
                         round=table.round, number=table.number)[:100]
            thread = await attempt(lambda: channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                reason=f"tournament {tournament.id}, round {table.round}"))
            if isinstance(thread, Failure):
                log.warning("tournament=%s round=%s table=%s: could not open a thread: %s", tournament.id,
                            table.round, table.number, thread.reason)
                return False
            thread_id = thread.id
            await self.storage.tournament_set_thread(tournament.id, table.round, table.number, thread_id)
        game_id = table.game_id
        names = {e.user_id: e.name for e in await self.storage.tournament_entrants(tournament.id)}
        if game_id is None:
            # The table's first player hosts its game (a lobby seats its host): no one else sits there.
            first = table.players[0]
            row = await self.storage.create_lobby(
                guild_id=tournament.guild_id, channel_id=thread_id, game=tournament.game, host_id=first,
                host_name=names.get(first, "?"), options=tournament.options, lang=lang,
                writes_for=lambda new_id: [table_settings_write(new_id, tournament.settings),
                                           game_link_write(tournament.id, table.round, table.number, new_id)])
            game_id = row.id
        lobby = await self.moves.table(game_id)
        for user_id in table.players:
            if not lobby.has_player(user_id):
                await self.storage.add_player(game_id, user_id, names.get(user_id, "?"))
        await self.moves.change(game_id, self._starter(tournament, table))
        log.info("tournament=%s round=%s table=%s opened: game %s in thread %s", tournament.id, table.round,
                 table.number, game_id, thread_id)
        withdrawn = {e.user_id for e in await self.storage.tournament_entrants(tournament.id) if not e.playing}
        for user_id in table.players:
            if user_id in withdrawn:
                await self._computer_takes(game_id, user_id, lang)
        return True

    def _starter(self, tournament: TournamentRow, paired: TableRow):
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
            return Change("start", started, game, None, state, text=text, record={"seat_order": order, "seed": seed},
                          writes=[playing_write(tournament.id, paired.round, paired.number, due),
                                  owed_write(tournament.id)])

        return make

    # ----------------------------------------------------------------- the scheduler

    async def next_due(self) -> float | None:
        if not self._recovered:
            return 0.0
        due = [float(when) for when in (await self.storage.tournaments_next_due(), *self._retry_at.values(),
                                        self._check_at if self.sharded else None) if when is not None]
        return min(due) if due else None

    async def run_due(self, now: float) -> None:
        """At the first pass (a start): every running tournament and every owed message is looked
        at. Then: sign-ups whose time is up start (or are cancelled, too few having signed up), and
        tables past their time are ended by the tournament's rule."""
        if not self._recovered or (self.sharded and now >= self._check_at):
            self._recovered = True
            self._check_at = now + SHARDED_CHECK
            for tournament_id in await self.storage.tournaments_running():
                self.kick(tournament_id)
            for tournament_id in await self.storage.tournaments_owed():
                self.messages.kick(tournament_id)
        for tournament_id, when in list(self._retry_at.items()):
            if when <= now:
                del self._retry_at[tournament_id]
                self.kick(tournament_id)
        for tournament_id in await self.storage.tournaments_signup_due(int(now)):
            await self._signup_over(tournament_id)
        for table in await self.storage.tournament_tables_due(int(now)):
            if await self.storage.tournament_claim_overtime(table.tournament_id, table.round, table.number):
                try:
                    await self._time_up(table)
                except Exception:  # noqa: BLE001 - one table's trouble must not stop the others
                    log.exception("tournament=%s table %s/%s: could not apply the rule for its time",
                                  table.tournament_id, table.round, table.number)

    async def _signup_over(self, tournament_id: int) -> None:
        async with self._locks[tournament_id]:
            tournament = await self._tournament(tournament_id)
            if tournament.status != "signup":
                return
            entrants = await self.storage.tournament_entrants(tournament.id)
            try:
                self.check_field(tournament, len(entrants))
            except Refusal:
                if await self.storage.tournament_end(tournament.id, status="cancelled"):
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
            await self._computer_finishes(paired.game_id, lang)
        await self.storage.tournament_owe(tournament.id)
        self.messages.kick(tournament.id)

    async def _score_as_it_stands(self, game_id: int, lang: str) -> None:
        table = await self.moves.table(game_id)
        if table.status != "active":
            return
        game = self.engine(table.game)
        state = game.from_dict(table.state or {})
        scores = running_scores(game, state)
        seats = range(len(table.players))
        names = presenter.bold_names(table.names)
        if scores is None:
            winners = list(seats)
            text = words(lang, "time_up_scored_none")
        else:
            best = max(scores)
            winners = [seat for seat in seats if scores[seat] == best]
            shown = ", ".join(f"{names[seat]} {number(scores[seat], lang)}" for seat in seats)
            text = words(lang, "time_up_scored", scores=shown)
        result = {"winners": winners, "scores": list(scores) if scores is not None else None,
                  "reason": "Time ran out: scored as it stands.", "how": "scored"}
        try:
            await self.moves.change(game_id, ending(text, "finished", result))
        except StaleVersion:
            pass  # it ended at this very moment: its own result counts

    async def _computer_finishes(self, game_id: int, lang: str) -> None:
        """Every person's seat goes to the computer (its timers play the game out); their moves are
        refused from now on (the listener's gate)."""
        table = await self.moves.table(game_id)
        if table.status != "active":
            return
        first = True
        for player in table.players:
            if player.user_id < 0 or player.seat is None:
                continue
            seat = player.seat
            notice = words(lang, "time_up_computer") if first else None
            first = False

            async def make(current: GameRow, game: Game, seat: int = seat,
                           notice: str | None = notice) -> Change | None:
                if current.status != "active":
                    return None
                if (await self.storage.days_seats(current.id)).get(seat, {}).get("computer"):
                    return None
                state = game.from_dict(current.state or {})
                change = Change("seat", current, game, state, state, seat=seat,
                                record={"seat": {"computer": "timeout"}},
                                writes=seat_write(current.id, seat, computer="timeout"))
                if notice is not None:
                    change.notices.append({"content": notice, "mentions": []})
                return change

            await self.moves.change(game_id, make)


def result_of(table: TableRow) -> TableResult:
    """A done table's result as the pairing reads it."""
    assert table.result is not None
    return TableResult(table.round, table.players, tuple(table.result["places"]), tuple(table.result["scores"]))
