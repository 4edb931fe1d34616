"""The games' and moves' own migrations (feature `games`): games, seats, the action log, the
users' languages and the archive of finished games' moves.

Numbered and kept as `bot.storage.database.Feature` says.
"""
from __future__ import annotations

from bot.storage.database import Feature, Migration

FEATURE = Feature("games", [
    Migration(
        1,
        'initial schema: games, seats, actions',
        """
        CREATE TABLE games (
            id               INTEGER PRIMARY KEY,
            guild_id         INTEGER NOT NULL,
            channel_id       INTEGER NOT NULL,          -- a text channel or a thread
            game             TEXT    NOT NULL,          -- engine name, e.g. 'knatsch'
            status           TEXT    NOT NULL
                             CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            host_id          INTEGER NOT NULL,
            options          TEXT    NOT NULL DEFAULT '{}',   -- JSON object of table options
            seed             INTEGER,                   -- drawn when the game starts
            state            TEXT,                      -- engine state as JSON, NULL in the lobby
            version          INTEGER NOT NULL DEFAULT 0,      -- number of moves applied
            result           TEXT,                      -- JSON summary once finished/abandoned
            lobby_message_id INTEGER,
            board_message_id INTEGER,                   -- the latest board posted in the channel
            created_at       INTEGER NOT NULL,
            updated_at       INTEGER NOT NULL
        );

        -- One open game (lobby or active) per channel or thread; any number per server.
        CREATE UNIQUE INDEX games_one_open_per_channel
            ON games (channel_id) WHERE status IN ('lobby', 'active');

        CREATE TABLE seats (
            game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            user_id   INTEGER NOT NULL,
            name      TEXT    NOT NULL,                 -- display name when they joined
            seat      INTEGER,                          -- turn order; NULL until the game starts
            dm_ok     INTEGER,                          -- NULL unknown, 1 DMs work, 0 DMs closed
            joined_at INTEGER NOT NULL,
            PRIMARY KEY (game_id, user_id),
            UNIQUE (game_id, seat)
        );

        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,                   -- the state version this move produced
            seat    INTEGER NOT NULL,
            action  TEXT    NOT NULL,                   -- Action.encode()
            at      INTEGER NOT NULL,
            PRIMARY KEY (game_id, version)
        );
        """,
        legacy=1,
    ),
    Migration(
        2,
        "the table's language, and the language each user last spoke to the bot in",
        """
        ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';   -- 'en' or 'de': channel posts and boards

        CREATE TABLE user_languages (
            user_id INTEGER PRIMARY KEY,
            lang    TEXT    NOT NULL,                   -- from interaction.locale, for DMs sent later
            at      INTEGER NOT NULL
        );
        """,
        legacy=2,
    ),
    Migration(
        3,
        'exactly once: boards owed after a stored move, and moves whose mover was not answered yet',
        """
        -- 1 while a stored change (a move) has no board posted for it; set in the move's own
        -- transaction, cleared when the board is posted. Owed boards are posted at start-up.
        ALTER TABLE games ADD COLUMN board_owed INTEGER NOT NULL DEFAULT 0;

        -- 0 while a typed /move is stored but its player has not seen the answer: a retry of the
        -- same move then answers "already done" instead of applying it again.
        ALTER TABLE actions ADD COLUMN answered INTEGER NOT NULL DEFAULT 1;
        """,
        legacy=3,
    ),
    Migration(
        4,
        "indexes for a store of years of games, and the archive of finished games' moves",
        """
        -- What the bot looks up besides a game by its id, for a store of years of games: the open
        -- games (start-up counts them), a player's games (/game mine, /game away), a server's
        -- results (records), and finished games by age (the archive).
        CREATE INDEX games_by_status ON games (status, updated_at);
        CREATE INDEX games_by_guild ON games (guild_id, status);
        CREATE INDEX seats_by_user ON seats (user_id);

        -- Finished games older than ARCHIVE_AFTER_DAYS (off by default): their moves in one
        -- compressed row instead of a row each; records, exports and replays read them from here.
        CREATE TABLE archived_actions (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            actions BLOB    NOT NULL                   -- zlib-compressed JSON: [[version, seat, action, at], ...]
        );
        """,
        legacy=8,
    ),
])
