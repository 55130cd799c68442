-- tourney schema, version 3: teams with ordered members (Scheveningen and Hilton events).

CREATE TABLE teams (
    id          INTEGER PRIMARY KEY,
    event_id    INTEGER NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    name        TEXT    NOT NULL,
    number      INTEGER,          -- 1 = team A ... once lots are drawn
    created_at  TEXT    NOT NULL,
    UNIQUE (event_id, name),
    UNIQUE (event_id, number)
);

ALTER TABLE participants ADD COLUMN team_id INTEGER REFERENCES teams (id) ON DELETE CASCADE;
ALTER TABLE participants ADD COLUMN team_board INTEGER;   -- 1 = top board of the team
CREATE UNIQUE INDEX participants_team_board ON participants (team_id, team_board);
