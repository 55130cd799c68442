-- tourney schema, version 5: games of team events.
-- In a Hilton round several games share a team board, so a game's `board` stays its number
-- within the round (1..k, unique) and `team_board` records the board of the table it belongs
-- to (Hilton: the board both players sit on; Scheveningen: the table's row). NULL outside
-- team events.

ALTER TABLE games ADD COLUMN team_board INTEGER CHECK (team_board IS NULL OR team_board >= 1);
