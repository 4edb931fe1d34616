"""What a change to a game owes Discord: worked out from the change alone, with no I/O.

One channel message per turn: while the same wait goes on (a player's sub-steps, others of a
simultaneous choice still choosing) the turn message is edited and its running account grows;
when someone new must act a new message begins the next turn and mentions only them, and the
old one becomes history (its account, no buttons). One DM per private decision: a seat that
newly has to act in private gets a new DM, every other change to what it sees edits the open one.

`plan` turns a stored change (a `bot.changes.Done`) into an `Owed` (bot.delivery.storage), which
the change's transaction stores and the delivery worker sends.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot import presenter
from bot.changes import Change, Done, End, LobbyChange, Move, Note, Replace, Repost, SeatSetting, Start, Undo, states
from bot.choices import label_names, public_choices, seat_secrets
from bot.delivery.content import has_picture
from bot.delivery.storage import DmRow, Owed, OwedDm
from bot.locale import table_language
from bot.storage import GameRow
from bot.storage.rows import is_computer_user
from games.core import Game, Msg
from games.replay import move_is_invisible

ACCOUNT_MARK = "• "
ACCOUNT_LINES = 2
"""The running account of a turn shows at most its latest two lines (`/game log` has them all;
no line stands for the ones left out, it would say nothing). With the status, the call to move
and the recap of whom it calls (bot.league), a turn message keeps to `presenter.PHONE_TEXT_LINES`
lines of a phone above its board."""
EARLIER = "…"  # what accounts stored before stood for the lines left out: never shown
PROVISIONAL = "step"  # an event of this kind is a step the player may still take back


def notice(content: str, mentions: Sequence[int] = ()) -> dict[str, Any]:
    """A channel post owed to Discord: its words and whom it mentions."""
    return {"content": presenter.clip(content), "mentions": [user for user in mentions if not is_computer_user(user)]}


# ------------------------------------------------------------------------- the account


def step(text: str) -> dict[str, Any]:
    """An account line for a provisional step (a square picked, a choice taken back): shown while
    it is the newest line, dropped as soon as another line follows it."""
    return {"step": text}


def _words(line: str | dict[str, Any]) -> str:
    return line["step"] if isinstance(line, dict) else line


def noted(line: str, note: str) -> str:
    """An account line with the bot's note after it ("(⚡ the only move)") where that costs the
    line no line of a phone; else with the note's mark alone ("⚡", the first word in its
    brackets), which the full note explains on the lines it fits; else as it is."""
    for said in (note, note.strip("()").split()[0]):
        if presenter.phone_lines(f"{ACCOUNT_MARK}{line} {said}") <= presenter.phone_lines(ACCOUNT_MARK + line):
            return f"{line} {said}"
    return line


def merge_account(account: Sequence[str | dict[str, Any]],
                  lines: Sequence[str | dict[str, Any]]) -> list[str | dict[str, Any]]:
    """The turn's running account with new lines added. Provisional steps at its end give way to
    whatever follows them (the account says what was done, not the steps taken back), and a line
    that only repeats or extends the one before it ("… from stack 2." then "… from stack 2 (up to
    3 rolls).") replaces it."""
    merged = list(account)
    for line in lines:
        if not _words(line).strip():
            continue
        while merged and isinstance(merged[-1], dict):
            merged.pop()
        line = step(_words(line).strip()) if isinstance(line, dict) else line.strip()
        last = _words(merged[-1]) if merged else None
        if last is not None and (_words(line) == last or _words(line).startswith(last.rstrip(".").rstrip())):
            merged[-1] = line
        else:
            merged.append(line)
    return [line for line in merged if line != EARLIER][-ACCOUNT_LINES:]


def announced_as_steps(lines: Sequence[str | dict[str, Any]], status: str) -> list[str | dict[str, Any]]:
    """A move's account lines with each that the status after it only begins ("**Carol**'s
    turn." before "**Carol**'s turn (red): lay a tile.") as a step (`step`): the turn message
    shows the status, or the call to move that says it, in its place, and drops it once another
    line follows (the player's own move), rather than say again whose turn it is."""
    return [step(line) if isinstance(line, str) and status and status.rstrip(".").startswith(line.rstrip("."))
            else line for line in lines]


def account_text(lines: Sequence[str | dict[str, Any]]) -> list[str]:
    return [ACCOUNT_MARK + _words(line) for line in lines if line != EARLIER]


