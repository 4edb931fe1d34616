"""Every timer of games over days, kept with the game it belongs to.

Everything time-based is a stored timer (table `timers`) handled by the one scheduler
(bot.scheduler), so a restart loses nothing and whatever fell due while the bot was down is
handled once, oldest first. With every change to a game (a listener of the move pipeline,
bot.moves) the game's timers are worked out afresh from its state and stored in the change's own
transaction:

* each seat to act has a wait start (`day_seats.since`): when its turn began;
* a person to act gets a `reminder` at since + the table's reminder time (again every reminder
  time while the turn lasts), and with a deadline a `deadline` at since + the deadline (pushed
  back while the player is away);
* a computer seat to act gets a `computer` timer a short pause from now; so does a person whose
  decision the game makes at once (publicly forced, or a standing order: bot.days.orders), as a
  back-up should the bot stop before making it;
* with the table's reaction window (`react=`), a person facing a decision outside their own turn
  gets a `react` timer at since + the window.

What a due timer does is someone else's: `handlers` maps its kind to a coroutine
(bot.days.reminders, bot.days.timeouts).
"""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot import presenter
from bot.changes import Done, End, Move, Replace, SeatSetting, Undo, states
from bot.days.computer import is_computer
from bot.days.options import words
from bot.days.storage import clear_timers_write, seat_write, timers_writes
from bot.locale import table_language
from bot.scheduler import Scheduler
from bot.storage import GameRow, Write
from bot.store import Storage
from bot.timing import Durations
from games.core import reaction_kind

log = logging.getLogger(__name__)

Handler = Callable[[GameRow, int, int], Awaitable[None]]
"""(table, seat, due_at) -> handles a due timer of one kind."""


