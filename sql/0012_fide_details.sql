-- What FIDE's reports and regulations need beyond a name and a rating.
-- An event's details as a TRF file carries them (022 place, 032 federation, 102 chief arbiter,
-- 112 deputy arbiters, 122 time control): one JSON object, absent keys unknown.
ALTER TABLE events ADD COLUMN details TEXT;
-- A player's FIDE title (GM, IM, WGM, FM, WIM, CM, WFM, WCM), sex (m or f), birth year and
-- K factor (B.02 8.3.3), for rating changes and title norms.
ALTER TABLE participants ADD COLUMN title TEXT;
ALTER TABLE participants ADD COLUMN sex TEXT CHECK (sex IS NULL OR sex IN ('m', 'f'));
ALTER TABLE participants ADD COLUMN birth_year INTEGER;
ALTER TABLE participants ADD COLUMN k_factor INTEGER CHECK (k_factor IS NULL OR k_factor IN (10, 20, 40));
