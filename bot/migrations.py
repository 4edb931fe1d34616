"""Numbered schema migrations, applied in order at start-up and tracked in `PRAGMA user_version`.

Append new migrations; never edit one that has shipped. They live in Python rather than in .sql
files so that a plain (non-editable) install carries them without package-data settings.
"""
from __future__ import annotations

MIGRATIONS: list[tuple[int, str, str]] = [
    (
        1,
        "initial schema: games, seats, actions",
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
    ),
    (
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
    ),
    (
        3,
        "exactly once: boards owed after a stored move, and moves whose mover was not answered yet",
        """
        -- 1 while a stored change (a move) has no board posted for it; set in the move's own
        -- transaction, cleared when the board is posted. Owed boards are posted at start-up.
        ALTER TABLE games ADD COLUMN board_owed INTEGER NOT NULL DEFAULT 0;

        -- 0 while a typed /move is stored but its player has not seen the answer: a retry of the
        -- same move then answers "already done" instead of applying it again.
        ALTER TABLE actions ADD COLUMN answered INTEGER NOT NULL DEFAULT 1;
        """,
    ),
]

# Issue 9, games over days (bot.days). Self-contained: renumber freely at merge.
MIGRATIONS.append(
    (
        4,
        "games over days: deadlines, reminders, absences and computer seats, with stored timers",
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
    )
)

# Beyond one machine (docs/scaling.md): several processes on one database fire each timer once.
MIGRATIONS.append(
    (
        5,
        "timer claims: a due timer is handled by the one process that claims it",
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
    )
)

# Practice tables, hints and the computer's strength (issue 21): table settings beside the deadline.
MIGRATIONS.append(
    (
        6,
        "practice tables, hints and the computer players' strength",
        """
        ALTER TABLE day_tables ADD COLUMN practice INTEGER NOT NULL DEFAULT 0;   -- 1: a practice table (no records)
        ALTER TABLE day_tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;      -- 1: /game hint answers here
        ALTER TABLE day_tables ADD COLUMN strength TEXT NOT NULL DEFAULT 'normal';  -- the computer seats' strength
        """,
    )
)

# One path for every move (bot.delivery): what a change owes Discord is stored with the change.
MIGRATIONS.append(
    (
        7,
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
    )
)

# Games that wait only for real decisions (bot.days.orders): standing orders and the reaction window.
MIGRATIONS.append(
    (
        8,
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
    )
)

# A league on every server (bot.league, issue 32): ratings, the server's overview, catching up.
MIGRATIONS.append(
    (
        9,
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
    )
)

# A new turn message whose post may have been made without the bot hearing the answer (issue 41).
MIGRATIONS.append(
    (
        10,
        "the turn whose new message was sent but not confirmed (its retry reuses the nonce); late edits owed",
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
    )
)

# Tournaments over weeks (bot.tournaments, docs/tournaments.md). Self-contained: renumber freely at merge.
MIGRATIONS.append(
    (
        11,
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
    )
)

# Tournaments, finished (docs/tournaments.md): final places for /game stats, a cancellation by the
# organiser, players who left the server, and a table's thread asked for before it is made.
MIGRATIONS.append(
    (
        12,
        "tournaments: final places, a cancellation by the organiser, players who left the server, a thread asked for",
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
    )
)
