"""What the league stores (`bot.league.migrations`), beside the games: ratings and their history, the facts
they are worked out from, each move's public words for the recap, and each server's overview.

- `league_moves`: per game, seat and holder, the moves made there by the person and by the
  computer (written with every move, in its transaction): substitutes' shares and the rule that
  leaves out games the computer played.
- `league_games`: every finished game in the order the games ended, and whether it was rated.
- `league_ratings`: each player's current rating per server and game (the leaderboard reads
  only this); `league_history`: each rated game's rating before and after, per player.
  Both are rebuilt from the stored results by `python -m bot ratings rebuild`.
- `league_lines`: each public move's words (engine texts, any language), for the recap;
  `league_turns`: the version at which each game's open turn began.
- `league_overviews`: each server's overview message, and whether it owes an edit
  (`wanted` > `shown`).

A repository over the database it holds. What games over days know (practice tables, seats the
computer played, who waits since when) it asks of their repository (`bot.days.storage`), never
of their tables.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.days.storage import DaysRepository
from bot.league.ratings import Change, Rating, SeatMoves
from bot.storage.database import Database, Write, run_writes


def _now() -> int:
    return int(time.time())


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    name: str
    rating: Rating


@dataclass(frozen=True)
class HistoryRow:
    game_id: int
    user_id: int
    name: str
    seat: int
    share: float
    place: int
    before: Rating
    after: Rating


@dataclass(frozen=True)
class OverviewRow:
    guild_id: int
    channel_id: int
    message_id: int | None
    lang: str
    wanted: int
    shown: int
    posts: int


# ------------------------------------------------------------------- statements (a change's own)


def moves_write(game_id: int, seat: int, user_id: int, name: str, *, computer: bool) -> list[Write]:
    """One more move at `seat` while `user_id` holds it, by the person or by the computer."""
    column = "computer" if computer else "person"
    # One upsert: the row made with its first move, or counted on (two statements before).
    return [(f"INSERT INTO league_moves (game_id, seat, user_id, name, {column}) VALUES (?, ?, ?, ?, 1) "
             f"ON CONFLICT (game_id, seat, user_id) DO UPDATE SET {column} = league_moves.{column} + 1, "
             "name = excluded.name",
             (game_id, seat, user_id, name))]


def lines_write(game_id: int, version: int, seat: int, texts: list) -> Write:
    """A public move's words (engine texts as JSON), for the recap."""
    return ("INSERT OR IGNORE INTO league_lines (game_id, version, seat, texts) VALUES (?, ?, ?, ?)",
            (game_id, version, seat, json.dumps(texts)))


def turn_write(game_id: int, version: int) -> Write:
    """Remember the version at which the game's open turn began. Runs after the change's own
    statements (bot.moves puts its listeners' last), so it reads the turn number the change set:
    the first change of a new turn stores its version, later ones leave it."""
    return ("INSERT INTO league_turns (game_id, turn, version) SELECT id, turn_number, ? FROM games WHERE id = ? "
            "ON CONFLICT (game_id) DO UPDATE SET turn = excluded.turn, version = excluded.version "
            "WHERE league_turns.turn <> excluded.turn", (version, game_id))


def overview_owed_write(guild_id: int) -> Write:
    """The server's overview (if it has one) owes an edit."""
    return ("UPDATE league_overviews SET wanted = wanted + 1 WHERE guild_id = ?", (guild_id,))


