-- StateStore schema 6: what a window's split view and tab view bind, in its revisioned state.
-- Shipped: never edit this file; add a new migration instead.

-- Three columns of a window's state, in `windows`, its kept revisions and the change log alike:
-- `column_visibility` (SwiftUI's NavigationSplitViewVisibility: which columns show; a new window's
-- is 'automatic'), `preferred_compact_column` (NavigationSplitViewColumn: the column a collapsed
-- split view shows; NULL: none recorded, the view chooses) and `selected_tab` (the tab the window's
-- tab view shows, as the app names its tabs; NULL: none recorded). The selected tab was a scene
-- fact (`window_scenes.selected_tab`, no revision); it moves into the state here, and is written,
-- kept and logged with the rest from now on.

-- The triggers that fill the change log name their columns: dropped here and made again at the end
-- with the new ones, so that what this migration copies logs nothing (it writes no revision).
-- IF EXISTS: a file whose trigger was dropped by hand still reaches this schema.
DROP TRIGGER IF EXISTS windows_log_insert;
DROP TRIGGER IF EXISTS windows_log_update;

-- The choices are written as `=` and `OR`, not `IN (...)`: SQLite checks an IN list of more than two
-- values by building a temporary table for each row written, which made every save about 1.2 µs
-- slower per such check (measured with SQLite 3.40 on a store's upsert: 6.0 µs, 7.3 µs with
-- `IN` of four values, 6.1 µs with the same four as `OR`).
ALTER TABLE windows ADD COLUMN column_visibility TEXT NOT NULL DEFAULT 'automatic'
    CHECK (column_visibility = 'automatic' OR column_visibility = 'all' OR column_visibility = 'doubleColumn'
           OR column_visibility = 'detailOnly');
ALTER TABLE windows ADD COLUMN preferred_compact_column TEXT
    CHECK (preferred_compact_column = 'sidebar' OR preferred_compact_column = 'content'
           OR preferred_compact_column = 'detail');
-- 1–256 bytes of UTF-8, no control characters: checked by the store, as ids are.
ALTER TABLE windows ADD COLUMN selected_tab TEXT;

ALTER TABLE window_history ADD COLUMN column_visibility TEXT NOT NULL DEFAULT 'automatic';
ALTER TABLE window_history ADD COLUMN preferred_compact_column TEXT;
ALTER TABLE window_history ADD COLUMN selected_tab TEXT;

-- NULL in a deletion, as the rest of its state.
ALTER TABLE changes ADD COLUMN column_visibility TEXT;
ALTER TABLE changes ADD COLUMN preferred_compact_column TEXT;
ALTER TABLE changes ADD COLUMN selected_tab TEXT;
UPDATE changes SET column_visibility = 'automatic' WHERE revision IS NOT NULL;

-- A window with state takes the tab its scene recorded into its current revision, as it stands in
-- `windows`, in its kept revisions and in the change log; its older revisions had none.
UPDATE windows SET selected_tab = scene.selected_tab
FROM window_scenes AS scene
WHERE scene.session = windows.session AND scene.window = windows.window AND scene.selected_tab IS NOT NULL;

UPDATE window_history SET selected_tab = current.selected_tab
FROM windows AS current
WHERE current.session = window_history.session AND current.window = window_history.window
    AND current.revision = window_history.revision AND current.selected_tab IS NOT NULL;

UPDATE changes SET selected_tab = current.selected_tab
FROM windows AS current
WHERE current.session = changes.session AND current.window = changes.window
    AND current.revision = changes.revision AND current.selected_tab IS NOT NULL;

-- A window known only by its scene facts, with a tab (a window of tabs that has no stack of its
-- own), gets a state at revision 1 holding the tab, written now, as selecting the tab writes one
-- from now on: otherwise its tab would be lost. A history a row deleted by hand left behind goes
-- first, as it does when the library writes a new window.
DELETE FROM window_history
WHERE EXISTS (
        SELECT 1 FROM window_scenes AS scene
        WHERE scene.session = window_history.session AND scene.window = window_history.window
            AND scene.selected_tab IS NOT NULL)
    AND NOT EXISTS (
        SELECT 1 FROM windows
        WHERE windows.session = window_history.session AND windows.window = window_history.window);

INSERT INTO windows (session, window, size_class, path, item, item_path, policy, revision, updated_at, selected_tab)
SELECT scene.session, scene.window, 'unspecified', '[]', NULL, '[]', 'migrate', 1,
    CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER), scene.selected_tab
FROM window_scenes AS scene
WHERE scene.selected_tab IS NOT NULL
    AND NOT EXISTS (
        SELECT 1 FROM windows WHERE windows.session = scene.session AND windows.window = scene.window);

INSERT INTO window_history (session, window, revision, size_class, path, item, item_path, policy, updated_at,
                            column_visibility, preferred_compact_column, selected_tab)
SELECT session, window, revision, size_class, path, item, item_path, policy, updated_at,
    column_visibility, preferred_compact_column, selected_tab
FROM windows
WHERE revision = 1 AND selected_tab IS NOT NULL
    AND NOT EXISTS (
        SELECT 1 FROM window_history AS kept
        WHERE kept.session = windows.session AND kept.window = windows.window);

-- The scene's copy goes: the state holds the tab now.
ALTER TABLE window_scenes DROP COLUMN selected_tab;

CREATE TRIGGER windows_log_insert AFTER INSERT ON windows BEGIN
    INSERT INTO changes (session, window, size_class, path, item, item_path, policy, revision, updated_at,
                         column_visibility, preferred_compact_column, selected_tab)
    VALUES (NEW.session, NEW.window, NEW.size_class, NEW.path, NEW.item, NEW.item_path, NEW.policy, NEW.revision,
            NEW.updated_at, NEW.column_visibility, NEW.preferred_compact_column, NEW.selected_tab);
END;

CREATE TRIGGER windows_log_update AFTER UPDATE ON windows BEGIN
    INSERT INTO changes (session, window, size_class, path, item, item_path, policy, revision, updated_at,
                         column_visibility, preferred_compact_column, selected_tab)
    VALUES (NEW.session, NEW.window, NEW.size_class, NEW.path, NEW.item, NEW.item_path, NEW.policy, NEW.revision,
            NEW.updated_at, NEW.column_visibility, NEW.preferred_compact_column, NEW.selected_tab);
END;
