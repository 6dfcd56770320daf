-- StateStore schema 2: a log of committed changes, for `statectl watch` and change observation.
-- Shipped: never edit this file; add a new migration instead.

-- One row per write or deletion of a window, in commit order, with the state written (NULLs for
-- a deletion), so a watcher can report a write even after the window was deleted. Triggers fill
-- it, so every writer (a host, statectl, or sqlite3 by hand) is seen. A watcher remembers the
-- last `seq` it read.
CREATE TABLE changes (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused, so a cursor never goes back
    session    TEXT    NOT NULL,
    window     TEXT    NOT NULL,
    size_class TEXT,
    path       TEXT,
    item       TEXT,
    item_path  TEXT,
    policy     TEXT,
    revision   INTEGER,                             -- the revision written; NULL for a deletion
    updated_at INTEGER
);

CREATE TRIGGER windows_log_insert AFTER INSERT ON windows BEGIN
    INSERT INTO changes (session, window, size_class, path, item, item_path, policy, revision, updated_at)
    VALUES (NEW.session, NEW.window, NEW.size_class, NEW.path, NEW.item, NEW.item_path, NEW.policy, NEW.revision,
            NEW.updated_at);
END;

CREATE TRIGGER windows_log_update AFTER UPDATE ON windows BEGIN
    INSERT INTO changes (session, window, size_class, path, item, item_path, policy, revision, updated_at)
    VALUES (NEW.session, NEW.window, NEW.size_class, NEW.path, NEW.item, NEW.item_path, NEW.policy, NEW.revision,
            NEW.updated_at);
END;

CREATE TRIGGER windows_log_delete AFTER DELETE ON windows BEGIN
    INSERT INTO changes (session, window) VALUES (OLD.session, OLD.window);
END;

-- The log is a window onto recent changes, not an archive: keep the last 1,000 rows. A watcher
-- polls every few tens of milliseconds, far inside that.
CREATE TRIGGER changes_trim AFTER INSERT ON changes BEGIN
    DELETE FROM changes WHERE seq <= NEW.seq - 1000;
END;