def finished_writes(game_id: int, guild_id: int, game: str, reason: str | None, changes: Iterable[Change],
                    stored: dict[int, RatingRow]) -> list[Write]:
    """A finished game: its place in the order of ended games, and (rated) each player's new
    rating and history row. The rating is written as a change of what is stored (mu plus its
    difference, sigma times its factor), so two games that end at the same moment and share a
    player both count (each reckoned from the rating before either); a rebuild reckons them one
    after the other."""
    now = _now()
    writes: list[Write] = [("INSERT OR IGNORE INTO league_games (game_id, rated, reason) VALUES (?, ?, ?)",
                            (game_id, int(reason is None), reason))]
    for change in changes:
        entry, after = change.entry, change.after
        writes.append((
            "INSERT INTO league_ratings (guild_id, game, user_id, name, mu, sigma, games, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
            "mu = league_ratings.mu + ?, sigma = league_ratings.sigma * ?, games = league_ratings.games + 1, "
            "name = excluded.name, updated_at = excluded.updated_at",
            (guild_id, game, entry.user_id, entry.name, after.mu, after.sigma, now,
             change.mu_delta, change.sigma_factor)))
        writes.append(history_write(game_id, guild_id, game, change, now))
    return writes


def history_write(game_id: int, guild_id: int, game: str, change: Change, at: int) -> Write:
    entry, before, after = change.entry, change.before, change.after
    return ("INSERT INTO league_history (game_id, user_id, guild_id, game, name, seat, share, place, mu_before, "
            "sigma_before, mu_after, sigma_after, games, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, entry.user_id, guild_id, game, entry.name, entry.seat, entry.share, entry.place, before.mu,
             before.sigma, after.mu, after.sigma, after.games, at))


def forget_lines_write(game_id: int) -> list[Write]:
    """An ended game needs no recap any more."""
    return [("DELETE FROM league_lines WHERE game_id = ?", (game_id,)),
            ("DELETE FROM league_turns WHERE game_id = ?", (game_id,))]


# ---------------------------------------------------------------------------------- reads


