"""Records: who won what on a server, the end-of-game message, and replay files.

Counted from the stored results (`GamesRepository.results_in_guild`):
- a game finished by its rules counts for every seat: played, won if among the winners, and its
  score (from the result's `scores`) goes into the average;
- a resigned game counts as lost for the player who resigned; with two players the other one
  won it (it is stored as finished), with more it is stored as abandoned and counts only for the
  one who resigned;
- an abandoned game (and a lobby nobody started) does not count.

The texts come from the `bot.records` catalogue, numbers are formatted with Babel in the reader's
language.
"""
from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from babel.numbers import format_decimal, format_percent

import i18n
from bot import presenter
from bot.locale import table_language
from bot.storage import GameRow, ResultRow
from bot.store import Storage
from games.core import Action, Game, Msg, Outcome, hooks
from games.replay import Move, ReplayError, dumps, export_game, moves_from
from i18n import game_title, t, translate
from renderers.score_chart import render_chart_png

log = logging.getLogger(__name__)

LEADERBOARD_SIZE = 10


@dataclass
class Record:
    """One player's games of one game on one server."""

    user_id: int
    name: str
    game: str
    played: int = 0
    won: int = 0
    score_total: float = 0
    scored: int = 0  # games with a score (a resigned game has none)

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_score(self) -> float | None:
        return self.score_total / self.scored if self.scored else None


def tally(results: Iterable[ResultRow]) -> dict[tuple[int, str], Record]:
    """Records by (user id, game) from ended games, oldest first (the latest name wins)."""
    records: dict[tuple[int, str], Record] = {}
    for row in results:
        result = row.result or {}
        resigned = result.get("resigned")
        if row.status == "abandoned":
            if resigned is None:
                continue  # abandoned: does not count
            counted = [p for p in row.players if p.seat == resigned]
        elif row.status == "finished":
            counted = list(row.players)
        else:
            continue
        winners = set(result.get("winners") or ())
        scores = result.get("scores")
        for player in counted:
            record = records.setdefault((player.user_id, row.game), Record(player.user_id, player.name, row.game))
            record.name = player.name
            record.played += 1
            if player.seat in winners and player.seat != resigned:
                record.won += 1
            seat = player.seated  # a finished game's players all have seats
            if isinstance(scores, list) and seat < len(scores) and isinstance(scores[seat], (int, float)):
                record.score_total += scores[seat]
                record.scored += 1
    return records


def player_records(results: Iterable[ResultRow], user_id: int, game: str | None = None) -> list[Record]:
    """A player's records, one per game they played (by game name)."""
    return sorted((r for (uid, name), r in tally(results).items() if uid == user_id and game in (None, name)),
                  key=lambda r: r.game)


def leaderboard(results: Iterable[ResultRow], game: str, limit: int = LEADERBOARD_SIZE) -> list[Record]:
    """The top players of one game: most wins, then best win rate, then most games played."""
    records = [r for (_, name), r in tally(results).items() if name == game]
    records.sort(key=lambda r: (-r.won, -r.win_rate, -r.played, r.name.lower()))
    return records[:limit]


# ------------------------------------------------------------------------------ texts


def _rate(value: float, lang: str) -> str:
    return format_percent(value, locale=lang)


def _average(value: float | None, lang: str) -> str:
    return "–" if value is None else format_decimal(value, format="#,##0.0", locale=lang)


def _name(name: str) -> str:
    return f"**{discord.utils.escape_markdown(name)}**"


def stats_text(records: Sequence[Record], player_name: str, titles: dict[str, str], lang: str) -> str:
    if not records:
        return i18n.t(lang, "bot.records.stats_none", player=_name(player_name))
    lines = [i18n.t(lang, "bot.records.stats_title", player=_name(player_name))]
    for record in records:
        lines.append(i18n.t(lang, "bot.records.stats_line", game=titles.get(record.game, record.game),
                            played=record.played, won=record.won, rate=_rate(record.win_rate, lang),
                            average=_average(record.average_score, lang)))
    lines.append(i18n.t(lang, "bot.records.counting_note"))
    return presenter.clip("\n".join(lines))


def leaderboard_text(records: Sequence[Record], title: str, lang: str) -> str:
    if not records:
        return i18n.t(lang, "bot.records.leaderboard_none", game=title)
    lines = [i18n.t(lang, "bot.records.leaderboard_title", game=title)]
    for rank, record in enumerate(records, 1):
        lines.append(i18n.t(lang, "bot.records.leaderboard_line", rank=rank, player=_name(record.name),
                            won=record.won, played=record.played, rate=_rate(record.win_rate, lang),
                            average=_average(record.average_score, lang)))
    lines.append(i18n.t(lang, "bot.records.counting_note"))
    return presenter.clip("\n".join(lines))


# ------------------------------------------------------------------------- scores over time


