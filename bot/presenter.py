"""Text the bot shows: pure functions from stored rows and engine output to Markdown.

Names are escaped display names in bold; only the "your move" line uses mentions, so a move
message pings exactly the players who must act, once each.
"""
from __future__ import annotations

from typing import Iterable, Sequence

import discord

from i18n import translate
from games.core import Event, Game, Outcome, name_seats

from bot.storage import GameRow

MESSAGE_LIMIT = 2000


def bold_names(names: Sequence[str]) -> list[str]:
    return [f"**{discord.utils.escape_markdown(name)}**" for name in names]


def waiting_for(table: GameRow, seats) -> str:
    """The players a refusal says the game is waiting for, in bold: **Anna**, **Bob**."""
    return ", ".join(bold_names([table.names[seat] for seat in sorted(seats)]))


def named(text, table: GameRow, lang: str = "en") -> str:
    """Engine text (a Msg, its JSON, or a legacy string with `{s0}` placeholders) in words,
    with bold player names."""
    return translate(text, lang, bold_names(table.names))


def mention(user_id: int) -> str:
    if user_id < 0:  # bot.days: a computer seat (negative ids) is nobody to ping
        return "🤖"
    return f"<@{user_id}>"


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def timestamp(unix: int, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone."""
    return f"<t:{int(unix)}:{style}>"


def game_label(table: GameRow, game: Game) -> str:
    return f"{game.title} (game #{table.id})"


# ---------------------------------------------------------------------------------- lobby


def lobby_text(table: GameRow, game: Game) -> str:
    players = ", ".join(bold_names(table.names)) or "nobody yet"
    limits = f"{game.min_players}–{game.max_players}" if game.min_players != game.max_players else str(game.min_players)
    options = ", ".join(f"{key}: {value}" for key, value in table.options.items())
    lines = [
        f"🎲 **{game.title}** — new table (game #{table.id}), hosted by {mention(table.host_id)}",
        f"Players ({len(table.players)}, needs {limits}): {players}",
    ]
    if options:
        lines.append(f"Options: {options}")
    if table.status == "lobby":
        lines.append("Press **Join** to take a seat; the host presses **Start** when everyone is in.")
    elif table.status == "active":
        lines.append("▶️ The game has started — see the board below.")
    else:
        lines.append("This table is closed.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------- board


def public_event_lines(events: Iterable[Event], table: GameRow) -> list[str]:
    return [named(event.text, table) for event in events if event.seat is None]


def next_move_line(table: GameRow, to_act: Iterable[int]) -> str:
    mentions = [mention(table.player_at(seat).user_id) for seat in sorted(to_act)]
    if not mentions:
        return ""
    return f"➡️ {', '.join(mentions)} — your move."


def outcome_text(outcome: Outcome, table: GameRow) -> str:
    names = bold_names(table.names)
    winners = " and ".join(names[seat] for seat in outcome.winners) or "nobody"
    verb = "win" if len(outcome.winners) > 1 else "wins"
    scores = ", ".join(f"{names[seat]} {score}" for seat, score in enumerate(outcome.scores))
    reason = named(outcome.reason, table)
    return f"🏁 **Game over** — {winners} {verb}! {reason}\nScores: {scores}"


def start_text(table: GameRow, game: Game, closed_dms: Sequence[str]) -> str:
    seats = ", ".join(f"{index + 1}. {name}" for index, name in enumerate(bold_names(table.names)))
    lines = [f"🎲 **{game.title}** (game #{table.id}) has started! Seat order: {seats}"]
    if closed_dms:
        who = ", ".join(bold_names(closed_dms))
        lines.append(
            f"📭 I could not DM {who} (DMs closed): use the **My hand** button below or `/game hand` "
            "to see your private view and moves."
        )
    return "\n".join(lines)


def board_text(headline: Sequence[str], status: str, footer: str) -> str:
    """Headline lines (what happened), the public status, and who is next / the outcome.

    Trimmed from the headline so the status and the mentions always survive the length limit.
    """
    tail = "\n".join(line for line in (status, footer) if line)
    room = MESSAGE_LIMIT - len(tail) - 1
    head = clip("\n".join(headline), max(room, 0)) if headline else ""
    return "\n".join(part for part in (head, tail) if part)


# -------------------------------------------------------------------------- private view


def dm_header(table: GameRow, game: Game, *, guild_name: str, channel_name: str, jump_url: str) -> str:
    """Every DM says where it belongs: game, server, channel, and a link back."""
    return f"**{game.title}** (game #{table.id}) in **{guild_name}** › #{channel_name} — {jump_url}"


def private_text(header: str, private_lines: Sequence[str], status: str, may_act: bool, has_components: bool) -> str:
    lines = [header, *private_lines, status]
    if may_act:
        lines.append("👉 Your move: pick below." if has_components else "👉 Your move: use `/move` in the game channel.")
    return clip("\n".join(line for line in lines if line))


def stale_text(table: GameRow, jump_url: str | None) -> str:
    where = f": {jump_url}" if jump_url else "."
    return f"That board is out of date — use the latest one{where}"