def turn_text(account: Sequence[str], status: str, footer: str) -> str:
    """A turn message: the running account, the status and who is next. A status that only
    repeats or extends the last line of the account takes that line's place; where the call to
    move says the status (`presenter.status_call`), the call takes it ("Bob's turn." is not said
    above "➡️ @Bob's turn (red): lay a tile.")."""
    account = list(account)
    if account and status and status.rstrip(".").startswith(_words(account[-1]).rstrip(".")):
        if presenter.said_in_call(status, footer):
            account.pop()
        else:
            account[-1], status = status, ""
    return presenter.board_text(account_text(account), status, footer)


def history_text(account: Sequence[str]) -> str:
    """A turn message once its turn is over: its account alone."""
    return presenter.clip("\n".join(account_text(account))) or "…"


# ---------------------------------------------------------------------------- planning


def plan(done: Done, dm_rows: dict[int, DmRow]) -> Owed:
    """What a stored change owes Discord. `dm_rows`: the seats' DMs as stored (which still show
    buttons)."""
    change = done.change
    game = Remembering(change.game, states(change)) if isinstance(change, Move) else None
    match change:
        case Move():
            owed = _plan_move(change, done, game)
        case SeatSetting() | LobbyChange() | Repost() | Note():
            owed = Owed()  # a lobby's edit and a repost's board are the change's own writes
        case End():
            owed = _new_turn(change.table, [change.text], pings=[])
        case Start():
            owed = _new_turn(change.table, [change.text] if change.text else [], pings=None)
        case Undo():
            owed = _new_turn(change.table, [change.text], pings=None)
        case Replace():
            owed = _new_turn(change.table, [], pings=None)
    owed.notices = [dict(notice) for notice in change.notices]
    owed.dms = _plan_dms(change, done, dm_rows, game)
    return owed


def _new_turn(table: GameRow, lines: Sequence[str | dict[str, Any]], *, pings: list[int] | None) -> Owed:
    """A new turn message with `lines`; the open one becomes history with its account."""
    owed = Owed(board=True, new_turn=True, turn_lines=list(lines), turn_pings=pings)
    if table.turn_posted:
        owed.closes.append({"message_id": table.board_message_id, "lines": list(table.turn_lines)})
    elif table.turn_lines and table.board_message_id is not None and table.status == "active":
        # The open turn never got its message: what it said goes on at the top of the new one.
        owed.turn_lines = merge_account(table.turn_lines, lines)
    return owed


def public_lines(move: Move) -> list[str | dict[str, Any]]:
    """The move's public lines in the table's language: what its events say (a provisional step
    as such, see `step`), else what was chosen (when the choice is public), else that a move was
    made."""
    table, game = move.table, move.game
    lang = table_language(table)
    lines: list[str | dict[str, Any]] = [
        step(presenter.account_line(event.text, table, lang, ACCOUNT_MARK)) if event.kind == PROVISIONAL
        else presenter.account_line(event.text, table, lang, ACCOUNT_MARK)
        for event in move.events if event.seat is None]
    if not lines:
        lines = [presenter.made_a_move(table, move.seat, lang, game, move.before, move.after, move.action)]
    return lines


def _plan_move(move: Move, done: Done, remembering: Remembering | None = None) -> Owed:
    table, game, before, after, mover = move.table, move.game, move.before, move.after, move.seat
    if move_is_invisible(game, before, after, list(move.events)) and table.board_message_id is not None:
        # A secret preparation (a document armed during the secret choice): the channel must not
        # learn even that it happened, so the board stays as it is, and is not owed.
        return Owed()
    lines = public_lines(move)
    if move.note:
        last = lines[-1]
        lines[-1] = step(noted(_words(last), move.note)) if isinstance(last, dict) else noted(last, move.note)
    waiting_before, waiting_after = done.waiting_before, done.waiting_after
    if move.waiting_before is not None:
        waiting_before = move.waiting_before
    account = list(table.turn_lines)
    if done.outcome is not None:
        # The end message (bot.records) says what the last move did; the win is said once, by the
        # outcome. The turn message keeps its account with the last move.
        lang = table_language(table)
        ending = presenter.public_event_lines([e for e in move.events if e.kind not in ("end", "win")], table, lang)
        owed = _new_turn(table, ending, pings=[])
        for close in owed.closes:
            close["lines"] = merge_account(close["lines"], lines)
        return owed
    status = (remembering or game).view(after, None)["status"]
    lines = announced_as_steps(lines, presenter.status_in_message(status, table, table_language(table)))
    # A seat that takes back a choice (an optional move) waits again, but its own move wakes no
    # one: that is still the same wait.
    if waiting_after - {mover} <= waiting_before:
        return Owed(board=True, turn_lines=merge_account(account, lines))
    newcomers = sorted(waiting_after - waiting_before)
    pings = [table.player_at(seat).user_id for seat in newcomers if not table.player_at(seat).computer]
    if table.turn_posted or table.board_message_id is None:
        owed = Owed(board=True, new_turn=True, turn_lines=merge_account([], lines), turn_pings=pings)
        if table.turn_posted:
            owed.closes.append({"message_id": table.board_message_id, "lines": merge_account(account, lines)})
        return owed
    # The open turn never got its message (Discord refused it so far): the new one carries its
    # account on, and mentions whoever it would have mentioned that the game still waits for.
    if table.turn_pings is None:
        pings_now = None
    else:
        waiting_people = {table.player_at(seat).user_id for seat in waiting_after}
        pings_now = sorted({user for user in table.turn_pings if user in waiting_people} | set(pings))
    return Owed(board=True, new_turn=True, turn_lines=merge_account(account, lines), turn_pings=pings_now)


