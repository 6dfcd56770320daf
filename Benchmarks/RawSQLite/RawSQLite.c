#include "RawSQLite.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

// The SQL text StateStore runs (Sources/StateStore/Store/Rows/HotStatement.swift), statement for statement.
#define COLUMNS                                                                                                 \
    "session, window, size_class, path, item, item_path, policy, revision, updated_at, column_visibility, "      \
    "preferred_compact_column, selected_tab"

static const char *const sql_begin = "BEGIN IMMEDIATE";
static const char *const sql_commit = "COMMIT";
static const char *const sql_rollback = "ROLLBACK";
static const char *const sql_trim = "DELETE FROM changes WHERE seq <= (SELECT max(seq) FROM changes) - 1000";
static const char *const sql_revision = "SELECT revision FROM windows WHERE session = ? AND window = ?";
static const char *const sql_upsert =
    "INSERT INTO windows (" COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)\n"
    "ON CONFLICT (session, window) DO UPDATE SET size_class = excluded.size_class, path = excluded.path,\n"
    "item = excluded.item, item_path = excluded.item_path, policy = excluded.policy,\n"
    "revision = excluded.revision, updated_at = excluded.updated_at,\n"
    "column_visibility = excluded.column_visibility,\n"
    "preferred_compact_column = excluded.preferred_compact_column, selected_tab = excluded.selected_tab";
static const char *const sql_keep =
    "INSERT INTO window_history (" COLUMNS ")\n"
    "SELECT " COLUMNS " FROM windows WHERE session = ?1 AND window = ?2";
static const char *const sql_drop =
    "DELETE FROM window_history WHERE session = ?1 AND window = ?2 AND revision <= ?3";
static const char *const sql_clear = "DELETE FROM window_history WHERE session = ?1 AND window = ?2";
static const char *const sql_restore = "SELECT " COLUMNS " FROM windows WHERE session = ? AND window = ?";
static const char *const sql_list =
    "SELECT session, window, size_class, json_array_length(path), item, revision, updated_at FROM windows "
    "ORDER BY session, window";

enum { BEGIN, COMMIT, ROLLBACK, TRIM, REVISION, UPSERT, KEEP, DROP, CLEAR, RESTORE, LIST, STATEMENT_COUNT };

struct raw_store {
    sqlite3 *db;
    // The path as given, and the device and inode of the file opened, for the check of the path.
    char *path;
    dev_t device;
    ino_t inode;
    sqlite3_stmt *statements[STATEMENT_COUNT];
    // A listing's copy of the row it stands on.
    char *row;
    size_t row_capacity;
};

static int64_t now_milliseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_REALTIME, &time);
    return (int64_t)time.tv_sec * 1000 + time.tv_nsec / 1000000;
}

const char *raw_sqlite_version(void) { return sqlite3_libversion(); }

const char *raw_errmsg(raw_store *store) { return sqlite3_errmsg(store->db); }

int raw_exec(raw_store *store, const char *sql) { return sqlite3_exec(store->db, sql, NULL, NULL, NULL); }

