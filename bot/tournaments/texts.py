"""The tournaments' words (catalogue `bot.tournaments`): the one message (the sign-up, then the
standings, then the final standings with the winner), a player's own status, and the lines a
table's thread opens with. Names are in bold and never mention anyone; threads are `<#…>` links.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from babel.numbers import format_decimal

import i18n
from bot import presenter
from bot.tournaments.storage import EntrantRow, TableRow, TournamentRow

STANDINGS_SHOWN = 16   # lines of standings the message shows at most (the rest: "and n more")
LINE_ROOM = 120        # room kept for the last lines of the message


def words(lang: str, key: str, **params: Any) -> str:
    return i18n.t(lang, f"bot.tournaments.{key}", **params)


def number(value: float, lang: str) -> str:
    """3 / 3.5 (3,5 in German): points and scores with a decimal only where they have one."""
    return format_decimal(value, format="#,##0.#", locale=lang)


def bold(name: str) -> str:
    return f"**{discord.utils.escape_markdown(name)}**"


def duration(seconds: int, lang: str) -> str:
    """'3 days' / '12 hours' for a time per game or a sign-up."""
    if seconds % 86400 == 0:
        return words(lang, "days", count=seconds // 86400)
    return words(lang, "hours", count=max(1, round(seconds / 3600)))


def title_line(tournament: TournamentRow, title: str, lang: str) -> str:
    return words(lang, "title", id=tournament.id, game=discord.utils.escape_markdown(title))


def setup_line(tournament: TournamentRow, lang: str) -> str:
    rounds = (words(lang, "rounds", count=tournament.rounds) if tournament.rounds
              else words(lang, "rounds_open"))
    return words(lang, "setup", format=words(lang, f"format.{tournament.format}"), size=tournament.size,
                 rounds=rounds)


def time_line(tournament: TournamentRow, lang: str) -> str:
    if tournament.game_time is None:
        return words(lang, "no_time_limit")
    return words(lang, "time_limit", time=duration(tournament.game_time, lang),
                 rule=words(lang, f"rule.{tournament.overtime}"))


def tables_line(settings: dict[str, Any], lang: str) -> str:
    """What every table of the tournament gets (bot.days): the time for a move and what happens
    after it, the reminder, the computer players' strength."""
    deadline = settings.get("deadline")
    if deadline is None:
        move = words(lang, "tables.no_deadline")
    else:
        move = words(lang, "tables.deadline", time=duration(int(deadline), lang),
                     then=words(lang, f"tables.timeout.{settings.get('timeout', 'computer')}"))
    reminder = settings.get("reminder")
    remind = (words(lang, "tables.reminder", time=duration(int(reminder), lang)) if reminder
              else words(lang, "tables.no_reminder"))
    strength = words(lang, f"tables.strength.{settings.get('strength', 'normal')}")
    return words(lang, "tables.line", move=move, reminder=remind, strength=strength)


def settings_lines(tournament: TournamentRow, lang: str) -> str:
    """The settings an organiser may change in the sign-up, as they are now."""
    if tournament.signup_until is not None:
        signup = words(lang, "signup_until", when=presenter.timestamp(tournament.signup_until, "f"),
                       left=presenter.timestamp(tournament.signup_until))
    else:
        signup = words(lang, "signup_by_hand")
    return "\n".join((tables_line(tournament.settings, lang), signup))


def standings_lines(rows: Sequence[tuple[int, EntrantRow, float, float, float]], lang: str,
                    knockout_out: dict[int, int] | None = None) -> list[str]:
    """(place, entrant, points, opponents' points, score) -> one line each, as many as fit."""
    lines = []
    for place, entrant, points, opponents, score in rows[:STANDINGS_SHOWN]:
        name = bold(entrant.name)
        if entrant.withdrawn is not None:
            name += " " + words(lang, "left_mark" if entrant.left_server else "withdrawn_mark")
        if knockout_out is not None:
            out = knockout_out.get(entrant.user_id)
            line = (words(lang, "knockout_out", place=place, player=name, round=out) if out is not None
                    else words(lang, "knockout_in", place=place, player=name))
        else:
            line = words(lang, "standing_line", place=place, player=name, points=number(points, lang),
                         opponents=number(opponents, lang), score=number(score, lang))
        lines.append(line)
    if len(rows) > STANDINGS_SHOWN:
        lines.append(words(lang, "more", count=len(rows) - STANDINGS_SHOWN))
    return lines


