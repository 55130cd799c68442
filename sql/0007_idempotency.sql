-- tourney schema: Idempotency-Key. A POST that writes and carries the header has its answer
-- kept for 24 hours, so a retried request (same credential, path and key) gets the first
-- answer back and stores nothing twice. `scope` and `request_hash` are SHA-256 digests (the
-- credential is never kept in clear); `status` is NULL while the first request runs.

CREATE TABLE idempotency_keys (
    scope TEXT PRIMARY KEY,
    request_hash TEXT NOT NULL,
    status INTEGER,
    content_type TEXT,
    body BLOB,
    created_at TEXT NOT NULL
);

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
