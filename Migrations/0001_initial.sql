-- StateStore schema 1: windows, their kept revisions, and the record of applied migrations.
-- Shipped: never edit this file; add a new migration instead.

-- Migrations applied to this file, one row each; the migrator writes a row in the same
-- transaction as the migration itself.
CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    checksum   TEXT    NOT NULL,   -- FNV-1a 64 of the migration's SQL, hex
    applied_at INTEGER NOT NULL    -- milliseconds since 1970, UTC
);

-- The current state of every window. Routes are stored as minified JSON: `path` and `item_path`
-- are arrays of {"type": ..., "value": ...} objects, `item` one such object or NULL.
CREATE TABLE windows (
    session    TEXT    NOT NULL,
    window     TEXT    NOT NULL,
    size_class TEXT    NOT NULL CHECK (size_class IN ('compact', 'regular', 'unspecified')),
    path       TEXT    NOT NULL,
    item       TEXT,
    item_path  TEXT    NOT NULL,
    policy     TEXT    NOT NULL CHECK (policy IN ('migrate', 'dismiss')),
    revision   INTEGER NOT NULL CHECK (revision >= 1),
    updated_at INTEGER NOT NULL,   -- milliseconds since 1970, UTC
    PRIMARY KEY (session, window)
) WITHOUT ROWID;

-- Kept revisions of each window, the current one included, in the same columns as `windows`.
CREATE TABLE window_history (
    session    TEXT    NOT NULL,
    window     TEXT    NOT NULL,
    revision   INTEGER NOT NULL,
    size_class TEXT    NOT NULL,
    path       TEXT    NOT NULL,
    item       TEXT,
    item_path  TEXT    NOT NULL,
    policy     TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session, window, revision)
) WITHOUT ROWID;