def table_lines(tables: Sequence[TableRow], names: dict[int, str], lang: str, bye_points: str) -> list[str]:
    lines = []
    byes = []
    for table in tables:
        players = i18n.join_list([bold(names.get(user, "?")) for user in table.players], lang)
        if table.status == "bye":
            byes.append(players)
            continue
        where = f"<#{table.thread_id}>" if table.thread_id is not None else words(lang, "table_opening")
        mark = {"done": "✅", "playing": "⏰" if table.overtime else "⏳"}.get(table.status, "…")
        lines.append(words(lang, "table_line", number=table.number, where=where, players=players, mark=mark))
    if byes:
        lines.append(words(lang, "bye_line", players=i18n.join_list(byes, lang), points=bye_points))
    return lines


def signup_text(tournament: TournamentRow, title: str, entrants: Sequence[EntrantRow], lang: str) -> str:
    lines = [title_line(tournament, title, lang), setup_line(tournament, lang)]
    if tournament.signup_until is not None:
        lines.append(words(lang, "signup_until", when=presenter.timestamp(tournament.signup_until, "f"),
                           left=presenter.timestamp(tournament.signup_until)))
    else:
        lines.append(words(lang, "signup_by_hand"))
    lines.append(time_line(tournament, lang))
    lines.append(tables_line(tournament.settings, lang))
    if entrants:
        names = i18n.join_list([bold(entrant.name) for entrant in entrants], lang)
        lines.append(words(lang, "signed_up", count=len(entrants), players=names))
    else:
        lines.append(words(lang, "nobody_yet"))
    lines.append(words(lang, "join_hint"))
    return presenter.clip("\n".join(lines))


def running_text(tournament: TournamentRow, title: str, standings: list[str], tables: list[str], lang: str) -> str:
    head = [title_line(tournament, title, lang), setup_line(tournament, lang),
            words(lang, "round_of", round=tournament.round, rounds=tournament.rounds or "?"),
            time_line(tournament, lang)]
    return _fit(head, [words(lang, "standings_head"), *standings], [words(lang, "round_head", round=tournament.round),
                                                                    *tables])


def finished_text(tournament: TournamentRow, title: str, winner: str | None, standings: list[str], lang: str) -> str:
    head = [title_line(tournament, title, lang), setup_line(tournament, lang)]
    head.append(words(lang, "winner", player=bold(winner)) if winner is not None else words(lang, "no_winner"))
    return _fit(head, [words(lang, "final_head"), *standings], [])


def cancelled_text(tournament: TournamentRow, title: str, count: int, needed: int, lang: str,
                   standings: Sequence[str] = ()) -> str:
    """Cancelled: too few signed up when the sign-up's time ran out, or by an organiser (during
    the sign-up, or in a round: what became of the tables still being played, and the standings
    as they were)."""
    head = [title_line(tournament, title, lang)]
    if tournament.cancelled_by is None:
        return "\n".join((*head, words(lang, "cancelled", count=count, needed=needed)))
    who = f"<@{tournament.cancelled_by}>"  # a mention that pings nobody: the message allows none
    if tournament.round == 0:
        return "\n".join((*head, words(lang, "cancelled_signup", who=who)))
    head.append(setup_line(tournament, lang))
    rounds = tournament.rounds or "?"
    if tournament.cancel_tables is None:
        head.append(words(lang, "cancelled_running_none", who=who, round=tournament.round, rounds=rounds))
    else:
        rule = tournament.overtime if tournament.cancel_tables == "rule" else "abandon"
        head.append(words(lang, "cancelled_running", who=who, round=tournament.round, rounds=rounds,
                          tables=words(lang, f"cancel_tables.{rule}")))
    return _fit(head, [words(lang, "cancelled_head"), *standings], [])


def _fit(head: list[str], first: list[str], second: list[str]) -> str:
    """Head, then the second block (the round's tables) whole if it fits, then as much of the
    first (the standings) as fits in one message."""
    text = "\n".join(head + ([""] + second if second else []))
    room = presenter.MESSAGE_LIMIT - len(text) - 2
    kept: list[str] = []
    for line in first:
        if len(line) + 1 > room - LINE_ROOM and kept:
            break
        kept.append(line)
        room -= len(line) + 1
    parts = head + [""] + kept + ([""] + second if second else [])
    return presenter.clip("\n".join(parts))

