-- Tournament versions: a tournament's `version` moves to the next value of the store-wide
-- change counter (see 0008) whenever the tournament or any of its sections changes, in the
-- same transaction (Store::write does it), so `If-Match` on a tournament's routes and the ETag
-- of its reads name one state of the tournament and everything in it.

ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments SET version = (SELECT latest FROM change_counter WHERE only_row = 1);