class LeagueRepository:
    """What the league stores (see the module's docstring), over the database it holds."""

    def __init__(self, database: Database, days: DaysRepository) -> None:
        self.db = database
        self.days = days

    # ------------------------------------------------------------------------ ratings

    async def ratings(self, guild_id: int, game: str, user_ids: Iterable[int] | None = None
                      ) -> dict[int, RatingRow]:
        """Current ratings of one game on one server (of `user_ids`, or everyone's)."""
        rows = await self.db.rows("SELECT user_id, name, mu, sigma, games FROM league_ratings WHERE guild_id = ? "
                                  "AND game = ?", (guild_id, game))
        wanted = None if user_ids is None else set(user_ids)
        return {r["user_id"]: RatingRow(r["user_id"], r["name"], Rating(r["mu"], r["sigma"], r["games"]))
                for r in rows if wanted is None or r["user_id"] in wanted}

    async def top(self, guild_id: int, game: str, limit: int) -> list[RatingRow]:
        """The best ratings of one game on one server, best first (by mu - 3 sigma)."""
        rows = await self.db.rows(
            "SELECT user_id, name, mu, sigma, games FROM league_ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY mu - 3 * sigma DESC, games DESC, user_id LIMIT ?", (guild_id, game, limit))
        return [RatingRow(r["user_id"], r["name"], Rating(r["mu"], r["sigma"], r["games"])) for r in rows]

    async def rank(self, guild_id: int, game: str, user_id: int) -> tuple[int, int] | None:
        """(place, players) of a player among one game's ratings on one server; None if unrated."""
        row = await self.db.row(
            "SELECT (SELECT COUNT(*) FROM league_ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game "
            "AND (o.mu - 3 * o.sigma > r.mu - 3 * r.sigma OR (o.mu - 3 * o.sigma = r.mu - 3 * r.sigma AND "
            "(o.games > r.games OR (o.games = r.games AND o.user_id < r.user_id))))) AS above, "
            "(SELECT COUNT(*) FROM league_ratings o WHERE o.guild_id = r.guild_id AND o.game = r.game) AS everyone "
            "FROM league_ratings r WHERE r.guild_id = ? AND r.game = ? AND r.user_id = ?", (guild_id, game, user_id))
        return None if row is None else (row["above"] + 1, row["everyone"])

    async def player(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        """A player's rating in each game they have one for on this server."""
        rows = await self.db.rows(
            "SELECT game, mu, sigma, games FROM league_ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return {r["game"]: Rating(r["mu"], r["sigma"], r["games"]) for r in rows}

    async def history(self, guild_id: int, game: str, user_id: int) -> list[Rating]:
        """A player's rating after each of their rated games of one game on one server, in order."""
        rows = await self.db.rows(
            "SELECT h.mu_after, h.sigma_after, h.games FROM league_history h JOIN league_games o "
            "ON o.game_id = h.game_id WHERE h.guild_id = ? AND h.game = ? AND h.user_id = ? ORDER BY o.seq",
            (guild_id, game, user_id))
        return [Rating(r["mu_after"], r["sigma_after"], r["games"]) for r in rows]

    async def game_changes(self, game_id: int) -> list[HistoryRow]:
        """Each player's rating before and after one game (none if it was not rated)."""
        rows = await self.db.rows("SELECT * FROM league_history WHERE game_id = ? ORDER BY seat, share DESC",
                                  (game_id,))
        return [HistoryRow(r["game_id"], r["user_id"], r["name"], r["seat"], r["share"], r["place"],
                           Rating(r["mu_before"], r["sigma_before"], r["games"] - 1),
                           Rating(r["mu_after"], r["sigma_after"], r["games"])) for r in rows]

    async def seat_moves(self, game_id: int) -> dict[int, list[SeatMoves]]:
        """seat -> who moved there and how often (person, computer)."""
        moves: dict[int, list[SeatMoves]] = {}
        for r in await self.db.rows("SELECT seat, user_id, name, person, computer FROM league_moves WHERE game_id = ? "
                                    "ORDER BY seat, user_id", (game_id,)):
            moves.setdefault(r["seat"], []).append(SeatMoves(r["user_id"], r["name"], r["person"], r["computer"]))
        return moves

    # ------------------------------------------------------------------------- rebuild

    async def finished_games(self) -> list[dict[str, Any]]:
        """Every finished or abandoned game in the order the games ended (those that ended before
        the league kept the order first, by when they ended), with what rating it needs."""
        rows = await self.db.rows(
            "SELECT g.id, g.guild_id, g.game, g.status, g.result, g.updated_at, o.seq "
            "FROM games g LEFT JOIN league_games o ON o.game_id = g.id WHERE g.status IN ('finished', 'abandoned') "
            "ORDER BY o.seq IS NOT NULL, o.seq, g.updated_at, g.id")
        practice = await self.days.practice_tables()
        seats = await self.db.rows(
            "SELECT s.game_id, s.seat, s.user_id, s.name FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE g.status IN ('finished', 'abandoned') AND s.seat IS NOT NULL")
        computer = await self.days.computer_seats_of_ended_games()
        moves = await self.db.rows(
            "SELECT m.game_id, m.seat, m.user_id, m.name, m.person, m.computer FROM league_moves m "
            "JOIN games g ON g.id = m.game_id WHERE g.status IN ('finished', 'abandoned') "
            "ORDER BY m.game_id, m.seat, m.user_id")
        games = {r["id"]: {"id": r["id"], "guild_id": r["guild_id"], "game": r["game"], "status": r["status"],
                           "ended_at": r["updated_at"],
                           "result": json.loads(r["result"]) if r["result"] else {}, "practice": r["id"] in practice,
                           "holders": {}, "computer": {}, "moves": {}} for r in rows}
        for r in seats:
            games[r["game_id"]]["holders"][r["seat"]] = (r["user_id"], r["name"])
        for game_id, seats_played in computer.items():
            if game_id in games:
                games[game_id]["computer"].update(seats_played)
        for r in moves:
            games[r["game_id"]]["moves"].setdefault(r["seat"], []).append(
                SeatMoves(r["user_id"], r["name"], r["person"], r["computer"]))
        return [games[r["id"]] for r in rows]

    async def replace_all(self, verdicts: list[tuple[int, str | None]], writes: list[Write]) -> None:
        """A rebuild: every rating and history row replaced, and each finished game's verdict, in
        one transaction (games that end meanwhile wait for it, then count on top)."""
        async with self.db.transaction() as db:
            await db.execute("DELETE FROM league_history", ())
            await db.execute("DELETE FROM league_ratings", ())
            for game_id, reason in verdicts:
                await db.execute("INSERT OR IGNORE INTO league_games (game_id, rated, reason) VALUES (?, ?, ?)",
                                 (game_id, int(reason is None), reason))
                await db.execute("UPDATE league_games SET rated = ?, reason = ? WHERE game_id = ?",
                                 (int(reason is None), reason, game_id))
            await run_writes(db, writes)

    # --------------------------------------------------------------------------- recap

    async def lines_between(self, game_id: int, after: int, before: int | None = None
                            ) -> list[tuple[int, int, list]]:
        """(version, seat, texts) of the public moves after version `after` (and before `before`)."""
        if before is None:
            rows = await self.db.rows("SELECT version, seat, texts FROM league_lines WHERE game_id = ? AND version > ? "
                                      "ORDER BY version", (game_id, after))
        else:
            rows = await self.db.rows("SELECT version, seat, texts FROM league_lines WHERE game_id = ? AND version > ? "
                                      "AND version < ? ORDER BY version", (game_id, after, before))
        return [(r["version"], r["seat"], json.loads(r["texts"])) for r in rows]

    async def turn_recap_moves(self, game_id: int, turn: int, seats: Sequence[int]) -> list[tuple[int, int, list]]:
        """`lines_between` the oldest of these seats' last moves before turn `turn` began and its
        start (`turn_start`, `last_move`): what a turn message recaps for them, in one read (one
        hand-over, where three a turn message were). Nothing if the turn's start is not known."""
        return (await self.turn_recap(game_id, turn, seats))[1]

    async def turn_recap(self, game_id: int, turn: int, seats: Sequence[int]
                         ) -> tuple[int | None, list[tuple[int, int, list]]]:
        """`turn_recap_moves`, with the turn's start (None: not known) read with them (one
        hand-over). Once the start is known, what it answers for the turn never changes: the
        moves and lines before a turn's start are the game's history, only added to after it."""
        if not seats:
            return None, []
        start = "(SELECT version FROM league_turns WHERE game_id = ? AND turn = ?)"
        lasts = " UNION ALL ".join(
            "SELECT COALESCE(MAX(version), 0) AS last FROM actions WHERE game_id = ? AND seat = ? "
            f"AND version < {start}" for _ in seats)
        starts, rows = await self.db.reads([
            ("SELECT version FROM league_turns WHERE game_id = ? AND turn = ?", (game_id, turn)),
            (f"SELECT version, seat, texts FROM league_lines WHERE game_id = ? AND version < {start} "
             f"AND version > (SELECT MIN(last) FROM ({lasts}) AS lasts) ORDER BY version",
             (game_id, game_id, turn, *(value for seat in seats for value in (game_id, seat, game_id, turn))))])
        return (starts[0]["version"] if starts else None), [(r["version"], r["seat"], json.loads(r["texts"]))
                                                             for r in rows]

    async def turn_start(self, game_id: int, turn: int) -> int | None:
        """The version at which turn `turn` of the game began (None: not known)."""
        row = await self.db.row("SELECT version FROM league_turns WHERE game_id = ? AND turn = ?", (game_id, turn))
        return None if row is None else row["version"]

    async def last_move(self, game_id: int, seats: Iterable[int], before: int | None = None) -> int:
        """The newest log row of these seats (a move, an undo, taking the seat), before version
        `before`; 0 if none."""
        seats = list(seats)
        if not seats:
            return 0
        marks = ", ".join("?" * len(seats))
        limit = "" if before is None else " AND version < ?"
        row = await self.db.row("SELECT MAX(version) AS last FROM actions "
                                f"WHERE game_id = ? AND seat IN ({marks}){limit}",
                                (game_id, *seats, *(() if before is None else (before,))))
        return (row["last"] if row is not None else None) or 0

    # ------------------------------------------------------------------------ overview

    async def overview(self, guild_id: int) -> OverviewRow | None:
        row = await self.db.row("SELECT * FROM league_overviews WHERE guild_id = ?", (guild_id,))
        return None if row is None else OverviewRow(row["guild_id"], row["channel_id"], row["message_id"], row["lang"],
                                                    row["wanted"], row["shown"], row["posts"])

    async def overviews_owed(self) -> list[int]:
        """The servers whose overview owes an edit."""
        return [r["guild_id"] for r in await self.db.rows("SELECT guild_id FROM league_overviews WHERE wanted > shown "
                                                          "ORDER BY guild_id")]

    async def overview_here(self, guild_id: int, channel_id: int, lang: str) -> OverviewRow | None:
        """The server's overview is to live in `channel_id` (posted anew if it was elsewhere).
        Returns the row as it was (its old message may be removed)."""
        old = await self.overview(guild_id)
        if old is not None and old.channel_id == channel_id:
            await self.db.update("UPDATE league_overviews SET lang = ?, wanted = wanted + 1 WHERE guild_id = ?",
                                 (lang, guild_id))
            return old
        await self.db.apply([
            ("DELETE FROM league_overviews WHERE guild_id = ?", (guild_id,)),
            ("INSERT INTO league_overviews (guild_id, channel_id, lang, wanted, shown, posts) "
             "VALUES (?, ?, ?, 1, 0, ?)",
             (guild_id, channel_id, lang, 0 if old is None else old.posts + 1)),
        ])
        return old

    async def overview_off(self, guild_id: int) -> OverviewRow | None:
        old = await self.overview(guild_id)
        await self.db.update("DELETE FROM league_overviews WHERE guild_id = ?", (guild_id,))
        return old

    async def overview_shown(self, guild_id: int, channel_id: int, *, message_id: int, shown: int) -> None:
        """The overview message `message_id` shows what was owed up to `shown`."""
        await self.db.update("UPDATE league_overviews SET message_id = ?, "
                             "shown = CASE WHEN shown > ? THEN shown ELSE ? END WHERE guild_id = ? AND channel_id = ?",
                             (message_id, shown, shown, guild_id, channel_id))

    async def overview_gone(self, guild_id: int, message_id: int) -> None:
        """The overview message was deleted: a new one is posted (with a nonce of its own)."""
        await self.db.update("UPDATE league_overviews SET message_id = NULL, posts = posts + 1 WHERE guild_id = ? "
                             "AND message_id = ?", (guild_id, message_id))

    async def overview_games(self, guild_id: int) -> list[dict[str, Any]]:
        """The server's games being played, oldest first: each with its seats, who is to act
        (bot.days keeps each waiting seat's `since`) and the board message."""
        rows = await self.db.rows(
            "SELECT g.id, g.game, g.channel_id, g.board_message_id, g.board_turn, g.turn_number, s.seat, s.name, "
            "s.user_id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.guild_id = ? AND g.status = 'active' AND s.seat IS NOT NULL "
            "ORDER BY g.id, s.seat", (guild_id,))
        since = await self.days.waiting_since({r["id"] for r in rows})
        games: dict[int, dict[str, Any]] = {}
        for r in rows:
            game = games.setdefault(r["id"], {"id": r["id"], "game": r["game"], "channel_id": r["channel_id"],
                                              "board_message_id": r["board_message_id"], "names": [], "waiting": [],
                                              "board_current": r["board_turn"] == r["turn_number"]})
            game["names"].append(r["name"])
            if (waiting := since.get(r["id"], {}).get(r["seat"])) is not None:
                game["waiting"].append((r["seat"], waiting))
        return list(games.values())