def _plan_dms(change: Change, done: Done, dm_rows: dict[int, DmRow],
              remembering: Remembering | None = None) -> dict[int, OwedDm]:
    """Which seats' DMs the change owes, and whether each is a new decision. A seat hears
    privately when its hidden view changed or it faces a new decision the public board does not
    already offer; a DM that still asks its seat to move, though the seat has nothing to do now,
    is owed too (it loses its buttons)."""
    if isinstance(change, (LobbyChange, Repost, Note)):
        return {}
    table = change.table
    before, after = states(change)
    seats = range(len(table.players))
    lang = table_language(table)
    # Each view, seat to act and legal moves once (with the turn message's, where it asked them).
    game = remembering or Remembering(change.game, (before, after))
    game.known_to_act(before, done.waiting_before)
    game.known_to_act(after, done.waiting_after)
    dms: dict[int, OwedDm] = {}
    match change:
        case Start() | Undo() | Replace():
            public = game.view(after, None)
            changed_before = game.view(before, None) if before is not None else None
            for seat in seats:
                mine = seat_secrets(game.view(after, seat), public)
                if isinstance(change, Start) and mine:
                    dms[seat] = OwedDm(fresh=True)
                elif isinstance(change, Undo) and (seat == change.seat or mine != seat_secrets(
                        game.view(before, seat), changed_before)):
                    dms[seat] = OwedDm(fresh=True)
                elif isinstance(change, Replace) and seat == change.seat:
                    dms[seat] = OwedDm(fresh=True)
        case Move(seat=mover, events=events):
            board_serves = bool(public_choices(game, after, len(table.players), label_names(table), lang))
            public_views = (game.view(before, None), game.view(after, None))
            waiting_before, waiting_after = done.waiting_before, done.waiting_after
            for seat in seats:
                lines = [_text_json(event.text) for event in events if event.seat == seat]
                if lines or needs_private_update(game, before, after, seat, mover, board_serves, public_views):
                    fresh = seat in waiting_after and seat not in waiting_before and seat != mover
                    dms[seat] = OwedDm(fresh=fresh, lines=lines)
        case SeatSetting(seat=seat):
            dms[seat] = OwedDm()  # what the seat's DM shows now (nothing more, if its player left)
    for seat, row in dm_rows.items():
        if row.buttons and seat not in dms and (isinstance(change, End) or not game.legal_actions(after, seat)):
            dms[seat] = OwedDm()
    if isinstance(change, Move):
        # What an open DM says of the table (who still must act) stays current while its
        # decision is open (it offers moves: a choice to make, or one that may still be
        # changed): "Alice and Bob must discard" is edited once Alice has discarded. Its picture,
        # which draws the seat's whole view, is edited too when that view changed though the
        # words did not (a player who discarded one of two cards holds one card fewer). A DM
        # whose decision is over keeps what it showed (it is history: it lost its buttons above).
        for seat, row in dm_rows.items():
            if row.buttons and seat not in dms and (_dm_words_change(game, before, after, seat)
                                                    or _dm_picture_changes(game, before, after, seat)):
                dms[seat] = OwedDm()
    return dms


