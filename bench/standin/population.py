"""A bot database with many stored games, written directly (fast) in the bot's schema.

The schema comes from the bot itself (`Storage.open` runs every feature's migrations); the rows are those a
played game leaves (bot/storage/, bot/days/storage.py): `games` (state = the engine's `to_dict`, a
board message, the version, `board_owed` where a board is owed), `seats`, the `actions` log,
`day_tables`, `day_seats` (who waits since when) and `timers` (each waiting seat's reminder,
due within the next 12 hours). A few template games per engine are played at random with the
engines and copied many times (rows differ in ids, channels, players and times); finished
games are played to their end and carry their result.
"""
from __future__ import annotations

import json
import random
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import REGISTRY
from games.core import Msg

REMINDER = 12 * 3600
DAY = 86_400


@dataclass(frozen=True)
class Template:
    game: str
    players: int
    seed: int
    state: str                        # JSON text of the engine's to_dict
    version: int
    actions: tuple[tuple[int, str], ...]  # (seat, action) of versions 1..version
    waiting: tuple[int, ...]          # seats the game waits for
    result: str | None = None         # JSON, once finished
    move: tuple[int, str] | None = None  # a legal move of a waiting seat: (seat, action text)


def outcome_record(outcome: Any) -> dict:
    """What the bot stores as a finished game's result (bot.records.outcome_record)."""
    reason = outcome.reason.to_json() if isinstance(outcome.reason, Msg) else outcome.reason
    return {"winners": list(outcome.winners), "scores": list(outcome.scores), "reason": reason}


def play_template(name: str, players: int, seed: int, *, moves: int | None, rng: random.Random) -> Template | None:
    """A game of `name` played at random: `moves` moves into it (stopping short of its end), or
    to its end (moves=None). None if it did not get there."""
    game = REGISTRY[name]
    state = game.new_game(players, seed=seed)
    actions: list[tuple[int, str]] = []
    limit = 5000 if moves is None else moves
    while len(actions) < limit:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        after, _ = game.apply(state, seat, action)
        if moves is not None and game.outcome(after) is not None:
            break  # an active template stays short of the end
        state = after
        actions.append((seat, action.encode()))
        if game.outcome(state) is not None:
            break
    outcome = game.outcome(state)
    if (moves is None) != (outcome is not None):
        return None
    waiting = tuple(sorted(game.to_act(state))) if outcome is None else ()
    move = None
    if waiting:
        seat = waiting[0]
        move = (seat, game.legal_actions(state, seat)[0].encode())
    return Template(name, players, seed, json.dumps(game.to_dict(state)), len(actions), tuple(actions), waiting,
                    None if outcome is None else json.dumps(outcome_record(outcome)), move)


def templates(*, active_per_game: int = 6, finished_per_game: int = 3, games: Sequence[str] | None = None,
              seed: int = 1) -> tuple[list[Template], list[Template]]:
    """Active templates at depths from a few moves to well into the game, and finished ones."""
    rng = random.Random(seed)
    active, finished = [], []
    for name in sorted(games or REGISTRY):
        game = REGISTRY[name]
        players = min(max(3, game.min_players), game.max_players)
        number = 0
        while sum(t.game == name for t in active) < active_per_game and number < 50 * active_per_game:
            number += 1
            depth = rng.randrange(2, 90)
            made = play_template(name, players, rng.getrandbits(31), moves=depth, rng=rng)
            if made is not None:
                active.append(made)
        number = 0
        while sum(t.game == name for t in finished) < finished_per_game and number < 20 * finished_per_game:
            number += 1
            made = play_template(name, players, rng.getrandbits(31), moves=None, rng=rng)
            if made is not None:
                finished.append(made)
    return active, finished


@dataclass
class StoredGame:
    """What a bench needs to know of an active game it wrote."""

    id: int
    guild_id: int
    channel_id: int
    board_message_id: int
    template: Template
    user_ids: tuple[int, ...]   # by seat
    owed: bool = False


@dataclass
class Population:
    active: list[StoredGame] = field(default_factory=list)
    finished: int = 0
    actions: int = 0
    seconds: float = 0.0


async def migrate(path: Path) -> None:
    """An empty database in the bot's current schema (the bot's own migrations)."""
    from bot.store import Storage  # the bot's package: only the schema is taken from it

    storage = await Storage.open(path)
    await storage.close()


