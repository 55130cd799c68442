-- tourney schema, version 9: bridge team events and Swiss events (issue 15).
--
-- team_schedules: a bridge `teams` event's team movement, written when lots are drawn (the
-- whole schedule: rounds, tables, sets and the matches), as JSON of the engine's TeamMovement.
CREATE TABLE team_schedules (
    event_id    INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    movement    TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);

-- swiss_draws: the draw of each round of a `swiss_pairs` or `swiss_teams` event, one row per
-- match (home and away: team numbers or pairs' pairing numbers) or bye (away NULL, table_no
-- NULL, bye_vps the VPs awarded). A Swiss teams triangle is three half-matches (triangle = 1)
-- X v Y, X v Z, Y v Z at the three table numbers after the round's matches.
CREATE TABLE swiss_draws (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL CHECK (round >= 1),
    table_no    INTEGER CHECK (table_no IS NULL OR table_no >= 1),
    home        INTEGER NOT NULL CHECK (home >= 1),
    away        INTEGER CHECK (away IS NULL OR away >= 1),
    bye_vps     REAL,
    triangle    INTEGER NOT NULL DEFAULT 0 CHECK (triangle IN (0, 1)),
    drawn_at    TEXT    NOT NULL,
    UNIQUE (event_id, round, home, away),
    CHECK ((away IS NULL) = (table_no IS NULL)),
    CHECK ((away IS NULL) = (bye_vps IS NOT NULL))
);
CREATE UNIQUE INDEX swiss_draws_table ON swiss_draws (event_id, round, table_no);

-- match_results: a match's result as a scoring program entered it (IMPs or VPs), for bridge
-- teams and Swiss events; a match scored from board results has no row here. `round` is the
-- round the match is played in (for a teams movement whose halves are in two rounds: the
-- later half's round); home and away as numbered in the event.
CREATE TABLE match_results (
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL CHECK (round >= 1),
    home        INTEGER NOT NULL,
    away        INTEGER NOT NULL,
    boards      INTEGER,
    imps_home   INTEGER CHECK (imps_home IS NULL OR imps_home >= 0),
    imps_away   INTEGER CHECK (imps_away IS NULL OR imps_away >= 0),
    vp_home     REAL    NOT NULL CHECK (vp_home BETWEEN 0 AND 20),
    vp_away     REAL    NOT NULL CHECK (vp_away BETWEEN 0 AND 20),
    entered_by  TEXT    NOT NULL,
    entered_at  TEXT    NOT NULL,
    PRIMARY KEY (event_id, round, home, away)
);