def running_scores(game: Game, state: Any) -> list[float] | None:
    """Each seat's score in a state, for the chart: the outcome's scores once over; else the
    engine's optional `scores(state)`; else what the public view shows (a "scores" list, or each
    player's "score"/"points"/"castles"). None when the game shows no scores."""
    outcome = game.outcome(state)
    if outcome is not None:
        return list(outcome.scores)
    if game.features.scores:
        return list(hooks(game).scores(state))
    view = game.view(state, None)
    if isinstance(view.get("scores"), list):
        return list(view["scores"])
    players = view.get("players")
    if isinstance(players, list) and players and all(isinstance(p, dict) for p in players):
        for key in ("score", "points", "castles"):
            if all(isinstance(p.get(key), (int, float)) and not isinstance(p.get(key), bool) for p in players):
                return [p[key] for p in players]
    return None


def score_history(game: Game, table: GameRow, moves: Sequence[Move]) -> list[list[float]]:
    """The scores after every move (index 0: the start), rebuilt from seed and moves."""
    state = game.new_game(len(table.players), seed=table.started_seed, options=table.options)
    history = []
    scores = running_scores(game, state)
    if scores is not None:
        history.append(scores)
    for move in moves:
        state, _ = game.apply(state, move.seat, Action.parse(move.action))
        scores = running_scores(game, state)
        if scores is not None:
            history.append(scores)
    return history


# -------------------------------------------------------------------------- end of game


def outcome_record(outcome: Outcome) -> dict:
    """How a finished game ended, as its stored result."""
    reason = outcome.reason.to_json() if isinstance(outcome.reason, Msg) else outcome.reason
    return {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": reason}


class BoardPictures(Protocol):
    """What an end message needs of a board's content (bot.delivery.content.Content)."""

    def footer(self, table: GameRow, game: Game, state: Any) -> tuple[str, list[int]]: ...

    async def image(self, view: dict[str, Any], names: list[str], filename: str, lang: str = "en",
                    description: str | None = None) -> discord.File | None: ...


class EndMessages:
    """The one message at the end of a game, in the table's channel and language: what the last
    move did (or how the game ended early), the final board, the scores and how the game was won,
    and a chart of the scores over the game. It is the table's last board. The delivery worker
    posts it (bot.delivery.worker); if a picture cannot be drawn the message goes out without it.
    """

    def __init__(self, content: BoardPictures, storage: Storage) -> None:
        self.content = content
        self.storage = storage

    async def __call__(self, table: GameRow, game: Game, state: Any) -> tuple[str, list[discord.File]]:
        lang = table_language(table)
        export = i18n.t(lang, "bot.records.end_export")
        if game.outcome(state) is not None:
            footer, _ = self.content.footer(table, game, state)
            # No status line: at the end it only says again who won, which the outcome says once.
            text = presenter.board_text([str(line) for line in table.turn_lines], "", "\n".join((footer, export)))
        else:  # resigned, abandoned, out of time: the board as it was left
            text = "\n".join((*(str(line) for line in table.turn_lines), export))
        return presenter.clip(text), await self._board_and_chart(table, game, state, lang)

    async def _board_and_chart(self, table: GameRow, game: Game, state: Any, lang: str) -> list[discord.File]:
        """The public board of `state` and the chart of the scores up to it (either may be missing
        if it cannot be drawn: the game is over whether or not its pictures can be made)."""
        files: list[discord.File] = []
        scores = running_scores(game, state)
        board = await self.content.image(game.view(state, None), table.names, "board.png", lang,
                                         presenter.alt_text(table, game, scores, "", lang))
        if board is not None:
            files.append(board)
        try:
            moves = moves_from(await self.storage.games.actions(table.id))
            history = await asyncio.to_thread(score_history, game, table, moves)
            if len(history) >= 2:
                outcome = game.outcome(state)  # an early end (resigned, abandoned) names no winner
                png = await asyncio.to_thread(render_chart_png, history, table.names, lang,
                                              translate(game_title(game), lang),
                                              list(outcome.winners) if outcome is not None else None)
                description = presenter.clip(t(lang, "bot.table.alt_chart", game=game_title(game)) + " "
                                             + presenter.alt_text(table, game, history[-1], "", lang),
                                             presenter.ALT_TEXT_LIMIT)
                files.append(discord.File(io.BytesIO(png), filename="scores.png", description=description))
        except Exception:
            log.exception("Could not draw the score chart of game %s", table.id)
        return files


# -------------------------------------------------------------------------------- export


def export_file(table: GameRow, game: Game, actions: Sequence[Any]) -> tuple[dict, discord.File]:
    """The replay file of a table (see docs/replays.md): complete once it is over, a public
    record without seed while it runs."""
    if table.seed is None or table.status == "lobby":
        raise ReplayError("not started")
    data = export_game(game, seed=table.seed, options=table.options, names=table.names, moves=moves_from(actions),
                       status=table.status, result=table.result, game_id=table.id, lang=table.lang)
    suffix = "" if data["complete"] else "-running"
    name = f"{game.name}-game-{table.id}{suffix}.json"
    return data, discord.File(io.BytesIO(dumps(data).encode("utf-8")), filename=name)
