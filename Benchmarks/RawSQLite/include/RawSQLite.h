#ifndef RAW_SQLITE_H
#define RAW_SQLITE_H

// The "raw" baseline of statebench: the statements StateStore runs for save, restore and list,
// written directly against the SQLite C API, with the same pragmas and durability. Column texts
// come in already serialized and go out as copied bytes: no validation, no parsing, no Swift.
// Every function returns a SQLite result code (SQLITE_OK, or the failing call's code), but
// raw_wake_floor, the floor of a verb that wakes a thread, which has no SQLite in it.

#include <stdint.h>

typedef struct raw_store raw_store;

/// A run of UTF-8 bytes; `bytes` NULL means SQL NULL.
typedef struct raw_text {
    const char *bytes;
    int32_t count;
} raw_text;

/// One row of `windows` as StateStore binds it, the routes as minified JSON.
typedef struct raw_columns {
    raw_text session, window, size_class, path, item, item_path, policy;
} raw_columns;

typedef enum raw_presentation { RAW_NONE = 0, RAW_PUSH = 1, RAW_SHEET = 2 } raw_presentation;

/// What a restore read and derived. The texts point into `buffer`, owned by the restoration and
/// reused from one restore to the next; `raw_restoration_free` releases it.
typedef struct raw_restoration {
    raw_text session, window, saved_size_class, size_class, policy, path, item, item_path;
    /// The window's NavigationStack and the sheet's (bytes NULL when there is no sheet), as
    /// JSON arrays of routes.
    raw_text stack, sheet;
    raw_presentation presentation;
    int64_t revision, updated_at;
    char *buffer;
    int64_t capacity;
} raw_restoration;

/// What a listing saw: totals over the rows, so that every implementation's work can be
/// checked against the others'.
typedef struct raw_list_totals {
    int64_t rows, depth, revisions, items, id_bytes;
} raw_list_totals;

/// Opens `path` read-write (creating it) with StateStore's settings: busy timeout, WAL,
/// synchronous NORMAL (FULL with `full_durability`). The schema must already be there.
int raw_open(const char *path, int full_durability, int busy_timeout_ms, raw_store **out);
void raw_close(raw_store *store);
const char *raw_errmsg(raw_store *store);
/// SQLite's version, e.g. "3.40.1".
const char *raw_sqlite_version(void);
int raw_exec(raw_store *store, const char *sql);

/// StateStore.save: in one BEGIN IMMEDIATE transaction, read the revision, upsert the window,
/// copy it into the history, drop revisions past `history_limit`. Sets `*revision`.
int raw_save(raw_store *store, const raw_columns *columns, int64_t history_limit, int64_t *revision);

/// `raw_save` that first, with the write lock held, asks whether the path still names the file
/// opened — SQLite (`SQLITE_FCNTL_HAS_MOVED`, a stat(2) of its resolved name) and a stat(2) of the
/// path as given against the device and inode opened — as StateStore does before each write, and
/// fails with `SQLITE_READONLY_DBMOVED`, writing nothing, when it does not.
int raw_save_checking_path(raw_store *store, const raw_columns *columns, int64_t history_limit, int64_t *revision);

/// Writes a window and its history row at `revision` without a transaction of its own: for
/// building fixtures inside the caller's BEGIN/COMMIT.
int raw_insert(raw_store *store, const raw_columns *columns, int64_t revision, int64_t updated_at);

/// StateStore.restore: reads one window by its key and resolves it for `size_class` (bytes
/// NULL: the saved one). `*found` is 0 when there is no such window.
int raw_restore(
    raw_store *store, raw_text session, raw_text window, raw_text size_class, raw_restoration *out, int *found);
void raw_restoration_free(raw_restoration *restoration);

/// StateStore.forEachWindow: streams every window's summary in (session, window) order, copying
/// each row's texts as a caller would keep them.
int raw_list(raw_store *store, raw_list_totals *totals);

/// What a host does when it starts (statebench's launch figure): opens `path` as StateStore opens
/// a store (busy timeout; application_id, user_version and the schema's size read in one read
/// transaction; synchronous; WAL), reads every window of `session` in window order, resolves each
/// for `size_class` into `out` (one restoration reused), and closes. Sets `*windows` to their count
/// and `*revisions` to the sum of their revisions.
int raw_launch(
    const char *path, int busy_timeout_ms, raw_text session, raw_text size_class, raw_restoration *out,
    int64_t *windows, int64_t *revisions);

/// The floor of a verb that hands its write to another thread (Wake.c): a thread on core 0 idles
/// `idle_us`, then wakes a thread sleeping on a futex, on core 1 with `other_core` (else on core
/// 0), which spends `work_us` on the job; `rounds` times, each wake's own time in `times_us`
/// (microseconds). Returns 0, or -1 where threads cannot be placed on cores (not Linux, one core).
int raw_wake_floor(int other_core, int rounds, int idle_us, int work_us, double *times_us);

#endif
