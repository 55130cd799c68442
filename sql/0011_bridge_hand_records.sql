-- tourney schema: hand records with their double-dummy analysis, and the people of a pair.
--
-- deals.dd_tricks: the double-dummy table, computed after the deal is stored (NULL while the
-- analysis is pending), as PBN 2.1's DoubleDummyTricks value: 20 hexadecimal digits, the
-- declarers N, S, E, W, each with the strains NT, S, H, D, C. Par follows from it, the
-- vulnerability and the dealer, and is not stored.
ALTER TABLE deals ADD COLUMN dd_tricks TEXT
    CHECK (dd_tricks IS NULL OR (length(dd_tricks) = 20 AND dd_tricks NOT GLOB '*[^0-9a-d]*'));
-- the worker's queue, and a deal dealt again (another event, the same set) found analysed
CREATE INDEX deals_pending ON deals (event_id, board) WHERE dd_tricks IS NULL;
CREATE INDEX deals_hands ON deals (north, east, south, west) WHERE dd_tricks IS NOT NULL;

-- A participant's national id (a chess player, a member of a bridge team), and the two
-- players of a bridge pair, each with a name and a national id (the pair's own external_id
-- stays what it was: an id for the pair in another system).
ALTER TABLE participants ADD COLUMN national_id TEXT;
ALTER TABLE participants ADD COLUMN player1_name TEXT;
ALTER TABLE participants ADD COLUMN player1_national_id TEXT;
ALTER TABLE participants ADD COLUMN player2_name TEXT;
ALTER TABLE participants ADD COLUMN player2_national_id TEXT;
