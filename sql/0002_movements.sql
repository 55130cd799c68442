-- tourney schema, version 2: the movement of a bridge pairs session.
-- Pairs (participants) take the movement's pair numbers in pairing-number order:
-- NS 1..n then EW 1..n (Mitchell numbering), or pair 1..n (Howell numbering).

CREATE TABLE movements (
    event_id    INTEGER PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,          -- generator kind, or 'custom'
    params      TEXT    NOT NULL,          -- JSON: the generator options (null for custom)
    movement    TEXT    NOT NULL,          -- JSON: the whole movement
    updated_at  TEXT    NOT NULL
);
