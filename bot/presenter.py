"""Text the bot shows: pure functions from stored rows and engine output to Markdown.

Names are escaped display names in bold; only the "your move" line uses mentions, so a move
message pings exactly the players who must act, once each.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import discord

from bot import phone_widths
from bot.errors import Refusal
from bot.storage import GameRow
from bot.storage.rows import is_computer_user
from games.core import Event, Game, Msg, Outcome
from games.replay import action_is_public
from i18n import entries, game_title, has_message, possessive, t, translate

MESSAGE_LIMIT = 2000
MENTION = re.compile(r"<@!?(-?\d+)>")


def bold_names(names: Sequence[str]) -> list[str]:
    return list(_bold(tuple(names)))


@lru_cache(maxsize=256)
def _bold(names: tuple[str, ...]) -> tuple[str, ...]:
    """`bold_names`, escaped once a table's names (a move's messages ask for them some 15 times,
    once for each text put into words and each name shortened to fit a line)."""
    return tuple(f"**{discord.utils.escape_markdown(name)}**" for name in names)


def waiting_for(table: GameRow, seats) -> str:
    """The players a refusal says the game is waiting for, in bold: **Anna**, **Bob**."""
    return ", ".join(bold_names([table.names[seat] for seat in sorted(seats)]))


def named(text, table: GameRow, lang: str = "en") -> str:
    """Engine text (a Msg, its JSON, or a legacy string with `{s0}` placeholders) in words,
    with bold player names."""
    return translate(text, lang, bold_names(table.names))


NAME_KEPT = 8
"""A name this short is never shortened: it is shorter than most words around it."""
NAME_LEAST = 3
"""Characters a longer name keeps at least when it is shortened to fit a line ("Ba…")."""


def named_on_a_line(text, table: GameRow, lang: str = "en", before: str = "") -> str:
    """`named`, on one line of a phone after `before` (an account's bullet) where long names keep
    it from fitting: the names longer than `NAME_KEPT` characters then shortened with `clip`
    (whole words first, "…" after them) as little as the line needs, never under `NAME_LEAST`
    characters. The message's own words are never cut; a line too long even so keeps the names
    whole."""
    return names_on_a_line(lambda names: translate(text, lang, names), table, before)


def names_on_a_line(say: Callable[[list[str]], str], table: GameRow, before: str = "",
                    fits: Callable[[str], bool] | None = None) -> str:
    """What `say` says with the seats' names in bold, on one line of a phone after `before` (or
    as `fits` wants it), its names shortened as `named_on_a_line` shortens them where that makes
    it fit."""
    def shortened(limit: int) -> str:
        return say(bold_names([name if len(name) <= NAME_KEPT else clip(name, limit) for name in table.names]))

    fits = fits or (lambda line: phone_lines(before + line, mention_names(table)) <= 1)
    whole = say(bold_names(table.names))
    if fits(whole) or not fits(shortened(NAME_LEAST)):
        return whole
    longest = max(len(name) for name in table.names)
    return next(line for line in map(shortened, range(longest - 1, NAME_LEAST - 1, -1))
                if fits(line))


SENTENCE_ENDS = (".", "!", "?", "…", ":")


def sentences(lines: Iterable[str]) -> str:
    """Lines of an account said on one line: each ends as a sentence, so that a line without a
    full stop (a roll, "Bob: 5 5 6 6 6 6 → two 5s") does not run into the next."""
    said = [line.strip() for line in lines if line.strip()]
    return " ".join(line if line.endswith(SENTENCE_ENDS) or index == len(said) - 1 else f"{line}."
                    for index, line in enumerate(said))


STATUS_IN_MESSAGE = "line"
"""The form of a status the turn message says where its catalogue has one (`<id>.line`, with the
same parameters): the board's header says the status in full (a roll's card with its dice, what
it must beat), on up to three lines of the picture; the message's own line names only what
happens, so it takes one line of a phone."""


def status_in_message(status, table: GameRow, lang: str = "en") -> str:
    """A game's status (a Msg or its JSON) as a turn message says it: in its `STATUS_IN_MESSAGE`
    form where the catalogue has one, on one line (`named_on_a_line`)."""
    status = Msg.from_json(status) if isinstance(status, dict) else status
    if isinstance(status, Msg) and has_message(f"{status.id}.{STATUS_IN_MESSAGE}", lang):
        status = Msg(f"{status.id}.{STATUS_IN_MESSAGE}", status.params)
    return named_on_a_line(status, table, lang)


CALL = "➡️ "
"""What a turn message's call to move begins with (the catalogue's "your move" lines too)."""
_SEAT = "\x00"
"""Stands for a name where only how often a text names a seat counts."""


def status_call(status, table: GameRow, seats: int | Iterable[int], lang: str = "en") -> str:
    """The call to move said in the status, for the seats a turn calls: the status as the turn
    message says it (`status_in_message`) with each called person's mention in the place of their
    name, after `CALL` ("➡️ @Carol (green) may lay tile 2 of 3.", "➡️ Document: @Alice and
    @Carol."), so that the message names each player it calls once and still pings them. A
    computer seat called with them keeps its name (nobody to ping). "" where the status does not
    name each called seat exactly once, or the turn calls computer seats alone: it then stays as
    it is, above "your move"."""
    called = sorted({seats} if isinstance(seats, int) else set(seats))
    status = Msg.from_json(status) if isinstance(status, dict) else status
    if not isinstance(status, Msg) or not called:
        return ""
    if has_message(f"{status.id}.{STATUS_IN_MESSAGE}", lang):
        status = Msg(f"{status.id}.{STATUS_IN_MESSAGE}", status.params)
    for seat in called:
        marked = translate(status, lang, [_SEAT if index == seat else "" for index in range(len(table.names))])
        if marked.count(_SEAT) != 1:
            return ""
    mentions = {seat: mention(table.player_at(seat).user_id) for seat in called
                if not is_computer_user(table.player_at(seat).user_id)}
    if not mentions:
        return ""

    def said(names: list[str]) -> str:
        text = translate(status, lang, [mentions.get(index, name) for index, name in enumerate(names)])
        for seat, pinged in mentions.items():  # a mention's possessive as its name's: "@Alice' Barde", not "@Alices"
            name = table.names[seat]
            text = text.replace(possessive(pinged, lang), pinged + possessive(name, lang)[len(name):])
        return text
    return CALL + names_on_a_line(said, table, CALL)


def dm_call(status, table: GameRow, seats: Iterable[int], tasks: Mapping[int, str], lang: str = "en") -> str:
    """The call to move for seats that decide in their DMs (`dm_tasks`), where the status says
    the decision and names each of them once ("Raid round 1: **Carol** plays a card."): the
    status with their mentions in the place of their names (`status_call`), then on a short line
    of its own where to act ("In your DM or with **My hand**."; the call and where together are
    longer than a line of a phone, 400 px and more where 302 fit). That line names no one and
    does not say the task again: only what of it the status leaves unsaid (how many cards,
    `DmTask.rest`), if it is the same for all of them and fits the line (else each DM says it).
    A task given in words alone (not a `DmTask`) is all left unsaid. "" where the status does not
    name them so, some of them decide in their DMs and some with the board's buttons, or they
    have different tasks in words alone."""
    called = sorted(seats)
    people = [seat for seat in called if not is_computer_user(table.player_at(seat).user_id)]
    if not people or any(seat not in tasks for seat in people):
        return ""
    rests = {getattr(tasks[seat], "rest", tasks[seat]) for seat in people}
    if len(rests) > 1 and not all(isinstance(tasks[seat], DmTask) for seat in people):
        return ""
    call = status_call(status, table, called, lang)
    if not call:
        return ""
    where = t(lang, "bot.table.in_dm", count=len(people))
    if len(rests) == 1 and (rest := rests.pop()):
        said = t(lang, "bot.table.in_dm_rest", rest=rest, count=len(people))
        said = said[:1].upper() + said[1:]  # a sentence of its own ("Discard 2 cards in …")
        if phone_lines(said) <= 1 or not isinstance(tasks[people[0]], DmTask):
            where = said
    return f"{call}\n{where}"


def _unnamed(line: str) -> str:
    """A line with each name (in bold, or a mention) as one mark: what it says of whom."""
    return MENTION.sub(_SEAT, BOLD.sub(_SEAT, line))


def said_in_call(status: str, footer: str) -> bool:
    """Whether the call to move that begins `footer` says `status` (`status_call`)."""
    call = footer.split("\n", 1)[0]
    return bool(status) and call.startswith(CALL) and _unnamed(call.removeprefix(CALL)) == _unnamed(status)


def account_line(text, table: GameRow, lang: str = "en", before: str = "") -> str:
    """An engine text (a Msg or its JSON) as a turn message's account says it, after `before`
    (its bullet): on one line (`named_on_a_line`), and where it takes more than one line of a
    phone even so, in its `STATUS_IN_MESSAGE` form (`<id>.line`) where the catalogue has one: its
    gist ("**Alice**: 1 silver, 2 gold from field 6."; `/game log` and the board keep the rest)."""
    message = Msg.from_json(text) if isinstance(text, dict) else text
    line = named_on_a_line(message, table, lang, before)
    if phone_lines(before + line) > 1 and isinstance(message, Msg) \
            and has_message(f"{message.id}.{STATUS_IN_MESSAGE}", lang):
        return named_on_a_line(Msg(f"{message.id}.{STATUS_IN_MESSAGE}", message.params), table, lang, before)
    return line


def mention(user_id: int) -> str:
    if is_computer_user(user_id):  # bot.days: a computer seat (negative ids) is nobody to ping
        return "🤖"
    return f"<@{user_id}>"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """`text` at most `limit` characters long: cut at the last word boundary that fits (never
    inside a word, unless a single word is longer than the limit), with "…" after it."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    boundary = max(cut.rfind(" "), cut.rfind("\n"))
    if boundary >= limit // 2:
        cut = cut[:boundary]
    return cut.rstrip(" ,;:·—-") + "…"


PHONE_TEXT = 302.5
"""Width in px of a message's text on one line of a 390 px phone, in Discord's font as
`phone_width` measures it: lines measured up to 302.4 px were seen to fit, from 302.9 px (bold)
and 303.9 px (regular) to wrap. A line meant to fit should keep to about 300 px: a browser draws
some pairs of letters a little closer or wider than their widths alone say."""
PHONE_LINE = PHONE_TEXT
"""Width in px at which `phone_lines` wraps a line: the phone's own (`PHONE_TEXT`). Every line
the turn message says on one line keeps within it in both languages, with names shortened where
they must be (`named_on_a_line`) and a message's short forms (`.line`) where the full words
would wrap."""
PHONE_TEXT_LINES = 8
"""Lines of text a turn message keeps above its board: with them, the board's top is within the
first half of an 844 px phone screen."""


BOLD = re.compile(r"\*\*(.+?)\*\*")
ESCAPED = re.compile(r"\\([\\*_~`|>#-])")
"""A Markdown sign escaped in a name (`discord.utils.escape_markdown`): shown without its "\\"."""


MENTION_PADDING = 4.0
"""Px a mention's pill adds around the name it shows ("@Carol"), by the phone pictures."""
_PILL = "\x01"
"""Stands for a mention's padding in a line as a phone shows it (`MENTION_PADDING` wide)."""
UNKNOWN_MENTION = "**@Mentioned**"
"""How a mention is measured where its name is not known: as a long name."""


def mention_names(table: GameRow) -> tuple[tuple[int, str], ...]:
    """The people a table's messages may mention, by id, with the names their mentions show
    (`phone_lines` measures a mention as its name)."""
    return tuple((player.user_id, player.name) for player in getattr(table, "players", ()))


def _shown_mentions(line: str, mentions: Sequence[tuple[int, str]]) -> str:
    """`line` with each mention as a phone shows it: "@" and the name Discord shows in a pill,
    in bold (a mention whose name is not known as `UNKNOWN_MENTION`)."""
    names = dict(mentions)

    def shown(match: re.Match[str]) -> str:
        name = names.get(int(match.group(1)))
        return UNKNOWN_MENTION if name is None else f"**@{discord.utils.escape_markdown(name)}{_PILL}**"
    return MENTION.sub(shown, line)


_REGULAR_WIDTHS = {**phone_widths.REGULAR, _PILL: MENTION_PADDING}
_BOLD_WIDTHS = {**phone_widths.BOLD, _PILL: MENTION_PADDING}
"""Each measured character's width, and a mention's padding (`_PILL`), regular and bold."""


def _words(line: str) -> list[tuple[float, float]]:
    """The words of a line of message text as a phone draws them (Markdown marks unseen, bold
    parts in bold), each as the width of the spaces before it and its own width, in px."""
    parts, at = [], 0
    for bold in BOLD.finditer(line):
        parts += [(line[at:bold.start()], False), (bold[1], True)]
        at = bold.end()
    parts.append((line[at:], False))
    words: list[tuple[float, float]] = []
    space = word = 0.0
    for part, is_bold in parts:
        # Every character of every message a move sends passes here: one look-up each.
        widths = _BOLD_WIDTHS if is_bold else _REGULAR_WIDTHS
        for char in ESCAPED.sub(r"\1", part):
            width = widths.get(char)
            if width is None:
                width = phone_widths.fallback_width(char)
            if char != " ":
                word += width
                continue
            if word:
                words.append((space, word))
                space = word = 0.0
            space += width
    if word or not words:
        words.append((space, word))  # spaces after the last word hang past the line's end
    return words


def phone_width(line: str, mentions: Sequence[tuple[int, str]] = ()) -> float:
    """How wide a phone draws one line of message text, in px (Markdown marks unseen, bold text
    in bold, each character as wide as `bot.phone_widths` measured it; a mention as the name it
    shows, by `mentions`, `mention_names`)."""
    return sum(space + word for space, word in _words(_shown_mentions(line, mentions)))


@lru_cache(maxsize=4096)
def phone_lines(text: str, mentions: tuple[tuple[int, str], ...] = ()) -> int:
    """About how many lines `text` takes on a 390 px phone: mentions shown as the names they show
    (`mentions`, a table's `mention_names`; one not known there as a long name), Markdown
    marks unseen, each line wrapped word by word where its next word would go past `PHONE_LINE`
    px (`phone_width`), as a phone wraps it; a word wider than a line broken anywhere. (Kept for
    texts asked again: a move's messages ask it of the same lines for the board, each DM and each
    name shortened.)"""
    total = 0
    for line in text.splitlines():
        shown = _shown_mentions(line, mentions).replace("`", "").replace("\t", "    ")
        lines, used = 1, -1.0
        for space, word in _words(shown):
            if used < 0:  # the line's start: its indent is kept
                used = space + word
            elif used + space + word <= PHONE_LINE:
                used += space + word
            else:  # the spaces before a word that goes on the next line are not shown
                lines, used = lines + 1, word
            while used > PHONE_LINE:  # a word wider than a line: broken anywhere
                lines, used = lines + 1, used - PHONE_LINE
        total += lines
    return total


def timestamp(unix: int, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(unix)}:{style}>"


# ---------------------------------------------------------------------------------- lobby


def player_range(game: Game) -> str:
    """'2–4', or '3' for a game of one size."""
    return f"{game.min_players}–{game.max_players}" if game.min_players != game.max_players else str(game.min_players)


def option_words(game: Game, name: str, value: str, lang: str) -> str:
    """"Räuber: alle anderen" for `robbers=all`: a table option and its value in words, where the
    game's catalogue has them (`<game>.option_name.<name>`, `<game>.option_value.<name>.<value>`)."""
    name_id, value_id = f"{game.name}.option_name.{name}", f"{game.name}.option_value.{name}.{value}"
    said_name = t(lang, name_id) if has_message(name_id) else name
    said_value = t(lang, value_id) if has_message(value_id) else value
    return f"{said_name}: {said_value}"


def lobby_text(table: GameRow, game: Game) -> str:
    """The lobby message, in the table's language."""
    lang = getattr(table, "lang", None) or "en"
    limits = player_range(game)
    players = ", ".join(bold_names(table.names)) or t(lang, "bot.lobby.nobody")
    options = ", ".join(option_words(game, key, value, lang) for key, value in table.options.items())
    lines = [
        t(lang, "bot.lobby.title", game=game_title(game), id=table.id, host=mention(table.host_id)),
        t(lang, "bot.lobby.players", count=len(table.players), limits=limits, players=players),
    ]
    if options:
        lines.append(t(lang, "bot.lobby.options", options=options))
    if table.status == "lobby":
        lines.append(t(lang, "bot.lobby.how_to_join"))
        lines.append(t(lang, "bot.table.rules_hint", game=game.name))
    elif table.status == "active":
        lines.append(t(lang, "bot.lobby.started"))
    else:
        lines.append(t(lang, "bot.lobby.closed"))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- board


def public_event_lines(events: Iterable[Event], table: GameRow, lang: str = "en") -> list[str]:
    return [named(event.text, table, lang) for event in events if event.seat is None]


def made_a_move(table: GameRow, seat: int, lang: str = "en", game: Game | None = None, before=None, after=None,
                action=None) -> str:
    """The line for a move that said nothing in public itself: what was chosen, when the choice is
    public ("**Anna**: Square 3 (1,0)."), else only that a move was made."""
    if game is not None and action is not None and action_is_public(game, before, after, seat):
        label = translate(game.describe(before, seat, action), lang, [name for name in table.names])
        return t(lang, "bot.table.chose", player=bold_names(table.names)[seat], move=label)
    return t(lang, "bot.table.made_a_move", player=bold_names(table.names)[seat])


def next_move_line(table: GameRow, to_act: Iterable[int], lang: str = "en",
                   tasks: Mapping[int, str] | None = None, status=None) -> str:
    """Who must act, mentioned. `status`: the game's public status; where it names each seat
    called once, the call says the status with their mentions (`status_call`), and where they
    decide in their DMs (`tasks`, `dm_tasks`), where to act after it (`dm_call`); the turn message
    then leaves the status out (`board_text`), and names each of them once. Else the seats with
    the same task share a line that says it and where ("— discard 2 cards in your DM or with My
    hand"), and the others are told "your move" (their buttons are under the board)."""
    seats = sorted(to_act)
    if not seats:
        return ""
    tasks = tasks or {}
    if status is not None and not any(seat in tasks for seat in seats):
        if call := status_call(status, table, seats, lang):
            return call
    elif status is not None:
        if call := dm_call(status, table, seats, tasks, lang):
            return call
    groups: dict[str | None, list[int]] = {}
    for seat in seats:
        groups.setdefault(tasks.get(seat), []).append(seat)
    lines = []
    for task, group in groups.items():
        mentions = [mention(table.player_at(seat).user_id) for seat in group]
        if task is None:
            lines.append(t(lang, "bot.table.your_move", players=", ".join(mentions), count=len(mentions)))
        else:
            lines.append(t(lang, "bot.table.your_move_in_dm", players=", ".join(mentions), task=task,
                           count=len(mentions)))
    return "\n".join(lines)


@cache
def _dm_task_kinds(game_name: str) -> frozenset[str]:
    """The decisions a game's players take in their DMs that its catalogue words for the turn
    message (`<game>.your_move.<kind>`: "discard", for cards owed, or a phase; not their short
    forms, `DmTask.rest`)."""
    prefix = f"{game_name}.your_move."
    return frozenset(key[len(prefix):] for key in entries("en", game_name)
                     if key.startswith(prefix) and "." not in key[len(prefix):])


def dm_tasks(game: Game, state: Any, seats: Iterable[int], lang: str = "en") -> dict[int, str]:
    """What each of `seats` must do in its DM, in words, where the game's catalogue says it: the
    cards a player owes ("discard 2 cards", from the public view's "owed"), else the phase's task
    ("play a raid card"). A game without such words (its moves are buttons under the board) is not
    asked for its view."""
    kinds = _dm_task_kinds(game.name)
    if not kinds:
        return {}
    view = game.view(state, None)
    players = view.get("players") or []
    tasks: dict[int, str] = {}
    for seat in seats:
        owed = players[seat].get("owed") if seat < len(players) and isinstance(players[seat], dict) else None
        if owed and "discard" in kinds:
            tasks[seat] = DmTask.of(lang, f"{game.name}.your_move.discard", count=owed)
        elif view.get("phase") in kinds:
            tasks[seat] = DmTask.of(lang, f"{game.name}.your_move.{view['phase']}")
    return tasks


class DmTask(str):
    """What a seat must do in its DM, in words ("discard 2 cards"), with `rest`: what of it a
    status that says the decision leaves unsaid (the catalogue's `<id>.line`: "2 cards" after
    "@Bob must discard."; "" where the status says it all), which `dm_call` says."""

    rest: str

    @classmethod
    def of(cls, lang: str, message_id: str, **params: Any) -> DmTask:
        task = cls(t(lang, message_id, **params))
        line = f"{message_id}.{STATUS_IN_MESSAGE}"
        task.rest = t(lang, line, **params) if has_message(line, lang) else ""
        return task


def outcome_text(outcome: Outcome, table: GameRow, lang: str = "en", game: Game | None = None) -> str:
    """How the game ended, said once: "Game over." with the engine's reason (who won and how),
    then every final score with what it counts ("Anna: 30 points · Bo: 17 points")."""
    names = bold_names(table.names)
    reason = named(outcome.reason, table, lang)
    if reason:
        head = t(lang, "bot.table.game_over_plain")
    elif outcome.winners:
        head = t(lang, "bot.table.game_over", winners=[names[seat] for seat in outcome.winners],
                 count=len(outcome.winners))
    else:
        head = t(lang, "bot.table.game_over_nobody")
    unit = f"{game.name}.score" if game is not None else None
    scores = " · ".join(
        f"{names[seat]}: " + (t(lang, unit, count=score) if unit and has_message(unit) else str(score))
        for seat, score in enumerate(outcome.scores))
    return f"{head} {reason}".strip() + "\n" + t(lang, "bot.table.final_scores", scores=scores)


START_LINES = 4
"""Lines of a phone the start of a game ("… has started! Seat order: 1. Anna, 2. Bo …") takes at
most where long names would make it longer: it opens the first turn message's account, and with
the first move's line, the status and the call to move (up to two lines when it sends players to
their DMs) that message keeps to `PHONE_TEXT_LINES`."""


def start_text(table: GameRow, game: Game, closed_dms: Sequence[str], lang: str = "en", *,
               practice: bool = False, hints: bool = False) -> str:
    def started(names: list[str]) -> str:
        seats = ", ".join(f"{index + 1}. {name}" for index, name in enumerate(names))
        return t(lang, "bot.table.started", title=game_title(game), game_id=table.id, seats=seats)

    def within(text: str) -> bool:  # as the account shows it, after its bullet (bot.turns.ACCOUNT_MARK)
        return phone_lines(f"• {text}") <= START_LINES

    # Four names of 32 letters took 7 lines: they are shortened as `named_on_a_line` shortens them.
    lines = [names_on_a_line(started, table, fits=within)]
    if practice:
        lines.append(t(lang, "bot.table.start_practice"))
    elif hints:
        lines.append(t(lang, "bot.table.start_hints"))
    if closed_dms:
        lines.append(t(lang, "bot.table.start_dms_closed", players=bold_names(closed_dms)))
    return "\n".join(lines)


def dm_closed_text(name: str, lang: str = "en") -> str:
    return t(lang, "bot.table.dm_closed", player=f"**{discord.utils.escape_markdown(name)}**")


def board_text(headline: Sequence[str], status: str, footer: str) -> str:
    """Headline lines (what happened), the public status, and who is next / the outcome. A status
    that the call to move says already (`status_call`) is not said again.

    Trimmed from the headline so the status and the mentions always survive the length limit.
    """
    if said_in_call(status, footer):
        status = ""
    tail = "\n".join(line for line in (status, footer) if line)
    room = MESSAGE_LIMIT - len(tail) - 1
    head = clip("\n".join(headline), max(room, 0)) if headline else ""
    return "\n".join(part for part in (head, tail) if part)


# -------------------------------------------------------------------------- private view


def dm_header(table: GameRow, game: Game, *, guild_name: str, channel_name: str, jump_url: str,
              lang: str = "en") -> str:
    """Every DM says where it belongs: game, server, channel, and a short link back (a masked
    link, not a long raw address). Said once for a table's seats in a language (`HEADERS_KEPT`):
    a move's every DM begins with it, each of them built again at each edit."""
    key = (lang, table.id, game.name, game.title, guild_name, channel_name, jump_url)
    header = _headers.get(key)
    if header is None:
        header = _headers[key] = t(
            lang, "bot.table.dm_header", title=game_title(game), game_id=table.id,
            guild=discord.utils.escape_markdown(guild_name), channel=discord.utils.escape_markdown(channel_name),
            url=jump_url)
        if len(_headers) > HEADERS_KEPT:
            del _headers[next(iter(_headers))]
    return header


HEADERS_KEPT = 256
"""`dm_header`s kept: a table's in each language its players read (some 200 bytes each)."""
_headers: dict[tuple[str, int, str, str, str, str, str], str] = {}


def private_text(header: str, private_lines: Sequence[str], status: str, may_act: bool, has_components: bool,
                 lang: str = "en") -> str:
    lines = [header, *private_lines, status]
    if may_act:
        lines.append(t(lang, "bot.table.pick_below" if has_components else "bot.table.use_move"))
    return clip("\n".join(line for line in lines if line))


def stale_refusal(jump_url: str | None) -> Refusal:
    """'That board is out of date', with a link to the latest one when there is one."""
    if jump_url:
        return Refusal.of("bot.errors.stale_board_link", link=jump_url)
    return Refusal.of("bot.errors.stale_board")


# ------------------------------------------------------------------------------ alt text

ALT_TEXT_LIMIT = 1024  # Discord's limit for an attachment's description


def plain(text: str, table: GameRow) -> str:
    """Message text as a screen reader should hear it: names for mentions, no Markdown marks."""
    by_id = {player.user_id: player.name for player in table.players}
    text = MENTION.sub(lambda match: by_id.get(int(match.group(1)), ""), text)
    for mark in ("**", "__", "`", "➡️", "👉", "• "):
        text = text.replace(mark, "" if mark != "• " else "")
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def alt_text(table: GameRow, game: Game, scores: Sequence[float] | None, said: str, lang: str) -> str:
    """An image's description (Discord's alt text, up to 1,024 characters) in the table's
    language: the game, the scores with what they count, then what the message says (what just
    happened, the status and who is to act)."""
    parts = [t(lang, "bot.table.alt_title", game=game_title(game), id=table.id)]
    if scores is not None and len(scores) == len(table.players):
        unit = f"{game.name}.score"
        each = [f"{name}: " + (t(lang, unit, count=int(score)) if has_message(unit) and float(score).is_integer()
                                else f"{score:g}")
                for name, score in zip(table.names, scores)]
        parts.append(t(lang, "bot.table.alt_scores", scores="; ".join(each)))
    if said:
        parts.append(plain(said, table))
    return clip(" ".join(parts), ALT_TEXT_LIMIT)
