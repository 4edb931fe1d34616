"""The migrations of games over days (feature `days`): each table's settings, each seat's wait,
the timers and their claims, each user's absence and reminder choice, standing orders.

Numbered and kept as `bot.storage.database.Feature` says.
"""
from __future__ import annotations

from bot.storage.database import Feature, Migration

FEATURE = Feature("days", [
    Migration(
        1,
        'games over days: deadlines, reminders, absences and computer seats, with stored timers',
        """
        CREATE TABLE day_tables (
            game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            deadline INTEGER,                          -- seconds a seat has per turn; NULL: no deadline
            timeout  TEXT    NOT NULL DEFAULT 'computer'
                     CHECK (timeout IN ('computer', 'skip', 'end')),
            reminder INTEGER NOT NULL DEFAULT 43200    -- seconds before the first (and between) reminders
        );

        CREATE TABLE day_seats (
            game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat     INTEGER NOT NULL,
            since    INTEGER,                          -- when this seat's wait began; NULL: not to act
            computer TEXT CHECK (computer IN ('timeout', 'resigned', 'seat')),  -- NULL: a person plays
            timeouts INTEGER NOT NULL DEFAULT 0,       -- timed-out turns in a row
            PRIMARY KEY (game_id, seat)
        );

        -- Every timer of the bot; the one scheduler sleeps until MIN(due_at).
        CREATE TABLE timers (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat    INTEGER NOT NULL,
            kind    TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder', 'computer')),
            due_at  INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat, kind)
        );
        CREATE INDEX timers_by_due ON timers (due_at);

        CREATE TABLE day_users (
            user_id    INTEGER PRIMARY KEY,
            reminders  INTEGER NOT NULL DEFAULT 1,     -- 0: /game reminders off
            away_until INTEGER                         -- /game away: deadlines paused until then
        );
        """,
        legacy=4,
    ),
    Migration(
        2,
        'timer claims: a due timer is handled by the one process that claims it',
        """
        CREATE TABLE timer_claims (
            game_id    INTEGER NOT NULL,
            seat       INTEGER NOT NULL,
            kind       TEXT    NOT NULL,
            due_at     INTEGER NOT NULL,               -- the moment claimed: a rescheduled timer is a new one
            claimed_at INTEGER NOT NULL,               -- a claim older than the lease is taken over
            PRIMARY KEY (game_id, seat, kind, due_at)
        );
        """,
        legacy=5,
    ),
    Migration(
        3,
        "practice tables, hints and the computer players' strength",
        """
        ALTER TABLE day_tables ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;   -- 1: a practice table (no records)
        ALTER TABLE day_tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;      -- 1: /game hint answers here
        ALTER TABLE day_tables ADD COLUMN strength TEXT NOT NULL DEFAULT 'normal';  -- the computer seats' strength
        """,
        legacy=6,
    ),
    Migration(
        4,
        "standing orders per seat and kind of decision, and the table's reaction window",
        """
        -- A player lets the computer answer this kind of decision outside their own turn, at this table.
        CREATE TABLE standing_orders (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat    INTEGER NOT NULL,
            kind    TEXT    NOT NULL,                  -- a reaction kind the game declares (knatsch.reaction.defence)
            PRIMARY KEY (game_id, seat, kind)
        );

        -- react=15m|1h|6h: seconds a decision outside one's own turn waits before the computer makes it.
        ALTER TABLE day_tables ADD COLUMN react INTEGER;

        -- Timers gain the reaction window's kind (a table's CHECK is rebuilt, not altered).
        CREATE TABLE timers_next (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat    INTEGER NOT NULL,
            kind    TEXT    NOT NULL CHECK (kind IN ('deadline', 'reminder', 'computer', 'react')),
            due_at  INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat, kind)
        );
        INSERT INTO timers_next (game_id, seat, kind, due_at) SELECT game_id, seat, kind, due_at FROM timers;
        DROP TABLE timers;
        ALTER TABLE timers_next RENAME TO timers;
        CREATE INDEX timers_by_due ON timers (due_at);
        """,
        legacy=8,
    ),
    Migration(
        5,
        "the practice tables found without reading every table's settings",
        """
        -- The records and the league's rebuild leave out practice tables (storage.days.practice_tables).
        CREATE INDEX day_tables_practice ON day_tables (game_id) WHERE practice = 1;
        """,
    ),
])
