"""The tournaments' migrations (feature `tournaments`): tournaments, their players, their tables
and each server's organisers.

Numbered and kept as `bot.storage.database.Feature` says.
"""
from __future__ import annotations

from bot.storage.database import Feature, Migration

FEATURE = Feature("tournaments", [
    Migration(
        1,
        "tournaments: their players, the tables of each round (a thread and a game each) and each server's organisers",
        """
        CREATE TABLE tournaments (
            id           INTEGER PRIMARY KEY,
            guild_id     INTEGER NOT NULL,
            channel_id   INTEGER NOT NULL,          -- its message; the tables are threads of this channel
            host_id      INTEGER NOT NULL,
            game         TEXT    NOT NULL,          -- engine name
            format       TEXT    NOT NULL CHECK (format IN ('swiss', 'knockout', 'roundrobin')),
            size         INTEGER NOT NULL,          -- players per table
            rounds       INTEGER,                   -- rounds (a knockout's and round robin's fixed at the start)
            options      TEXT    NOT NULL DEFAULT '{}',  -- the game's options for every table (JSON)
            settings     TEXT    NOT NULL DEFAULT '{}',  -- each table's deadline, timeout, reminder, computer (JSON)
            game_time    INTEGER,                   -- seconds a table may take; NULL: no limit
            overtime     TEXT    NOT NULL DEFAULT 'computer' CHECK (overtime IN ('computer', 'score')),
            signup_until INTEGER,                   -- it starts then; NULL: started by hand
            lang         TEXT    NOT NULL DEFAULT 'en',
            status       TEXT    NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
            round        INTEGER NOT NULL DEFAULT 0,     -- the round being played; 0 before the start
            schedule     TEXT,                      -- a round robin's every round, fixed at the start (JSON)
            winner_id    INTEGER,
            message_id   INTEGER,                   -- the sign-up, later the standings; NULL: not posted yet
            wanted       INTEGER NOT NULL DEFAULT 1,     -- changes the message owes, counted
            shown        INTEGER NOT NULL DEFAULT 0,     -- the count it shows
            posts        INTEGER NOT NULL DEFAULT 0,     -- messages posted so far (each post's nonce)
            created_at   INTEGER NOT NULL,
            updated_at   INTEGER NOT NULL
        );
        CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

        CREATE TABLE tournament_players (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            user_id   INTEGER NOT NULL,
            name      TEXT    NOT NULL,
            rating    REAL    NOT NULL,             -- the seeding: their rating in the game on the server
            seq       INTEGER NOT NULL,             -- sign-up order
            withdrawn INTEGER,                      -- the round in which they withdrew; NULL: playing
            PRIMARY KEY (tournament_id, user_id)
        );

        -- Each round's tables in order (a knockout's bracket order), and its byes (a table of one).
        CREATE TABLE tournament_tables (
            tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
            round     INTEGER NOT NULL,
            number    INTEGER NOT NULL,
            players   TEXT    NOT NULL,             -- JSON: user ids in seat order
            status    TEXT    NOT NULL CHECK (status IN ('pending', 'playing', 'done', 'bye')),
            thread_id INTEGER,                      -- the table's thread, once opened
            game_id   INTEGER,                      -- its game, once opened
            due_at    INTEGER,                      -- past the tournament's time per game then
            overtime  INTEGER NOT NULL DEFAULT 0,   -- 1: its time ran out and the rule was applied
            result    TEXT,                         -- JSON {places, scores, how} in seat order, once done
            PRIMARY KEY (tournament_id, round, number)
        );
        CREATE UNIQUE INDEX tournament_tables_by_game ON tournament_tables (game_id) WHERE game_id IS NOT NULL;
        CREATE INDEX tournament_tables_due ON tournament_tables (due_at) WHERE status = 'playing' AND overtime = 0;

        -- A role (besides Manage Server) that may run tournaments on the server.
        CREATE TABLE tournament_guilds (
            guild_id  INTEGER PRIMARY KEY,
            role_id   INTEGER
        );
        """,
        legacy=11,
    ),
    Migration(
        2,
        'tournaments: final places, a cancellation by the organiser, players who left the server, a thread asked for',
        """
        -- Each player's final place, written with the tournament's end (the records count them).
        ALTER TABLE tournament_players ADD COLUMN place INTEGER;
        -- 1: they were withdrawn because they left the server (not by their own command).
        ALTER TABLE tournament_players ADD COLUMN left_server INTEGER NOT NULL DEFAULT 0;

        -- Who cancelled a tournament (NULL: too few signed up), and what became of its open tables:
        -- 'rule' (the tournament's rule for a table out of time) or 'abandon'.
        ALTER TABLE tournaments ADD COLUMN cancelled_by INTEGER;
        ALTER TABLE tournaments ADD COLUMN cancel_tables TEXT;

        -- When the table's thread was asked of Discord (before the request): a retry after a crash
        -- or a lost answer looks for a thread made meanwhile before it asks again.
        ALTER TABLE tournament_tables ADD COLUMN thread_asked_at INTEGER;
        CREATE INDEX tournaments_by_message ON tournaments (message_id) WHERE message_id IS NOT NULL;
        """,
        legacy=12,
    ),
])