class Timers:
    def __init__(self, storage: Storage, scheduler: Scheduler, durations: Durations = Durations()) -> None:
        self.storage = storage
        self.scheduler = scheduler
        self.durations = durations
        # (the change, its mover's absence's end) as `prepare` read it, for `after`.
        self._mover_away: tuple[Done, int | None] | None = None
        # (the change, the earliest of the timers it stores) as `prepare` made them, for `after`'s poke.
        self._earliest: tuple[Done, int] | None = None
        # (the change, the rows of `reads`) read with the change's own reads, for `prepare`.
        self._read: tuple[Done, Sequence[list[Any]]] | None = None

    def now(self) -> int:
        return int(self.scheduler.clock.now())

    # ----------------------------------------------------------- following changes

    async def prepare(self, done: Done) -> Sequence[Write]:
        """The game's waits and timers after the change, for its transaction."""
        change = done.change
        table, game = change.table, change.game
        if isinstance(change, End) or done.outcome is not None:
            return [clear_timers_write(table.id)]
        (_, after), now = states(change), self.now()
        mover = change.seat if isinstance(change, (Move, Undo)) else None
        by_person = isinstance(change, Undo) or (isinstance(change, Move) and change.by_person)
        person = by_person and mover is not None
        settings, existing_timers = await self._inputs(done, person_mover(done))
        seats, writes = seat_rows(done, mover if person else None)
        to_act, made_at_once = done.waiting_after, done.at_once
        # A seat that goes on waiting keeps its timers as they are (a reminder already sent is
        # not sent again, a deadline moved by an absence stays moved); new waits get new ones.
        existing = {(seat, kind): due for seat, kind, due in existing_timers}
        since: dict[int, int | None] = {}
        timers: list[tuple[int, str, int]] = []
        for player in table.players:
            seat = player.seated  # a game being played (the start's row is the started one)
            row = seats.get(seat, {})
            if seat not in to_act:
                since[seat] = None
                continue
            started = row.get("since")
            waiting_on = started is not None and seat != mover
            # Taking back a secret choice while others still choose rejoins their wait: the
            # round's clock goes on (changing must not buy a fresh deadline).
            rejoined = started is None and seat == mover and by_person
            if started is None or not waiting_on:  # (no start: not waiting on either)
                started = now
                if rejoined:
                    others = [seats.get(s, {}).get("since") for s in to_act if s != seat]
                    started = min([t for t in others if t is not None], default=now)
            since[seat] = started
            at_once = made_at_once is not None and made_at_once.seat == seat
            computer = is_computer(player.user_id, row) or at_once
            reacts = settings["react"] is not None and not computer and reaction_kind(game, after, seat)
            window = self.durations.game(settings["react"]) if reacts else None
            kinds = ("computer",) if computer else ("reminder", "deadline", "react")
            if waiting_on and all((seat, kind) in existing for kind in kinds
                                  if (kind != "deadline" or settings["deadline"] is not None)
                                  and (kind != "react" or window is not None)):
                timers += [(seat, kind, existing[seat, kind]) for kind in kinds if (seat, kind) in existing]
                continue
            if computer:  # a move made at once is due now (the pipeline makes it; this backs it up)
                timers.append((seat, "computer", now + (0 if at_once else self.durations.computer_pause_after)))
                continue
            fresh = (now if rejoined else started) + self.durations.game(settings["reminder"])
            timers.append((seat, "reminder", existing.get((seat, "reminder"), fresh) if waiting_on else fresh))
            if settings["deadline"] is not None:
                due = started + self.durations.game(settings["deadline"])
                away_until = None if person and seat == mover else \
                    (await self.storage.days.user(player.user_id))["away_until"]
                if away_until is not None and away_until > now:
                    due = max(due, now) + max(away_until - max(now, started), 0)
                timers.append((seat, "deadline", due))
            if window is not None:
                timers.append((seat, "react", started + window))
        return writes + self._stored(done, since, timers, seats, existing_timers)

    def _stored(self, done: Done, since: dict[int, int | None], timers: list[tuple[int, str, int]],
                seats: dict[int, dict[str, Any]], existing: list[tuple[int, str, int]]) -> list[Write]:
        """`timers_writes` of the change's game (what changed of the seats' rows and timers as
        read), noting the earliest timer for `after`'s poke."""
        if timers:
            self._earliest = (done, min(due for _, _, due in timers))
        return timers_writes(done.change.table.id, since, timers, seats_before=seats, timers_before=existing)

    def reads(self, done: Done) -> Sequence[Write]:
        """What `prepare` reads of the store for the change (`_inputs`), to read with the change's
        other reads (`bot.moves.ReadingListener`): one hand-over to SQLite's thread less a move."""
        if isinstance(done.change, End) or done.outcome is not None:
            return []
        return self.storage.days.change_reads(done.table.id, self._mover_id(done, person_mover(done)))

    def read(self, done: Done, rows: Sequence[list[Any]]) -> None:
        """The rows of `reads`, read for this change: `prepare` takes them instead of reading."""
        self._read = (done, rows)

    @staticmethod
    def _mover_id(done: Done, mover: int | None) -> int | None:
        return None if mover is None else done.table.player_at(mover).user_id

    async def _inputs(self, done: Done, mover: int | None) -> tuple[dict[str, Any], list[tuple[int, str, int]]]:
        """The table's settings and timers, read at once with the absence of the person who moved
        (`mover`), which `after` ends (as read with the change's reads, when they were)."""
        table = done.change.table
        mover_id = self._mover_id(done, mover)
        read, self._read = self._read, None
        if read is not None and read[0] is done:
            settings, timers, mover_user = self.storage.days.change_inputs_from(read[1])
        else:
            settings, timers, mover_user = await self.storage.days.change_inputs(table.id, mover_id)
        if mover_user is not None:
            self._mover_away = (done, mover_user["away_until"])
        return settings, timers

    async def after(self, done: Done) -> None:
        change = done.change
        if isinstance(change, Undo) or (isinstance(change, Move) and change.by_person):
            user_id, prepared = change.table.player_at(change.seat).user_id, self._mover_away
            self._mover_away = None
            if prepared is not None and prepared[0] is done:  # as `prepare` read it for this change
                await self._end_away(user_id, prepared[1], self.now(), except_game=change.table.id)
            else:
                await self.end_away(user_id, self.now(), except_game=change.table.id)
        earliest, self._earliest = self._earliest, None
        # The game's timers are all the change stored (its other timers went): the scheduler
        # needs to look again only if one falls due before it wakes anyway.
        self.scheduler.poke(earliest[1] if earliest is not None and earliest[0] is done else None)

    async def end_away(self, user_id: int, now: int, *, except_game: int | None = None) -> bool:
        """A player is back: their absence ends, and the deadlines it pushed back come forward."""
        until = (await self.storage.days.user(user_id))["away_until"]
        return await self._end_away(user_id, until, now, except_game=except_game)

    async def _end_away(self, user_id: int, until: int | None, now: int, *, except_game: int | None) -> bool:
        if until is None:
            return False
        await self.storage.days.set_user(user_id, away_until=None)
        if until > now:
            await self.storage.days.shift_deadlines(user_id, delta=-(until - now), not_before=now,
                                                    except_game=except_game)
            self.scheduler.poke()
        return True

    # --------------------------------------------------------------------- showing

    async def deadline_line(self, table: GameRow, lang: str | None = None) -> str:
        """'⏳ Anna: <t:…:R>' for the board: each waiting seat's deadline (empty without)."""
        return deadline_text(table, await self.storage.days.deadlines(table.id), lang)

    async def status_lines(self, table: GameRow, lang: str | None = None) -> list[str]:
        """For `/game status`: the deadlines, who is away, and seats the computer plays (in `lang`,
        by default the table's language)."""
        lang = lang or table_language(table)
        lines = [text] if (text := await self.deadline_line(table, lang)) else []
        now = self.now()
        seats = await self.storage.days.seats(table.id)
        names = presenter.bold_names(table.names)
        for player in table.players:
            seat = player.seated  # a game being played
            until = (await self.storage.days.user(player.user_id))["away_until"] if not player.computer else None
            if until is not None and until > now:
                lines.append(words(lang, "status_away", who=names[seat], until=presenter.timestamp(until, "f")))
            if is_computer(player.user_id, seats.get(seat)):
                lines.append(words(lang, "status_computer", who=names[seat]))
        return lines



