-- tourney schema, version 6: the results of a bridge pairs session and its hand records.
--
-- One row per board played at a table in a round (the traveller's line). The pairs are the
-- movement's pair numbers as seated at that table (`ns_pair` at the NS seats, `ew_pair` at
-- the EW seats; at an arrow-switched table the EW pair holds the NS cards). A row is one of:
--   a played board:   contract (canonical, e.g. '4SX', 'PASS'), declarer, tricks, ns_score;
--   an assigned score: ns_score only (contract NULL);
--   a split score:    ns_score for the NS side and ew_score for the EW side (both from NS's
--                     viewpoint), contract NULL;
--   an artificial adjusted score: adjusted ('A+/A-', 'A=/A=' ...), no score.

CREATE TABLE board_results (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    round       INTEGER NOT NULL CHECK (round >= 1),
    table_no    INTEGER NOT NULL CHECK (table_no >= 1),
    board       INTEGER NOT NULL CHECK (board >= 1),
    ns_pair     INTEGER NOT NULL,
    ew_pair     INTEGER NOT NULL,
    contract    TEXT,
    declarer    TEXT CHECK (declarer IS NULL OR declarer IN ('N', 'E', 'S', 'W')),
    tricks      INTEGER CHECK (tricks IS NULL OR tricks BETWEEN 0 AND 13),
    lead        TEXT,
    ns_score    INTEGER,
    ew_score    INTEGER,
    adjusted    TEXT,
    entered_by  TEXT    NOT NULL,   -- 'admin' | 'scorer:<token id>'
    entered_at  TEXT    NOT NULL,
    UNIQUE (event_id, round, table_no, board),
    CHECK ((adjusted IS NULL) <> (ns_score IS NULL))
);
CREATE INDEX board_results_board ON board_results (event_id, board);

-- Hand records: the deal of each board, as read from a PBN file.
CREATE TABLE deals (
    event_id      INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    board         INTEGER NOT NULL CHECK (board >= 1),
    dealer        TEXT    NOT NULL CHECK (dealer IN ('N', 'E', 'S', 'W')),
    vulnerability TEXT    NOT NULL CHECK (vulnerability IN ('none', 'ns', 'ew', 'both')),
    north         TEXT    NOT NULL,   -- 'AKQ.JT9.876.5432' (spades.hearts.diamonds.clubs)
    east          TEXT    NOT NULL,
    south         TEXT    NOT NULL,
    west          TEXT    NOT NULL,
    PRIMARY KEY (event_id, board)
);
