"""Catching up: what happened since a player's own last move, in a few lines.

Every change to a game stores its public words (`public_texts`: engine texts, so any language
can say them), built the way `/game log` builds its lines: only public events (a line addressed
to one seat never), else what was chosen when the choice is public (`games.replay.action_is_public`),
else that a move was made; a secret preparation (`games.replay.move_is_invisible`) leaves no
trace at all. The recap reads them back:

- in the turn message that calls the player (the table's language, like the rest of that message):
  what happened between their last move and the turn's start (the turn's own account follows
  it in the same message), for the players it calls now and naming only them: the newest
  `TURN_LINES` moves at most, each of at most `TURN_LINE_LIMIT` characters, under a one-line
  heading that counts all the moves when some are left out, and only as many as fit the phone
  lines the rest of the message leaves (`presenter.PHONE_TEXT_LINES`): every line it adds says
  something, or it adds none;
- on demand, `/game recap`: everything since their last move, only to them, in their language,
  at most `ASKED_LINES` lines, with a link to the board.

Nothing when nobody else moved.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from bot import presenter
from bot.changes import Move, Replace, Undo
from bot.storage import GameRow
from games.core import Game, Msg, SeatRef
from games.replay import action_is_public, move_is_invisible

TURN_LINES = 2          # moves in a turn message's recap at most (all of them: `/game recap`)
TURN_LINE_LIMIT = 120   # characters of one of them (at most three lines of a phone; the room decides)
ASKED_LINES = 10        # lines in `/game recap`
LINE_LIMIT = 200        # characters of one line there
MARK = "› "


def _json(text: Any) -> Any:
    return text.to_json() if isinstance(text, Msg) else text


def public_texts(game: Game, change: Move | Undo | Replace) -> list | None:
    """A change's public words as JSON-able engine texts; None when the channel must not even
    learn that it happened."""
    seat = change.seat
    match change:
        case Undo():
            return [Msg("bot.league.recap_undone", {"player": SeatRef(seat)}).to_json()]
        case Replace():
            return [Msg("bot.league.recap_replaced", {"player": SeatRef(seat)}).to_json()]
    events = list(change.events)
    if move_is_invisible(game, change.before, change.after, events):
        return None
    texts = [_json(event.text) for event in events if event.seat is None]
    if texts:
        return texts
    if action_is_public(game, change.before, change.after, seat):
        label = game.describe(change.before, seat, change.action)
        return [Msg("bot.table.chose", {"player": SeatRef(seat), "move": label}).to_json()]
    return [Msg("bot.table.made_a_move", {"player": SeatRef(seat)}).to_json()]


def said(texts: Sequence[Any], table: GameRow, lang: str, limit: int = LINE_LIMIT) -> str:
    """One move's words in `lang`, names in bold, on one line of at most `limit` characters."""
    line = " ".join(presenter.named(text, table, lang) for text in texts)
    return presenter.clip(" ".join(line.split()), limit)


def recap_lines(moves: Sequence[tuple[int, int, list]], table: GameRow, lang: str, limit: int,
                line_limit: int = LINE_LIMIT) -> tuple[list[str], int]:
    """The newest `limit` moves' lines (oldest first) and how many earlier ones were left out."""
    shown = moves[max(0, len(moves) - limit):]  # none at all when `limit` is 0
    return [MARK + said(texts, table, lang, line_limit) for _, _, texts in shown], len(moves) - len(shown)


def turn_recap_text(moves: Sequence[tuple[int, int, list]], table: GameRow, readers: Sequence[int],
                    room: int = presenter.PHONE_TEXT_LINES) -> str:
    """The recap at the top of a turn message (the table's language) for the seats it calls
    (`readers`, and only them): its heading and the newest moves, in at most `room` lines of a
    phone; nothing when not even one move fits."""
    if not moves or not readers:
        return ""
    lang = table.lang if table.lang in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE
    names = [presenter.bold_names(table.names)[seat] for seat in readers]
    for shown in range(min(TURN_LINES, len(moves)), 0, -1):
        lines, earlier = recap_lines(moves, table, lang, shown, TURN_LINE_LIMIT)
        if earlier:
            head = i18n.t(lang, "bot.league.recap_turn_some", players=names, count=len(names),
                          moves=i18n.t(lang, "bot.league.recap_moves", count=len(moves)))
        else:
            head = i18n.t(lang, "bot.league.recap_turn", players=names, count=len(names))
        text = "\n".join([head, *lines])
        if presenter.phone_lines(text) <= room:
            return text
    return ""


def asked_recap_text(moves: Sequence[tuple[int, int, list]], table: GameRow, lang: str, board_url: str | None,
                     game_title: str) -> str:
    """`/game recap`: everything since the asker's last move, in their language."""
    if not moves:
        return i18n.t(lang, "bot.league.recap_nothing", game=game_title, id=table.id)
    lines, earlier = recap_lines(moves, table, lang, ASKED_LINES)
    text = [i18n.t(lang, "bot.league.recap_asked", game=game_title, id=table.id, count=len(moves))]
    if earlier:
        text.append(MARK + i18n.t(lang, "bot.league.recap_earlier", count=earlier))
    text += lines
    if board_url:
        text.append(i18n.t(lang, "bot.league.recap_board", link=board_url))
    return presenter.clip("\n".join(text))
