-- Event versions (issue 11): every change to an event moves its `version` to the next value of
-- one store-wide counter, in the same transaction as the change (Store::write does it, from the
-- changed events its triggers collected). Versions are never reused, not even by an event that
-- takes the id of a deleted one, so (event, version) names one state of one event for ever and
-- the read cache and ETags can be keyed by it.

ALTER TABLE events ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE TABLE change_counter (
    only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
    latest   INTEGER NOT NULL
);
INSERT INTO change_counter (only_row, latest) VALUES (1, 0);
