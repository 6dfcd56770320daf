-- Builds schema1.db: a StateStore file as a build with only Migrations/0001_initial.sql leaves it,
-- holding some data. Run from this folder:  rm -f schema1.db && sqlite3 schema1.db < schema1.sql
-- It does what that build's migrator did (WAL, the migration and its record in one transaction,
-- application_id "SSTR", user_version 1), then writes rows as that build's store wrote them:
-- routes as minified JSON {"type":...,"value":...}, every revision also in window_history.
-- Checksum: FNV-1a 64 of 0001_initial.sql, as the migrator records it.
.bail on
PRAGMA journal_mode = WAL;
BEGIN IMMEDIATE;
.read ../../Migrations/0001_initial.sql
INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (1, 'initial', '909c4a981ea04eae', 1764460800000);
PRAGMA application_id = 1397970002;
PRAGMA user_version = 1;
COMMIT;

BEGIN IMMEDIATE;
-- main/inbox: regular, three revisions kept.
INSERT INTO window_history VALUES ('main', 'inbox', 1, 'unspecified', '[]', NULL, '[]', 'migrate', 1764460801000);
INSERT INTO window_history VALUES ('main', 'inbox', 2, 'regular', '[{"type":"MailApp.Folder","value":"inbox"}]', NULL, '[]', 'migrate', 1764460802000);
INSERT INTO window_history VALUES ('main', 'inbox', 3, 'regular', '[{"type":"MailApp.Folder","value":"inbox"}]', '{"type":"MailApp.Thread","value":{"id":42}}', '[{"type":"MailApp.Attachment","value":{"name":"a.pdf","size":1.50e3}}]', 'migrate', 1764460803123);
INSERT INTO windows SELECT session, window, size_class, path, item, item_path, policy, revision, updated_at FROM window_history WHERE session = 'main' AND window = 'inbox' AND revision = 3;
-- main/compose: compact, dismiss policy, a value with escapes and unicode.
INSERT INTO window_history VALUES ('main', 'compose', 1, 'compact', '[]', '{"type":"Draft","value":{"to":["a@example.com"],"body":"line\nnext \"quoted\" \u00e9 ✓"}}', '[]', 'dismiss', 1764460804000);
INSERT INTO windows SELECT session, window, size_class, path, item, item_path, policy, revision, updated_at FROM window_history WHERE session = 'main' AND window = 'compose';
-- A unicode session; revision 1 already dropped from the history (as a history limit of 1 does).
INSERT INTO window_history VALUES ('ünïcødé 🚀', 'e' || char(769), 2, 'unspecified', '[{"type":"Settings","value":null},{"type":"Tab","value":"x y"}]', NULL, '[]', 'migrate', 1764460805000);
INSERT INTO windows SELECT session, window, size_class, path, item, item_path, policy, revision, updated_at FROM window_history WHERE session = 'ünïcødé 🚀';
-- A window as new: nothing set.
INSERT INTO window_history VALUES ('other', 'w', 1, 'unspecified', '[]', NULL, '[]', 'migrate', 1764460806000);
INSERT INTO windows SELECT session, window, size_class, path, item, item_path, policy, revision, updated_at FROM window_history WHERE session = 'other';
COMMIT;
PRAGMA wal_checkpoint(TRUNCATE);