class Remembering:
    """A game whose views, seats to act, legal moves and outcomes of the given states are worked
    out once each: a plan, or a delivery worker's pass, asks for the same ones of its states
    again and again, and a state never changes. Any other state (a replay drawing a chart, say)
    and everything else is the game's own. The views it hands out are shared: read them, never
    change them."""

    def __init__(self, game: Game, states: Sequence[Any]) -> None:
        self.game = game
        # Held, so that no other state can take one's id while it is remembered.
        self._states = {id(state): state for state in states if state is not None}
        self._views: dict[tuple[int, int | None], dict[str, Any]] = {}
        self._to_act: dict[int, frozenset[Any]] = {}
        self._legal: dict[tuple[int, int], list[Any]] = {}
        self._outcomes: dict[int, Any] = {}
        self._fingerprints: dict[int, bytes | None] = {}

    def __getattr__(self, name: str) -> Any:
        # Kept on the instance: asked again, it is found there, not through this (a failed
        # lookup first) and the game's own proxy (`bot.choices.KeptViews`). A game never changes.
        value = self.__dict__[name] = getattr(self.game, name)
        return value

    def known_to_act(self, state: Any, seats: frozenset[Any]) -> None:
        """Whom the game waits for in `state`, already worked out (bot.changes.Done)."""
        if state is not None and self._known(state):
            self._to_act[id(state)] = seats

    def known_fingerprint(self, state: Any, digest: bytes | None) -> None:
        """The digest of the state's stored form (`GameRow.state_digest`), if read with it."""
        if state is not None and digest is not None and self._known(state):
            self._fingerprints[id(state)] = digest

    def _known(self, state: Any) -> bool:
        return self._states.get(id(state)) is state

    # What is remembered is looked up first: only a state remembered has any, and while it is
    # held no other state can have its id.

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        found: dict[str, Any] = self._asked(self._views, (id(state), seat), self.game.view, state, seat)
        return found

    def to_act(self, state: Any) -> frozenset[Any]:
        found: frozenset[Any] = self._asked(self._to_act, id(state), self.game.to_act, state)
        return found

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        found: list[Any] = self._asked(self._legal, (id(state), seat), self.game.legal_actions, state, seat)
        return found

    def _asked(self, kept: dict[Any, Any], key: Any, ask: Callable[..., Any], state: Any, *args: Any) -> Any:
        """`ask(state, *args)`, kept under `key` while `state` is remembered."""
        found = kept.get(key)
        if found is None:
            found = ask(state, *args)
            if self._known(state):
                kept[key] = found
        return found

    def remembered_fingerprint(self, state: Any, digest: Callable[[Game, Any], bytes | None]) -> bytes | None:
        """`digest(game, state)` (bot.choices: what its choices in words are kept by), once a state."""
        if not self._known(state):
            return digest(self.game, state)
        if id(state) not in self._fingerprints:
            self._fingerprints[id(state)] = digest(self.game, state)
        return self._fingerprints[id(state)]

    def outcome(self, state: Any) -> Any:
        if not self._known(state):
            return self.game.outcome(state)
        if id(state) not in self._outcomes:
            self._outcomes[id(state)] = self.game.outcome(state)
        return self._outcomes[id(state)]


def _dm_words_change(game: Game | Remembering, before: Any, after: Any, seat: int) -> bool:
    """Whether what an open DM says of the table changes: the status it shows, whether it calls
    its seat to move, the moves it offers."""
    return (game.view(before, seat)["status"] != game.view(after, seat)["status"]
            or (seat in game.to_act(before)) != (seat in game.to_act(after))
            or game.legal_actions(before, seat) != game.legal_actions(after, seat))


def _dm_picture_changes(game: Game | Remembering, before: Any, after: Any, seat: int) -> bool:
    """Whether an open DM's picture changes: it has one, and the seat's view it is drawn from
    (`bot.delivery.content.picture_key`) changed."""
    view = game.view(after, seat)
    return view != game.view(before, seat) and has_picture(view, game.view(after, None))


def _text_json(text: Any) -> Any:
    return text.to_json() if isinstance(text, Msg) else text


def needs_private_update(game: Game | Remembering, before: Any, after: Any, seat: int, mover: int,
                         board_serves_actor: bool, public_views: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    """A seat hears privately when its hidden view changed or it faces a new decision that the
    public board does not already offer. `public_views`: the public views before and after."""
    public_before, public_after = public_views
    mine_after = seat_secrets(game.view(after, seat), public_after)
    if seat_secrets(game.view(before, seat), public_before) != mine_after:
        return True
    if seat not in game.to_act(after) or board_serves_actor:
        return False
    return (
        seat == mover
        or seat not in game.to_act(before)
        or game.legal_actions(before, seat) != game.legal_actions(after, seat)
    )
