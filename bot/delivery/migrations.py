"""The migrations of what the bot owes Discord (feature `delivery`): the board's columns on the
game's row, the owed channel deliveries and each seat's DM.

Numbered and kept as `bot.storage.database.Feature` says.
"""
from __future__ import annotations

from bot.storage.database import Feature, Migration

FEATURE = Feature("delivery", [
    Migration(
        1,
        "deliveries: the board, channel posts and each seat's DM owed by a stored change",
        """
        ALTER TABLE games ADD COLUMN board_version INTEGER;                   -- the version the board message shows
        ALTER TABLE games ADD COLUMN board_turn    INTEGER NOT NULL DEFAULT 0;  -- the turn it belongs to
        ALTER TABLE games ADD COLUMN turn_number   INTEGER NOT NULL DEFAULT 0;  -- the newest turn (a new message each)
        ALTER TABLE games ADD COLUMN turn_lines    TEXT    NOT NULL DEFAULT '[]';  -- the open turn's account (JSON)
        -- turn_pings: whom its message mentions (null: all it waits for); board_whole: 1 when
        -- /game board asked for the whole board.
        ALTER TABLE games ADD COLUMN turn_pings    TEXT    NOT NULL DEFAULT '[]';
        ALTER TABLE games ADD COLUMN board_whole   INTEGER NOT NULL DEFAULT 0;
        -- A board owed from before this migration is posted as a new turn mentioning who must act.
        UPDATE games SET turn_number = 1, turn_pings = 'null' WHERE board_owed = 1;
        CREATE INDEX games_board_owed ON games (board_owed) WHERE board_owed = 1;

        -- Channel posts, older turn messages to close and lobby edits, delivered in order.
        CREATE TABLE deliveries (
            id         INTEGER PRIMARY KEY,
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind       TEXT    NOT NULL CHECK (kind IN ('notice', 'close', 'lobby')),
            payload    TEXT    NOT NULL,               -- JSON: what to send
            created_at INTEGER NOT NULL
        );
        CREATE INDEX deliveries_by_game ON deliveries (game_id, id);

        -- Each seat's open DM (no reading back after a restart) and the private view it owes.
        CREATE TABLE seat_dms (
            game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat         INTEGER NOT NULL,
            user_id      INTEGER,                      -- whom the open DM went to
            channel_id   INTEGER,                      -- their DM channel
            message_id   INTEGER,                      -- the open DM; NULL: none
            buttons      INTEGER NOT NULL DEFAULT 0,   -- 1 while it shows buttons
            done_text    TEXT,                         -- what it says once its decision is over
            owed         INTEGER,                      -- the version whose private view it owes; NULL: none
            fresh        INTEGER NOT NULL DEFAULT 0,   -- 1: a new decision, a new DM rather than an edit
            lines        TEXT    NOT NULL DEFAULT '[]',  -- private lines not shown yet (engine texts, JSON)
            closed_until INTEGER,                      -- DMs refused: not tried before then or their next interaction
            PRIMARY KEY (game_id, seat)
        );
        CREATE INDEX seat_dms_owed ON seat_dms (owed) WHERE owed IS NOT NULL;
        CREATE INDEX seat_dms_closed ON seat_dms (closed_until) WHERE closed_until IS NOT NULL;
        """,
        legacy=7,
    ),
    Migration(
        2,
        'the turn whose new message was sent but not confirmed (its retry reuses the nonce); late edits owed',
        """
        -- The oldest turn whose message was sent without the bot hearing Discord's answer: every
        -- post of a newer turn carries that turn's nonce, so Discord hands back a message it made
        -- unseen (to be brought up to date, or to lose its buttons) instead of leaving it live.
        ALTER TABLE games ADD COLUMN post_turn INTEGER;

        -- Deliveries gain `late`: a message whose edit got no answer in time and may still land
        -- after newer edits (a table's CHECK is rebuilt, not altered; the order is kept).
        CREATE TABLE deliveries_next (
            id         INTEGER PRIMARY KEY,
            game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind       TEXT    NOT NULL CHECK (kind IN ('notice', 'close', 'lobby', 'late')),
            payload    TEXT    NOT NULL,               -- JSON: what to send
            created_at INTEGER NOT NULL
        );
        INSERT INTO deliveries_next (game_id, kind, payload, created_at)
            SELECT game_id, kind, payload, created_at FROM deliveries ORDER BY id;
        DROP TABLE deliveries;
        ALTER TABLE deliveries_next RENAME TO deliveries;
        CREATE INDEX deliveries_by_game ON deliveries (game_id, id);
        """,
        legacy=10,
    ),
])
