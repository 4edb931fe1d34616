"""Games over days: deadlines, reminders, absences, substitutes, computer seats and undo.

Everything time-based is a stored timer (table `timers`, migration 3) handled by the one
scheduler (bot.scheduler), so a restart loses nothing and whatever fell due while the bot was
down is handled once, oldest first. After every change to a game (`after_change`) the game's
timers are computed afresh from its state:

* each seat to act has a wait start (`day_seats.since`): when its turn began;
* a person to act gets a `reminder` at since + the table's reminder time (again every reminder
  time while the turn lasts), and with a deadline a `deadline` at since + the deadline (pushed
  back while the player is away);
* a computer seat to act gets a `computer` timer a short pause from now.

Moves the bot makes for a seat (timeouts, computer seats) go through the same steps as a
player's move: the game's lock, the engine, `Storage.record_move` (one transaction, version
bump) and the announcer's board. Undo and substitutes write a log row of their own
(bot.replay.UNDO / REPLACE) through the same compare-and-swap on the version.

A computer player is the engine's optional `suggest(state, seat, rng)`, which sees only what
the seat may see; engines without one play a uniformly random legal move.
"""
from __future__ import annotations

import logging
import asyncio
import inspect
import random
from typing import TYPE_CHECKING, Any

import discord

import i18n
from i18n import game_title
from games.core import Action, Game

from bot import presenter
from bot.announce import outcome_record, private_delta
from bot.errors import Refusal
from bot.locale import table_language
from bot.replay import REPLACE, UNDO
from bot.scheduler import Scheduler
from bot.storage import GameRow, StaleVersion, Storage

if TYPE_CHECKING:
    from bot.app import GameBot
    from bot.service import GameService

log = logging.getLogger(__name__)

HOUR = 3600
DAY = 24 * HOUR
DEADLINES: dict[str, int | None] = {"none": None, "24h": DAY, "48h": 2 * DAY, "72h": 3 * DAY, "7d": 7 * DAY}
TIMEOUT_CHOICES = ("computer", "skip", "end")
REMINDER_DEFAULT = 12 * HOUR
REMINDERS: dict[str, int] = {"1h": HOUR, "6h": 6 * HOUR, "12h": 12 * HOUR, "24h": DAY}
TIMEOUTS_BEFORE_COMPUTER = 3  # timed-out turns in a row after which the computer keeps the seat
COMPUTER_PAUSE = 2            # seconds before a computer seat moves, so boards read naturally
MAX_COMPUTER_STEPS = 50       # a timed-out turn of many steps (Knatsch re-rolls) is played out
AWAY_DAYS = (1, 14)
PASS_VERBS = ("pass", "skip")
RETRY = 300                   # a timer whose handling failed is tried again this much later


def words(lang: str, key: str, **params: Any) -> str:
    return i18n.t(lang, f"bot.days.{key}", **params)


# ------------------------------------------------------------------------- table options


def split_options(text: str | None, lang: str = "en") -> tuple[str, dict[str, Any]]:
    """Take this part's options (`deadline=24h timeout=computer reminder=12h`) out of the
    `/game new options:` text; the rest goes on to the game's own options."""
    chosen: dict[str, Any] = {"deadline": None, "timeout": "computer", "reminder": REMINDER_DEFAULT,
                              "hints": False, "strength": "normal"}
    rest = []
    for part in (text or "").replace(",", " ").split():
        name, _, value = part.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if name == "deadline":
            if value not in DEADLINES:
                raise Refusal(words(lang, "bad_option", name=name, values=", ".join(DEADLINES)))
            chosen["deadline"] = DEADLINES[value]
        elif name == "timeout":
            if value not in TIMEOUT_CHOICES:
                raise Refusal(words(lang, "bad_option", name=name, values=", ".join(TIMEOUT_CHOICES)))
            chosen["timeout"] = value
        elif name == "reminder":
            if value not in REMINDERS:
                raise Refusal(words(lang, "bad_option", name=name, values=", ".join(REMINDERS)))
            chosen["reminder"] = REMINDERS[value]
        elif name == "hints":
            if value not in ("on", "off"):
                raise Refusal(words(lang, "bad_option", name=name, values="on, off"))
            chosen["hints"] = value == "on"
        elif name == "computer":
            if value not in STRENGTHS:
                raise Refusal(words(lang, "bad_option", name=name, values=", ".join(STRENGTHS)))
            chosen["strength"] = value
        else:
            rest.append(part)
    return " ".join(rest), chosen