int raw_open(const char *path, int full_durability, int busy_timeout_ms, raw_store **out) {
    *out = NULL;
    raw_store *store = calloc(1, sizeof *store);
    if (store == NULL) return SQLITE_NOMEM;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    int code = sqlite3_open_v2(path, &store->db, flags, NULL);
    store->path = strdup(path);
    struct stat info;
    const char *resolved = code == SQLITE_OK ? sqlite3_db_filename(store->db, "main") : NULL;
    if (resolved && stat(resolved, &info) == 0) {
        store->device = info.st_dev;
        store->inode = info.st_ino;
    }
    if (code == SQLITE_OK) code = sqlite3_busy_timeout(store->db, busy_timeout_ms);
    if (code == SQLITE_OK) code = sqlite3_exec(store->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
    if (code == SQLITE_OK) {
        const char *sync = full_durability ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL";
        code = sqlite3_exec(store->db, sync, NULL, NULL, NULL);
    }
    if (code == SQLITE_OK && getenv("RAW_PRAGMA")) code = sqlite3_exec(store->db, getenv("RAW_PRAGMA"), NULL, NULL, NULL);
    const char *const texts[STATEMENT_COUNT] = {
        sql_begin, sql_commit, sql_rollback, sql_trim, sql_revision, sql_upsert,
        sql_keep, sql_drop, sql_clear, sql_restore, sql_list,
    };
    for (int index = 0; index < STATEMENT_COUNT && code == SQLITE_OK; index++) {
        code = sqlite3_prepare_v3(
            store->db, texts[index], -1, SQLITE_PREPARE_PERSISTENT, &store->statements[index], NULL);
    }
    *out = store;  // even on failure, so that the caller can read the message, then close
    return code;
}

void raw_close(raw_store *store) {
    if (store == NULL) return;
    for (int index = 0; index < STATEMENT_COUNT; index++) sqlite3_finalize(store->statements[index]);
    sqlite3_close_v2(store->db);
    free(store->row);
    free(store->path);
    free(store);
}

// Runs a statement that returns no rows, then resets it, as StateStore's Database.run does.
static int run(sqlite3_stmt *statement) {
    int code;
    while ((code = sqlite3_step(statement)) == SQLITE_ROW) {}
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    return code == SQLITE_DONE ? SQLITE_OK : code;
}

static int bind_text(sqlite3_stmt *statement, int index, raw_text text) {
    if (text.bytes == NULL) return sqlite3_bind_null(statement, index);
    return sqlite3_bind_text(statement, index, text.bytes, text.count, SQLITE_TRANSIENT);
}

static int bind_key(sqlite3_stmt *statement, const raw_columns *columns) {
    int code = bind_text(statement, 1, columns->session);
    return code == SQLITE_OK ? bind_text(statement, 2, columns->window) : code;
}

static int write_window(raw_store *store, const raw_columns *columns, int64_t revision, int64_t updated_at) {
    sqlite3_stmt *upsert = store->statements[UPSERT];
    int code = bind_key(upsert, columns);
    if (code == SQLITE_OK) code = bind_text(upsert, 3, columns->size_class);
    if (code == SQLITE_OK) code = bind_text(upsert, 4, columns->path);
    if (code == SQLITE_OK) code = bind_text(upsert, 5, columns->item);
    if (code == SQLITE_OK) code = bind_text(upsert, 6, columns->item_path);
    if (code == SQLITE_OK) code = bind_text(upsert, 7, columns->policy);
    if (code == SQLITE_OK) code = sqlite3_bind_int64(upsert, 8, revision);
    if (code == SQLITE_OK) code = sqlite3_bind_int64(upsert, 9, updated_at);
    // What a split view and a tab view bind: the workload's windows have none of it, and StateStore
    // binds a new window's (the visibility from static storage, NULL for the others).
    if (code == SQLITE_OK) code = sqlite3_bind_text(upsert, 10, "automatic", 9, SQLITE_STATIC);
    if (code == SQLITE_OK) code = sqlite3_bind_null(upsert, 11);
    if (code == SQLITE_OK) code = sqlite3_bind_null(upsert, 12);
    code = code == SQLITE_OK ? run(upsert) : (sqlite3_clear_bindings(upsert), code);
    if (code != SQLITE_OK) return code;
    sqlite3_stmt *keep = store->statements[KEEP];
    code = bind_key(keep, columns);
    return code == SQLITE_OK ? run(keep) : (sqlite3_clear_bindings(keep), code);
}

int raw_insert(raw_store *store, const raw_columns *columns, int64_t revision, int64_t updated_at) {
    return write_window(store, columns, revision, updated_at);
}

static int save_in_transaction(raw_store *store, const raw_columns *columns, int64_t limit, int64_t *revision) {
    // The change log is trimmed at the start of each write, before it writes.
    int code = run(store->statements[TRIM]);
    if (code != SQLITE_OK) return code;
    sqlite3_stmt *select = store->statements[REVISION];
    code = bind_key(select, columns);
    int64_t current = 0;
    if (code == SQLITE_OK) {
        code = sqlite3_step(select);
        if (code == SQLITE_ROW) {
            current = sqlite3_column_int64(select, 0);
            code = SQLITE_OK;
        } else if (code == SQLITE_DONE) {
            code = SQLITE_OK;
        }
    }
    sqlite3_reset(select);
    sqlite3_clear_bindings(select);
    if (code != SQLITE_OK) return code;

    if (current == 0) {  // a new window: history left by a row deleted by hand goes first
        sqlite3_stmt *clear = store->statements[CLEAR];
        code = bind_key(clear, columns);
        code = code == SQLITE_OK ? run(clear) : (sqlite3_clear_bindings(clear), code);
        if (code != SQLITE_OK) return code;
    }
    *revision = current + 1;
    code = write_window(store, columns, *revision, now_milliseconds());
    if (code != SQLITE_OK || *revision <= limit) return code;
    sqlite3_stmt *drop = store->statements[DROP];
    code = bind_key(drop, columns);
    if (code == SQLITE_OK) code = sqlite3_bind_int64(drop, 3, *revision - limit);
    return code == SQLITE_OK ? run(drop) : (sqlite3_clear_bindings(drop), code);
}

static int save(raw_store *store, const raw_columns *columns, int64_t history_limit, int64_t *revision, int check) {
    int code = run(store->statements[BEGIN]);
    if (code != SQLITE_OK) return code;
    if (check) {
        int moved = 0;
        code = sqlite3_file_control(store->db, "main", SQLITE_FCNTL_HAS_MOVED, &moved);
        struct stat info;
        if (code == SQLITE_OK && !moved && stat(store->path, &info) == 0)
            moved = info.st_dev != store->device || info.st_ino != store->inode;
        if (code == SQLITE_OK && moved) code = SQLITE_READONLY_DBMOVED;
    }
    if (code == SQLITE_OK) code = save_in_transaction(store, columns, history_limit, revision);
    if (code == SQLITE_OK) code = run(store->statements[COMMIT]);
    if (code != SQLITE_OK && !sqlite3_get_autocommit(store->db)) run(store->statements[ROLLBACK]);
    return code;
}

int raw_save(raw_store *store, const raw_columns *columns, int64_t history_limit, int64_t *revision) {
    return save(store, columns, history_limit, revision, 0);
}

int raw_save_checking_path(raw_store *store, const raw_columns *columns, int64_t history_limit, int64_t *revision) {
    return save(store, columns, history_limit, revision, 1);
}

// MARK: Restore

static int is_regular(raw_text size_class) {
    return size_class.count == 7 && memcmp(size_class.bytes, "regular", 7) == 0;
}

// Appends `text` at `*end` and returns where it went.
static raw_text append(char *buffer, int64_t *end, const char *bytes, int32_t count) {
    raw_text placed = {buffer + *end, count};
    if (count > 0) memcpy(buffer + *end, bytes, (size_t)count);
    *end += count;
    return placed;
}

// Appends the elements of a JSON array text ("[a,b]" gives "a,b"), after a comma when `*first`
// is 0; sets `*first` to 0 when something was appended.
static void append_elements(char *buffer, int64_t *end, raw_text array, int *first) {
    if (array.count <= 2) return;
    if (!*first) buffer[(*end)++] = ',';
    append(buffer, end, array.bytes + 1, array.count - 2);
    *first = 0;
}

static raw_text column_text(sqlite3_stmt *statement, int column) {
    const char *bytes = (const char *)sqlite3_column_text(statement, column);
    return (raw_text){bytes, bytes == NULL ? 0 : sqlite3_column_bytes(statement, column)};
}

static int resolve(sqlite3_stmt *row, raw_text size_class, raw_restoration *out) {
    raw_text saved[7];
    for (int column = 0; column < 7; column++) saved[column] = column_text(row, column);
    raw_text path = saved[3], item = saved[4], item_path = saved[5], policy = saved[6];
    if (size_class.bytes == NULL) size_class = saved[2];

    // Under `dismiss`, a change of presentation mode clears the item.
    int dismissed = item.bytes != NULL && policy.count == 7 && memcmp(policy.bytes, "dismiss", 7) == 0 &&
                    is_regular(size_class) != is_regular(saved[2]);

    int64_t needed = size_class.count + 2 * (int64_t)(path.count + item.count + item_path.count) + 8;
    for (int column = 0; column < 7; column++) needed += saved[column].count;
    if (needed > out->capacity) {
        char *grown = realloc(out->buffer, (size_t)needed);
        if (grown == NULL) return SQLITE_NOMEM;
        out->buffer = grown;
        out->capacity = needed;
    }
    char *buffer = out->buffer;
    int64_t end = 0;
    out->session = append(buffer, &end, saved[0].bytes, saved[0].count);
    out->window = append(buffer, &end, saved[1].bytes, saved[1].count);
    out->saved_size_class = append(buffer, &end, saved[2].bytes, saved[2].count);
    out->size_class = append(buffer, &end, size_class.bytes, size_class.count);
    out->policy = append(buffer, &end, policy.bytes, policy.count);
    out->path = append(buffer, &end, path.bytes, path.count);
    out->item = item.bytes == NULL ? (raw_text){NULL, 0} : append(buffer, &end, item.bytes, item.count);
    out->item_path = append(buffer, &end, item_path.bytes, item_path.count);
    out->revision = sqlite3_column_int64(row, 7);
    out->updated_at = sqlite3_column_int64(row, 8);
    // What a split view and a tab view bind, read as StateStore reads it (the visibility's text,
    // whether the other two are NULL): the workload's windows have none to copy, and the rule
    // derives nothing from them.
    (void)column_text(row, 9);
    (void)sqlite3_column_type(row, 10);
    (void)sqlite3_column_type(row, 11);
    if (dismissed) {
        out->item = (raw_text){NULL, 0};
        out->item_path = (raw_text){"[]", 2};
    }

    if (out->item.bytes == NULL) {
        out->presentation = RAW_NONE;
        out->stack = out->path;
        out->sheet = (raw_text){NULL, 0};
    } else if (is_regular(size_class)) {
        // stack = path + [item] + itemPath
        out->presentation = RAW_PUSH;
        int64_t start = end;
        int first = 1;
        buffer[end++] = '[';
        append_elements(buffer, &end, out->path, &first);
        if (!first) buffer[end++] = ',';
        append(buffer, &end, out->item.bytes, out->item.count);
        first = 0;
        append_elements(buffer, &end, out->item_path, &first);
        buffer[end++] = ']';
        out->stack = (raw_text){buffer + start, (int32_t)(end - start)};
        out->sheet = (raw_text){NULL, 0};
    } else {
        // stack = path; sheet = [item] + itemPath
        out->presentation = RAW_SHEET;
        out->stack = out->path;
        int64_t start = end;
        int first = 0;
        buffer[end++] = '[';
        append(buffer, &end, out->item.bytes, out->item.count);
        append_elements(buffer, &end, out->item_path, &first);
        buffer[end++] = ']';
        out->sheet = (raw_text){buffer + start, (int32_t)(end - start)};
    }
    return SQLITE_OK;
}

int raw_restore(
    raw_store *store, raw_text session, raw_text window, raw_text size_class, raw_restoration *out, int *found) {
    sqlite3_stmt *select = store->statements[RESTORE];
    *found = 0;
    int code = bind_text(select, 1, session);
    if (code == SQLITE_OK) code = bind_text(select, 2, window);
    while (code == SQLITE_OK && (code = sqlite3_step(select)) == SQLITE_ROW) {
        code = resolve(select, size_class, out);
        *found = 1;
    }
    if (code == SQLITE_DONE) code = SQLITE_OK;
    sqlite3_reset(select);
    sqlite3_clear_bindings(select);
    return code;
}

void raw_restoration_free(raw_restoration *restoration) {
    free(restoration->buffer);
    restoration->buffer = NULL;
    restoration->capacity = 0;
}

// MARK: Launch

static int first_integer(sqlite3 *db, const char *sql, int64_t *value) {
    sqlite3_stmt *statement;
    int code = sqlite3_prepare_v2(db, sql, -1, &statement, NULL);
    if (code != SQLITE_OK) return code;
    code = sqlite3_step(statement);
    if (code == SQLITE_ROW) {
        *value = sqlite3_column_int64(statement, 0);
        code = SQLITE_OK;
    } else if (code == SQLITE_DONE) {
        code = SQLITE_OK;
    }
    sqlite3_finalize(statement);
    return code;
}

int raw_launch(
    const char *path, int busy_timeout_ms, raw_text session, raw_text size_class, raw_restoration *out,
    int64_t *windows, int64_t *revisions) {
    sqlite3 *db = NULL;
    *windows = 0;
    *revisions = 0;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
    int code = sqlite3_open_v2(path, &db, flags, NULL);
    if (code == SQLITE_OK) code = sqlite3_busy_timeout(db, busy_timeout_ms);
    // StateStore decides a file is its own inside one read transaction before it writes anything.
    int64_t application_id = 0, user_version = 0, objects = 0;
    if (code == SQLITE_OK) code = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
    if (code == SQLITE_OK) code = first_integer(db, "PRAGMA application_id", &application_id);
    if (code == SQLITE_OK) code = first_integer(db, "PRAGMA user_version", &user_version);
    if (code == SQLITE_OK) code = first_integer(db, "SELECT count(*) FROM sqlite_schema", &objects);
    if (code == SQLITE_OK) code = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (code == SQLITE_OK && (application_id == 0 || user_version == 0 || objects == 0)) code = SQLITE_NOTADB;
    if (code == SQLITE_OK) code = sqlite3_exec(db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
    if (code == SQLITE_OK) code = sqlite3_exec(db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
    sqlite3_stmt *select = NULL;
    if (code == SQLITE_OK) {
        code = sqlite3_prepare_v2(
            db, "SELECT " COLUMNS " FROM windows WHERE session = ? ORDER BY window", -1, &select, NULL);
    }
    if (code == SQLITE_OK) code = bind_text(select, 1, session);
    while (code == SQLITE_OK && (code = sqlite3_step(select)) == SQLITE_ROW) {
        code = resolve(select, size_class, out);
        *windows += 1;
        *revisions += out->revision;
    }
    if (code == SQLITE_DONE) code = SQLITE_OK;
    sqlite3_finalize(select);
    sqlite3_close_v2(db);
    return code;
}

// MARK: List

int raw_list(raw_store *store, raw_list_totals *totals) {
    sqlite3_stmt *select = store->statements[LIST];
    memset(totals, 0, sizeof *totals);
    int code;
    while ((code = sqlite3_step(select)) == SQLITE_ROW) {
        raw_text texts[4] = {column_text(select, 0), column_text(select, 1), column_text(select, 2),
                             column_text(select, 4)};
        size_t needed = 0;
        for (int index = 0; index < 4; index++) needed += (size_t)texts[index].count;
        if (needed > store->row_capacity) {
            char *grown = realloc(store->row, needed);
            if (grown == NULL) {
                code = SQLITE_NOMEM;
                break;
            }
            store->row = grown;
            store->row_capacity = needed;
        }
        int64_t end = 0;
        for (int index = 0; index < 4; index++) append(store->row, &end, texts[index].bytes, texts[index].count);
        totals->rows += 1;
        totals->depth += sqlite3_column_int64(select, 3);
        totals->revisions += sqlite3_column_int64(select, 5);
        totals->items += texts[3].bytes != NULL;
        totals->id_bytes += texts[0].count + texts[1].count;
        (void)sqlite3_column_int64(select, 6);
    }
    sqlite3_reset(select);
    return code == SQLITE_DONE ? SQLITE_OK : code;
}
