-- Tournaments: one director's event of several sections (a weekend open's Open, U2000 and
-- U1600; a bridge club's sections A, B and C). A section is an ordinary event that names its
-- tournament; the tournament's admin token administers every section, and each section keeps
-- its own tokens.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    start_date  TEXT,
    end_date    TEXT,
    place       TEXT,
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON object: across_the_field, groups
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX tournaments_by_date ON tournaments (start_date, id);

-- A tournament's bearer credentials: only a keyed hash of each token is stored, as in `tokens`.
CREATE TABLE tournament_tokens (
    id             INTEGER PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    role           TEXT    NOT NULL CHECK (role IN ('admin')),
    token_hash     TEXT    NOT NULL UNIQUE,
    label          TEXT,
    created_at     TEXT    NOT NULL,
    revoked_at     TEXT
);
CREATE INDEX tournament_tokens_tournament ON tournament_tokens (tournament_id);

-- The tournament an event is a section of (none: an event on its own).
ALTER TABLE events ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
CREATE INDEX events_tournament ON events (tournament_id);