STRENGTHS = ("normal", "strong")


def computer_action(game: Game, state: Any, seat: int, rng: random.Random, strength: str = "normal") -> Action:
    """The computer's move for `seat`: the engine's `suggest` when it has one (it reads only
    what the seat may see), at the table's strength where the engine offers several, else a
    uniformly random legal move."""
    legal = game.legal_actions(state, seat)
    suggest = getattr(game, "suggest", None)
    if suggest is not None:
        try:
            action = suggest(state, seat, rng, strength=strength) if strength != "normal" and \
                takes_strength(suggest) else suggest(state, seat, rng)
            if action in legal:
                return action
            log.warning("%s suggested an illegal move %s; playing a random one", game.name, action)
        except Exception:  # noqa: BLE001 - a broken computer player must not stop the game
            log.exception("%s.suggest failed; playing a random move", game.name)
    return rng.choice(legal)


def takes_strength(suggest) -> bool:
    """Whether an engine's computer player plays at several strengths (`strength=`)."""
    try:
        return "strength" in inspect.signature(suggest).parameters
    except (TypeError, ValueError):
        return False


def undo_refusal(game: Game, before: Any, after: Any, seat: int, action: Action, events, seats: int) -> str | None:
    """Why this move cannot be taken back (a message key), or None when it can: it drew no
    chance and revealed nothing hidden.

    Decided exactly by the engine: its `exposure(state)` changes whenever chance is drawn or
    something hidden comes to light, so a move that changed it is kept (an engine without it
    keeps every move). A line addressed privately to another seat also counts as a reveal.
    Two checks that can only refuse more follow, as a safety net for an engine's mistakes: the
    same move with another seed, and the move from states re-dealt where the mover cannot see.
    """
    if any(event.seat is not None and event.seat != seat for event in events):
        return "undo_revealed"
    exposure = getattr(game, "exposure", None)
    if exposure is None:
        return "undo_chance"
    if exposure(before) != exposure(after):
        return "undo_chance"
    data = game.to_dict(before)
    if "seed" not in data:
        return "undo_chance"
    try:
        other, _ = game.apply(game.from_dict(dict(data, seed=int(data["seed"]) + 1)), seat, action)
    except Exception:  # noqa: BLE001 - cannot tell: keep the move
        return "undo_chance"
    if _without_seed(game.to_dict(other)) != _without_seed(game.to_dict(after)):
        return "undo_chance"
    viewers = (None, *range(seats))
    probe = random.Random(0)
    for owner in (None, seat):
        for _ in range(2):
            try:
                variant = game.hidden_variant(before, owner, probe)
                changed, _ = game.apply(variant, seat, action)
            except Exception:  # noqa: BLE001 - cannot tell: keep the move
                return "undo_revealed"
            # A viewer who could not tell the two states apart before the move but can after
            # it has learnt something hidden from it.
            for viewer in viewers:
                if game.view(before, viewer) == game.view(variant, viewer) and \
                        game.view(after, viewer) != game.view(changed, viewer):
                    return "undo_revealed"
    return None


def _without_seed(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "seed"}


def is_computer_user(user_id: int) -> bool:
    """Computer seats added in the lobby sit under negative user ids (-1, -2, ...)."""
    return user_id < 0


def has_computer_player(game: Game) -> bool:
    return getattr(game, "suggest", None) is not None


