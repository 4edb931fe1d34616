"""What the league says: the leaderboard, the rating lines of `/game stats`, and each person's
change at the end of a game. Numbers in the reader's language (Babel)."""
from __future__ import annotations

from collections.abc import Sequence

import discord
from babel.numbers import format_decimal

import i18n
from bot import presenter
from bot.league.ratings import PROVISIONAL_GAMES, Rating
from bot.league.storage import HistoryRow, RatingRow

LEADERBOARD_SIZE = 10


def number(value: int, lang: str) -> str:
    return format_decimal(value, format="#,##0", locale=lang)


def signed(value: int, lang: str) -> str:
    """+12 / −7 (a true minus sign) / ±0."""
    if value == 0:
        return "±0"
    return ("+" if value > 0 else "−") + number(abs(value), lang)


def _name(name: str) -> str:
    return f"**{discord.utils.escape_markdown(name)}**"


def _provisional(rating: Rating, lang: str) -> str:
    return " " + i18n.t(lang, "bot.league.provisional", games=rating.games, needed=PROVISIONAL_GAMES) \
        if rating.provisional else ""


def leaderboard_text(rows: Sequence[RatingRow], title: str, lang: str, *, asker: RatingRow | None = None,
                     asker_rank: tuple[int, int] | None = None) -> str:
    """The top players of one game on this server by rating; the asker's own line below when
    they are rated but not among them."""
    if not rows:
        return i18n.t(lang, "bot.league.leaderboard_none", game=title)
    lines = [i18n.t(lang, "bot.league.leaderboard_title", game=title)]
    for rank, row in enumerate(rows, 1):
        lines.append(i18n.t(lang, "bot.league.leaderboard_line", rank=rank, player=_name(row.name),
                            rating=number(row.rating.points, lang), count=row.rating.games)
                     + _provisional(row.rating, lang))
    if asker is not None and asker_rank is not None and all(row.user_id != asker.user_id for row in rows):
        lines.append(i18n.t(lang, "bot.league.leaderboard_you", rank=asker_rank[0], players=asker_rank[1],
                            rating=number(asker.rating.points, lang)) + _provisional(asker.rating, lang))
    lines.append(i18n.t(lang, "bot.league.leaderboard_note", count=PROVISIONAL_GAMES))
    return presenter.clip("\n".join(lines))


def stats_lines(ratings: dict[str, tuple[Rating, tuple[int, int] | None]], titles: dict[str, str],
                lang: str) -> list[str]:
    """`/game stats`: the player's rating in each game they have one for, and their place."""
    lines = []
    for game in sorted(ratings, key=lambda name: titles.get(name, name)):
        rating, rank = ratings[game]
        line = i18n.t(lang, "bot.league.stats_line", game=titles.get(game, game), rating=number(rating.points, lang),
                      count=rating.games)
        if rank is not None:
            line += " " + i18n.t(lang, "bot.league.stats_rank", rank=rank[0], players=rank[1])
        lines.append(line + _provisional(rating, lang))
    return lines


def end_text(changes: Sequence[HistoryRow], lang: str) -> str:
    """The end message's rating line: each person's new rating and its change."""
    if not changes:
        return ""
    parts = []
    for row in changes:
        before, after = row.before.points, row.after.points
        part = i18n.t(lang, "bot.league.end_part", player=_name(row.name), rating=number(after, lang),
                      change=signed(after - before, lang))
        if row.share < 1:
            part += " " + i18n.t(lang, "bot.league.end_share", percent=round(100 * row.share))
        if row.after.provisional:
            part += " " + i18n.t(lang, "bot.league.end_provisional")
        parts.append(part)
    return i18n.t(lang, "bot.league.end_title", changes=" · ".join(parts))
