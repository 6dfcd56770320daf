-- StateStore schema 5: which of the system's scene sessions showed a window.
-- Shipped: never edit this file; add a new migration instead.

-- The scene session (on iOS, `UISceneSession.persistentIdentifier`) that last showed the window, as
-- its host recorded it; NULL for a window no scene recorded as its own (one an app opened by a
-- fixed id, an extension's, statectl's). A host deletes a window when the system discards its
-- scene session, and only then: windows without a scene are never discarded, only pruned by age.
ALTER TABLE window_scenes ADD COLUMN scene TEXT;
