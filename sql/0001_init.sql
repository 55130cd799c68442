-- tourney schema, version 1: events, credentials, participants, rounds, games, byes.
-- Applied once, in order, by rusqlite_migration at start-up (recorded in PRAGMA user_version).

CREATE TABLE events (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    game          TEXT    NOT NULL CHECK (game IN ('chess', 'bridge')),
    format        TEXT    NOT NULL,
    start_date    TEXT,
    end_date      TEXT,
    settings      TEXT    NOT NULL DEFAULT '{}',   -- JSON object, format-specific
    lots_method   TEXT,                            -- 'random' | 'rating' once lots are drawn
    lots_seed     INTEGER,                         -- recorded so the draw can be reproduced
    lots_drawn_at TEXT,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);

-- Bearer credentials. Only a SHA-256 hash of each token is stored.
CREATE TABLE tokens (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    role        TEXT    NOT NULL CHECK (role IN ('admin', 'scorer')),
    token_hash  TEXT    NOT NULL UNIQUE,
    label       TEXT,
    created_at  TEXT    NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX tokens_event ON tokens (event_id);

CREATE TABLE participants (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name           TEXT    NOT NULL,
    rating         INTEGER,
    club           TEXT,       -- club or team code
    federation     TEXT,
    external_id    TEXT,
    pairing_number INTEGER,    -- set when lots are drawn
    status         TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    created_at     TEXT    NOT NULL,
    UNIQUE (event_id, pairing_number),
    UNIQUE (event_id, external_id)
);
CREATE INDEX participants_event ON participants (event_id);

CREATE TABLE rounds (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'published' CHECK (status IN ('draft', 'published')),
    details     TEXT    NOT NULL DEFAULT '{}',   -- JSON: explanation, solver notes
    created_at  TEXT    NOT NULL,
    UNIQUE (event_id, number)
);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    round_id     INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    board        INTEGER NOT NULL,
    white_id     INTEGER NOT NULL REFERENCES participants (id),
    black_id     INTEGER NOT NULL REFERENCES participants (id),
    result       TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2', '+/-', '-/+', '-/-')),
    result_by    TEXT,        -- 'admin' | 'scorer:<token id>'
    result_at    TEXT,
    UNIQUE (round_id, board)
);
CREATE INDEX games_round ON games (round_id);

CREATE TABLE byes (
    round_id       INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES participants (id),
    points         REAL    NOT NULL DEFAULT 0,
    kind           TEXT    NOT NULL DEFAULT 'bye',
    PRIMARY KEY (round_id, participant_id)
);