class Days:
    def __init__(self, bot: "GameBot", storage: Storage, scheduler: Scheduler) -> None:
        self.bot = bot
        self.storage = storage
        self.scheduler = scheduler
        scheduler.add_source(self.next_due, self.run_due)
        # game id -> (version, {seat: deadline}) for the board's deadline line; refilled by
        # after_change (so after a restart from the next change on).
        self._deadlines: dict[int, tuple[int, dict[int, int]]] = {}

    @property
    def service(self) -> "GameService":
        return self.bot.service

    def now(self) -> int:
        return int(self.scheduler.clock.now())

    # ---------------------------------------------------------------------- timers

    async def next_due(self) -> float | None:
        return await self.storage.days_next_due()

    async def run_due(self, now: float) -> None:
        """Handle every timer due by `now`, oldest first, each once."""
        handled = 0
        while (timer := await self.storage.days_first_due(now)) is not None:
            game_id, seat, kind, due_at = timer
            if not await self.storage.days_claim_timer(game_id, seat, kind, due_at, now):
                continue  # another process (on the same database) is handling it
            try:
                await self._fire(game_id, seat, kind, due_at)
            except Exception:  # noqa: BLE001 - one bad game must not stop the others
                log.exception("Timer %s for game %s seat %s failed", kind, game_id, seat)
                await self.storage.days_move_timer(game_id, seat, kind, was=due_at, due_at=self.now() + RETRY)
            # Whatever the handler did, this timer never fires twice for the same moment.
            await self.storage.days_move_timer(game_id, seat, kind, was=due_at, due_at=None)
            handled += 1
        if handled:
            self.scheduler.poke()

    async def _fire(self, game_id: int, seat: int, kind: str, due_at: int) -> None:
        table = await self.storage.get_game(game_id)
        if table is None or table.status != "active":
            await self.storage.days_clear(game_id)
            return
        if kind == "reminder":
            await self._remind(table, seat, due_at)
        elif kind == "deadline":
            await self._timed_out(table, seat)
        else:
            await self.computer_move(game_id, seat)

    async def after_change(self, table: GameRow, game: Game, state: Any, *, mover: int | None = None,
                           by_person: bool = False) -> None:
        """Recompute the game's waits and timers after anything changed it. Never raises: the
        move is already stored, and its board must still be posted."""
        try:
            await self._after_change(table, game, state, mover=mover, by_person=by_person)
        except Exception:  # noqa: BLE001
            log.exception("Could not update the timers of game %s", table.id)

    async def _after_change(self, table: GameRow, game: Game, state: Any, *, mover: int | None,
                            by_person: bool) -> None:
        if table.status != "active":
            self._deadlines.pop(table.id, None)
            await self.storage.days_clear(table.id)
            return
        now = self.now()
        settings = await self.storage.days_table(table.id)
        seats = await self.storage.days_seats(table.id)
        if by_person and mover is not None:
            # A move of their own brings a player back: no more computer, no more absence.
            row = seats.get(mover, {})
            if row.get("computer") == "timeout" or row.get("timeouts"):
                await self.storage.days_set_seat(table.id, mover, computer=None, timeouts=0)
                seats[mover] = dict(row, computer=None, timeouts=0)
            await self._end_away(table.player_at(mover).user_id, now)
        to_act = game.to_act(state)
        # A seat that goes on waiting keeps its timers as they are (a reminder already sent is
        # not sent again, a deadline moved by an absence stays moved); new waits get new ones.
        existing = {(seat, kind): due for seat, kind, due in await self.storage.days_timers(table.id)}
        since: dict[int, int | None] = {}
        timers: list[tuple[int, str, int]] = []
        for player in table.players:
            seat = player.seat
            row = seats.get(seat, {})
            if seat not in to_act:
                since[seat] = None
                continue
            started = row.get("since")
            waiting_on = started is not None and seat != mover
            # Taking back a secret choice while others still choose rejoins their wait: the
            # round's clock goes on (changing must not buy a fresh deadline).
            rejoined = started is None and seat == mover and by_person
            if not waiting_on:
                started = now
                if rejoined:
                    others = [seats.get(s, {}).get("since") for s in to_act if s != seat]
                    started = min([t for t in others if t is not None], default=now)
            since[seat] = started
            computer = bool(row.get("computer") or is_computer_user(player.user_id))
            kinds = ("computer",) if computer else ("reminder", "deadline")
            if waiting_on and all((seat, kind) in existing for kind in kinds
                                  if kind != "deadline" or settings["deadline"] is not None):
                timers += [(seat, kind, existing[seat, kind]) for kind in kinds if (seat, kind) in existing]
                continue
            if computer:
                timers.append((seat, "computer", now + COMPUTER_PAUSE))
                continue
            fresh = (now if rejoined else started) + settings["reminder"]
            timers.append((seat, "reminder", existing.get((seat, "reminder"), fresh) if waiting_on else fresh))
            if settings["deadline"] is not None:
                due = started + settings["deadline"]
                away_until = (await self.storage.days_user(player.user_id))["away_until"]
                if away_until is not None and away_until > now:
                    due = max(due, now) + max(away_until - max(now, started), 0)
                timers.append((seat, "deadline", due))
        await self.storage.days_sync(table.id, since, timers)
        deadlines = {seat: due for seat, kind, due in timers if kind == "deadline"}
        if deadlines:
            self._deadlines[table.id] = (table.version, deadlines)
        else:
            self._deadlines.pop(table.id, None)
        self.scheduler.poke()

    async def load(self) -> None:
        """At start-up: the boards' deadline lines for every active game."""
        for game_id, version, seat, due in await self.storage.days_all_deadlines():
            self._deadlines.setdefault(game_id, (version, {}))[1][seat] = due

    async def status_lines(self, table: GameRow, lang: str | None = None) -> list[str]:
        """For `/game status`: the deadlines, who is away, and seats the computer plays (in `lang`,
        by default the table's language)."""
        lang = lang or table_language(table)
        lines = [text] if (text := self.deadline_text(table, lang)) else []
        now = self.now()
        seats = await self.storage.days_seats(table.id)
        names = presenter.bold_names(table.names)
        for player in table.players:
            until = (await self.storage.days_user(player.user_id))["away_until"] if player.user_id > 0 else None
            if until is not None and until > now:
                lines.append(words(lang, "status_away", who=names[player.seat], until=presenter.timestamp(until, "f")))
            if seats.get(player.seat, {}).get("computer") or is_computer_user(player.user_id):
                lines.append(words(lang, "status_computer", who=names[player.seat]))
        return lines

    def deadline_text(self, table: GameRow, lang: str | None = None) -> str:
        """'⏳ Anna: <t:…:R>' for the board: each waiting seat's deadline (as last computed for
        this version of the game; empty without deadlines)."""
        version, deadlines = self._deadlines.get(table.id, (None, {}))
        if version != table.version or not deadlines:
            return ""
        names = presenter.bold_names(table.names)
        parts = [f"{names[seat]} {presenter.timestamp(due)}" for seat, due in sorted(deadlines.items())]
        return words(lang or table_language(table), "deadline_line", deadlines=", ".join(parts))

    # ------------------------------------------------------------------- reminders

    async def _remind(self, table: GameRow, seat: int, due_at: int) -> None:
        game = self.service.engine(table.game)
        state = game.from_dict(table.state)
        if seat not in game.to_act(state):
            return
        settings = await self.storage.days_table(table.id)
        player = table.player_at(seat)
        seats = await self.storage.days_seats(table.id)
        row = seats.get(seat, {})
        # The next reminder at most every reminder time, whatever happens to this one.
        await self.storage.days_move_timer(table.id, seat, "reminder", was=due_at,
                                           due_at=max(self.now(), due_at) + settings["reminder"])
        user = await self.storage.days_user(player.user_id)
        away = user["away_until"] is not None and user["away_until"] > self.now()
        if row.get("computer") or not user["reminders"] or away:
            return
        since = row.get("since") or due_at
        board = self.service.announcer.board_url(table) or self.service.announcer.channel_url(table)
        lang = await self.storage.language_of_user(player.user_id, table_language(table))
        text = words(lang, "reminder", game=game_title(game), id=table.id, since=presenter.timestamp(since), link=board)
        deadline = next((due for s, kind, due in await self.storage.days_timers(table.id)
                         if s == seat and kind == "deadline"), None)
        if deadline is not None:
            text += "\n" + words(lang, "deadline_at", when=presenter.timestamp(deadline))
        if player.dm_ok is not False:
            try:
                dm = await self.bot.create_dm(discord.Object(player.user_id))
                await dm.send(text)
                return
            except discord.Forbidden:
                await self.storage.set_dm_ok(table.id, player.user_id, False)
        tlang = table_language(table)
        await self.service.announcer.channel(table).send(
            words(tlang, "reminder_channel", who=presenter.mention(player.user_id), since=presenter.timestamp(since)),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(player.user_id)]),
        )

    # --------------------------------------------------------------------- timeouts

    async def _timed_out(self, table: GameRow, seat: int) -> None:
        game = self.service.engine(table.game)
        state = game.from_dict(table.state)
        if seat not in game.to_act(state):
            return
        settings = await self.storage.days_table(table.id)
        seats = await self.storage.days_seats(table.id)
        timeouts = seats.get(seat, {}).get("timeouts", 0) + 1
        computer = "timeout" if timeouts >= TIMEOUTS_BEFORE_COMPUTER else seats.get(seat, {}).get("computer")
        await self.storage.days_set_seat(table.id, seat, timeouts=timeouts, computer=computer)
        lang = table_language(table)
        name = presenter.bold_names(table.names)[seat]
        if settings["timeout"] == "end":
            async with self.service.lock(table.id):
                result = {"winners": [], "reason": f"{{s{seat}}} ran out of time.", "timed_out": seat}
                try:
                    await self.storage.end_game(table.id, status="abandoned", result=result, expected_status="active")
                except StaleVersion:
                    return
                await self.storage.days_clear(table.id)
                await self.service.announcer.game_ended(table, words(lang, "timeout_end", who=name))
            return
        note = words(lang, "timeout_move", who=name)
        if computer == "timeout":
            note += " " + words(lang, "now_computer", who=name, count=TIMEOUTS_BEFORE_COMPUTER)
        await self.service.announcer.channel(table).send(note, allowed_mentions=discord.AllowedMentions.none())
        # The whole turn is played out: a turn of several steps must not wait again per step.
        for _ in range(MAX_COMPUTER_STEPS):
            if not await self.computer_move(table.id, seat, prefer_pass=settings["timeout"] == "skip"):
                break

    async def computer_move(self, game_id: int, seat: int, *, prefer_pass: bool = False) -> bool:
        """One move for `seat` by the computer, through the same steps as a player's move.
        True if the same seat, alone, is to act again (its turn goes on)."""
        service = self.service
        async with service.lock(game_id):
            table = await service.table(game_id)
            if table.status != "active":
                return False
            game = service.engine(table.game)
            state = game.from_dict(table.state)
            if seat not in game.to_act(state):
                return False
            rng = random.Random(f"{table.seed}:{table.version}:{seat}")
            action = None
            if prefer_pass:
                action = next((a for a in game.legal_actions(state, seat) if a.verb in PASS_VERBS), None)
            if action is None:
                strength = (await self.storage.days_table(table.id))["strength"]
                # The strong player searches for some tenths of a second: off the event loop.
                action = await asyncio.to_thread(computer_action, game, state, seat, rng, strength)
            after, events = game.apply(state, seat, action)
            outcome = game.outcome(after)
            try:
                await self.storage.record_move(
                    game_id, expected_version=table.version, seat=seat, action=action.encode(),
                    state=game.to_dict(after), finished_result=outcome_record(outcome) if outcome else None,
                )
            except StaleVersion:
                return False
            table = await service.table(game_id)
            await self.after_change(table, game, after, mover=seat)
            await service.announce_move(table, game, state, after, seat, events, action)
            # Go on only while this seat alone is to act: the rest of a turn of several steps
            # (Knatsch re-rolls), never a new decision shared with others.
            return table.status == "active" and game.to_act(after) == frozenset({seat})

    # ---------------------------------------------------------------------- resign

    async def resign_to_computer(self, table: GameRow, seat: int) -> None:
        """A resigning player in a game of three or more: the computer takes the seat."""
        await self.check_person(table, seat)
        await self.storage.days_set_seat(table.id, seat, computer="resigned")
        await self.service.announcer.close_private(table, seat)  # nothing more of the seat reaches them
        game = self.service.engine(table.game)
        lang = table_language(table)
        await self.service.announcer.channel(table).send(
            words(lang, "resigned_computer", who=presenter.bold_names(table.names)[seat]),
            allowed_mentions=discord.AllowedMentions.none())
        await self.after_change(table, game, game.from_dict(table.state))

    async def check_person(self, table: GameRow, seat: int) -> None:
        """Refuse a move by a player who resigned: the computer plays that seat now."""
        if (await self.storage.days_seats(table.id)).get(seat, {}).get("computer") == "resigned":
            raise Refusal(words(table_language(table), "resigned_no_moves"))

    # ------------------------------------------------------------- computer seats

    async def add_computer(self, channel_id: int, user: discord.abc.User, lang: str,
                           strength: str | None = None) -> GameRow:
        """`/game computer`: the host adds a computer seat to the lobby of this channel (and may
        set how strong the table's computer players are)."""
        table = await self.service.open_table_in(channel_id)
        table = await self.add_computer_to(table.id, user, lang)
        if strength is not None:
            settings = await self.storage.days_table(table.id)
            await self.storage.days_set_table(table.id, **dict(settings, strength=strength))
        return table

    async def add_computer_to(self, game_id: int, user: discord.abc.User, lang: str) -> GameRow:
        """The host adds a computer seat to the lobby (games with a computer player only)."""
        service = self.service
        table = await self._host_lobby(game_id, user, lang)
        game = service.engine(table.game)
        if not has_computer_player(game):
            raise Refusal(words(lang, "computer_none", game=game_title(game)))
        async with service.lock(table.id):
            table = await service.table(table.id)
            if len(table.players) >= game.max_players:
                raise Refusal(words(lang, "computer_full", count=game.max_players))
            # Numbered after the highest still seated, so a removed one's number comes back.
            number = 1 + max((-p.user_id for p in table.players if is_computer_user(p.user_id)), default=0)
            await self.storage.add_player(table.id, -number, f"Computer {number}")
            return await self._lobby_changed(table.id)

    async def remove_computer(self, game_id: int, user: discord.abc.User, lang: str) -> GameRow:
        """The host takes the last computer seat added out of the lobby."""
        service = self.service
        table = await self._host_lobby(game_id, user, lang)
        async with service.lock(table.id):
            table = await service.table(table.id)
            computers = sorted((p.user_id for p in table.players if is_computer_user(p.user_id)))
            if not computers:
                raise Refusal(words(lang, "computer_none_seated"))
            await self.storage.remove_player(table.id, computers[0], new_host_id=None)
            return await self._lobby_changed(table.id)

    async def _host_lobby(self, game_id: int, user: discord.abc.User, lang: str) -> GameRow:
        table = await self.service.table(game_id)
        if table.status != "lobby":
            raise Refusal(words(lang, "computer_started"))
        if user.id != table.host_id:
            raise Refusal(words(lang, "computer_not_host", host=presenter.mention(table.host_id)))
        return table

    async def _lobby_changed(self, game_id: int) -> GameRow:
        """The lobby message shows the new seats (and Remove computer while one is seated)."""
        from bot.components import lobby_view  # late: bot.components builds on this module

        service = self.service
        table = await service.table(game_id)
        if table.lobby_message_id is not None:
            await service.announcer.channel(table).get_partial_message(table.lobby_message_id).edit(
                content=presenter.lobby_text(table, service.engine(table.game)),
                view=lobby_view(table, service.engine(table.game)),
                allowed_mentions=discord.AllowedMentions.none())
        return table

    # ------------------------------------------------------------------ hints

    async def hint_in(self, channel_id: int, user: discord.abc.User, lang: str) -> str:
        """`/game hint` in a channel: the hint for the caller's seat at this channel's game."""
        table = await self.service.active_table_in(channel_id)
        return await self.hint(table.id, user, lang)

    async def hint(self, game_id: int, user: discord.abc.User, lang: str) -> str:
        """The move the computer would make in the caller's seat, and why, for them alone.

        Only at practice tables and tables opened with `hints=on`. Built from what the seat may
        see: the engine's `hint` (or its computer player) reads only the seat's own view."""
        table = await self.service.table(game_id)
        if table.status != "active":
            raise Refusal(words(lang, "hint_no_game"))
        settings = await self.storage.days_table(table.id)
        if not (settings["practice"] or settings["hints"]):
            raise Refusal(words(lang, "hint_off"))
        seat = table.seat_of(user.id)
        if seat is None:
            raise Refusal(words(lang, "hint_not_playing"))
        await self.check_person(table, seat)
        game = self.service.engine(table.game)
        state = game.from_dict(table.state)
        if not game.legal_actions(state, seat):
            raise Refusal(words(lang, "hint_not_your_turn"))
        # The same question gets the same answer until the game moves on.
        rng = random.Random(f"hint:{table.seed}:{table.version}:{seat}")
        names = presenter.bold_names(table.names)
        engine_hint = getattr(game, "hint", None)
        reason = None
        if engine_hint is not None:
            try:
                # A search of some tenths of a second: off the event loop.
                action, reason = await asyncio.to_thread(engine_hint, state, seat, rng)
            except Exception:  # noqa: BLE001 - a broken hint must not break the table
                log.exception("%s.hint failed; falling back to the computer's move", game.name)
                action, reason = computer_action(game, state, seat, rng, settings["strength"]), None
        else:
            action = computer_action(game, state, seat, rng, settings["strength"])
        if action not in game.legal_actions(state, seat):
            action = computer_action(game, state, seat, rng)
        move = i18n.translate(game.describe(state, seat, action), lang, names)
        lines = [words(lang, "hint_move", move=move)]
        if reason is not None:
            lines.append(i18n.translate(reason, lang, names))
        lines.append(words(lang, "hint_typed", action=action.encode()))
        return "\n".join(lines)

    # ------------------------------------------------------------------ away / back

    async def away(self, user: discord.abc.User, days: int, lang: str) -> int:
        if not AWAY_DAYS[0] <= days <= AWAY_DAYS[1]:
            raise Refusal(words(lang, "away_range", low=AWAY_DAYS[0], high=AWAY_DAYS[1]))
        now = self.now()
        until = now + days * DAY
        previous = (await self.storage.days_user(user.id))["away_until"]
        paused_from = previous if previous is not None and previous > now else now
        await self.storage.days_set_user(user.id, away_until=until)
        await self.storage.days_shift_deadlines(user.id, delta=until - paused_from, not_before=now)
        self.scheduler.poke()
        for table in await self.storage.days_games_of(user.id):
            if table.status == "active":
                await self.service.announcer.channel(table).send(
                    words(table_language(table), "away_post", who=presenter.bold_names([user.display_name])[0],
                          until=presenter.timestamp(until, "f")),
                    allowed_mentions=discord.AllowedMentions.none())
        return until

    async def _end_away(self, user_id: int, now: int) -> bool:
        until = (await self.storage.days_user(user_id))["away_until"]
        if until is None:
            return False
        await self.storage.days_set_user(user_id, away_until=None)
        if until > now:
            await self.storage.days_shift_deadlines(user_id, delta=-(until - now), not_before=now)
            self.scheduler.poke()
        return True

    async def back(self, user: discord.abc.User, lang: str) -> int:
        """End an absence early and take every seat the computer kept after timeouts back.
        Returns how many games changed."""
        now = self.now()
        was_away = await self._end_away(user.id, now)
        changed = 0
        for table in await self.storage.days_games_of(user.id):
            if table.status != "active":
                continue
            seat = table.seat_of(user.id)
            row = (await self.storage.days_seats(table.id)).get(seat, {})
            if row.get("computer") == "timeout" or row.get("timeouts"):
                async with self.service.lock(table.id):
                    await self.storage.days_set_seat(table.id, seat, computer=None, timeouts=0, since=None)
                    table = await self.service.table(table.id)
                    game = self.service.engine(table.game)
                    await self.after_change(table, game, game.from_dict(table.state))
                changed += 1
        if not was_away and not changed:
            raise Refusal(words(lang, "not_away"))
        return changed

    async def set_reminders(self, user: discord.abc.User, on: bool) -> None:
        await self.storage.days_set_user(user.id, reminders=int(on))

    # ------------------------------------------------------------------------ mine

    async def mine(self, user: discord.abc.User, lang: str) -> str:
        tables = await self.storage.days_games_of(user.id)
        if not tables:
            return words(lang, "mine_none")
        entries = []
        for table in tables:
            game = self.service.engine(table.game)
            link = self.service.announcer.board_url(table) or self.service.announcer.channel_url(table)
            title = f"**{i18n.translate(game_title(game), lang)}** (#{table.id})"
            if table.status == "lobby":
                entries.append((2, table.id, words(lang, "mine_lobby", game=title, link=link)))
                continue
            state = game.from_dict(table.state)
            to_act = sorted(game.to_act(state))
            seats = await self.storage.days_seats(table.id)
            started = [seats[s]["since"] for s in to_act if seats.get(s, {}).get("since")]
            since = presenter.timestamp(min(started)) if started else presenter.timestamp(table.updated_at)
            who = ", ".join(presenter.bold_names([table.names[s] for s in to_act]))
            mine_first = table.seat_of(user.id) in to_act
            key = "mine_your_turn" if mine_first else "mine_waiting"
            entries.append((0 if mine_first else 1, table.id, words(lang, key, game=title, link=link, who=who,
                                                                     since=since)))
        lines = [words(lang, "mine_header", count=len(tables))]
        lines += [text for _, _, text in sorted(entries)]
        return presenter.clip("\n".join(lines))

    # ---------------------------------------------------------------------- replace

    async def replace(self, channel_id: int, actor: discord.abc.User, old: discord.abc.User,
                      new: discord.abc.User, *, may_manage_server: bool, lang: str) -> GameRow:
        service = self.service
        table = await service.active_table_in(channel_id)
        if actor.id != table.host_id and not may_manage_server:
            raise Refusal(words(lang, "replace_not_host", host=presenter.mention(table.host_id)))
        if getattr(new, "bot", False):
            raise Refusal(words(lang, "replace_bot"))
        async with service.lock(table.id):
            table = await service.table(table.id)
            seat = table.seat_of(old.id)
            if seat is None:
                raise Refusal(words(lang, "replace_not_seated", who=presenter.bold_names([old.display_name])[0]))
            if table.has_player(new.id):
                raise Refusal(words(lang, "replace_already", who=presenter.bold_names([new.display_name])[0]))
            try:
                await self.storage.days_replace_player(
                    table.id, expected_version=table.version, seat=seat, old_user_id=old.id, new_user_id=new.id,
                    new_name=new.display_name, action=REPLACE)
            except StaleVersion:
                raise Refusal(words(lang, "stale")) from None
            await self.storage.days_set_seat(table.id, seat, computer=None, timeouts=0, since=None)
            table = await service.table(table.id)
            game = service.engine(table.game)
            state = game.from_dict(table.state)
            await self.after_change(table, game, state)
            tlang = table_language(table)
            await service.announcer.channel(table).send(
                words(tlang, "replaced", old=presenter.bold_names([old.display_name])[0],
                      new=presenter.mention(new.id)),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(new.id)]))
            await service.announcer.send_private(table, game, state, seat)
            footer, ping = service.announcer.footer(table, game, state)
            await service.announcer.post_board(
                table, game, state, presenter.board_text([], service.announcer.status_line(table, game, state), footer),
                ping=ping)
            return table

    # ------------------------------------------------------------------------- undo

    async def undo(self, channel_id: int, user: discord.abc.User, lang: str) -> None:
        service = self.service
        table = await service.active_table_in(channel_id)
        async with service.lock(table.id):
            table = await service.table(table.id)
            seat = table.seat_of(user.id)
            if seat is None:
                raise Refusal(words(lang, "undo_not_playing"))
            actions = await self.storage.actions(table.id)
            last = actions[-1] if actions else None
            if last is None or last.action in (UNDO, REPLACE):
                raise Refusal(words(lang, "undo_nothing"))
            if last.seat != seat:
                raise Refusal(words(lang, "undo_not_yours"))
            game = service.engine(table.game)
            from bot.replay import replay  # the states before and after the last move

            states, moves = replay(game, table, actions)
            before, after = states[-2], states[-1]
            action = Action.parse(last.action)
            reason = undo_refusal(game, before, after, seat, action, moves[-1].events, len(table.players))
            if reason is not None:
                raise Refusal(words(lang, reason))
            try:
                await self.storage.record_move(table.id, expected_version=table.version, seat=seat, action=UNDO,
                                               state=game.to_dict(before))
            except StaleVersion:
                raise Refusal(words(lang, "stale")) from None
            table = await service.table(table.id)
            await self.after_change(table, game, before, mover=seat, by_person=True)
            tlang = table_language(table)
            footer, ping = service.announcer.footer(table, game, before)
            headline = [words(tlang, "undone", who=presenter.bold_names(table.names)[seat])]
            await service.announcer.post_board(
                table, game, before,
                presenter.board_text(headline, service.announcer.status_line(table, game, before), footer), ping=ping)
            for player in table.players:
                if player.dm_ok is not False and private_delta(game.view(after, player.seat), game.view(after, None)) \
                        != private_delta(game.view(before, player.seat), game.view(before, None)) \
                        or player.seat == seat:
                    await service.announcer.send_private(table, game, before, player.seat)
