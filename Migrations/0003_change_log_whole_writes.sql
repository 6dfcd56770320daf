-- StateStore schema 3: the change log never loses what one write made.
-- Shipped: never edit this file; add a new migration instead.

-- Schema 2 trimmed the log inside the transaction that filled it, so one write of more than
-- 1,000 windows (an import, a deleted session) kept only its last 1,000 changes and no watcher
-- could tell. The library now trims at the start of each of its write transactions, before it
-- writes, keeping the last 1,000 rows: every change of the latest write is always there, and a
-- feed whose cursor is older than the oldest row knows it missed some. A writer by hand
-- (sqlite3) only lets the log grow until the next library write.
-- IF EXISTS: a file whose trigger was dropped by hand still reaches this schema.
DROP TRIGGER IF EXISTS changes_trim;
