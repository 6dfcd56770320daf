-- StateStore schema 4: what a window's scene says of it, apart from its revisioned state.
-- Shipped: never edit this file; add a new migration instead.

-- One row per window whose app recorded a scene fact: its kind (`mail`, `settings`), when it last
-- became the focused window of its session, and the tab its tab view shows. None of it is part of
-- the window's state: writing it makes no revision, no history row and no change-log row (no
-- trigger reads this table), so a focus change costs one statement. A row may stand for a window
-- that has no state yet (a new scene that has not navigated).
CREATE TABLE window_scenes (
    session      TEXT    NOT NULL,
    window       TEXT    NOT NULL,
    kind         TEXT,                 -- 1–64 bytes of UTF-8, no control characters; NULL: none
    focused_at   INTEGER,              -- milliseconds since 1970, UTC; NULL: never focused
    selected_tab TEXT,                 -- as the app names its tabs; NULL: none recorded
    PRIMARY KEY (session, window)
) WITHOUT ROWID;

-- The most recently focused window of a session, of any kind or of one: the first entry of the
-- session (and kind) in each index, ties broken by the window id's bytes.
CREATE INDEX window_scenes_focus ON window_scenes (session, focused_at DESC, window);
CREATE INDEX window_scenes_kind_focus ON window_scenes (session, kind, focused_at DESC, window);

-- Deleting a window deletes its scene facts, whoever deletes it (a host, statectl, sqlite3 by
-- hand). The library deletes those of windows without state itself.
CREATE TRIGGER windows_delete_scene AFTER DELETE ON windows BEGIN
    DELETE FROM window_scenes WHERE session = OLD.session AND window = OLD.window;
END;
