"""The league's migrations (feature `league`): ratings, their history and facts, the recap's
words and each server's overview.

Numbered and kept as `bot.storage.database.Feature` says.
"""
from __future__ import annotations

from bot.storage.database import Feature, Migration

FEATURE = Feature("league", [
    Migration(
        1,
        "ratings per game and server, the facts they come from, each server's overview, the recap's words",
        """
        -- Per game, seat and holder: moves made there by the person and by the computer.
        CREATE TABLE league_moves (
            game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat     INTEGER NOT NULL,
            user_id  INTEGER NOT NULL,                 -- who held the seat (negative: a computer seat)
            name     TEXT    NOT NULL,
            person   INTEGER NOT NULL DEFAULT 0,       -- moves by the person (and decisions made at once for them)
            computer INTEGER NOT NULL DEFAULT 0,       -- moves by the computer while they held it
            PRIMARY KEY (game_id, seat, user_id)
        );

        -- Every finished game in the order the games ended; whether it was rated, or why not.
        CREATE TABLE league_games (
            seq     INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
            rated   INTEGER NOT NULL,
            reason  TEXT                               -- practice, not_finished, computer, too_few
        );

        -- Each player's current rating per server and game (openskill's Plackett-Luce model).
        CREATE TABLE league_ratings (
            guild_id   INTEGER NOT NULL,
            game       TEXT    NOT NULL,
            user_id    INTEGER NOT NULL,
            name       TEXT    NOT NULL,
            mu         REAL    NOT NULL,
            sigma      REAL    NOT NULL,
            games      INTEGER NOT NULL,               -- rated games (provisional below 5)
            updated_at INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, user_id)
        );

        -- Each rated game's rating before and after, per player.
        CREATE TABLE league_history (
            game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            user_id      INTEGER NOT NULL,
            guild_id     INTEGER NOT NULL,
            game         TEXT    NOT NULL,
            name         TEXT    NOT NULL,
            seat         INTEGER NOT NULL,
            share        REAL    NOT NULL,               -- the part of the seat's moves they made
            place        INTEGER NOT NULL,               -- 0: first
            mu_before    REAL    NOT NULL,
            sigma_before REAL    NOT NULL,
            mu_after     REAL    NOT NULL,
            sigma_after  REAL    NOT NULL,
            games        INTEGER NOT NULL,               -- their rated games with this one
            at           INTEGER NOT NULL,
            PRIMARY KEY (game_id, user_id)
        );
        CREATE INDEX league_history_by_player ON league_history (guild_id, game, user_id);

        -- Each public move's words (engine texts as JSON), for "since your last move".
        CREATE TABLE league_lines (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seat    INTEGER NOT NULL,
            texts   TEXT    NOT NULL,
            PRIMARY KEY (game_id, version)
        );

        -- The version at which each game's open turn (games.turn_number) began.
        CREATE TABLE league_turns (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            turn    INTEGER NOT NULL,
            version INTEGER NOT NULL
        );

        -- Each server's one message listing its games being played.
        CREATE TABLE league_overviews (
            guild_id   INTEGER PRIMARY KEY,
            channel_id INTEGER NOT NULL,
            message_id INTEGER,                        -- NULL: not posted yet (or deleted)
            lang       TEXT    NOT NULL DEFAULT 'en',
            wanted     INTEGER NOT NULL DEFAULT 1,     -- changes that owe an edit, counted
            shown      INTEGER NOT NULL DEFAULT 0,     -- the count the message shows
            posts      INTEGER NOT NULL DEFAULT 0      -- messages posted so far (each post's nonce)
        );
        """,
        legacy=9,
    ),
])