def person_mover(done: Done) -> int | None:
    """The seat whose own player made the change (a person's move or undo), if one did."""
    change = done.change
    by_person = isinstance(change, Undo) or (isinstance(change, Move) and change.by_person)
    return change.seat if by_person and isinstance(change, (Move, Undo)) else None


def seat_rows(done: Done, person: int | None) -> tuple[dict[int, dict[str, Any]], list[Write]]:
    """The seats' rows as the change leaves them, and what it writes to them; `person`: the seat
    whose own player moved, if one did."""
    table, change = done.change.table, done.change
    seats = {seat: dict(row) for seat, row in done.seats.items()}
    writes: list[Write] = []
    match change:  # a change that sets the seat's row itself (a new player, the computer)
        case Replace(seat=seat):
            seats[seat] = {**seats.get(seat, {}), "since": None, "computer": None, "timeouts": 0}
        case SeatSetting(seat=seat, computer=why) if why is not None:
            seats[seat] = {**seats.get(seat, {}), "computer": why}
        case SeatSetting(seat=seat):  # its person back, with a clean slate
            seats[seat] = {**seats.get(seat, {}), "since": None, "computer": None, "timeouts": 0}
    if person is not None:
        # A move of their own brings a player back: no more computer, no more absence.
        row = seats.get(person, {})
        if row.get("computer") == "timeout" or row.get("timeouts"):
            writes += seat_write(table.id, person, computer=None, timeouts=0)
            seats[person] = dict(row, computer=None, timeouts=0)
    return seats, writes

class DueTimers:
    """Handles the timers that fall due (a scheduler source, bot.parts): each kind by its handler
    (`reminder`, `deadline`, `computer`, `react`), which makes moves. Apart from `Timers`, which
    the move pipeline follows, so that the pipeline is built before the handlers that use it."""

    def __init__(self, timers: Timers, handlers: Mapping[str, Handler]) -> None:
        self.timers = timers
        self.storage = timers.storage
        self.handlers = handlers

    async def next_due(self) -> float | None:
        return await self.storage.days.next_due()

    async def run_due(self, now: float) -> None:
        """Handle every timer due by `now`, oldest first, each once."""
        handled = 0
        while (timer := await self.storage.days.first_due(now)) is not None:
            game_id, seat, kind, due_at = timer
            if not await self.storage.days.claim_timer(game_id, seat, kind, due_at, now):
                continue  # another process (on the same database) is handling it
            try:
                table = await self.storage.games.get_game(game_id)
                if table is None or table.status != "active":
                    await self.storage.apply([clear_timers_write(game_id)])
                else:
                    await self.handlers[kind](table, seat, due_at)
            except Exception:
                log.exception("Timer %s for game %s seat %s failed", kind, game_id, seat)
                await self.storage.days.move_timer(game_id, seat, kind, was=due_at,
                                                   due_at=self.timers.now() + self.timers.durations.timer_retry_after)
            # Whatever the handler did, this timer never fires twice for the same moment.
            await self.storage.days.move_timer(game_id, seat, kind, was=due_at, due_at=None)
            handled += 1
        if handled:
            self.timers.scheduler.poke()


def deadline_text(table: GameRow, deadlines: Mapping[int, int], lang: str | None = None) -> str:
    """`Timers.deadline_line` from the game's deadlines (seat -> when), as read."""
    if not deadlines:
        return ""
    names = presenter.bold_names(table.names)
    parts = [f"{names[seat]} {presenter.timestamp(due)}" for seat, due in sorted(deadlines.items())]
    return words(lang or table_language(table), "deadline_line", deadlines=", ".join(parts))
