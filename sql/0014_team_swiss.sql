-- tourney schema, version 14: chess team Swiss events (FIDE C.04.6).
--
-- team_swiss_matches: the pairing of each round, one row per match (white_team has White on
-- board 1, so White on the odd boards) or per pairing-allocated bye (black_team NULL,
-- table_no NULL).
CREATE TABLE team_swiss_matches (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL CHECK (round >= 1),
    table_no    INTEGER CHECK (table_no IS NULL OR table_no >= 1),
    white_team  INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    black_team  INTEGER REFERENCES teams (id) ON DELETE CASCADE,
    paired_at   TEXT    NOT NULL,
    UNIQUE (event_id, round, white_team),
    CHECK ((black_team IS NULL) = (table_no IS NULL))
);
CREATE UNIQUE INDEX team_swiss_matches_table ON team_swiss_matches (event_id, round, table_no);

-- team_lineups: the players a team fields in a round, board 1 first; a match's games are
-- made once both line-ups are in.
CREATE TABLE team_lineups (
    event_id        INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round           INTEGER NOT NULL CHECK (round >= 1),
    team_id         INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    board           INTEGER NOT NULL CHECK (board >= 1),
    participant_id  INTEGER NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    entered_by      TEXT    NOT NULL,   -- 'admin' | 'captain:<token id>'
    UNIQUE (event_id, round, team_id, board),
    UNIQUE (event_id, round, participant_id)
);

-- captain_tokens: a team captain's token, good for that team's line-ups only.
CREATE TABLE captain_tokens (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    team_id     INTEGER NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    token_hash  TEXT    NOT NULL UNIQUE,
    created_at  TEXT    NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX captain_tokens_team ON captain_tokens (team_id);