def populate(path: str | Path, *, active: int, finished: int, channels: Sequence[tuple[int, int]],
             users: Sequence[int], message_ids: Iterator[int], owed: int = 0, seed: int = 2,
             active_templates: list[Template] | None = None,
             finished_templates: list[Template] | None = None) -> Population:
    """Into a database made by `migrate`, write `active` games being played (one per channel of
    `channels`, (guild id, channel id) pairs) and `finished` games (spread over the same
    channels), players drawn from `users`; the first `owed` active games owe their board (a move
    stored, its board never posted)."""
    if active > len(channels):
        raise ValueError(f"{active} active games need as many channels; there are {len(channels)}")
    path = Path(path)
    started = time.monotonic()
    rng = random.Random(seed)
    if active_templates is None or finished_templates is None:
        active_templates, finished_templates = templates(seed=seed)
    now = int(time.time())
    population = Population()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        (next_id,) = db.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM games").fetchone()
        user_count = len(users)
        # The action logs are copied inside SQLite: each template's moves once, then one
        # INSERT ... SELECT joining every game to its template's moves.
        numbers = {id(t): n for n, t in enumerate([*active_templates, *finished_templates])}
        db.execute("CREATE TEMP TABLE template_actions (template INTEGER, version INTEGER, seat INTEGER, action TEXT)")
        db.execute("CREATE TEMP TABLE game_templates (game_id INTEGER PRIMARY KEY, template INTEGER, "
                   "created INTEGER, spacing INTEGER)")
        db.executemany("INSERT INTO template_actions VALUES (?, ?, ?, ?)",
                       [(numbers[id(t)], version, seat, action)
                        for t in [*active_templates, *finished_templates]
                        for version, (seat, action) in enumerate(t.actions, start=1)])
        db.execute("CREATE INDEX temp.template_actions_by_template ON template_actions (template, version)")
        games_rows, seat_rows, action_rows, table_rows, day_rows, timer_rows = [], [], [], [], [], []

        def flush() -> None:
            db.executemany(
                "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seed, state, version, "
                "result, lobby_message_id, board_message_id, created_at, updated_at, lang, board_owed) "
                "VALUES (?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?, 'en', ?)", games_rows)
            db.executemany("INSERT INTO seats (game_id, user_id, name, seat, dm_ok, joined_at) "
                           "VALUES (?, ?, ?, ?, ?, ?)", seat_rows)
            db.executemany("INSERT INTO game_templates VALUES (?, ?, ?, ?)", action_rows)
            db.executemany("INSERT INTO day_tables (game_id, deadline, timeout, reminder) "
                           "VALUES (?, NULL, 'computer', ?)", table_rows)
            db.executemany("INSERT INTO day_seats (game_id, seat, since) VALUES (?, ?, ?)", day_rows)
            db.executemany("INSERT INTO timers (game_id, seat, kind, due_at) VALUES (?, ?, 'reminder', ?)", timer_rows)
            for rows in (games_rows, seat_rows, action_rows, table_rows, day_rows, timer_rows):
                rows.clear()

        def add(template: Template, guild_id: int, channel_id: int, game_id: int, status: str, first_user: int,
                board_message_id: int | None, board_owed: bool) -> tuple[int, ...]:
            created = now - rng.randrange(DAY, 60 * DAY)
            updated = now - rng.randrange(60, DAY) if status == "active" else created + rng.randrange(600, 7 * DAY)
            seat_users = tuple(users[(first_user + k) % user_count] for k in range(template.players))
            games_rows.append((game_id, guild_id, channel_id, template.game, status, seat_users[0], template.seed,
                               template.state, template.version, template.result, next(message_ids),
                               board_message_id, created, updated, int(board_owed)))
            for seat, user_id in enumerate(seat_users):
                seat_rows.append((game_id, user_id, f"player{user_id % 100000}", seat, 1, created))
            spacing = max(1, (updated - created) // max(1, template.version))
            action_rows.append((game_id, numbers[id(template)], created, spacing))
            population.actions += template.version
            table_rows.append((game_id, REMINDER))
            for seat in range(template.players):
                waits = status == "active" and seat in template.waiting
                day_rows.append((game_id, seat, updated if waits else None))
                if waits:
                    timer_rows.append((game_id, seat, now + rng.randrange(600, REMINDER)))
            return seat_users

        for number in range(active):
            template = active_templates[number % len(active_templates)]
            guild_id, channel_id = channels[number]
            game_id, next_id = next_id, next_id + 1
            board = next(message_ids)
            seat_users = add(template, guild_id, channel_id, game_id, "active", number * 3, board, number < owed)
            population.active.append(StoredGame(game_id, guild_id, channel_id, board, template, seat_users,
                                                number < owed))
            if len(games_rows) >= 5000:
                flush()
        for number in range(finished):
            template = finished_templates[number % len(finished_templates)]
            guild_id, channel_id = channels[rng.randrange(len(channels))]
            game_id, next_id = next_id, next_id + 1
            add(template, guild_id, channel_id, game_id, "finished", rng.randrange(user_count), next(message_ids),
                False)
            population.finished += 1
            if len(games_rows) >= 5000:
                flush()
        flush()
        db.execute("INSERT INTO actions (game_id, version, seat, action, at, answered) "
                   "SELECT g.game_id, t.version, t.seat, t.action, g.created + t.version * g.spacing, 1 "
                   "FROM game_templates g JOIN template_actions t ON t.template = g.template "
                   "ORDER BY g.game_id, t.version")
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode = WAL")  # as the bot runs it
    finally:
        db.close()
    population.seconds = time.monotonic() - started
    return population


def database_size(path: str | Path) -> int:
    """Bytes of the database with its WAL."""
    path = Path(path)
    return sum(p.stat().st_size for p in (path, path.with_name(path.name + "-wal")) if p.exists())
