-- tourney schema, version 4: Swiss sections.
-- Byes a director records in advance (or, for a round already paired, for a late entry):
-- points 1 (full), 0.5 (half) or 0 (absence). Applied to the byes table when the round is paired.

CREATE TABLE requested_byes (
    id             INTEGER PRIMARY KEY,
    event_id       INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    participant_id INTEGER NOT NULL REFERENCES participants (id) ON DELETE CASCADE,
    round          INTEGER NOT NULL CHECK (round >= 1),
    points         REAL    NOT NULL CHECK (points IN (0, 0.5, 1)),
    created_at     TEXT    NOT NULL,
    UNIQUE (participant_id, round)
);
CREATE INDEX requested_byes_event ON requested_byes (event_id, round);
