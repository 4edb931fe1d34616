"""Catching up: what happened since a player's own last move, in a few lines.

Every change to a game stores its public words (`public_texts`: engine texts, so any language
can say them), built the way `/game log` builds its lines: only public events (a line addressed
to one seat never), else what was chosen when the choice is public (`games.replay.action_is_public`),
else that a move was made; a secret preparation (`games.replay.move_is_invisible`) leaves no
trace at all. The recap reads them back:

- in the turn message that calls the player (the table's language, like the rest of that message):
  what happened between their last move and the turn's start (the turn's own account follows
  it in the same message), for the players it calls now and naming only them: the newest
  `TURN_LINES` moves at most, each on one line of a phone where its gist fits one
  (`said_on_a_line`), else of at most `TURN_LINE_LIMIT` characters, under a one-line heading
  that counts all the moves when some are left out, and only as many as fit the phone lines the
  rest of the message leaves (`presenter.PHONE_TEXT_LINES`): every line it adds says something,
  or it adds none;
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
TURN_LINE_LIMIT = 120   # characters of one that takes more than a line (three lines of a phone; the room decides)
ASKED_LINES = 10        # lines in `/game recap`
LINE_LIMIT = 200        # characters of one line there
MARK = "› "
RECAP_FORM = "recap"
"""The form of an engine text the turn recap says where its catalogue has one (`<id>.recap`, with
the same parameters): its gist, so that a move takes one line of a phone ("**Dave** spreads 5
knights east from D8." without where each one stands: the board shows it)."""
ASIDE_FORM = "aside"
"""The form of a detail (`<id>.aside`): its gist, said where the move's line has room for it and
left out first where it has not: the line keeps what the move did ("**Bob** fails, **Anna** keeps
it.") over how (the roll that did it: "**Bob** rolls two 5s.")."""


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
    line = presenter.sentences(presenter.named(text, table, lang) for text in texts)
    return presenter.clip(" ".join(line.split()), limit)


def _gist(text: Any) -> tuple[Any, bool]:
    """An engine text in its `ASIDE_FORM` or `RECAP_FORM` where its catalogue has one, else in
    the short form a turn message's account says it in (`presenter.account_line`), and whether
    it is an aside."""
    message = Msg.from_json(text) if isinstance(text, dict) else text
    if isinstance(message, Msg):
        for form in (ASIDE_FORM, RECAP_FORM, presenter.STATUS_IN_MESSAGE):
            if i18n.has_message(f"{message.id}.{form}"):
                return Msg(f"{message.id}.{form}", message.params), form == ASIDE_FORM
    return message, False


def said_on_a_line(texts: Sequence[Any], table: GameRow, lang: str) -> str:
    """One move's words for the turn recap: on one line of a phone after `MARK` where they fit
    one, long names shortened as the turn message shortens them: all its texts in their gists
    (`_gist`), or else without the asides; else without the asides in their gists on more lines
    (`said`, at most `TURN_LINE_LIMIT` characters)."""
    gists = [_gist(text) for text in texts]
    essential = [gist for gist, aside in gists if not aside]
    for words in ([gist for gist, _ in gists], essential):
        if not words:
            continue

        def say(names: list[str], words: Sequence[Any] = words) -> str:
            return presenter.sentences(" ".join(i18n.translate(text, lang, names).split()) for text in words)

        line = presenter.names_on_a_line(say, table, MARK)
        if presenter.phone_lines(MARK + line) <= 1:
            return line
    return said(essential or texts, table, lang, TURN_LINE_LIMIT)


def recap_lines(moves: Sequence[tuple[int, int, list]], table: GameRow, lang: str, limit: int,
                one_line: bool = False) -> tuple[list[str], int]:
    """The newest `limit` moves' lines (oldest first) and how many earlier ones were left out;
    `one_line`: each said on one line of a phone (`said_on_a_line`), else in full."""
    shown = moves[max(0, len(moves) - limit):]  # none at all when `limit` is 0
    lines = [said_on_a_line(texts, table, lang) if one_line else said(texts, table, lang) for _, _, texts in shown]
    return [MARK + line for line in lines], len(moves) - len(shown)


def turn_recap_text(moves: Sequence[tuple[int, int, list]], table: GameRow, readers: Sequence[int],
                    room: int = presenter.PHONE_TEXT_LINES) -> str:
    """The recap at the top of a turn message (the table's language) for the seats it calls
    (`readers`, and only them): its heading and the newest moves, in at most `room` lines of a
    phone; nothing when not even one move fits."""
    if not moves or not readers:
        return ""
    lang = table.lang if table.lang in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE
    names = [presenter.bold_names(table.names)[seat] for seat in readers]
    newest, _ = recap_lines(moves, table, lang, TURN_LINES, one_line=True)  # each said once
    for shown in range(len(newest), 0, -1):
        lines, earlier = newest[len(newest) - shown:], len(moves) - shown
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
